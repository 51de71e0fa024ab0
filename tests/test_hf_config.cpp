// Models from Hugging Face config.json files (io/hf_config). The files in tests/data/hf_configs are
// written from the published configurations; the parameter counts asserted are the published
// totals (model cards, papers, checkpoint sizes), each with the tolerance its rounding allows.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/estimate.hpp"
#include "core/params.hpp"
#include "io/hf_config.hpp"
#include "io/job.hpp"

namespace {

using tc::io::HfModel;
using tc::io::Json;

std::string data_path(const std::string& name) {
  return std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/hf_configs/" + name;
}

Json config(const std::string& name) {
  std::ifstream f(data_path(name));
  std::stringstream s;
  s << f.rdbuf();
  return tc::io::parse_json(s.str(), name);
}

HfModel read(const std::string& name, int seq_len = 0) {
  return tc::io::parse_hf_config(config(name), "model.hf_config", seq_len);
}

bool has_note(const HfModel& m, const std::string& part) {
  for (const auto& n : m.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// |got / want - 1| <= tolerance.
void expect_rel(double got, double want, double tolerance, const char* what) {
  EXPECT_LE(std::abs(got / want - 1), tolerance) << what << ": " << got << " vs published " << want;
}

TEST(HfConfig, LlamaMatchesThePublishedCheckpoints) {
  // Parameter counts of the released safetensors: 8,030,261,248 and 70,553,706,496.
  const HfModel l8 = read("llama-3.1-8b.json");
  expect_rel(tc::count_params(l8.model).total, 8030261248.0, 1e-4, "Llama 3.1 8B");
  EXPECT_EQ(l8.model.kv_heads, 8);
  EXPECT_EQ(l8.model.ffn_hidden, 14336);
  EXPECT_FALSE(l8.model.tied_embeddings);
  EXPECT_EQ(l8.max_positions, 131072);
  EXPECT_EQ(l8.model.seq_len, 8192);  // rope_scaling.original_max_position_embeddings
  const HfModel l70 = read("llama-3.1-70b.json");
  expect_rel(tc::count_params(l70.model).total, 70553706496.0, 1e-4, "Llama 3.1 70B");
  EXPECT_EQ(l70.model.layers, 80);
  EXPECT_EQ(l70.model.heads, 64);
}

TEST(HfConfig, MistralQwenDenseModels) {
  // Mistral 7B v0.1: 7,241,732,096 (checkpoint); Qwen2-7B: 7,615,616,512 (checkpoint, its Q/K/V
  // biases included, 129,024 of them); Qwen3-8B: 8.2B total, 6.95B without embeddings (model card).
  const HfModel mistral = read("mistral-7b-v0.1.json");
  expect_rel(tc::count_params(mistral.model).total, 7241732096.0, 1e-4, "Mistral 7B");
  EXPECT_EQ(mistral.model.seq_len, 8192);
  EXPECT_TRUE(has_note(mistral, "sliding_window (4096 tokens on 32 of 32 layers)"));
  EXPECT_FALSE(has_note(read("mistral-7b-v0.1.json", 4096), "sliding_window"));  // the window covers it
  const HfModel qwen2 = read("qwen2-7b.json");
  expect_rel(tc::count_params(qwen2.model).total, 7615616512.0, 1e-4, "Qwen2-7B");
  EXPECT_TRUE(has_note(qwen2, "Q, K and V biases"));
  EXPECT_FALSE(has_note(qwen2, "sliding_window ("));  // use_sliding_window false
  const HfModel qwen3 = read("qwen3-8b.json");
  EXPECT_EQ(qwen3.model.head_dim, 128);
  const auto c = tc::count_params(qwen3.model);
  expect_rel(c.total, 8.2e9, 0.01, "Qwen3-8B");
  expect_rel(c.total - 2.0 * 151936 * 4096, 6.95e9, 0.005, "Qwen3-8B without embeddings");
}

TEST(HfConfig, MixtureOfExperts) {
  // Mixtral 8x7B: 46,702,792,704 (checkpoint), 12.9B active (Mistral AI, 2023-12-11).
  const auto mixtral = tc::count_params(read("mixtral-8x7b-v0.1.json").model);
  expect_rel(mixtral.total, 46702792704.0, 1e-4, "Mixtral total");
  expect_rel(mixtral.active, 12.9e9, 0.01, "Mixtral active");
  // Qwen3-30B-A3B: 30.5B total, 3.3B activated (model card).
  const HfModel q3 = read("qwen3-30b-a3b.json");
  EXPECT_EQ(q3.model.moe_experts, 128);
  EXPECT_EQ(q3.model.moe_top_k, 8);
  EXPECT_EQ(q3.model.ffn_hidden, 768);
  EXPECT_EQ(q3.model.dense_layers, 0);
  const auto q3c = tc::count_params(q3.model);
  expect_rel(q3c.total, 30.5e9, 0.005, "Qwen3-30B-A3B total");
  expect_rel(q3c.active, 3.3e9, 0.03, "Qwen3-30B-A3B active");
  // Qwen1.5-MoE-A2.7B: 14.3B total, 2.7B activated (model card); its 5632-wide shared expert is
  // four 1408-wide ones.
  const HfModel q15 = read("qwen1.5-moe-a2.7b.json");
  EXPECT_EQ(q15.model.moe_shared_experts, 4);
  const auto q15c = tc::count_params(q15.model);
  expect_rel(q15c.total, 14.3e9, 0.005, "Qwen1.5-MoE total");
  expect_rel(q15c.active, 2.7e9, 0.02, "Qwen1.5-MoE active");
}

TEST(HfConfig, QwenMoeDenseLayersFromSparseStepAndMlpOnlyLayers) {
  // decoder_sparse_step 2 leaves layers 0, 2, ..., 22 dense (12), mlp_only_layers [1] one more.
  Json c = config("qwen1.5-moe-a2.7b.json");
  const double all_sparse = tc::count_params(tc::io::parse_hf_config(c, "model.hf_config").model).total;
  c["decoder_sparse_step"] = 2;
  c["mlp_only_layers"] = {1};
  const HfModel m = tc::io::parse_hf_config(c, "model.hf_config");
  EXPECT_EQ(m.model.dense_layers, 13);
  EXPECT_FALSE(m.model.dense_layers_first);  // spread: every pipeline rank holds the mix
  EXPECT_EQ(m.model.dense_ffn_hidden, 5632);
  c["decoder_sparse_step"] = 1;
  c["mlp_only_layers"] = {0, 1};
  const HfModel first_two = tc::io::parse_hf_config(c, "model.hf_config");
  EXPECT_EQ(first_two.model.dense_layers, 2);
  EXPECT_TRUE(first_two.model.dense_layers_first);
  // A sparse layer holds 60 routed experts of 3 x 2048 x 1408 and a 2048 x 60 router beyond a
  // dense one (its 4 shared experts match the dense FFN, 3 x 2048 x 5632): 519,168,000 more.
  EXPECT_DOUBLE_EQ(tc::count_params(m.model).total, all_sparse - 13 * 519168000.0);
}

TEST(HfConfig, DeepSeekV3LatentAttentionSharedExpertsDenseLayers) {
  // DeepSeek-V3 technical report (arXiv 2412.19437), abstract: 671B total, 37B activated per token
  // (the multi-token prediction module excluded).
  const HfModel ds = read("deepseek-v3.json");
  const tc::ModelShape& m = ds.model;
  EXPECT_EQ(m.dense_layers, 3);
  EXPECT_TRUE(m.dense_layers_first);
  EXPECT_EQ(m.dense_ffn_hidden, 18432);
  EXPECT_EQ(m.moe_shared_experts, 1);
  EXPECT_EQ(m.kv_lora_rank, 512);
  EXPECT_EQ(m.q_lora_rank, 1536);
  EXPECT_EQ(m.head_dim, 192);
  EXPECT_EQ(m.v_head_dim, 128);
  EXPECT_EQ(m.seq_len, 4096);
  const auto c = tc::count_params(m);
  // Section 2.1.1 by hand: 7168 x 1536 + 1536 + 1536 x 128 x 192 + 7168 x 576 + 512
  // + 512 x 128 x 256 + 128 x 128 x 7168.
  EXPECT_DOUBLE_EQ(c.attention, 187107328.0);
  expect_rel(c.total, 671e9, 0.002, "DeepSeek-V3 total");
  expect_rel(c.active, 37e9, 0.02, "DeepSeek-V3 active");
  EXPECT_TRUE(has_note(ds, "multi-token prediction"));
  // Model FLOPs per token (PaLM convention, core/estimate.hpp): 6 x the active matmul parameters
  // (the output layer included, the embedding lookup not) plus the causal half of the scores
  // (query/key 128 x 192 wide) and context (values 128 x 128 wide) over 4096 tokens, 61 layers.
  tc::Scenario sc;
  sc.model = m;
  EXPECT_EQ(m.mtp_layers, 0);  // the config's module is not trained unless asked (a note says so)
  const double matmul = c.layers_active + 129280.0 * 7168;
  const double attention = 6.0 * 61 * (128 * 192 + 128 * 128) * 4096 * 0.5;
  EXPECT_DOUBLE_EQ(tc::model_flops_per_token(sc), 6.0 * matmul + attention);
  // With its multi-token prediction module trained (num_nextn_predict_layers 1), outside the 671B:
  // an expert layer, its 2 x 7168 -> 7168 projection and three norms, and the output layer run
  // again. Megatron-Bridge counts its DeepSeek-V3 pretraining so (26.06 on GB300: Model
  // TFLOP/sec/GPU 1648 at 6338 Tokens/sec/GPU, tests/data/published_runs.csv): 260.0 GFLOP a
  // token, which the 61 layers alone fall 4% short of.
  sc.model.mtp_layers = 1;
  const auto with = tc::count_params(sc.model);
  EXPECT_DOUBLE_EQ(with.mtp, c.per_layer_total + 2.0 * 7168 * 7168 + 3 * 7168);
  EXPECT_DOUBLE_EQ(with.total, c.total);
  const double module_attention = 6.0 * (128 * 192 + 128 * 128) * 4096 * 0.5;
  EXPECT_DOUBLE_EQ(tc::model_flops_per_token(sc),
                   6.0 * (matmul + with.mtp_active + 129280.0 * 7168) + attention + module_attention);
  expect_rel(tc::model_flops_per_token(sc), 1648e12 / 6338, 0.005, "DeepSeek-V3 FLOPs a token");
  EXPECT_TRUE(has_note(ds, "not used by the estimate: "));
}

TEST(HfConfig, GptOssGpt2NeoxVit) {
  // gpt-oss-20b model card (OpenAI, 2025-08-05), Table 1: 20.91B total, 3.61B active per token
  // (counting the unembedding, not the embedding table).
  const HfModel oss = read("gpt-oss-20b.json");
  const auto oc = tc::count_params(oss.model);
  expect_rel(oc.total, 20.91e9, 0.005, "gpt-oss-20b total");
  expect_rel(oc.active - 201088.0 * 2880, 3.61e9, 0.01, "gpt-oss-20b active");
  EXPECT_TRUE(has_note(oss, "sliding_window (128 tokens on 12 of 24 layers)"));
  EXPECT_DOUBLE_EQ(oss.model.swiglu_limit, 7.0);
  // The clamp is read, and without it transformers' default (7.0) holds.
  Json other = config("gpt-oss-20b.json");
  other["swiglu_limit"] = 10.0;
  EXPECT_DOUBLE_EQ(tc::io::parse_hf_config(other, "model.hf_config", 0).model.swiglu_limit, 10.0);
  other.erase("swiglu_limit");
  EXPECT_DOUBLE_EQ(tc::io::parse_hf_config(other, "model.hf_config", 0).model.swiglu_limit, 7.0);
  // GPT-2 small: 124,439,808 with tied embeddings and 1024 learned positions.
  const HfModel gpt2 = read("gpt2.json");
  EXPECT_DOUBLE_EQ(tc::count_params(gpt2.model).total, 124439808.0);
  EXPECT_TRUE(gpt2.model.tied_embeddings);
  EXPECT_EQ(gpt2.model.seq_len, 1024);
  EXPECT_TRUE(gpt2.model.dropout);
  // GPT-NeoX-20B (Black et al. 2022): 20,554,567,680.
  expect_rel(tc::count_params(read("gpt-neox-20b.json").model).total, 20554567680.0, 1e-3, "GPT-NeoX-20B");
  // ViT-L/16 with the ImageNet-1k head: 304M (Dosovitskiy et al. 2021 round it to 307M).
  const HfModel vit = read("vit-large-patch16-224.json");
  EXPECT_EQ(vit.model.kind, tc::ModelKind::vit);
  EXPECT_EQ(vit.model.seq_len, 197);
  EXPECT_EQ(vit.model.num_classes, 1000);
  expect_rel(tc::count_params(vit.model).total, 304.3e6, 0.005, "ViT-L/16");
}

tc::io::Result run(const Json& model, const std::string& instance, int nodes) {
  static const auto lib = tc::io::load_builtin_presets();
  const Json doc = {{"model", model}, {"instance", instance}, {"nodes", nodes}, {"training", {{"tokens", 1e11}}}};
  return tc::io::evaluate(tc::io::parse_job(doc, lib, "test"), lib);
}

TEST(HfConfig, ScenarioMatchesThePresetAndCarriesTheNotes) {
  // The preset llama3.1-8b and its config.json are the same model: the same estimate.
  const auto preset = run("llama3.1-8b", "p5.48xlarge", 2);
  const auto hf = run({{"hf_config", config("llama-3.1-8b.json")}, {"name", "mine"}}, "p5.48xlarge", 2);
  EXPECT_DOUBLE_EQ(hf.est.step_time_s, preset.est.step_time_s);
  EXPECT_DOUBLE_EQ(hf.est.params, preset.est.params);
  bool unused = false;
  for (const auto& w : hf.est.warnings) unused |= w.find("model.hf_config: not used by the estimate") == 0;
  EXPECT_TRUE(unused);
  // Every family estimates, with a finite step time.
  for (const auto& e : std::filesystem::directory_iterator(data_path(""))) {
    const auto r = run({{"hf_config", config(e.path().filename().string())}}, "p5.48xlarge", 8);
    EXPECT_TRUE(std::isfinite(r.est.step_time_s) && r.est.step_time_s > 0) << e.path();
  }
}

TEST(HfConfig, SeqLenBeyondTheContextIsANote) {
  const auto r = tc::io::parse_hf_config(config("gpt2.json"), "model.hf_config", 4096);
  EXPECT_TRUE(has_note(r, "exceeds the config's max_position_embeddings (1024)"));
}

std::string error_of(const Json& cfg) {
  try {
    tc::io::parse_hf_config(cfg, "model.hf_config");
  } catch (const tc::io::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(HfConfig, BadConfigsNameTheField) {
  Json llama = config("llama-3.1-8b.json");
  auto with = [&](const char* key, Json v) {
    Json c = llama;
    if (v.is_discarded()) c.erase(key);
    else c[key] = v;
    return error_of(c);
  };
  const Json gone = Json(Json::value_t::discarded);
  EXPECT_EQ(with("num_attention_heads", gone).rfind("model.hf_config.num_attention_heads: missing", 0), 0u);
  EXPECT_EQ(with("num_attention_heads", 0).rfind("model.hf_config.num_attention_heads:", 0), 0u);
  EXPECT_EQ(with("num_attention_heads", 33).rfind("model.hf_config.num_attention_heads: must divide", 0), 0u);
  EXPECT_EQ(with("num_key_value_heads", 5).rfind("model.hf_config.num_key_value_heads: must divide", 0), 0u);
  EXPECT_EQ(with("num_hidden_layers", 1e30).rfind("model.hf_config.num_hidden_layers:", 0), 0u);
  EXPECT_EQ(with("hidden_size", -4096).rfind("model.hf_config.hidden_size:", 0), 0u);
  EXPECT_EQ(with("hidden_size", "NaN").rfind("model.hf_config.hidden_size:", 0), 0u);
  EXPECT_EQ(with("vocab_size", "128256").rfind("model.hf_config.vocab_size:", 0), 0u);
  // An unknown model_type falls back to the architecture; with neither known, the error.
  EXPECT_EQ(with("model_type", "llama_custom"), "");
  llama.erase("architectures");
  EXPECT_EQ(with("model_type", "mamba").rfind("model.hf_config.model_type: unknown architecture 'mamba'", 0), 0u);
  llama = config("llama-3.1-8b.json");
  Json bare = Json::object();
  EXPECT_EQ(error_of(bare).rfind("model.hf_config.model_type: missing", 0), 0u);
  EXPECT_EQ(error_of(Json::array()).rfind("model.hf_config", 0), 0u);
  // Identified by architectures alone.
  Json by_arch = llama;
  by_arch.erase("model_type");
  EXPECT_EQ(error_of(by_arch), "");
  by_arch["architectures"] = {"MambaForCausalLM"};
  EXPECT_EQ(error_of(by_arch).rfind("model.hf_config.architectures: unknown architecture 'MambaForCausalLM'", 0), 0u);
}

// The class of hostile values: any key of any config set to any of them either reads (the key
// does not matter, or the value is valid) into a model with finite, positive parameter counts, or
// fails with an InputError naming a config field. Never another exception, never NaN.
TEST(HfConfig, HostileValuesInEveryKeyOfEveryFamily) {
  const Json hostile[] = {0, -1, 1e30, 2147483648.0, "NaN", nullptr, true, 0.5, Json::array(), Json::object()};
  int rejected = 0;
  for (const auto& e : std::filesystem::directory_iterator(data_path(""))) {
    const Json base = config(e.path().filename().string());
    for (const auto& [key, value] : base.items()) {
      for (const Json& bad : hostile) {
        Json c = base;
        c[key] = bad;
        try {
          const HfModel m = tc::io::parse_hf_config(c, "model.hf_config");
          const auto p = tc::count_params(m.model);
          EXPECT_TRUE(std::isfinite(p.total) && p.total > 0 && p.active > 0 && p.active <= p.total)
              << e.path() << " " << key << "=" << bad.dump();
        } catch (const tc::io::InputError& err) {
          ++rejected;
          EXPECT_EQ(std::string(err.what()).rfind("model.hf_config", 0), 0u) << err.what();
        }
      }
    }
  }
  EXPECT_GT(rejected, 200);
}

}  // namespace
