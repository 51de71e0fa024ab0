#include "io/hf_config.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/estimate.hpp"
#include "core/text.hpp"
#include "io/limits.hpp"

namespace tc::io {

namespace {

using namespace limits;

enum class Family { llama, mixtral, qwen_moe, deepseek, gpt_oss, gpt2, gpt_neox, vit };

struct FamilyName {
  std::string_view model_type;
  std::vector<std::string_view> architectures;
  Family family;
};

// transformers' model_type of each configuration class and the architectures saved with it.
const std::vector<FamilyName>& families() {
  static const std::vector<FamilyName> table = {
      {"llama", {"LlamaForCausalLM"}, Family::llama},
      {"mistral", {"MistralForCausalLM"}, Family::llama},
      {"qwen2", {"Qwen2ForCausalLM"}, Family::llama},
      {"qwen3", {"Qwen3ForCausalLM"}, Family::llama},
      {"mixtral", {"MixtralForCausalLM"}, Family::mixtral},
      {"qwen2_moe", {"Qwen2MoeForCausalLM"}, Family::qwen_moe},
      {"qwen3_moe", {"Qwen3MoeForCausalLM"}, Family::qwen_moe},
      {"deepseek_v2", {"DeepseekV2ForCausalLM"}, Family::deepseek},
      {"deepseek_v3", {"DeepseekV3ForCausalLM"}, Family::deepseek},
      {"gpt_oss", {"GptOssForCausalLM"}, Family::gpt_oss},
      {"gpt2", {"GPT2LMHeadModel", "GPT2Model"}, Family::gpt2},
      {"gpt_neox", {"GPTNeoXForCausalLM", "GPTNeoXModel"}, Family::gpt_neox},
      {"vit", {"ViTForImageClassification", "ViTModel"}, Family::vit},
  };
  return table;
}

// Reads a config's keys and remembers which it read: the others are reported as not used.
// A JSON null (transformers writes "sliding_window": null, "q_lora_rank": null) reads as absent.
class Config {
 public:
  Config(const Json& j, const std::string& path) : j_(j), path_(path) {}
  bool has(std::string_view k) {
    used_.insert(std::string(k));
    return has_key(j_, k) && !j_.at(std::string(k)).is_null();
  }
  int integer(std::string_view k, int min, int max) {
    used_.insert(std::string(k));
    return get_int(j_, k, path_, min, max);
  }
  int integer_or(std::string_view k, int min, int max, int fallback) {
    return has(k) ? get_int(j_, k, path_, min, max) : fallback;
  }
  double number_or(std::string_view k, double min, double max, double fallback) {
    return has(k) ? get_number(j_, k, path_, min, max) : fallback;
  }
  bool flag_or(std::string_view k, bool fallback) { return has(k) ? get_bool(j_, k, path_) : fallback; }
  std::string text_or(std::string_view k, const std::string& fallback) {
    return has(k) ? get_string(j_, k, path_) : fallback;
  }
  const Json& at(std::string_view k) {
    used_.insert(std::string(k));
    return require_key(j_, k, path_);
  }
  std::string field(std::string_view k) const { return path_key(path_, k); }
  std::vector<std::string> unused() const {
    std::vector<std::string> out;
    for (const auto& [k, v] : j_.items())
      if (used_.count(k) == 0) out.push_back(shown_key(k));
    return out;
  }

 private:
  const Json& j_;
  const std::string& path_;
  std::set<std::string> used_;
};

std::string num(long long v) { return std::to_string(v); }

Family identify(Config& c, std::string& type) {
  const std::string model_type = c.text_or("model_type", "");
  std::string arch;
  if (c.has("architectures")) {
    const Json& a = c.at("architectures");
    if (!a.is_array() || a.empty()) throw InputError(c.field("architectures"), "must be a list of names");
    arch = to_string_value(a[0], path_index(c.field("architectures"), 0));
  }
  // model_type names the configuration class; architectures only the head put on it.
  for (const auto& f : families()) {
    if (f.model_type == model_type) {
      type = model_type;
      return f.family;
    }
  }
  for (const auto& f : families()) {
    if (std::find(f.architectures.begin(), f.architectures.end(), arch) != f.architectures.end()) {
      type = f.model_type;
      return f.family;
    }
  }
  std::string known;
  for (const auto& t : hf_model_types()) append_item(known, std::string(t));
  if (model_type.empty() && arch.empty())
    throw InputError(c.field("model_type"), "missing (required): give model_type or architectures");
  const bool by_type = !model_type.empty();
  throw InputError(c.field(by_type ? "model_type" : "architectures"),
                   "unknown architecture '" + (by_type ? model_type : arch) + "'; supported model_type: " + known);
}

// Layers, widths, heads and vocabulary under their usual names (LlamaConfig and its kin).
void read_shape(Config& c, ModelShape& m, HfModel& out, bool tied_default) {
  m.layers = c.integer("num_hidden_layers", 1, kMaxLayers);
  m.hidden = c.integer("hidden_size", 1, kMaxHidden);
  m.heads = c.integer("num_attention_heads", 1, kMaxHeads);
  m.kv_heads = c.integer_or("num_key_value_heads", 1, kMaxHeads, m.heads);
  m.head_dim = c.integer_or("head_dim", 1, kMaxHeadDim, 0);
  m.vocab = c.integer("vocab_size", 1, kMaxVocab);
  m.tied_embeddings = c.flag_or("tie_word_embeddings", tied_default);
  out.max_positions = c.integer_or("max_position_embeddings", 1, kMaxSeqLen, 0);
  c.text_or("hidden_act", "");
}

void check_heads(Config& c, const ModelShape& m, const char* heads_key, const char* hidden_key) {
  if (m.head_dim == 0 && m.hidden % m.heads != 0)
    throw InputError(c.field(heads_key), "must divide " + std::string(hidden_key) + " (" + num(m.hidden) +
                                             ") unless head_dim is given (got " + num(m.heads) + ")");
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    throw InputError(c.field("num_key_value_heads"),
                     "must divide num_attention_heads (" + num(m.heads) + ") (got " + num(m.kv_heads) + ")");
}

// Linear biases the shape does not hold (it has biases with LayerNorm only): a few parameters
// per layer, far below the tolerance of any published total.
void note_biases(Config& c, HfModel& out, bool always, const char* what) {
  if (always || c.flag_or("attention_bias", false) || c.flag_or("mlp_bias", false))
    out.notes.push_back(std::string(what) + " biases are not counted (under 0.1% of the parameters)");
}

// A sliding window on `windowed` of the layers: FLOPs and time of their attention are taken over
// the whole sequence, an upper bound once seq_len exceeds the window.
void note_window(HfModel& out, int window, int windowed, int seq_len) {
  if (window <= 0 || windowed <= 0 || seq_len <= window) return;
  out.notes.push_back("sliding_window (" + num(window) + " tokens on " + num(windowed) + " of " +
                      num(out.model.layers) + " layers) is not modelled: their attention is computed over all " +
                      num(seq_len) + " tokens, an upper bound");
}

void read_llama(Config& c, const std::string& type, HfModel& out) {
  ModelShape& m = out.model;
  read_shape(c, m, out, false);
  m.ffn_hidden = c.integer("intermediate_size", 1, kMaxFfnHidden);
  m.dropout = c.number_or("attention_dropout", 0, 1, 0) > 0;
  const bool qwen2 = type.rfind("qwen2", 0) == 0;  // Qwen2Attention: q, k, v projections with bias
  note_biases(c, out, qwen2, qwen2 ? "Q, K and V" : "Attention and FFN");
}

// Whether the config turns its sliding window on; `layers` receives how many layers use it.
int sliding_window(Config& c, const std::string& type, int layers, int& windowed) {
  windowed = 0;
  const bool qwen = type.rfind("qwen", 0) == 0;
  if (qwen && !c.flag_or("use_sliding_window", false)) return 0;
  const int window = c.integer_or("sliding_window", 1, kMaxSeqLen, 0);
  // Qwen: layers from max_window_layers on use the window (Qwen2Attention).
  windowed = qwen ? layers - std::min(layers, c.integer_or("max_window_layers", 0, kMaxLayers, layers)) : layers;
  return window;
}

void read_experts(Config& c, ModelShape& m, const char* experts_key, const char* top_k_key) {
  m.moe_experts = c.integer(experts_key, 1, kMaxExperts);
  m.moe_top_k = c.integer(top_k_key, 1, m.moe_experts);
}

void read_mixtral(Config& c, HfModel& out) {
  read_llama(c, "mixtral", out);
  read_experts(c, out.model, "num_local_experts", "num_experts_per_tok");
}

// Which layers have a dense FFN instead of experts: how many, and whether they are the first ones
// (the pipeline's first ranks then hold them) or spread among the expert layers.
void count_dense_layers(const std::vector<bool>& dense, ModelShape& m) {
  m.dense_layers = static_cast<int>(std::count(dense.begin(), dense.end(), true));
  m.dense_layers_first = std::all_of(dense.begin(), dense.begin() + m.dense_layers, [](bool d) { return d; });
}

// Qwen2-MoE / Qwen3-MoE (Qwen2MoeSparseMoeBlock): layer i is sparse unless listed in
// mlp_only_layers or (i + 1) is not a multiple of decoder_sparse_step; dense layers keep
// intermediate_size. Qwen2-MoE adds one gated shared expert of shared_expert_intermediate_size.
void read_qwen_moe(Config& c, const std::string& type, HfModel& out) {
  ModelShape& m = out.model;
  read_llama(c, type, out);
  const int dense_width = m.ffn_hidden;
  read_experts(c, m, "num_experts", "num_experts_per_tok");
  m.ffn_hidden = c.integer("moe_intermediate_size", 1, kMaxFfnHidden);
  const int step = c.integer_or("decoder_sparse_step", 1, kMaxLayers, 1);
  std::set<long long> mlp_only;
  if (c.has("mlp_only_layers")) {
    const Json& a = c.at("mlp_only_layers");
    if (!a.is_array()) throw InputError(c.field("mlp_only_layers"), "must be a list of layer indices");
    for (std::size_t i = 0; i < a.size(); ++i)
      mlp_only.insert(to_int64(a[i], path_index(c.field("mlp_only_layers"), i), 0, m.layers - 1));
  }
  std::vector<bool> dense(static_cast<std::size_t>(m.layers));
  for (int i = 0; i < m.layers; ++i) dense[i] = mlp_only.count(i) > 0 || (i + 1) % step != 0;
  count_dense_layers(dense, m);
  m.dense_ffn_hidden = dense_width;
  if (const int shared = c.integer_or("shared_expert_intermediate_size", 0, kMaxFfnHidden, 0); shared > 0) {
    // As shared experts of the routed width: exact when the width is a multiple (5632 = 4 x 1408).
    m.moe_shared_experts = std::max(1, static_cast<int>(std::lround(1.0 * shared / m.ffn_hidden)));
    std::string how = m.moe_shared_experts * m.ffn_hidden == shared ? "" : " (rounded; the parameters differ by the remainder)";
    out.notes.push_back("shared expert of width " + num(shared) + " counted as " + num(m.moe_shared_experts) +
                        " shared experts of width " + num(m.ffn_hidden) + how + "; its gate is not counted");
  }
  if (m.dense_layers == m.layers) {  // no sparse layer at all: a dense model
    m.moe_experts = m.moe_top_k = m.moe_shared_experts = m.dense_layers = m.dense_ffn_hidden = 0;
    m.ffn_hidden = dense_width;
  }
}

// DeepSeek-V2/V3 (arXiv 2405.04434, 2412.19437): multi-head latent attention; layer i has experts
// when i >= first_k_dense_replace and i is a multiple of moe_layer_freq; n_shared_experts of
// moe_intermediate_size each.
void read_deepseek(Config& c, HfModel& out) {
  ModelShape& m = out.model;
  read_shape(c, m, out, false);
  m.dense_ffn_hidden = c.integer("intermediate_size", 1, kMaxFfnHidden);
  read_experts(c, m, "n_routed_experts", "num_experts_per_tok");
  m.ffn_hidden = c.integer("moe_intermediate_size", 1, kMaxFfnHidden);
  m.moe_shared_experts = c.integer_or("n_shared_experts", 0, kMaxExperts, 0);
  const int first_dense = c.integer_or("first_k_dense_replace", 0, m.layers, 0);
  const int freq = c.integer_or("moe_layer_freq", 1, kMaxLayers, 1);
  std::vector<bool> dense(static_cast<std::size_t>(m.layers));
  for (int i = 0; i < m.layers; ++i) dense[i] = i < first_dense || i % freq != 0;
  count_dense_layers(dense, m);
  if (m.dense_layers == m.layers)
    throw InputError(c.field("first_k_dense_replace"), "leaves no layer with experts");
  m.q_lora_rank = c.integer_or("q_lora_rank", 1, kMaxHidden, 0);
  m.kv_lora_rank = c.integer("kv_lora_rank", 1, kMaxHidden);
  m.qk_rope_head_dim = c.integer("qk_rope_head_dim", 1, kMaxHeadDim);
  m.head_dim = c.integer("qk_nope_head_dim", 1, kMaxHeadDim) + m.qk_rope_head_dim;
  m.v_head_dim = c.integer("v_head_dim", 1, kMaxHeadDim);
  m.kv_heads = m.heads;  // latent attention up-projects keys and values for every head
  note_biases(c, out, false, "Attention");
  out.notes.push_back("latent attention: activation memory taken as for full keys and values per head "
                      "(an upper bound); the down-projections are replicated over tensor-parallel ranks");
  if (const int mtp = c.integer_or("num_nextn_predict_layers", 0, kMaxLayers, 0); mtp > 0)
    out.notes.push_back("the multi-token prediction modules (num_nextn_predict_layers " + num(mtp) +
                        ") are not trained unless the scenario's model sets mtp_layers (docs/model.md); "
                        "DeepSeek-V3's 671B total leaves them out");
}

// GPT-OSS (OpenAI gpt-oss model card, 2025): MoE in every layer, attention alternating between a
// sliding window and the full context (layer_types).
void read_gpt_oss(Config& c, HfModel& out, int& windowed) {
  ModelShape& m = out.model;
  read_shape(c, m, out, false);
  m.ffn_hidden = c.integer("intermediate_size", 1, kMaxFfnHidden);
  m.moe_experts = c.integer("num_local_experts", 1, kMaxExperts);
  const char* top_k = c.has("num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token";
  m.moe_top_k = c.integer(top_k, 1, m.moe_experts);
  c.has("experts_per_token");  // the older name of the same count: read, not unused
  // transformers' GptOssConfig defaults it to 7.0, the released models' value.
  m.swiglu_limit = c.number_or("swiglu_limit", 0, kMaxSwigluLimit, 7.0);
  windowed = m.layers;
  if (c.has("layer_types")) {
    const Json& a = c.at("layer_types");
    if (!a.is_array() || a.size() != static_cast<std::size_t>(m.layers))
      throw InputError(c.field("layer_types"), "must list one type per layer (" + num(m.layers) + ")");
    windowed = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (to_string_value(a[i], path_index(c.field("layer_types"), i)) == "sliding_attention") ++windowed;
  }
  c.flag_or("attention_bias", true);
  out.notes.push_back("attention sinks and the biases of attention, experts and router are not counted "
                      "(under 0.1% of the parameters)");
}

void read_gpt2(Config& c, HfModel& out) {
  ModelShape& m = out.model;
  m.layers = c.integer("n_layer", 1, kMaxLayers);
  m.hidden = c.integer("n_embd", 1, kMaxHidden);
  m.heads = m.kv_heads = c.integer("n_head", 1, kMaxHeads);
  m.ffn_hidden = c.integer_or("n_inner", 1, kMaxFfnHidden, 0);
  if (m.ffn_hidden == 0) m.ffn_hidden = 4 * m.hidden;  // GPT2MLP: n_inner or 4 x n_embd
  out.max_positions = c.integer("n_positions", 1, kMaxSeqLen);
  m.learned_positions = out.max_positions;
  m.vocab = c.integer("vocab_size", 1, kMaxVocab);
  m.tied_embeddings = c.flag_or("tie_word_embeddings", true);
  m.gated_ffn = false;
  m.biases = true;
  // GPT2Config's dropout probabilities default to 0.1.
  double dropout = 0;
  for (const char* k : {"resid_pdrop", "embd_pdrop", "attn_pdrop"}) dropout = std::max(dropout, c.number_or(k, 0, 1, 0.1));
  m.dropout = dropout > 0;
  c.text_or("activation_function", "");
}

void read_gpt_neox(Config& c, HfModel& out) {
  ModelShape& m = out.model;
  read_shape(c, m, out, false);
  m.ffn_hidden = c.integer("intermediate_size", 1, kMaxFfnHidden);
  m.gated_ffn = false;
  m.biases = true;
  m.dropout = std::max(c.number_or("hidden_dropout", 0, 1, 0), c.number_or("attention_dropout", 0, 1, 0)) > 0;
}

void read_vit(Config& c, HfModel& out) {
  ModelShape& m = out.model;
  m.kind = ModelKind::vit;
  m.layers = c.integer("num_hidden_layers", 1, kMaxLayers);
  m.hidden = c.integer("hidden_size", 1, kMaxHidden);
  m.heads = m.kv_heads = c.integer("num_attention_heads", 1, kMaxHeads);
  m.ffn_hidden = c.integer("intermediate_size", 1, kMaxFfnHidden);
  m.image_size = c.integer("image_size", 1, kMaxImageSize);
  m.patch_size = c.integer("patch_size", 1, m.image_size);
  if (m.image_size % m.patch_size != 0)
    throw InputError(c.field("patch_size"), "must divide image_size (" + num(m.image_size) + ") (got " +
                                                num(m.patch_size) + ")");
  m.channels = c.integer_or("num_channels", 1, 1000, 3);
  if (c.has("id2label")) {
    const Json& labels = c.at("id2label");
    if (!labels.is_object()) throw InputError(c.field("id2label"), "must be an object of class names");
    m.num_classes = static_cast<int>(std::min<std::size_t>(labels.size(), kMaxVocab));
  } else {
    m.num_classes = c.integer_or("num_labels", 0, kMaxVocab, 0);
  }
  c.has("label2id");  // the inverse of id2label: read, not unused
  m.gated_ffn = false;
  m.biases = c.flag_or("qkv_bias", true);
  m.dropout = std::max(c.number_or("hidden_dropout_prob", 0, 1, 0),
                       c.number_or("attention_probs_dropout_prob", 0, 1, 0)) > 0;
  const long long side = m.image_size / m.patch_size;
  if (side * side + 1 > kMaxSeqLen) throw InputError(c.field("patch_size"), "gives more than 10 million patches");
  m.seq_len = m.learned_positions = static_cast<int>(side * side + 1);
  if (m.biases == false) out.notes.push_back("qkv_bias false: the LayerNorm and FFN biases are not counted either");
}

// The sequence a decoder trains on: given, else the context it was pretrained at.
int choose_seq_len(Config& c, HfModel& out, int seq_len) {
  if (seq_len > 0) return seq_len;
  std::string why;
  if (c.has("rope_scaling")) {
    const Json& r = c.at("rope_scaling");
    if (r.is_object() && has_key(r, "original_max_position_embeddings")) {
      seq_len = get_int(r, "original_max_position_embeddings", c.field("rope_scaling"), 1, kMaxSeqLen);
      why = "rope_scaling.original_max_position_embeddings, the context it was pretrained at";
    }
  }
  if (seq_len == 0 && out.max_positions > 0) {
    seq_len = std::min(out.max_positions, 8192);
    why = seq_len < 8192 ? "max_position_embeddings" : "8192, below max_position_embeddings";
  }
  if (seq_len == 0) seq_len = 4096, why = "the config gives no context length";
  out.notes.push_back("model.seq_len not given: " + num(seq_len) + " (" + why + ")");
  return seq_len;
}

}  // namespace

const std::vector<std::string_view>& hf_model_types() {
  static const std::vector<std::string_view> types = [] {
    std::vector<std::string_view> t;
    for (const auto& f : families()) t.push_back(f.model_type);
    return t;
  }();
  return types;
}

HfModel parse_hf_config(const Json& config, const std::string& path, int seq_len) {
  require_object(config, path);
  Config c(config, path);
  HfModel out;
  std::string type;
  const Family family = identify(c, type);
  ModelShape& m = out.model;
  m.id = "custom";
  m.name = c.text_or("_name_or_path", type + " (config.json)");
  m.source = "Hugging Face config.json, model_type " + type;
  int windowed = 0, window = 0;
  switch (family) {
    case Family::llama: read_llama(c, type, out); break;
    case Family::mixtral: read_mixtral(c, out); break;
    case Family::qwen_moe: read_qwen_moe(c, type, out); break;
    case Family::deepseek: read_deepseek(c, out); break;
    case Family::gpt_oss: read_gpt_oss(c, out, windowed); break;
    case Family::gpt2: read_gpt2(c, out); break;
    case Family::gpt_neox: read_gpt_neox(c, out); break;
    case Family::vit: read_vit(c, out); break;
  }
  if (family == Family::gpt2) check_heads(c, m, "n_head", "n_embd");
  else check_heads(c, m, "num_attention_heads", "hidden_size");
  if (family == Family::vit) {
    if (seq_len > 0) throw InputError("model.seq_len", "a ViT's sequence follows from image_size and patch_size");
  } else {
    m.seq_len = choose_seq_len(c, out, seq_len);
    if (family == Family::gpt_oss) window = c.integer_or("sliding_window", 1, kMaxSeqLen, 0);
    else if (family != Family::gpt2 && family != Family::gpt_neox) window = sliding_window(c, type, m.layers, windowed);
    note_window(out, window, windowed, m.seq_len);
    if (out.max_positions > 0 && m.seq_len > out.max_positions)
      out.notes.push_back("model.seq_len (" + num(m.seq_len) + ") exceeds the config's max_position_embeddings (" +
                          num(out.max_positions) + "): the model was not built for sequences this long");
  }
  if (auto p = check_model(m)) throw InputError(path, "maps to an invalid model: " + p->field + " " + p->reason);
  const std::vector<std::string> unused = c.unused();
  if (!unused.empty()) {
    std::string list;
    for (const auto& k : unused) append_item(list, k);
    out.notes.push_back(path + ": not used by the estimate: " + list);
  }
  return out;
}

bool is_hf_model(const Json& model) { return model.is_object() && model.contains("hf_config"); }

bool is_hf_config_document(const Json& doc) {
  return doc.is_object() && !doc.contains("model") && (doc.contains("model_type") || doc.contains("architectures"));
}

HfModel parse_hf_model(const Json& model, const std::string& path) {
  check_keys(model, path, {"hf_config", "name", "seq_len"});
  const int seq_len = get_int_or(model, "seq_len", path, 1, kMaxSeqLen, 0);
  HfModel out = parse_hf_config(get_object(model, "hf_config", path), path_key(path, "hf_config"), seq_len);
  if (has_key(model, "name")) out.model.name = get_string(model, "name", path);
  return out;
}

}  // namespace tc::io
