// A model from its Hugging Face config.json (the file transformers' save_pretrained writes):
// Llama, Mistral, Qwen2/Qwen3 (dense and MoE), Mixtral, DeepSeek-V2/V3 (latent attention, shared
// experts, leading dense layers), GPT-OSS, GPT-2, GPT-NeoX and ViT configurations, read into the
// same ModelShape the presets give. What the shape cannot hold, and every key the mapping does not
// read, becomes a note the estimate carries. docs/hf-config.md lists the mapping field by field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "io/json_util.hpp"

namespace tc::io {

struct HfModel {
  ModelShape model;
  int max_positions = 0;            // max_position_embeddings (n_positions); 0: none given
  std::vector<std::string> notes;   // approximations, the sequence length chosen, unread keys
};

// The model_type values read, in the order docs/hf-config.md lists them.
const std::vector<std::string_view>& hf_model_types();

// `path` is the config's own path ("model.hf_config"): errors name the config's keys, e.g.
// "model.hf_config.num_attention_heads: missing (required)". seq_len 0: the config's pretraining
// context (rope_scaling.original_max_position_embeddings), else max_position_embeddings up to
// 8192. A seq_len past max_position_embeddings is allowed, with a note.
HfModel parse_hf_config(const Json& config, const std::string& path, int seq_len = 0);

// A scenario's model given as {"hf_config": {...}, "name": "...", "seq_len": 4096}; `path` is the
// model object's ("model").
bool is_hf_model(const Json& model);
// Whether a file's document is a config.json rather than a scenario (it names a model_type or
// architectures, and no scenario model): an import puts it into the scenario's model.
bool is_hf_config_document(const Json& doc);
HfModel parse_hf_model(const Json& model, const std::string& path);

}  // namespace tc::io
