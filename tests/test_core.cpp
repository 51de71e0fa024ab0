// Formulas of src/core against hand-worked values from their sources, and model invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/collectives.hpp"
#include "core/estimate.hpp"
#include "core/params.hpp"
#include "core/plan_search.hpp"
#include "core/selection.hpp"
#include "core/text.hpp"

namespace tc {
namespace {

ModelShape llama(int layers, int hidden, int ffn, int heads, int kv, int vocab) {
  ModelShape m;
  m.layers = layers;
  m.hidden = hidden;
  m.ffn_hidden = ffn;
  m.heads = heads;
  m.kv_heads = kv;
  m.seq_len = 8192;
  m.vocab = vocab;
  return m;
}

ModelShape gpt3() {
  ModelShape m = llama(96, 12288, 49152, 96, 96, 50257);
  m.gated_ffn = false;
  m.biases = true;
  m.tied_embeddings = true;
  m.learned_positions = 2048;
  m.seq_len = 2048;
  return m;
}

// Published counts: Llama 3.1 model card (8.03B, 70.6B, 405.9B), Brown et al. 2020 (175B;
// 174.6B from the shape), Jiang et al. 2024 (Mixtral 46.7B total, 12.9B active),
// Dosovitskiy et al. 2021 (ViT-L/16 304M with a 1000-class head).
TEST(Params, Llama31) {
  EXPECT_NEAR(count_params(llama(32, 4096, 14336, 32, 8, 128256)).total / 1e9, 8.03, 0.01);
  EXPECT_NEAR(count_params(llama(80, 8192, 28672, 64, 8, 128256)).total / 1e9, 70.55, 0.1);
  EXPECT_NEAR(count_params(llama(126, 16384, 53248, 128, 8, 128256)).total / 1e9, 405.85, 0.3);
}

TEST(Params, Gpt3) { EXPECT_NEAR(count_params(gpt3()).total / 1e9, 174.6, 0.2); }

TEST(Params, Mixtral) {
  ModelShape m = llama(32, 4096, 14336, 32, 8, 32000);
  m.moe_experts = 8;
  m.moe_top_k = 2;
  const ParamCounts c = count_params(m);
  EXPECT_NEAR(c.total / 1e9, 46.7, 0.1);
  EXPECT_NEAR(c.active / 1e9, 12.9, 0.1);
}

TEST(Params, VitLarge) {
  ModelShape m;
  m.kind = ModelKind::vit;
  m.layers = 24;
  m.hidden = 1024;
  m.ffn_hidden = 4096;
  m.heads = 16;
  m.kv_heads = 16;
  m.gated_ffn = false;
  m.biases = true;
  m.image_size = 224;
  m.patch_size = 16;
  m.num_classes = 1000;
  EXPECT_EQ(vit_tokens(m), 197);
  EXPECT_NEAR(count_params(m).total / 1e6, 304.3, 1.0);
}

TEST(Collectives, RingAllReduceHandWorked) {
  // 1 GB over 8 ranks at 100 GB/s, 5 us per step: 2*7/8 * 10 ms + 14 * 5 us.
  const Link link{100e9, 5e-6};
  EXPECT_NEAR(all_reduce_s(1e9, 8, link), 0.0175 + 70e-6, 1e-12);
  EXPECT_NEAR(reduce_scatter_s(1e9, 8, link), (0.0175 + 70e-6) / 2, 1e-12);
  EXPECT_EQ(all_reduce_s(1e9, 1, link), 0.0);
  // Hierarchical with a single node equals the intra-node ring.
  EXPECT_NEAR(hierarchical_all_reduce_s(1e9, 8, 1, link, link), all_reduce_s(1e9, 8, link), 1e-12);
}

Scenario h100_scenario() {
  Scenario s;
  s.model = llama(32, 4096, 14336, 32, 8, 128256);
  s.accelerator.id = "h100-sxm";
  s.accelerator.peak_tflops = {66.9, 494.7, 989.4, 989.4, 1978.9};
  s.accelerator.hbm_gib = 80;
  s.accelerator.hbm_tb_per_s = 3.35;
  s.instance.chips_per_node = 8;
  s.instance.intra = {"NVSwitch", 450, 3, 0.8};
  s.instance.inter_node_gbps = 3200;
  s.instance.inter = {"EFA", 0, 15, 0.7};
  s.nodes = 4;
  s.plan = {1, 1, 32, 1, 1, 1, false, 1, 1, Recompute::selective};
  s.global_batch = 256;
  s.train_tokens = 1e12;
  return s;
}

// Llama 3.1 70B on 16 of those nodes, a global batch of 1,024: a plan search's job.
Scenario llama70b_on_16_h100_nodes() {
  Scenario s = h100_scenario();
  s.model = llama(80, 8192, 28672, 64, 8, 128256);
  s.nodes = 16;
  s.global_batch = 1024;
  return s;
}

// The same cluster with a mixture of experts in the FFN: 64 experts of width 2048, top 4, over 8
// expert-parallel ranks.
Scenario h100_moe_scenario() {
  Scenario s = h100_scenario();
  s.model.ffn_hidden = 2048;
  s.model.moe_experts = 64;
  s.model.moe_top_k = 4;
  s.plan.ep = 8;
  return s;
}

// DeepSeek-V3's latent attention heads (Section 2.1.1) on a model's heads: 192-wide queries and keys
// (128 + 64 rotary), 128-wide values, a 512-wide KV latent.
void use_latent_attention(ModelShape& m) {
  m.kv_heads = m.heads;
  m.head_dim = 192;
  m.qk_rope_head_dim = 64;
  m.v_head_dim = 128;
  m.kv_lora_rank = 512;
}

// GPT-3 175B, one 2048-token sample on 8 H100s with tp 8, sequence parallelism and selective
// recompute: the layout of Korthikanti et al. 2022, Table 2.
Scenario gpt3_one_sample_on_tp8() {
  Scenario s = h100_scenario();
  s.model = gpt3();
  s.nodes = 1;
  s.plan = {8, 1, 1, 1, 1, 1, true, 0, 1, Recompute::selective};
  s.global_batch = 1;
  s.train_tokens = 0;
  return s;
}

double breakdown_of(const Estimate& e, const std::string& name) {
  for (const auto& t : e.breakdown_s)
    if (t.name == name) return t.value;
  return -1;
}

// Tensor-parallel overlap hides collectives over a node's own links only: the same overlap share
// shortens a tp 8 group's collectives on an 8-GPU node and leaves a tp 16 group's, which crosses
// the network, as they are.
TEST(Estimate, TensorParallelOverlapStaysInsideANode) {
  for (const int tp : {8, 16}) {
    Scenario s = gpt3_one_sample_on_tp8();
    s.nodes = 2;
    s.plan.tp = tp;
    s.plan.dp = 16 / tp;
    s.global_batch = s.plan.dp;
    ASSERT_FALSE(check_plan(s)) << tp;
    const double exposed = breakdown_of(estimate(s), "tp_comm");
    s.framework.tp_overlap = 0.5;
    const double overlapped = breakdown_of(estimate(s), "tp_comm");
    ASSERT_GT(exposed, 0) << tp;
    if (tp == 8) EXPECT_NEAR(overlapped, exposed / 2, 1e-12 * exposed);
    else EXPECT_EQ(overlapped, exposed);
  }
}

// An FP8 recipe quantizes the transformer layers, not the output layer (Megatron-Core's output
// layer is outside Transformer Engine's autocast; torchtitan skips "output"): doubling the
// vocabulary adds the same GEMM time to an FP8 run as to a BF16 one.
TEST(Estimate, TheOutputLayerOfAnFp8RecipeRunsInBf16) {
  auto vocab_gemm_s = [](Precision p) {
    Scenario s = h100_scenario();
    s.precision = p;
    const double before = breakdown_of(estimate(s), "matmul");
    s.model.vocab *= 2;
    return breakdown_of(estimate(s), "matmul") - before;
  };
  const double bf16 = vocab_gemm_s(Precision::bf16);
  ASSERT_GT(bf16, 0);
  EXPECT_NEAR(vocab_gemm_s(Precision::fp8), bf16, 1e-9 * bf16);
}

// Neuron's auto-cast runs an FP32 job's matmuls in BF16 and first converts their inputs: each of
// the QKV, O, FFN-in and FFN-out inputs is read at 4 bytes and written at 2, 1.5 FP32-sized
// elements, forward and twice backward. Worked for Llama 3 8B (h 4096, f 14336, tp 1): 8
// micro-batches of 8,192 tokens, 32 layers, 1.5 (3 h + f) elements of 4 bytes at 0.85 x 3.35 TB/s.
TEST(Estimate, AutocastFp32MatmulsConvertTheirInputsToBf16) {
  Scenario s = h100_scenario();
  s.precision = Precision::fp32;
  s.accelerator.autocasts_fp32_matmul = true;
  s.auto_cast = false;
  const double plain = breakdown_of(estimate(s), "memory_bound");
  s.auto_cast = true;
  const double cast = breakdown_of(estimate(s), "memory_bound");
  const double bytes = 8.0 * 32 * 3 * 8192 * 1.5 * (3 * 4096 + 14336) * 4;
  const double hbm = 3.35e12 * s.accelerator.cal.hbm_efficiency;
  ASSERT_GT(plain, 0);
  EXPECT_NEAR(cast - plain, bytes / hbm, 1e-9 * bytes / hbm);
}

// A chip capped at 27/64 of its power runs at cbrt(27/64) = 3/4 of its clock: a large GEMM takes
// 4/3 as long (its fixed per-call cost does not scale), energy is billed at the cap, and a cap at
// or above the chip's power changes nothing.
TEST(Estimate, PowerLimitSlowsComputeByTheCubeRootOfTheCap) {
  Scenario s = h100_scenario();
  s.accelerator.power_w = 700;
  const Estimate full = estimate(s);
  s.power_limit_w = 700.0 * 27 / 64;
  ASSERT_FALSE(check_plan(s));
  EXPECT_NEAR(power_limited_clock_fraction(s), 0.75, 1e-12);
  EXPECT_NEAR(chip_power_w(s), 295.3125, 1e-9);
  const Estimate capped = estimate(s);
  const double ratio = breakdown_of(capped, "matmul") / breakdown_of(full, "matmul");
  EXPECT_LE(ratio, 4.0 / 3 + 1e-12);
  EXPECT_GT(ratio, 1.3);
  EXPECT_GT(capped.step_time_s, full.step_time_s);
  s.power_limit_w = 900;
  EXPECT_EQ(power_limited_clock_fraction(s), 1.0);
  EXPECT_EQ(chip_power_w(s), 700);
  EXPECT_EQ(estimate(s).step_time_s, full.step_time_s);
  // Below a quarter of its power no chip sustains a training clock: refused, naming the field.
  s.power_limit_w = 100;
  const auto problem = check_plan(s);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "power_limit_w");
}

// A dense GEMM at 1 pJ a BF16 FLOP would draw 989.4 W at the H100's peak: on 700 W the tensor units
// run at 700 / 989.4 of the peak's clock, FP8 GEMMs too (half the energy a FLOP at twice the peak);
// at 1,200 W nothing binds. Two parts of one die and one printed peak run their GEMMs in
// proportion to their power (GB300's 1,400 W against GB200's 1,200 W), and an FP4 peak six times
// the BF16 one (Blackwell Ultra's) draws 6 / 4 of the BF16 power: 2/3 of its clock. A cap takes
// the lower of its cube-law clock and the power bound; memory-bound work runs at full speed.
TEST(Estimate, PowerBoundsTheTensorClock) {
  Scenario s = h100_scenario();
  s.accelerator.power_w = 700;
  const Estimate free = estimate(s);
  EXPECT_EQ(tensor_clock_fraction(s, Precision::bf16), 1.0);
  s.accelerator.cal.gemm_energy_pj_per_flop = 1.0;
  EXPECT_NEAR(tensor_clock_fraction(s, Precision::bf16), 700 / 989.4, 1e-12);
  EXPECT_NEAR(tensor_clock_fraction(s, Precision::fp8), 700 / (1978.9 / 2), 1e-12);
  const Estimate bound = estimate(s);
  const double ratio = breakdown_of(bound, "matmul") / breakdown_of(free, "matmul");
  EXPECT_LE(ratio, 989.4 / 700 + 1e-12);
  EXPECT_GT(ratio, 1.35);
  EXPECT_EQ(breakdown_of(bound, "memory_bound"), breakdown_of(free, "memory_bound"));
  s.accelerator.power_w = 1200;
  EXPECT_EQ(tensor_clock_fraction(s, Precision::bf16), 1.0);
  s.accelerator.cal.gemm_energy_pj_per_flop = 2.0;
  const double gb200 = tensor_clock_fraction(s, Precision::bf16);
  s.accelerator.power_w = 1400;
  EXPECT_NEAR(tensor_clock_fraction(s, Precision::bf16) / gb200, 1400.0 / 1200, 1e-12);
  s.accelerator.peak_tflops[static_cast<int>(Precision::fp4)] = 6 * 989.4;
  EXPECT_NEAR(tensor_clock_fraction(s, Precision::fp4) / tensor_clock_fraction(s, Precision::bf16), 4.0 / 6, 1e-12);
  s.power_limit_w = 700;
  EXPECT_NEAR(tensor_clock_fraction(s, Precision::bf16), 700 / (2.0 * 989.4), 1e-12);
  s.accelerator.cal.gemm_energy_pj_per_flop = 0;
  EXPECT_NEAR(tensor_clock_fraction(s, Precision::fp4), std::cbrt(0.5), 1e-12);
  // A power that holds dense GEMMs under a tenth of the clock is refused, naming the field.
  s.power_limit_w = 0;
  s.accelerator.cal.gemm_energy_pj_per_flop = 1.0;
  s.accelerator.power_w = 50;
  const auto problem = check_plan(s);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "accelerator.power_w");
}

// An FP4 recipe leaves attention in BF16 (Transformer Engine), at BF16's own power-bound clock,
// not FP4's. At 0.6 pJ a BF16 FLOP on 700 W, dense BF16 GEMMs draw 594 W (free) and an FP4 peak six
// times BF16's draws 891 W (bound): the FP4 run's attention takes exactly as long as a BF16 run's
// while its GEMMs slow. At 1 pJ BF16 binds too (700 / 989.4 of the clock), and the FP4 run's
// attention slows by that much.
TEST(Estimate, AnFp4RecipesAttentionRunsAtTheBf16Clock) {
  Scenario s = h100_scenario();
  s.accelerator.power_w = 700;
  s.accelerator.exp_tera_per_s = 0;  // no softmax term: it runs at the power cap's clock, not the tensor clock
  s.accelerator.peak_tflops[static_cast<int>(Precision::fp4)] = 6 * 989.4;
  s.accelerator.cal.gemm_energy_pj_per_flop = 0.6;
  const Estimate bf16 = estimate(s);
  s.precision = Precision::fp4;
  ASSERT_FALSE(check_plan(s));
  ASSERT_EQ(tensor_clock_fraction(s, Precision::bf16), 1.0);
  ASSERT_NEAR(tensor_clock_fraction(s, Precision::fp4), 700 / (0.6 * 6 * 989.4 / 4), 1e-12);
  const Estimate free = estimate(s);
  ASSERT_GT(breakdown_of(free, "attention"), 0);
  EXPECT_DOUBLE_EQ(breakdown_of(free, "attention"), breakdown_of(bf16, "attention"));
  s.accelerator.cal.gemm_energy_pj_per_flop = 0;
  EXPECT_GT(breakdown_of(free, "matmul"), breakdown_of(estimate(s), "matmul"));
  s.accelerator.cal.gemm_energy_pj_per_flop = 1.0;
  const Estimate bound = estimate(s);
  EXPECT_NEAR(breakdown_of(bound, "attention") / breakdown_of(free, "attention"), 989.4 / 700, 1e-9);
}

// Tile and wave quantization, worked by hand on 4 units with 128 x 256 tiles and K = 256 (too
// short to split): a 256 x 512 output is 4 tiles, one full wave; 256 x 640 is 6 tiles (or 5
// turned 256 x 128), two waves of 4 slots of 32,768 elements for 163,840 useful: 0.625. Two
// 256 x 512 GEMMs grouped fill two full waves. One 128 x 256 tile with K = 1024 splits K in 4
// (256 a split) and fills all 4 units; with K = 512, in 2: 0.5.
TEST(Estimate, TilesAndWavesLeaveUnitsIdle) {
  Accelerator a;
  EXPECT_EQ(tile_fill(a, 256, 640, 256), 1.0);  // no units given: nothing modelled
  a.gemm_units = 4;
  a.gemm_tile_m = 128;
  a.gemm_tile_n = 256;
  EXPECT_NEAR(tile_fill(a, 256, 512, 256), 1.0, 1e-15);
  EXPECT_NEAR(tile_fill(a, 256, 640, 256), 0.625, 1e-15);
  EXPECT_NEAR(tile_fill(a, 640, 256, 256), 0.625, 1e-15);
  EXPECT_NEAR(tile_fill(a, 256, 512, 256, 2), 1.0, 1e-15);
  EXPECT_NEAR(tile_fill(a, 128, 256, 256, 3), 0.75, 1e-15);  // 3 tiles on 4 units
  EXPECT_NEAR(tile_fill(a, 128, 256, 1024), 1.0, 1e-15);
  EXPECT_NEAR(tile_fill(a, 128, 256, 512), 0.5, 1e-15);
  // Never above 1, never 0, over shapes from one element to far past a wave; 1 where the tile or
  // the shape cannot be scheduled.
  for (double m : {1.0, 7.0, 128.0, 1000.0, 4096.0, 1e6})
    for (double n : {1.0, 100.0, 256.0, 5000.0})
      for (double k : {1.0, 300.0, 1e5})
        for (double c : {1.0, 3.0, 64.0}) {
          const double f = tile_fill(a, m, n, k, c);
          EXPECT_GT(f, 0) << m << " " << n << " " << k << " " << c;
          EXPECT_LE(f, 1.0 + 1e-12) << m << " " << n << " " << k << " " << c;
        }
  EXPECT_EQ(tile_fill(a, 1e300, 1e300, 1e300), 1.0);
  a.gemm_tile_n = 0;
  EXPECT_EQ(tile_fill(a, 256, 640, 256), 1.0);
  a.gemm_tile_n = 256;
  // In an estimate: the matmul time grows by at most the worst fill, and a tensor-parallel split
  // that leaves H100's 132 SMs a partial wave costs more than the plain roofline says.
  Scenario s = h100_scenario();
  s.plan = {8, 1, 4, 1, 1, 1, true, 1, 1, Recompute::none};
  ASSERT_FALSE(check_plan(s));
  const double plain = breakdown_of(estimate(s), "matmul");
  s.accelerator.gemm_units = 132;
  s.accelerator.gemm_tile_m = 128;
  s.accelerator.gemm_tile_n = 256;
  const double tiled = breakdown_of(estimate(s), "matmul");
  EXPECT_GT(tiled, 1.05 * plain);
  EXPECT_LT(tiled, 2.0 * plain);
}

bool says_best_case(const Estimate& e) {
  for (const auto& w : e.warnings)
    if (w.find("no published large run has reached") != std::string::npos) return true;
  return false;
}

// An estimate never contradicts the claim check (core/claims): above the MFU no published large run
// reached, it says it is a best case; below it, nothing.
TEST(Estimate, AboveThePublishedMfuCeilingSaysItIsABestCase) {
  Scenario s = h100_scenario();
  s.nodes = 8;
  s.plan = {1, 1, 64, 1, 1, 1, false, 1, 1, Recompute::none};
  ASSERT_FALSE(check_plan(s));
  s.accelerator.cal.matmul_efficiency_max = 0.5;
  const Estimate plain = estimate(s);
  ASSERT_LT(plain.mfu, kPublishedMfuCeiling);
  EXPECT_FALSE(says_best_case(plain));
  s.accelerator.cal.matmul_efficiency_max = 0.95;
  s.accelerator.cal.attention_efficiency = 0.75;
  s.accelerator.cal.kernel_overhead_us = 2;
  const Estimate fast = estimate(s);
  ASSERT_GT(fast.mfu, kPublishedMfuCeiling);
  EXPECT_TRUE(says_best_case(fast));
}

TEST(Estimate, BreakdownSumsToStepTime) {
  Scenario s = h100_scenario();
  s.plan = {4, 2, 4, 1, 1, 2, true, 1, 1, Recompute::full};
  ASSERT_FALSE(check_plan(s));
  const Estimate e = estimate(s);
  double sum = 0;
  for (const auto& t : e.breakdown_s) {
    EXPECT_GE(t.value, 0) << t.name;
    sum += t.value;
  }
  EXPECT_NEAR(sum, e.step_time_s, 1e-12 * e.step_time_s);
  EXPECT_GT(e.mfu, 0.05);
  EXPECT_LT(e.mfu, 1.0);
  EXPECT_GE(e.hfu, e.mfu);
  EXPECT_NEAR(e.tokens_per_s, 256.0 * 8192 / e.step_time_s, 1e-6 * e.tokens_per_s);
}

TEST(Estimate, ModelFlopsFollowPalmConvention) {
  Scenario s = h100_scenario();
  const ParamCounts c = count_params(s.model);
  // Untied: the input embedding table and the final norm are not matmul parameters. Causal
  // attention counts its unmasked half (as Megatron-Bridge's FLOP count does).
  const double n_matmul = c.total - 128256.0 * 4096 - 4096;
  EXPECT_NEAR(model_flops_per_token(s), 6 * n_matmul + 0.5 * 12.0 * 32 * 4096 * 8192, 1.0);
}

// The softmax's exponentials (one per score element, forward and backward) run on the special-
// function units, and its four other FP32 instructions a score on the CUDA cores: Llama 3 8B's layer
// (32 heads, 8192 tokens, 4096 keys on average) takes 32 x 8192 x 4096 x (1 / 3.9e12 + 4 / 33.45e12)
// s of them a pass on an H100 (FP32 peak 66.9 TFLOP/s, two FLOPs an instruction). A
// FlashAttention-2-class kernel adds them to its GEMMs; a FlashAttention-3-class one overlaps them,
// so they show only where they are the slower part: 128 heads of 32 (the same width) take 4x as
// many, more than its forward GEMMs. Half the FP32 rate adds the FP32 part again.
TEST(Estimate, SoftmaxWorkAddsToFa2AndBoundsFa3OnlyWhenSlower) {
  Scenario s = h100_scenario();
  const double mbs = 256 / 32, layers = 32;
  auto attention_s = [&](double exp_tera) {
    s.accelerator.exp_tera_per_s = exp_tera;
    return breakdown_of(estimate(s), "attention");
  };
  const double scores = 32.0 * 8192 * 4096, fp32_pass = scores * 4 / (66.9e12 / 2);
  const double exp_pass = scores / 3.9e12 + fp32_pass;
  EXPECT_NEAR(attention_s(3.9) - attention_s(0), mbs * layers * 2 * exp_pass, 1e-9);
  const double full_fp32 = attention_s(3.9);
  s.accelerator.peak_tflops[static_cast<int>(Precision::fp32)] /= 2;
  EXPECT_NEAR(attention_s(3.9) - full_fp32, mbs * layers * 2 * fp32_pass, 1e-9);
  // No FP32 peak: the exponentials alone; no exponential rate (Trainium): no softmax term at all.
  s.accelerator.peak_tflops[static_cast<int>(Precision::fp32)] = 0;
  EXPECT_NEAR(attention_s(3.9) - attention_s(0), mbs * layers * 2 * scores / 3.9e12, 1e-9);
  EXPECT_TRUE(std::isfinite(attention_s(0)));
  s.accelerator.peak_tflops[static_cast<int>(Precision::fp32)] = 66.9;
  s.framework.attention_v3_kernels = true;
  s.accelerator.cal.attention_v3_efficiency = 0.75;
  EXPECT_DOUBLE_EQ(attention_s(3.9), attention_s(0));
  s.model.heads = 128;
  s.model.kv_heads = 128;
  s.model.head_dim = 32;
  const double gemm_fwd = 2.0 * 8192 * 4096 * (4096 + 4096) / (989.4e12 * 0.75);
  ASSERT_GT(4 * exp_pass, gemm_fwd);
  EXPECT_NEAR(attention_s(3.9) - attention_s(0), mbs * layers * (4 * exp_pass - gemm_fwd), 1e-9);
}

// neuronx-cc keeps a graph's tensors in the core's SBUF where they fit: unfused attention's scores
// skip HBM when one head's matrix for one sequence does (8192^2 x 2 bytes = 128 MiB here) and
// otherwise go through it, written and read four times forward and six backward; without on-chip
// memory (a GPU's eager kernels) they always do. A layer the backward does not recompute stores the
// softmax output (and, with dropout, its mask and output: 5 bytes a score), written once and read
// once. Two cores share a chip's SRAM; context parallelism gives a rank half the queries.
TEST(Estimate, UnfusedScoresSkipHbmWhereOneHeadFitsOnChip) {
  Scenario s = h100_scenario();
  s.flash_attention = false;
  auto attention_s = [&](double sram_mib) {
    s.accelerator.sram_mib = sram_mib;
    return breakdown_of(estimate(s), "attention");
  };
  const double mbs = 256 / 32, layers = 32, hbm = 3.35e12 * s.accelerator.cal.hbm_efficiency;
  const double scores = 32.0 * 8192 * 8192;  // heads x queries x keys, one micro-batch
  const double pass_s = mbs * layers * scores / hbm;  // one pass over them at 1 byte a score
  ASSERT_EQ(s.plan.recompute, Recompute::selective);
  EXPECT_NEAR(attention_s(0) - attention_s(128), 10 * 2 * pass_s, 1e-9);
  EXPECT_DOUBLE_EQ(attention_s(127.9), attention_s(0));
  s.plan.recompute = Recompute::none;
  EXPECT_NEAR(attention_s(0) - attention_s(128), (10 - 2) * 2 * pass_s, 1e-9);
  s.model.dropout = true;
  EXPECT_NEAR(attention_s(0) - attention_s(128), 10 * 2 * pass_s - 2 * 5 * pass_s, 1e-9);
  s.plan.recompute = Recompute::full;  // half the layers replayed: the other half store theirs
  s.plan.recompute_layers = 16;
  EXPECT_NEAR(attention_s(0) - attention_s(128), 10 * 2 * pass_s - 2 * 5 * pass_s / 2, 1e-9);
  s.accelerator.sram_mib = 128;
  s.accelerator.devices_per_chip = 2;
  EXPECT_FALSE(attention_kernel(s, s.plan).scores_on_chip);
  s.plan.cp = 2;
  EXPECT_TRUE(attention_kernel(s, s.plan).scores_on_chip);
}

// DeepSeek-V3-style dense first layers are timed as dense layers: with a quarter of the layers
// dense, every per-layer part of the step is the 3:1 mix of the all-expert and the all-dense
// model's (the output layer is the same in all three), and the all-to-all comes from the expert
// layers alone.
TEST(Estimate, DenseLayersOfAMixtureAreTimedAsDenseLayers) {
  Scenario moe = h100_moe_scenario();
  Scenario dense = h100_scenario();
  dense.model.ffn_hidden = 8192;
  Scenario mixed = moe;
  mixed.model.dense_layers = 8;
  mixed.model.dense_ffn_hidden = 8192;
  const Estimate em = estimate(moe), ed = estimate(dense), ex = estimate(mixed);
  for (const char* part : {"matmul", "attention", "memory_bound", "ep_comm"}) {
    EXPECT_NEAR(breakdown_of(ex, part), 0.75 * breakdown_of(em, part) + 0.25 * breakdown_of(ed, part),
                1e-9 * breakdown_of(em, part))
        << part;
  }
  EXPECT_DOUBLE_EQ(breakdown_of(ed, "ep_comm"), 0);
}

// Each pipeline rank is timed with the layers it holds. With a mixture's dense first layers filling
// the first of two ranks, the last holds expert layers only and sets the pace as in the model
// without dense layers (the same output layer); the lighter first rank shortens the fill and drain.
TEST(Estimate, EachPipelineRankIsTimedWithItsOwnKindsOfLayer) {
  Scenario moe = h100_moe_scenario();
  moe.plan.pp = 2;
  moe.plan.dp = 16;
  Scenario mixed = moe;
  mixed.model.dense_layers = 16;
  mixed.model.dense_ffn_hidden = 1024;
  ASSERT_FALSE(check_plan(mixed));
  const Estimate em = estimate(moe), ex = estimate(mixed);
  for (const char* part : {"matmul", "attention", "memory_bound", "ep_comm"})
    EXPECT_NEAR(breakdown_of(ex, part), breakdown_of(em, part), 1e-9 * breakdown_of(em, part)) << part;
  EXPECT_LT(breakdown_of(ex, "pp_bubble"), 0.9 * breakdown_of(em, "pp_bubble"));
}

// One micro-batch's matmul time per layer and for the output layer, from one-stage runs of 64 and
// 63 layers (same micro-batch, tensor parallel and precision as the pipelines below).
struct LayerAndOutput {
  double layer_s = 0, output_s = 0;
};
LayerAndOutput matmul_per_micro_batch(Scenario s) {
  s.plan.pp = 1;
  s.plan.dp = 32;
  s.model.layers = 64;
  const Estimate e64 = estimate(s);
  s.model.layers = 63;
  const double mbs = static_cast<double>(e64.grad_accum);
  const double layer = (breakdown_of(e64, "matmul") - breakdown_of(estimate(s), "matmul")) / mbs;
  return {layer, breakdown_of(e64, "matmul") / mbs - 64 * layer};
}

// Llama-3-8B-shaped layers (128K vocabulary) on 8 pipeline ranks of 4 data-parallel H100s each.
Scenario eight_stage_pipeline(int layers) {
  Scenario s = h100_scenario();
  s.model.layers = layers;
  s.plan.pp = 8;
  s.plan.dp = 4;
  return s;
}

bool warns(const Estimate& e, const std::string& text) {
  return std::any_of(e.warnings.begin(), e.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// Hardware FLOPs count the forward that full recompute replays on each rank's own layers: 29 on 8
// ranks hold 4 on each of seven and 1 on the last, so replaying the first 4 of each rank's layers
// replays all 29 (not 8 x 4), and replaying 3 replays 3 x 7 + 1 of them.
TEST(Estimate, HardwareFlopsReplayTheLayersEachRankHolds) {
  Scenario s = eight_stage_pipeline(29);
  s.plan.recompute = Recompute::full;
  auto replayed = [&](int k) {
    s.plan.recompute_layers = k;
    const Estimate e = estimate(s);
    return e.hardware_flops_per_step - e.model_flops_per_step;
  };
  const double all = replayed(0);
  ASSERT_GT(all, 0);
  EXPECT_NEAR(replayed(4), all, 1e-12 * all);
  EXPECT_NEAR(replayed(3), all * 22 / 29, 1e-12 * all);
}

// Layers that do not split evenly over the virtual stages: each takes the rounded-up count and the
// last what is left, where only the last is short (60 layers on 8 ranks: 8 each, 4 on the last,
// with the output layer). The busiest rank then holds 8 layers and no output layer; the fill and
// drain pass the short rank faster. The warning states the layout, which a framework must be told.
TEST(Estimate, AShortLastStageIsTimedWithTheLayersItHolds) {
  const Scenario full = eight_stage_pipeline(64), short_last = eight_stage_pipeline(60);
  ASSERT_FALSE(check_plan(short_last));
  const LayerAndOutput one = matmul_per_micro_batch(full);
  ASSERT_GT(one.output_s, one.layer_s);  // a 128K vocabulary: the output layer outweighs a layer
  ASSERT_LT(one.output_s, 4 * one.layer_s);
  const Estimate ef = estimate(full), es = estimate(short_last);
  const double mbs = static_cast<double>(ef.grad_accum);
  EXPECT_NEAR(breakdown_of(ef, "matmul") / mbs, 8 * one.layer_s + one.output_s, 1e-9 * one.output_s);
  EXPECT_NEAR(breakdown_of(es, "matmul") / mbs, 8 * one.layer_s, 1e-9 * one.output_s);
  // Seven ranks of 8 layers in the fill and drain against 6 of 8 and one of 4 with the output layer,
  // which weighs less than 4 layers.
  const double ratio = breakdown_of(es, "pp_bubble") / breakdown_of(ef, "pp_bubble");
  EXPECT_GT(ratio, 52.0 / 56);
  EXPECT_LT(ratio, 1.0);
  EXPECT_TRUE(warns(es, "virtual stages of 8 layers, the last of 4"));
  EXPECT_FALSE(warns(ef, "virtual stages"));
}

// Multi-token prediction modules (DeepSeek-V3, Section 2.2) run on the last stage: each a layer of
// the model's kind, a projection of 2h to h (two h x h GEMMs' work, under a fifth of a Llama 3 8B
// layer's) and the output layer once more. On 8 ranks of 8 layers the last then runs 9 layers and
// two output layers a micro-batch, and sets the pace. Its memory keeps the layer's activations and
// a second set of logits; the parameter count, as published counts do, leaves the module out.
TEST(Estimate, PredictionModulesRunOnTheLastStage) {
  Scenario s = eight_stage_pipeline(64);
  const LayerAndOutput one = matmul_per_micro_batch(s);
  s.model.mtp_layers = 1;
  ASSERT_FALSE(check_plan(s));
  const Estimate e = estimate(s);
  const double projection = breakdown_of(e, "matmul") / static_cast<double>(e.grad_accum) -
                            (9 * one.layer_s + 2 * one.output_s);
  EXPECT_GT(projection, 0.1 * one.layer_s);
  EXPECT_LT(projection, 0.2 * one.layer_s);
  EXPECT_DOUBLE_EQ(e.params, estimate(eight_stage_pipeline(64)).params);
  const ParamCounts c = count_params(s.model);
  EXPECT_NEAR(e.checkpoint_bytes, (c.total + c.mtp) * (2 + 12), 1.0);  // trained, so saved
  // One pipeline rank of 32 layers: the module's layer keeps a 33rd layer's activations, its logits,
  // and its shifted tokens' embedding and the concatenation its projection reads (3h a token).
  Scenario flat = h100_scenario();
  const double base_gib = memory_per_device(flat).activations_gib;
  flat.model.layers = 33;
  const double layer_gib = memory_per_device(flat).activations_gib - base_gib;
  flat.model.layers = 32;
  flat.model.mtp_layers = 1;
  const double logits_gib = 8192.0 * 128256 * (2 + (flat.fp32_loss_logits ? 4 : 0)) / (1024.0 * 1024 * 1024);
  const double module_gib = 8192.0 * 3 * 4096 * 2 / (1024.0 * 1024 * 1024);
  EXPECT_NEAR(memory_per_device(flat).activations_gib - base_gib, layer_gib + logits_gib + module_gib, 1e-9);
  // Sequence parallelism over tp 2 splits the module's tensors, as it splits the logits' vocabulary.
  Scenario split = h100_scenario();
  split.plan.tp = 2;
  split.plan.dp = 16;
  split.plan.sequence_parallel = true;
  const double split_base_gib = memory_per_device(split).activations_gib;
  split.model.layers = 33;
  const double split_layer_gib = memory_per_device(split).activations_gib - split_base_gib;
  split.model.layers = 32;
  split.model.mtp_layers = 1;
  EXPECT_NEAR(memory_per_device(split).activations_gib - split_base_gib,
              split_layer_gib + logits_gib / 2 + module_gib / 2, 1e-9);
  // Bad values name the field, as does a module on a model without next tokens to predict.
  for (const int bad : {-1, 33}) {
    flat.model.mtp_layers = bad;
    ASSERT_TRUE(check_plan(flat));
    EXPECT_EQ(check_plan(flat)->field, "model.mtp_layers");
  }
  flat.model.mtp_layers = 1;
  flat.model.kind = ModelKind::encoder;
  ASSERT_TRUE(check_plan(flat));
  EXPECT_EQ(check_plan(flat)->field, "model.mtp_layers");
}

// The last stage holds the prediction module's layer and projection, and, when the first stage
// holds the embedding and the output layer is not it, a copy of the embedding for the module's
// next-token lookup. Two ranks and one micro-batch a step: the last, with the logits, is the fullest.
TEST(Memory, ThePredictionModuleAndItsEmbeddingCopySitOnTheLastStage) {
  for (const bool tied : {false, true}) {
    Scenario s = h100_scenario();
    s.model.tied_embeddings = tied;
    s.plan.pp = 2;
    s.plan.dp = 16;
    s.global_batch = 16;
    const double before = memory_per_device(s).weights_gib;
    s.model.mtp_layers = 1;
    const ParamCounts c = count_params(s.model);
    const double h = 4096, table = 128256 * h;
    const double added = c.per_layer_total + 2 * h * h + 3 * h + (tied ? 0.0 : table);
    EXPECT_NEAR((memory_per_device(s).weights_gib - before) * 1024 * 1024 * 1024, 2 * added, 1.0)
        << (tied ? "tied" : "untied");
  }
}

// A mixture's prediction module is an expert layer: on the last stage it holds its share of the
// experts (64 over ep 8), beside its attention, router and projection and the embedding copy. One
// micro-batch a step: the last stage, with the logits, is the fullest with or without it.
TEST(Memory, APredictionModuleOfAMixtureHoldsItsShareOfTheExperts) {
  Scenario s = h100_moe_scenario();
  s.plan.pp = 2;
  s.plan.dp = 16;
  s.global_batch = 16;
  const double before = memory_per_device(s).weights_gib;
  s.model.mtp_layers = 1;
  ASSERT_FALSE(check_plan(s));
  const ParamCounts c = count_params(s.model);
  const double h = 4096, table = 128256 * h;
  const double layer = c.attention + c.norms + c.router + 64.0 / 8 * c.expert;
  EXPECT_NEAR((memory_per_device(s).weights_gib - before) * 1024 * 1024 * 1024,
              2 * (layer + 2 * h * h + 3 * h + table), 1.0);
  EXPECT_TRUE(std::isfinite(estimate(s).step_time_s));
}

// The rank that sets a pipeline's pace is named, with what it holds and by how much its micro-batch
// outlasts the ranks' mean: the figure the bubble and the step's per-micro-batch parts give (1F1B,
// vpp 1: the bubble is the other ranks' micro-batches). With a 32K vocabulary the output layer
// weighs under a layer and nothing is said.
TEST(Estimate, TheRankThatSetsThePipelinesPaceIsNamed) {
  Scenario s = eight_stage_pipeline(64);
  s.model.mtp_layers = 1;
  const Estimate e = estimate(s);
  double slowest = 0;
  for (const char* part : {"matmul", "attention", "memory_bound", "recompute", "tp_comm", "cp_comm", "ep_comm", "pp_p2p"})
    slowest += breakdown_of(e, part) / static_cast<double>(e.grad_accum);
  const double mean = (breakdown_of(e, "pp_bubble") + slowest) / 8;
  const std::string said = "pipeline rank 8 of 8 sets the pace: its micro-batch (8 layers, the output layer and "
                           "the loss, 1 prediction module) takes " + std::to_string(static_cast<int>(
                               std::round(100 * (slowest / mean - 1)))) + "% longer than the ranks' mean";
  EXPECT_TRUE(warns(e, said)) << said;
  // It names the stated last stage that paces the pipeline best, and what that saves: no other
  // count of the last stage's layers gives a shorter step.
  int suggested = -1;
  double shorter_pct = 0;
  for (const std::string& w : e.warnings) {
    const auto at = w.find("parallel.last_stage_layers ");
    if (at == std::string::npos) continue;
    ASSERT_EQ(std::sscanf(w.c_str() + at, "parallel.last_stage_layers %d would make the step %lf%% shorter",
                          &suggested, &shorter_pct), 2) << w;
  }
  ASSERT_GE(suggested, 0);
  Scenario restated = s;
  restated.plan.last_stage_layers = suggested;
  const double best_s = estimate(restated).step_time_s;
  EXPECT_NEAR(100 * (1 - best_s / e.step_time_s), shorter_pct, 0.05);
  for (int n = 0; n < 8; ++n) {
    restated.plan.last_stage_layers = n;
    EXPECT_GE(estimate(restated).step_time_s, best_s) << n;
  }
  s.model.mtp_layers = 0;
  EXPECT_TRUE(warns(estimate(s), "(8 layers, the output layer and the loss) takes"));
  s.model.vocab = 32000;
  EXPECT_FALSE(warns(estimate(s), "sets the pace:"));
}

// A stated last stage (Megatron-Core's --decoder-last-pipeline-num-layers) takes its layers and the
// other stages share the rest: 64 layers and a prediction module on 8 ranks, the last given 1 layer,
// leave 9 to each of the others, which then set the pace (the last runs 2 layers and 2 output
// layers, under 9 layers' work). A first stage stated on top takes its own; the rest then goes as
// evenly as it can, the first stages one more. Stated counts the model cannot hold name the field.
TEST(Estimate, AStatedLastStageTakesItsLayersAndTheOthersShareTheRest) {
  Scenario s = eight_stage_pipeline(64);
  const LayerAndOutput one = matmul_per_micro_batch(s);
  s.model.mtp_layers = 1;
  s.plan.last_stage_layers = 1;
  ASSERT_FALSE(check_plan(s));
  const Estimate e = estimate(s);
  EXPECT_NEAR(breakdown_of(e, "matmul") / static_cast<double>(e.grad_accum), 9 * one.layer_s, 1e-9 * one.layer_s);
  EXPECT_DOUBLE_EQ(e.first_stage_layers, 9);
  EXPECT_DOUBLE_EQ(e.last_stage_layers, 1);
  EXPECT_FALSE(warns(e, "not divisible"));
  Scenario even = s;
  even.plan.last_stage_layers = -1;
  EXPECT_LT(e.step_time_s, estimate(even).step_time_s);  // the last, with the module, had set the pace
  s.plan.first_stage_layers = 4;  // 59 left for 6 stages: 10 on the first five, 9 on the sixth
  ASSERT_FALSE(check_plan(s));
  const Estimate both = estimate(s);
  EXPECT_DOUBLE_EQ(both.first_stage_layers, 4);
  EXPECT_NEAR(breakdown_of(both, "matmul") / static_cast<double>(both.grad_accum), 10 * one.layer_s,
              1e-9 * one.layer_s);
  s.plan.first_stage_layers = 60;
  s.plan.last_stage_layers = 5;  // 65 of 64 layers
  ASSERT_TRUE(check_plan(s));
  EXPECT_EQ(check_plan(s)->field, "parallel.last_stage_layers");
  s.plan.last_stage_layers = 0;  // 4 layers for 6 stages: two would be empty
  ASSERT_TRUE(check_plan(s));
  EXPECT_EQ(check_plan(s)->field, "parallel.last_stage_layers");
  s.plan.first_stage_layers = 58;  // 6 for 6
  EXPECT_FALSE(check_plan(s));
  s.plan.pp = 2;  // two stages stated hold all the layers, or the plan is refused
  s.plan.dp = 16;
  s.plan.first_stage_layers = 40;
  s.plan.last_stage_layers = 24;
  EXPECT_FALSE(check_plan(s));
  s.plan.last_stage_layers = 20;
  ASSERT_TRUE(check_plan(s));
  EXPECT_EQ(check_plan(s)->field, "parallel.last_stage_layers");
  s.plan.last_stage_layers = -1;
  s.plan.pp = 1;
  s.plan.dp = 32;
  ASSERT_TRUE(check_plan(s));
  EXPECT_EQ(check_plan(s)->field, "parallel.first_stage_layers");
}

// The plan search keeps a stated stage in every plan it weighs, and only pipelines can have one.
TEST(Search, KeepsAStatedLastStage) {
  Scenario s = llama70b_on_16_h100_nodes();
  PlanRequest rq;
  rq.last_stage_layers = 8;
  const SearchResult r = search_plan(s, rq);
  ASSERT_TRUE(r.best);
  EXPECT_GT(r.best->plan.pp, 1);
  EXPECT_EQ(r.best->plan.last_stage_layers, 8);
  EXPECT_DOUBLE_EQ(r.best->last_stage_layers, 8);
}

// Where rounding up would leave whole stages empty (20 layers on 8 ranks: 3, 3, 3, 3, 3, 3, 2 and
// none), the layers go as evenly as they can, the first stages one more: 3 on the first four ranks,
// 2 on the others. The last, with the output layer, sets the pace.
TEST(Estimate, UnevenLayersGoAsEvenlyAsTheyCanRatherThanLeaveAStageEmpty) {
  const Scenario s = eight_stage_pipeline(20);
  ASSERT_FALSE(check_plan(s));
  const LayerAndOutput one = matmul_per_micro_batch(s);
  ASSERT_GT(one.output_s, one.layer_s);
  const Estimate e = estimate(s);
  EXPECT_NEAR(breakdown_of(e, "matmul") / static_cast<double>(e.grad_accum), 2 * one.layer_s + one.output_s,
              1e-9 * one.output_s);
  EXPECT_TRUE(warns(e, "the first 4 virtual stages of 3 layers, the other 4 of 2 layers"));
  // One layer fewer than stages: the last holds the output layer and the loss alone.
  EXPECT_TRUE(warns(estimate(eight_stage_pipeline(7)), "the first 7 virtual stages of 1 layer, the other 1 of none"));
  EXPECT_TRUE(warns(estimate(eight_stage_pipeline(9)), "the first virtual stage of 2 layers, the other 7 of 1 layer"));
}

// pp = layers + 2: the first rank holds only the embedding and the last only the output layer and
// the loss, which here (a 128K vocabulary on 6 small layers) outweighs a layer and sets the pace.
// A rank without layers is timed as such, never divided by its zero layers.
TEST(Estimate, ARankCanHoldOnlyTheEmbeddingOrTheLoss) {
  Scenario s = eight_stage_pipeline(6);
  s.plan.recompute = Recompute::full;
  ASSERT_FALSE(check_plan(s));
  const LayerAndOutput one = matmul_per_micro_batch(s);
  ASSERT_GT(one.output_s, one.layer_s);
  const Estimate e = estimate(s);
  EXPECT_NEAR(breakdown_of(e, "matmul") / static_cast<double>(e.grad_accum), one.output_s, 1e-9 * one.output_s);
  for (const auto& term : e.breakdown_s) EXPECT_TRUE(std::isfinite(term.value)) << term.name;
  EXPECT_TRUE(std::isfinite(memory_per_device(s).total_gib));
}

// Where two more places would split the layers evenly, the embedding and the loss take a layer's
// place each (Megatron-Core's account_for_embedding_in_pipeline_split and ..._loss_...): 62 layers
// on 8 ranks are 7 on the first and the last, 8 between. With a small vocabulary the busiest rank is
// one between, and it holds the most memory too: a layer more than the first rank's embedding.
TEST(Estimate, TheEmbeddingAndTheLossCanTakeALayersPlace) {
  Scenario s = eight_stage_pipeline(62);
  s.model.vocab = 1000;
  ASSERT_FALSE(check_plan(s));
  const LayerAndOutput one = matmul_per_micro_batch(s);
  ASSERT_LT(one.output_s, one.layer_s);
  const Estimate e = estimate(s);
  EXPECT_NEAR(breakdown_of(e, "matmul") / static_cast<double>(e.grad_accum), 8 * one.layer_s, 1e-9 * one.layer_s);
  const ParamCounts c = count_params(s.model);
  const double layer = c.attention + c.norms + c.ffn_dense;
  ASSERT_GT(layer, c.embeddings);
  EXPECT_NEAR(memory_per_device(s).weights_gib * 1024 * 1024 * 1024, 8 * layer * 2, 1e-9 * layer);
  EXPECT_TRUE(warns(e, "the embedding and the loss take a layer's place"));
}

// A stack that launches each local expert's GEMMs one by one (Transformer Engine's GroupedLinear)
// pays the kernel cost per expert: forward, input gradient and weight gradient of the expert's two
// matrices, 6 launches an expert, against 6 for the whole grouped kernel. No other work moves; the
// longer backward can only hide more of the data-parallel reduction.
TEST(Estimate, PerExpertGemmsPayTheKernelCostPerExpert) {
  Scenario s = h100_moe_scenario();
  s.model.gated_ffn = false;
  s.accelerator.cal.kernel_overhead_us = 10;
  const Estimate grouped = estimate(s);
  s.framework.per_expert_gemms = true;
  const Estimate each = estimate(s);
  const double layers = 32, mbs = 256 / 32, local = 64 / 8;
  EXPECT_NEAR(breakdown_of(each, "matmul") - breakdown_of(grouped, "matmul"), layers * mbs * 6 * (local - 1) * 10e-6,
              1e-12);
  for (const char* part : {"attention", "memory_bound", "ep_comm"})
    EXPECT_DOUBLE_EQ(breakdown_of(each, part), breakdown_of(grouped, part)) << part;
  EXPECT_LE(breakdown_of(each, "dp_comm"), breakdown_of(grouped, "dp_comm"));
  // Shared experts are one dense MLP, launched once whatever the flag.
  s.model.moe_shared_experts = 4;
  const double shared_each = breakdown_of(estimate(s), "matmul");
  s.framework.per_expert_gemms = false;
  const double shared_grouped = breakdown_of(estimate(s), "matmul");
  EXPECT_NEAR(shared_each - shared_grouped, layers * mbs * 6 * (local - 1) * 10e-6, 1e-12);
  s.framework.per_expert_gemms = true;
  s.model.moe_shared_experts = 0;
  s.model.moe_experts = 0;  // a dense model has no experts to launch one by one
  s.plan.ep = 1;
  const double dense_each = estimate(s).step_time_s;
  s.framework.per_expert_gemms = false;
  EXPECT_DOUBLE_EQ(estimate(s).step_time_s, dense_each);
}

// Under an FP8 recipe a stack that launches experts one by one quantizes each expert's operands one by
// one too: two quantize launches (the input forward, the output gradient backward) to its three
// GEMMs, 10 launches an expert against the grouped kernel's 6. A grouped stack's FP8 launches do not
// change, and neither does any other part of the step.
TEST(Estimate, PerExpertFp8GemmsPayTheirQuantizeLaunchesPerExpert) {
  Scenario s = h100_moe_scenario();
  s.model.gated_ffn = false;
  s.precision = Precision::fp8;
  s.accelerator.cal.kernel_overhead_us = 10;
  const Estimate grouped = estimate(s);
  s.framework.per_expert_gemms = true;
  const Estimate each = estimate(s);
  const double layers = 32, mbs = 256 / 32, local = 64 / 8;
  EXPECT_NEAR(breakdown_of(each, "matmul") - breakdown_of(grouped, "matmul"), layers * mbs * (10 * local - 6) * 10e-6,
              1e-9 * breakdown_of(grouped, "matmul"));
  for (const char* part : {"attention", "memory_bound", "ep_comm"})
    EXPECT_DOUBLE_EQ(breakdown_of(each, part), breakdown_of(grouped, part)) << part;
}

// A release that quantizes each expert's split from the host pays that host time at every quantize
// launch besides its kernel cost: four an expert (two for each of its two matrices), nothing under
// BF16, and nothing for a stack that quantizes the grouped operands at once.
TEST(Estimate, PerExpertQuantizeHostTimeAddsToEachQuantizeLaunch) {
  Scenario s = h100_moe_scenario();
  s.model.gated_ffn = false;
  s.precision = Precision::fp8;
  s.framework.per_expert_gemms = true;
  const Estimate without = estimate(s);
  s.framework.expert_quantize_us = 50;
  const Estimate with = estimate(s);
  const double layers = 32, mbs = 256 / 32, local = 64 / 8;
  EXPECT_NEAR(breakdown_of(with, "matmul") - breakdown_of(without, "matmul"), layers * mbs * 4 * local * 50e-6,
              1e-9 * breakdown_of(without, "matmul"));
  for (const char* part : {"attention", "memory_bound", "ep_comm"})
    EXPECT_DOUBLE_EQ(breakdown_of(with, part), breakdown_of(without, part)) << part;
  s.framework.per_expert_gemms = false;
  const double grouped = estimate(s).step_time_s;
  s.framework.expert_quantize_us = 0;
  EXPECT_DOUBLE_EQ(estimate(s).step_time_s, grouped);
  s.framework.per_expert_gemms = true;
  s.precision = Precision::bf16;
  const double bf16 = estimate(s).step_time_s;
  s.framework.expert_quantize_us = 50;
  EXPECT_DOUBLE_EQ(estimate(s).step_time_s, bf16);
}

// A dispatcher that sends a token once to each rank holding any of its experts (DeepEP) sends, on
// average, the number of distinct ranks among top_k experts drawn without repeats: checked against
// every draw of small cases. Without it, one copy per expert, at most ep in all.
TEST(Estimate, DispatchOncePerRankSendsTheDistinctRanksOfADraw) {
  const auto distinct_ranks = [](int e, int k, int ep) {
    double sum = 0, draws = 0;
    for (unsigned mask = 0; mask < (1u << e); ++mask) {
      if (__builtin_popcount(mask) != k) continue;
      unsigned ranks = 0;
      for (int i = 0; i < e; ++i)
        if (mask >> i & 1u) ranks |= 1u << (i / (e / ep));
      sum += __builtin_popcount(ranks);
      draws += 1;
    }
    return sum / draws;
  };
  ModelShape m;
  for (const auto& [e, k, ep] : std::vector<std::array<int, 3>>{
           {8, 2, 4}, {16, 4, 4}, {12, 3, 6}, {8, 8, 2}, {10, 1, 5}, {16, 6, 8}, {18, 5, 3}, {6, 2, 6}}) {
    m.moe_experts = e;
    m.moe_top_k = k;
    EXPECT_NEAR(dispatch_copies(m, ep, true), distinct_ranks(e, k, ep), 1e-9) << e << " " << k << " " << ep;
    EXPECT_DOUBLE_EQ(dispatch_copies(m, ep, false), k);  // per (token, expert) pair, ranks repeating
    EXPECT_LE(dispatch_copies(m, ep, true), std::min(k, ep) + 1e-12);
  }
  // Large cases against the closed form through log-gamma, up to the most experts a scenario may give.
  const auto log_choose = [](double a, double k) { return std::lgamma(a + 1) - std::lgamma(a - k + 1); };
  for (const auto& [e, k, ep] : std::vector<std::array<int, 3>>{
           {256, 8, 64}, {99900, 300, 333}, {100000, 50000, 2}, {100000, 7, 100000}, {100000, 100000, 1000}}) {
    m.moe_experts = e;
    m.moe_top_k = k;
    const int g = e / ep;
    const double missed = e - g < k ? 0.0 : std::exp(log_choose(e - g, k) - log_choose(e, k));
    EXPECT_NEAR(dispatch_copies(m, ep, true), ep * (1 - missed), 1e-6 * ep) << e << " " << k << " " << ep;
  }
}

// With the deduplicating dispatcher only the expert-parallel all-to-alls shrink (and what the
// longer or shorter backward hides of the data-parallel reduction); one expert a rank sends the
// same copies either way.
TEST(Estimate, DispatchOncePerRankShrinksOnlyTheAllToAlls) {
  Scenario s = h100_moe_scenario();
  const Estimate per_expert = estimate(s);
  s.framework.dispatch_once_per_rank = true;
  const Estimate per_rank = estimate(s);
  EXPECT_LT(breakdown_of(per_rank, "ep_comm"), breakdown_of(per_expert, "ep_comm"));
  EXPECT_GT(breakdown_of(per_rank, "ep_comm"), 0);
  for (const char* part : {"matmul", "attention", "memory_bound", "tp_comm"})
    EXPECT_DOUBLE_EQ(breakdown_of(per_rank, part), breakdown_of(per_expert, part)) << part;
  s.model.moe_experts = 8;  // one expert a rank: top_k distinct ranks either way
  const double one_each = breakdown_of(estimate(s), "ep_comm");
  s.framework.dispatch_once_per_rank = false;
  EXPECT_NEAR(breakdown_of(estimate(s), "ep_comm"), one_each, 1e-9 * one_each);
}

// Lists built item by item carry their separator only between items, whatever it is.
TEST(Text, AppendItemSeparatesOnlyBetweenItems) {
  std::string list;
  append_item(list, "a");
  EXPECT_EQ(list, "a");
  append_item(list, "b");
  append_item(list, "c", "; ");
  EXPECT_EQ(list, "a, b; c");
  std::string empty_items;
  append_item(empty_items, "", " | ");
  append_item(empty_items, "x", " | ");
  EXPECT_EQ(empty_items, "x");  // an empty list stays without a leading separator
}

TEST(Estimate, MoreMicroBatchesShrinkTheBubble) {
  Scenario s = h100_scenario();
  s.plan = {8, 4, 1, 1, 1, 1, true, 1, 1, Recompute::selective};
  auto bubble_share = [&](long long gb) {
    s.global_batch = gb;
    const Estimate e = estimate(s);
    for (const auto& t : e.breakdown_s)
      if (t.name == "pp_bubble") return t.value / e.step_time_s;
    return -1.0;
  };
  EXPECT_GT(bubble_share(8), bubble_share(64));
  EXPECT_NEAR(bubble_share(64), 3.0 / (64 + 3), 0.02);  // (p-1)/(m+p-1) with small p2p share
}

// 1F1B: the busiest stage (the last, with the output layer and loss) runs every micro-batch, and
// the fill and drain pass once through each other stage: a larger vocabulary lengthens the step
// but not the bubble, which is (p - 1) times a stage of layers alone.
TEST(Estimate, TheBubbleIsTheOtherStagesFillAndDrain) {
  Scenario s = h100_scenario();
  s.plan = {8, 4, 1, 1, 1, 1, true, 1, 1, Recompute::selective};
  s.global_batch = 16;
  auto bubble = [](const Estimate& e) { return breakdown_of(e, "pp_bubble"); };
  const Estimate base = estimate(s);
  s.model.vocab *= 4;
  const Estimate wide = estimate(s);
  EXPECT_GT(wide.step_time_s, base.step_time_s);
  EXPECT_NEAR(bubble(wide), bubble(base), 1e-12 * bubble(base));
  EXPECT_GT(bubble(base), 0);
}

// An interleaved pipeline whose stack overlaps its transfers (Megatron's overlap_p2p_comm) shows
// them only where they outlast the compute they run behind; without interleaving, or without the
// overlap, they are exposed.
TEST(Estimate, OverlappedTransfersOfAnInterleavedPipelineHideBehindItsChunks) {
  Scenario s = h100_scenario();
  s.nodes = 8;
  s.plan = {8, 8, 1, 1, 1, 2, true, 1, 1, Recompute::selective};
  s.global_batch = 16;
  const double exposed = breakdown_of(estimate(s), "pp_p2p");
  EXPECT_GT(exposed, 0);
  s.framework.overlap_p2p = true;
  const Estimate hidden = estimate(s);
  EXPECT_EQ(breakdown_of(hidden, "pp_p2p"), 0);
  s.plan.vpp = 1;
  EXPECT_GT(breakdown_of(estimate(s), "pp_p2p"), 0);
  // Over a link a thousand times slower, the transfers outlast the compute and show again.
  s.plan.vpp = 2;
  s.instance.inter_node_gbps = 3.2;
  EXPECT_GT(breakdown_of(estimate(s), "pp_p2p"), 0);
}

TEST(Estimate, InterleavingShrinksTheBubble) {
  Scenario s = h100_scenario();
  s.plan = {8, 4, 1, 1, 1, 1, true, 1, 1, Recompute::selective};
  s.global_batch = 16;
  const double plain = estimate(s).step_time_s;
  s.plan.vpp = 2;
  EXPECT_LT(estimate(s).step_time_s, plain);
}

TEST(Memory, GrowsWithMicroBatch) {
  Scenario s = h100_scenario();
  double last = 0;
  for (int b : {1, 2, 4, 8}) {
    s.plan.micro_batch = b;
    const Memory m = memory_per_device(s);
    EXPECT_GT(m.activations_gib, last);
    last = m.activations_gib;
  }
}

TEST(Memory, KorthikantiTable2SequenceParallel) {
  // GPT block (f = 4h, MHA, dropout) with tp and sequence parallelism and selective recompute:
  // s b h (34 / t) bytes per layer (Korthikanti et al. 2022, Table 2).
  Scenario s = gpt3_one_sample_on_tp8();
  s.model.dropout = true;
  const double expected_layer = 2048.0 * 12288 * 34 / 8;
  const Memory m = memory_per_device(s);
  const double logits = 2048.0 * (50257 / 8) * 6;
  EXPECT_NEAR(m.activations_gib * 1024 * 1024 * 1024, 96 * expected_layer + logits,
              0.01 * 96 * expected_layer);
}

// GPT-OSS's clamped SwiGLU runs op by op: per routed copy of a token it reads and writes 11
// FFN-width elements where the fused kernel does 3 (forward; backward twice that), and keeps 5
// where the fused one keeps 2. The MoE scenario: 32 layers, 8 micro-batches of 8,192 tokens on a
// rank, top 4 of experts 2,048 wide, BF16, tp 1.
TEST(Memory, AClampedSwigluRunsOpByOpAndKeepsItsIntermediates) {
  Scenario s = h100_moe_scenario();
  const double routed_elements = 32.0 * 8192 * 4 * 2048;
  const double hbm = 3.35e12 * s.accelerator.cal.hbm_efficiency;
  // The fused baselines: a GeLU FFN's activation moves 2 elements and keeps 1, SwiGLU's 3 and 2
  // (over the same shape the GEMMs differ, not the other memory-bound work).
  s.model.gated_ffn = false;
  const double gelu_memory_bound = breakdown_of(estimate(s), "memory_bound");
  const double gelu_kept = memory_per_device(s).activations_gib;
  s.model.gated_ffn = true;
  const Estimate fused = estimate(s);
  const Memory fused_memory = memory_per_device(s);
  EXPECT_NEAR(breakdown_of(fused, "memory_bound") - gelu_memory_bound, 8.0 * 3 * routed_elements * 1 * 2 / hbm, 1e-6);
  EXPECT_NEAR((fused_memory.activations_gib - gelu_kept) * 1024 * 1024 * 1024, routed_elements * 2, 1e3);
  s.model.swiglu_limit = 7;
  const Estimate clamped = estimate(s);
  EXPECT_NEAR(breakdown_of(clamped, "memory_bound") - breakdown_of(fused, "memory_bound"),
              8.0 * 3 * routed_elements * 8 * 2 / hbm, 1e-6);
  EXPECT_DOUBLE_EQ(breakdown_of(clamped, "matmul"), breakdown_of(fused, "matmul"));
  const double kept_bytes = (memory_per_device(s).activations_gib - fused_memory.activations_gib) * 1024 * 1024 * 1024;
  EXPECT_NEAR(kept_bytes, 3.0 * routed_elements * 2, 1e-6 * kept_bytes);
  s.model.swiglu_limit = -1;
  ASSERT_TRUE(check_model(s.model).has_value());
  EXPECT_EQ(check_model(s.model)->field, "model.swiglu_limit");
  s.model.swiglu_limit = std::nan("");
  ASSERT_TRUE(check_model(s.model).has_value());
  EXPECT_EQ(check_model(s.model)->field, "model.swiglu_limit");
  s.model.swiglu_limit = 7;
  s.model.gated_ffn = false;
  ASSERT_TRUE(check_model(s.model).has_value());
  EXPECT_EQ(check_model(s.model)->field, "model.swiglu_limit");
}

// A fused cross-entropy (flash-attn's, llm-foundry's default) keeps the 16-bit logits and derives
// their gradient from them: the 4-byte FP32 copy per logit goes, and the loss reads 2-byte logits.
TEST(Memory, FusedLossKeepsOnlyTheSixteenBitLogits) {
  Scenario s = gpt3_one_sample_on_tp8();
  const Memory upcast = memory_per_device(s);
  const double upcast_s = estimate(s).step_time_s;
  s.fp32_loss_logits = false;
  const double saved_bytes = (upcast.activations_gib - memory_per_device(s).activations_gib) * 1024 * 1024 * 1024;
  EXPECT_NEAR(saved_bytes, 2048.0 * (50257 / 8) * 4, 1e-6 * saved_bytes);
  EXPECT_LT(estimate(s).step_time_s, upcast_s);
}

// FP8 GEMMs in a Transformer Engine stack keep their inputs' 1-byte copies for the weight
// gradient: of the GPT block above, the QKV, output-projection, FFN and second FFN inputs
// (h + h + h + 4h elements a token, over tp with sequence parallelism) lose a byte each.
TEST(Memory, Fp8GemmInputsAreKeptQuantizedWhereTheStackDoesSo) {
  Scenario s = gpt3_one_sample_on_tp8();
  s.precision = Precision::fp8;
  s.framework.keeps_quantized_gemm_inputs = false;
  const double sixteen_bit = memory_per_device(s).activations_gib;
  s.precision = Precision::bf16;
  EXPECT_DOUBLE_EQ(memory_per_device(s).activations_gib, sixteen_bit);
  s.precision = Precision::fp8;
  s.framework.keeps_quantized_gemm_inputs = true;
  const double saved_bytes = (sixteen_bit - memory_per_device(s).activations_gib) * 1024 * 1024 * 1024;
  EXPECT_NEAR(saved_bytes, 96 * 2048.0 * 7 * 12288 / 8, 1e-6 * saved_bytes);
}

// torchtitan's per-op selective checkpointing on Llama 3 8B (h 4096, q 4096, K/V 1024, FFN 14336,
// seq 8192, tp 1): a layer keeps its input and the outputs of Q, V, the attention kernel, the
// gate and the down projection, 2 bytes x 8192 x (4096 + 4096 + 1024 + 4096 + 14336 + 4096);
// the layer being recomputed holds its whole activations once; the replay adds K, O and up, 2 h
// (1024 + 4096 + 14336) FLOPs a token and layer.
TEST(Memory, PerOpCheckpointingKeepsEveryOtherMatmul) {
  Scenario s = h100_scenario();
  s.framework.selective = FrameworkProfile::Selective::every_other_matmul;
  s.plan.recompute = Recompute::none;
  const double none = memory_per_device(s).activations_gib * 1024 * 1024 * 1024;
  s.plan.recompute = Recompute::selective;
  const double kept = memory_per_device(s).activations_gib * 1024 * 1024 * 1024;
  const double logits = 8192.0 * 128256 * 6, layer = 2.0 * 8192 * (4096 + 4096 + 1024 + 4096 + 14336 + 4096);
  EXPECT_NEAR(kept, 31 * layer + (none - logits) / 32 + logits, 1e-9 * kept);
  const Estimate e = estimate(s);
  EXPECT_NEAR(e.hardware_flops_per_step - e.model_flops_per_step,
              2.0 * 32 * 4096 * (1024 + 4096 + 14336) * 256 * 8192, 1e-9 * e.hardware_flops_per_step);
  s.framework.selective = FrameworkProfile::Selective::attention;
  EXPECT_LT(estimate(s).step_time_s, e.step_time_s);
}

// Latent attention (DeepSeek-V3, Section 2.1.1) keeps V at its own head width, narrower than K's,
// and each latent twice (its norm's input and its up projection's input). Llama 3 8B's shape with
// 32 latent-attention heads, 8,192 tokens a micro-batch, BF16, no recompute: a rank's V heads and the
// output projection's input grow by 2 bytes each a head and element of v_head_dim; the latents, whole
// on every tp rank, are split by sequence parallelism.
TEST(Memory, LatentAttentionKeepsItsLatentsAndItsNarrowerValues) {
  for (const auto& [tp, sp] : {std::pair{1, false}, std::pair{8, false}, std::pair{8, true}}) {
    Scenario s = h100_scenario();
    s.plan.recompute = Recompute::none;
    s.plan.tp = tp;
    s.plan.dp = 32 / tp;
    s.plan.sequence_parallel = sp;
    use_latent_attention(s.model);
    s.model.q_lora_rank = 1536;
    ASSERT_FALSE(check_model(s.model));
    ASSERT_FALSE(check_plan(s)) << tp;
    const double tokens_and_layers = 8192.0 * 32;
    auto activations = [&] { return memory_per_device(s).activations_gib * 1024 * 1024 * 1024; };
    const double base = activations();
    s.model.v_head_dim = 160;
    EXPECT_NEAR(activations() - base, tokens_and_layers * 2 * 2 * (32 / tp) * 32, 1e-9 * base) << tp;
    s.model.v_head_dim = 128;
    const double latent_share = sp ? 1.0 / tp : 1.0;
    s.model.kv_lora_rank = 1024;
    EXPECT_NEAR(activations() - base, tokens_and_layers * 2 * 2 * 512 * latent_share, 1e-9 * base) << tp << sp;
    s.model.kv_lora_rank = 512;
    s.model.q_lora_rank = 2048;
    EXPECT_NEAR(activations() - base, tokens_and_layers * 2 * 2 * 512 * latent_share, 1e-9 * base) << tp << sp;
  }
}

// A fully recomputed layer's replay keeps everything its backward reads, an unfused attention's
// scores included: with every layer keeping only its input either way, unfused attention adds one
// layer's softmax output (2 bytes a score; no dropout) over 32 heads x 8,192 queries x 8,192 keys.
TEST(Memory, AReplayedLayerHoldsItsScoresOnce) {
  Scenario s = h100_scenario();
  s.plan.recompute = Recompute::full;
  const double fused = memory_per_device(s).activations_gib * 1024 * 1024 * 1024;
  s.flash_attention = false;
  const double unfused = memory_per_device(s).activations_gib * 1024 * 1024 * 1024;
  EXPECT_NEAR(unfused - fused, 2.0 * 32 * 8192 * 8192, 1e-9 * unfused);
}

// The per-op policy saves reduce-scatters, not all-gathers: under sequence parallelism a layer's
// replay runs its two forward all-gathers again, a quarter of its tensor-parallel time (two
// all-reduces' worth forward, two backward); without sequence parallelism, its two forward
// all-reduces, half of it. Hiding every collective (tp_overlap 1) leaves the replay its matmuls and
// elementwise work alone.
TEST(Estimate, PerOpCheckpointingReplaysTheCollectivesItDoesNotSave) {
  Scenario s = h100_scenario();
  s.framework.selective = FrameworkProfile::Selective::every_other_matmul;
  s.plan.tp = 8;
  s.plan.dp = 4;
  for (const bool sp : {true, false}) {
    s.plan.sequence_parallel = sp;
    Scenario free_links = s;  // collectives that take no time
    free_links.instance.intra.gb_per_s_per_chip = 1e15;
    free_links.instance.intra.latency_us = 0;
    const double compute_only = breakdown_of(estimate(free_links), "recompute");
    const Estimate e = estimate(s);
    const double tp = breakdown_of(e, "tp_comm");
    ASSERT_GT(tp, 0);
    EXPECT_NEAR(breakdown_of(e, "recompute") - compute_only, (sp ? 0.25 : 0.5) * tp, 1e-9 * tp) << sp;
  }
}

// Rowwise FP8 scaling (torchao) quantizes each weight-gradient operand again from its 16-bit copy,
// and a tensor-parallel input whole after its gather: memory-bound work only, more of it under
// sequence parallelism; GEMMs, attention and tensor-parallel collectives (with no overlap, below)
// keep their time, and a 16-bit job ignores the setting.
TEST(Estimate, RowwiseFp8ScalingAddsItsCastsAndNothingElse) {
  Scenario s = h100_scenario();
  s.plan.tp = 8;
  s.plan.dp = 4;
  auto with = [&](Precision p, Fp8Scaling f, bool sp) {
    Scenario v = s;
    v.precision = p;
    v.fp8_scaling = f;
    v.plan.sequence_parallel = sp;
    return estimate(v);
  };
  EXPECT_DOUBLE_EQ(with(Precision::bf16, Fp8Scaling::rowwise, true).step_time_s,
                   with(Precision::bf16, Fp8Scaling::per_tensor, true).step_time_s);
  double added[2] = {0, 0};
  for (const bool sp : {false, true}) {
    const Estimate tensor = with(Precision::fp8, Fp8Scaling::per_tensor, sp);
    const Estimate row = with(Precision::fp8, Fp8Scaling::rowwise, sp);
    for (const char* term : {"matmul", "attention", "tp_comm"}) {  // dp_comm: a longer backward hides more
      EXPECT_GE(breakdown_of(tensor, term), 0) << term << sp;
      EXPECT_DOUBLE_EQ(breakdown_of(row, term), breakdown_of(tensor, term)) << term << sp;
    }
    added[sp] = breakdown_of(row, "memory_bound") - breakdown_of(tensor, "memory_bound");
    EXPECT_GT(added[sp], 0.02 * tensor.step_time_s) << sp;
  }
  EXPECT_GT(added[1], added[0]);
  // A Transformer Engine stack does not run torchao's recipe: the estimate says so.
  Scenario te = s;
  te.precision = Precision::fp8;
  te.fp8_scaling = Fp8Scaling::rowwise;
  EXPECT_FALSE(warns(estimate(te), "fp8_scaling"));
  te.framework.keeps_quantized_gemm_inputs = true;
  EXPECT_TRUE(warns(estimate(te), "fp8_scaling: rowwise is torchao's recipe"));
}

// PyTorch's asynchronous tensor parallelism hides its own share of the TP collectives where the
// framework runs it; elsewhere the framework's own overlap applies and the estimate says why. Under
// a rowwise FP8 recipe only the reduce-scatter half hides: its all-gather feeds a cast, not a GEMM.
TEST(Estimate, AsynchronousTensorParallelismHidesItsOwnShare) {
  auto tp_comm_s = [](bool async, double async_share, Fp8Scaling scaling, double tp_share = 0.1) {
    Scenario s = gpt3_one_sample_on_tp8();
    s.precision = Precision::fp8;
    s.fp8_scaling = scaling;
    s.framework.tp_overlap = tp_share;
    s.framework.async_tp_overlap = async_share;
    s.async_tp = async;
    const Estimate e = estimate(s);
    EXPECT_EQ(warns(e, "async_tp"), async && async_share == 0) << async << async_share;
    return breakdown_of(e, "tp_comm");
  };
  for (const Fp8Scaling f : {Fp8Scaling::per_tensor, Fp8Scaling::rowwise}) {
    const double exposed = tp_comm_s(false, 0.4, f, 0.0);
    const double gather_share = f == Fp8Scaling::rowwise ? 0.5 : 1.0;
    ASSERT_GT(exposed, 0);
    EXPECT_NEAR(tp_comm_s(false, 0.4, f), exposed * (1 - gather_share * 0.1), 1e-12 * exposed);
    EXPECT_NEAR(tp_comm_s(true, 0.4, f), exposed * (1 - gather_share * 0.4), 1e-12 * exposed);
    EXPECT_NEAR(tp_comm_s(true, 0.0, f), exposed * (1 - gather_share * 0.1), 1e-12 * exposed);
  }
  // Both overlaps split sequence parallelism's all-gather and reduce-scatter: none without it.
  Scenario s = gpt3_one_sample_on_tp8();
  s.plan.sequence_parallel = false;
  s.framework.tp_overlap = 0.1;
  s.framework.async_tp_overlap = 0.4;
  s.async_tp = true;
  const double unsplit = breakdown_of(estimate(s), "tp_comm");
  s.framework.tp_overlap = s.framework.async_tp_overlap = 0;
  EXPECT_DOUBLE_EQ(unsplit, breakdown_of(estimate(s), "tp_comm"));
  // It works through CUDA's symmetric memory: not on Trainium, whatever the profile's share.
  s.accelerator.id = "trainium2";
  s.framework.async_tp_overlap = 0.4;
  EXPECT_FALSE(async_tp_available(s));
  s.accelerator.id = "h100-sxm";
  EXPECT_TRUE(async_tp_available(s));
}

// Full recompute replays the forward of the transformer layers: 2 FLOPs a parameter and the
// attention scores, not the output layer, which sits outside the checkpointed blocks.
TEST(Estimate, FullRecomputeReplaysTheLayersNotTheOutputLayer) {
  Scenario s = h100_scenario();
  s.plan.recompute = Recompute::full;
  const Estimate e = estimate(s);
  const double scores = 2.0 * 32 * (4096 + 4096) * attended_keys(s.model);
  const double tokens = 256.0 * 8192;
  EXPECT_NEAR(e.hardware_flops_per_step - e.model_flops_per_step,
              (2.0 * count_params(s.model).layers_active + scores) * tokens, 1e-9 * e.hardware_flops_per_step);
  EXPECT_LT(e.hardware_flops_per_step - e.model_flops_per_step, e.model_flops_per_step / 3);
}

// LoRA skips the frozen weights' gradients, 2 FLOPs a parameter of every matmul (output layer
// included), and adds the adapters' training; the attention core, with no weights, runs its whole
// backward either way.
TEST(Estimate, LoraCountsTheAttentionBackwardInFull) {
  Scenario s = h100_scenario();
  const double full = model_flops_per_token(s);
  s.mode = TrainingMode::lora;
  s.lora_rank = 16;
  const double matmul = count_params(s.model).layers_active + 128256.0 * 4096;
  EXPECT_NEAR(full - model_flops_per_token(s),
              2 * matmul - 6 * lora_active_params(s.model, 16, s.framework.fused_projections), 1e-9 * full);
}

// A stack that fuses Q, K and V into one module, and a gated FFN's gate and up projections into one
// (Megatron-Core's linear_qkv and linear_fc1), adapts each fused module with one adapter pair: the
// projections that read one input share one down-projection A (hidden x rank), so the count drops by
// exactly those As, two for Q, K, V and one for gate and up (in each expert).
TEST(Params, FusedProjectionsShareTheirAdaptersInput) {
  ModelShape m = llama(32, 4096, 14336, 32, 8, 128256);
  const double r = 16, h = 4096, layers = 32;
  EXPECT_NEAR(lora_params(m, 16, false) - lora_params(m, 16, true), layers * r * 3 * h, 1e-6);
  EXPECT_DOUBLE_EQ(lora_active_params(m, 16, true), lora_params(m, 16, true));
  m.gated_ffn = false;
  EXPECT_NEAR(lora_params(m, 16, false) - lora_params(m, 16, true), layers * r * 2 * h, 1e-6);
  m.gated_ffn = true;
  m.moe_experts = 8;
  m.moe_top_k = 2;
  EXPECT_NEAR(lora_params(m, 16, false) - lora_params(m, 16, true), layers * r * (2 + 8) * h, 1e-6);
  EXPECT_NEAR(lora_active_params(m, 16, false) - lora_active_params(m, 16, true), layers * r * (2 + 2) * h, 1e-6);
}

// A mixture's dense layers adapt one FFN of their own width where its expert layers adapt each
// expert's (or, counting active parameters, the routed ones').
TEST(Params, DenseLayersOfAMixtureAdaptOneFfn) {
  ModelShape m = llama(32, 4096, 1408, 32, 8, 128256);
  m.moe_experts = 8;
  m.moe_top_k = 2;
  ModelShape mixed = m;
  mixed.dense_layers = 4;
  mixed.dense_ffn_hidden = 11008;
  const double r = 16, h = 4096, f = 1408, fd = 11008;
  const auto unfused = [&](double ffns) { return 4 * 3 * r * ((h + fd) - ffns * (h + f)); };
  EXPECT_NEAR(lora_params(mixed, 16, false) - lora_params(m, 16, false), unfused(8), 1e-6);
  EXPECT_NEAR(lora_active_params(mixed, 16, false) - lora_active_params(m, 16, false), unfused(2), 1e-6);
  EXPECT_NEAR(lora_params(mixed, 16, true) - lora_params(m, 16, true),
              4 * r * ((2 * h + 3 * fd) - 8 * (2 * h + 3 * f)), 1e-6);
}

// A checkpoint holds the weights and the optimizer state (FP32 master and two moments) of what
// trains: the whole model, or under LoRA its adapters alone, 14 bytes each. By hand, rank 16 on
// each of 32 layers: attention 16 ((4096 + 4096) + 2 (4096 + 1024) + (4096 + 4096)), the gated
// FFN 3 x 16 (4096 + 14336): 41,943,040 adapter parameters.
TEST(Estimate, ALoraCheckpointHoldsTheAdaptersAlone) {
  Scenario s = h100_scenario();
  ASSERT_TRUE(s.master_weights);
  EXPECT_NEAR(estimate(s).checkpoint_bytes, count_params(s.model).total * (2 + 12), 1.0);
  s.mode = TrainingMode::lora;
  s.lora_rank = 16;
  ASSERT_FALSE(s.framework.fused_projections);
  const Estimate e = estimate(s);
  EXPECT_NEAR(e.checkpoint_bytes, 41943040.0 * 14, 1.0);
  EXPECT_NEAR(e.frozen_weights_bytes, count_params(s.model).total * 2, 1.0);  // the base, stored once
}

// A LoRA job at rank 16 whose GEMMs cost their math alone: no kernel cost, memory too fast to
// matter, half the H100's peak.
Scenario math_only_lora(Scenario s) {
  s.accelerator.cal.kernel_overhead_us = 0;
  s.accelerator.hbm_tb_per_s = 3.35e6;
  s.accelerator.cal.matmul_efficiency_max = 0.5;
  s.mode = TrainingMode::lora;
  s.lora_rank = 16;
  return s;
}

// The matmul time a step gains when the LoRA rank goes from 16 to 32.
double rank_doubling_s(Scenario s) {
  s.lora_rank = 16;
  const double low = breakdown_of(estimate(s), "matmul");
  s.lora_rank = 32;
  return breakdown_of(estimate(s), "matmul") - low;
}

// Under fused projections LoRA runs four adapter pairs a layer instead of seven: 18 fewer launches
// a layer and micro-batch (three a linear: forward, input and weight gradients), and no more work
// anywhere else; a job without adapters does not change.
TEST(Estimate, FusedProjectionsRunFewerAdapters) {
  Scenario s = h100_scenario();
  s.accelerator.cal.kernel_overhead_us = 10;
  const double full_ft = estimate(s).step_time_s;
  s.framework.fused_projections = true;
  EXPECT_DOUBLE_EQ(estimate(s).step_time_s, full_ft);
  s.mode = TrainingMode::lora;
  s.lora_rank = 16;
  const Estimate fused = estimate(s);
  s.framework.fused_projections = false;
  const Estimate separate = estimate(s);
  const double layers = 32, mbs = 256 / 32;
  EXPECT_GE(breakdown_of(separate, "matmul") - breakdown_of(fused, "matmul"), layers * mbs * 18 * 10e-6 * (1 - 1e-9));
  for (const char* part : {"attention", "memory_bound"})
    EXPECT_DOUBLE_EQ(breakdown_of(fused, part), breakdown_of(separate, part)) << part;
  EXPECT_LT(fused.model_flops_per_step, separate.model_flops_per_step);
  EXPECT_LT(fused.step_time_s, separate.step_time_s);
  // With no kernel cost and memory too fast to matter, the difference is the math of the down-
  // projections the fused modules share: two for Q, K, V and one for gate and up, 2 T r h FLOPs
  // each in the forward, the input gradient and the weight gradient. The up-projections' outputs,
  // Q + 2 K/V and gate + up, are as wide either way.
  s = math_only_lora(s);
  const double separate_math = breakdown_of(estimate(s), "matmul");
  s.framework.fused_projections = true;
  const double rate = 989.4e12 * 0.5, T = 8192, r = 16, h = 4096;
  EXPECT_NEAR(separate_math - breakdown_of(estimate(s), "matmul"), layers * mbs * 3 * 3 * 2 * T * r * h / rate,
              1e-6 * separate_math);
}

// An adapter pair's three passes run 6 FLOPs a token per adapter parameter on the tokens its
// projection sees: with the kernel cost and memory traffic out of the way, doubling the rank adds
// exactly 6 T FLOPs a micro-batch per added active adapter parameter (lora_active_params), for a
// dense model and for one whose FFN adapters run on each expert's routed tokens and on a shared
// expert, fused or not.
TEST(Estimate, LoraAdaptersRunOnTheTokensTheirProjectionSees) {
  for (const bool moe : {false, true})
    for (const bool fused : {false, true}) {
      Scenario s = math_only_lora(moe ? h100_moe_scenario() : h100_scenario());
      if (moe) s.model.moe_shared_experts = 1;
      s.framework.fused_projections = fused;
      const double added = lora_active_params(s.model, 32, fused) - lora_active_params(s.model, 16, fused);
      EXPECT_NEAR(rank_doubling_s(s), 256 / 32 * 6 * 8192 * added / (989.4e12 * 0.5), 1e-9)
          << (moe ? "moe" : "dense") << (fused ? " fused" : " separate");
    }
  // Tensor parallel 2 over 4 data replicas with 8 expert-parallel ranks leaves the experts whole
  // (expert tensor parallel 1): a rank's 8 local experts see 2 T routed tokens at the full expert
  // width 2048, the attention's and the shared expert's adapters T tokens at half their widths.
  // Sums of (input + output) widths a layer, separate Q/K/V and gate/up: attention (4096 + 2048) +
  // 2 (4096 + 512) + (2048 + 4096); an expert 3 (4096 + 2048); the shared expert 3 (4096 + 1024).
  Scenario s = math_only_lora(h100_moe_scenario());
  s.model.moe_shared_experts = 1;
  s.nodes = 1;
  s.plan.tp = 2;
  s.plan.dp = 4;
  const double widths = 21504 + 2 * 18432 + 15360, mbs = 256 / 4;
  EXPECT_NEAR(rank_doubling_s(s), 32 * mbs * 6 * 8192 * 16 * widths / (989.4e12 * 0.5), 1e-9);
  // Launched expert by expert, each local expert's adapters pay their own kernel costs beside its
  // frozen GEMMs: 3 adapter pairs x 3 passes and 2 frozen matrices x 2 passes, for 7 more experts.
  s.accelerator.cal.kernel_overhead_us = 10;
  const double grouped = breakdown_of(estimate(s), "matmul");
  s.framework.per_expert_gemms = true;
  EXPECT_NEAR(breakdown_of(estimate(s), "matmul") - grouped, 32 * mbs * (18 + 4) * 7 * 10e-6, 1e-9 * grouped);
  // Under FP8 each of the 8 experts' two frozen matrices also pays its two quantize launches (the
  // input forward, the output gradient backward); the adapters and the grouped kernel pay none.
  s.precision = Precision::fp8;
  s.framework.per_expert_gemms = false;
  const double grouped_fp8 = breakdown_of(estimate(s), "matmul");
  s.framework.per_expert_gemms = true;
  const double each_fp8 = breakdown_of(estimate(s), "matmul");
  EXPECT_NEAR(each_fp8 - grouped_fp8, 32 * mbs * ((18 + 4) * 7 + 2 * 2 * 8) * 10e-6, 1e-9 * grouped_fp8);
  // A release's host time a quantize goes on those frozen matrices' quantizes alone.
  s.framework.expert_quantize_us = 50;
  EXPECT_NEAR(breakdown_of(estimate(s), "matmul") - each_fp8, 32 * mbs * 2 * 2 * 8 * 50e-6, 1e-9 * each_fp8);
}

// An FP8 recipe reads each 16-bit weight of the transformer layers and writes a rowwise and a
// columnwise FP8 copy, 4 bytes a parameter through HBM: once a step in a stack that caches the
// copies over its micro-batches, every micro-batch otherwise. BF16 GEMMs need no copy.
TEST(Estimate, Fp8WeightsAreQuantizedOnceAStepWhereCached) {
  Scenario s = h100_scenario();
  s.accelerator.cal.hbm_efficiency = 0.85;
  const double bf16 = breakdown_of(estimate(s), "memory_bound");
  s.framework.caches_quantized_weights = true;
  EXPECT_DOUBLE_EQ(breakdown_of(estimate(s), "memory_bound"), bf16);
  s.precision = Precision::fp8;
  const double cached = breakdown_of(estimate(s), "memory_bound");
  s.framework.caches_quantized_weights = false;
  const double every = breakdown_of(estimate(s), "memory_bound");
  const ParamCounts c = count_params(s.model);
  const double bw = 3.35e12 * 0.85, pass = 32 * (c.attention + c.ffn_dense) * 4.0 / bw;
  EXPECT_NEAR(every - cached, (256 / 32 - 1) * pass, 1e-9 * every);
  // Tensor parallelism splits each weight: a rank quantizes its half, over 256 / 16 micro-batches.
  s.plan.tp = 2;
  s.plan.dp = 16;
  const double every_tp = breakdown_of(estimate(s), "memory_bound");
  s.framework.caches_quantized_weights = true;
  EXPECT_NEAR(every_tp - breakdown_of(estimate(s), "memory_bound"), (256 / 16 - 1) * pass / 2, 1e-9 * every_tp);
  // Full recompute replays the forward, which quantizes again (2 bytes read, 1 written) where
  // nothing is cached.
  s.plan.recompute = Recompute::full;
  const double replay_cached = breakdown_of(estimate(s), "recompute");
  s.framework.caches_quantized_weights = false;
  EXPECT_NEAR(breakdown_of(estimate(s), "recompute") - replay_cached, 16 * pass / 2 * 3 / 4, 1e-9 * replay_cached);
  // Routed experts: a rank holds 64 / 8 of them a layer, beside the attention.
  Scenario moe = h100_moe_scenario();
  moe.precision = Precision::fp8;
  moe.accelerator.cal.hbm_efficiency = 0.85;
  const double moe_every = breakdown_of(estimate(moe), "memory_bound");
  moe.framework.caches_quantized_weights = true;
  const ParamCounts cm = count_params(moe.model);
  EXPECT_NEAR(moe_every - breakdown_of(estimate(moe), "memory_bound"),
              (256 / 32 - 1) * 32 * (cm.attention + 64 * cm.expert / 8) * 4.0 / bw, 1e-9 * moe_every);
}

// The host work a step waits for comes once a step, whatever the step's micro-batches, and adds
// to the step as it is; an accelerator whose stacks launch asynchronously has none.
TEST(Estimate, TheHostCostComesOnceAStep) {
  Scenario s = h100_scenario();
  const Estimate async = estimate(s);
  EXPECT_EQ(breakdown_of(async, "step_overhead"), 0);
  s.accelerator.cal.step_overhead_ms = 90;
  const Estimate traced = estimate(s);
  EXPECT_DOUBLE_EQ(breakdown_of(traced, "step_overhead"), 0.09);
  EXPECT_NEAR(traced.step_time_s - async.step_time_s, 0.09, 1e-12);
  s.global_batch *= 4;  // four times the micro-batches
  EXPECT_DOUBLE_EQ(breakdown_of(estimate(s), "step_overhead"), 0.09);
}

// ZeRO-2 keeps no full gradient buffer: it reduce-scatters every micro-batch's gradients, where
// ZeRO-1 accumulates and reduces once a step; with nothing hidden, each extra micro-batch adds one
// reduce-scatter.
TEST(Estimate, ZeroTwoReduceScattersEveryMicroBatch) {
  Scenario s = h100_scenario();
  s.framework.dp_overlap = 0;
  s.instance.inter_node_gbps = 100;
  auto extra = [&](long long global_batch) {
    s.global_batch = global_batch;
    s.plan.zero = 1;
    const double z1 = breakdown_of(estimate(s), "dp_comm");
    s.plan.zero = 2;
    return breakdown_of(estimate(s), "dp_comm") - z1;
  };
  EXPECT_NEAR(extra(32), 0.0, 1e-12);  // one micro-batch a step
  const double four = extra(128), eight = extra(256);
  EXPECT_GT(four, 0.0);
  EXPECT_NEAR(eight / four, 7.0 / 3.0, 1e-9);
}

// Ring attention's backward sends K and V around the ring again beside their gradients: over a
// link so slow that the attention hides almost nothing, the exposed ring is three forward rings
// (one forward, two backward) a layer and micro-batch, less the attention it overlaps. K and V
// travel at their own widths: 1,024 each for Llama 3 8B's grouped-query heads; 32 x 192 and
// 32 x 128 under latent attention.
TEST(Estimate, ContextParallelBackwardMovesTwiceTheForwardBytes) {
  Scenario s = h100_scenario();
  s.plan.cp = 2;
  s.plan.dp = 16;
  s.plan.recompute = Recompute::none;
  s.instance.intra = {"slow", 1, 0, 1.0};
  auto exposed_and_hidden = [&] {
    const Estimate e = estimate(s);
    return breakdown_of(e, "cp_comm") + breakdown_of(e, "attention");
  };
  const double micro_batches = 256.0 / 16;
  // 4,096 tokens a rank, 2 bytes, cp 2: half the buffer moves.
  auto rings_s = [&](double k_width, double v_width) {
    return 3 * 0.5 * 4096.0 * (k_width + v_width) * 2 * 2 / 1e9 * 32 * micro_batches;
  };
  EXPECT_NEAR(exposed_and_hidden(), rings_s(1024, 1024), 1e-9 * rings_s(1024, 1024));
  use_latent_attention(s.model);
  EXPECT_NEAR(exposed_and_hidden(), rings_s(32 * 192, 32 * 128), 1e-9 * rings_s(32 * 192, 32 * 128));
  // Full recompute replays the forward, its ring's exposed part too: at most one ring of the three.
  s.plan.recompute = Recompute::full;
  const double slow = breakdown_of(estimate(s), "recompute");
  s.instance.intra = {"NVSwitch", 450, 3, 0.8};
  const double fast = breakdown_of(estimate(s), "recompute");
  EXPECT_GT(slow, fast);
  EXPECT_LT(slow - fast, rings_s(32 * 192, 32 * 128) / 3);
}

// Under sequence parallelism a mixture-of-experts layer's input is split over the tp ranks, so
// each routes only its share of the tokens; the other GEMMs run on the gathered sequence either
// way.
TEST(Estimate, TheRouterRunsOnARanksShareOfTheSequence) {
  for (const bool moe : {false, true}) {
    Scenario s = moe ? h100_moe_scenario() : h100_scenario();
    s.plan.tp = 4;
    s.plan.dp = 8;
    if (moe) s.plan.ep = 8;
    s.plan.sequence_parallel = false;
    ASSERT_FALSE(check_plan(s));
    const double whole = breakdown_of(estimate(s), "matmul");
    s.plan.sequence_parallel = true;
    const double split = breakdown_of(estimate(s), "matmul");
    if (moe) {
      EXPECT_LT(split, whole);
    } else {
      EXPECT_DOUBLE_EQ(split, whole);
    }
  }
}

// Unfused attention computes the whole score matrix, its masked half too, in the pass and again
// in its recompute: selective recompute replays all s keys a query, not the causal half.
TEST(Estimate, UnfusedRecomputeReplaysTheWholeScoreMatrix) {
  Scenario s = h100_scenario();
  s.flash_attention = false;
  const Estimate e = estimate(s);
  const double per_key = 2.0 * 32 * (4096 + 4096), tokens = 256.0 * 8192;
  const double masked = 8192 - attended_keys(s.model);
  EXPECT_NEAR(e.hardware_flops_per_step - e.model_flops_per_step, per_key * tokens * (8192 + 3 * masked),
              1e-9 * e.hardware_flops_per_step);
}

// Block recompute of k of a stage's n layers (Megatron's --recompute-num-layers): those keep only
// their input, the others everything, and k of the n layers replay their forward; all n is full
// recompute. Memory and replay are linear in k.
TEST(Memory, RecomputingSomeLayersIsTheMixOfNoneAndFull) {
  Scenario s = h100_scenario();
  s.plan.recompute = Recompute::full;
  const double full = memory_per_device(s).activations_gib;
  const double full_replay = breakdown_of(estimate(s), "recompute");
  auto with_layers = [&](int k) {
    s.plan.recompute_layers = k;
    return memory_per_device(s).activations_gib;
  };
  EXPECT_DOUBLE_EQ(with_layers(32), full);
  const double eight = with_layers(8), sixteen = with_layers(16), twenty_four = with_layers(24);
  EXPECT_GT(eight, sixteen);
  EXPECT_NEAR(eight - sixteen, sixteen - twenty_four, 1e-9);
  EXPECT_NEAR(twenty_four - full, (eight - sixteen) / 1.0, 1e-9);
  s.plan.recompute_layers = 8;
  EXPECT_NEAR(breakdown_of(estimate(s), "recompute"), full_replay * 8 / 32, 1e-12);
  s.plan.recompute = Recompute::selective;
  ASSERT_TRUE(check_plan(s).has_value());
  EXPECT_EQ(check_plan(s)->field, "recompute_layers");
}

TEST(Memory, ZeroShardsOptimizerState) {
  Scenario s = h100_scenario();
  s.plan.zero = 0;
  const Memory z0 = memory_per_device(s);
  s.plan.zero = 1;
  const Memory z1 = memory_per_device(s);
  s.plan.zero = 3;
  const Memory z3 = memory_per_device(s);
  EXPECT_NEAR(z1.optimizer_gib, z0.optimizer_gib / 32, 1e-9);
  EXPECT_NEAR(z0.optimizer_gib, 8.03e9 * 12 / (1024.0 * 1024 * 1024), 0.1);
  EXPECT_LT(z3.weights_gib, z1.weights_gib);
}

TEST(Collectives, SingleRailCarriesTheWholeBufferAcrossNodes) {
  // 4 nodes x 8 ranks, 1 GB: a hierarchical ring sends 1/8 of the buffer over the network, a
  // single-rail ring all of it; both pay the same ring latency.
  const Link intra{400e9, 3e-6}, inter{25e9, 15e-6};
  const double latency = 4 * 15e-6 + 4 * 7 * 3e-6;
  EXPECT_NEAR(single_rail_reduce_scatter_s(1e9, 32, 8, 4, intra, inter), 31.0 / 32 * 1e9 / 25e9 + latency, 1e-12);
  EXPECT_NEAR(hierarchical_reduce_scatter_s(1e9, 8, 4, intra, inter),
              7.0 / 8 * 1e9 / 400e9 + 3.0 / 4 * 1e9 / 8 / 25e9 + latency, 1e-12);
  EXPECT_EQ(single_rail_reduce_scatter_s(0, 32, 8, 4, intra, inter), 0.0);
  // 12 ranks on 8-rank nodes fill one node and half of another: 11/12 of the buffer, not 15/16.
  EXPECT_NEAR(single_rail_reduce_scatter_s(1e9, 12, 8, 2, intra, inter),
              11.0 / 12 * 1e9 / 25e9 + 2 * 15e-6 + 2 * 7 * 3e-6, 1e-12);
}

TEST(Estimate, SingleRailFrameworkPaysTheNicShareForZero3) {
  Scenario s = h100_scenario();
  s.plan.zero = 3;
  s.framework.dp_overlap = 0;
  const double all_nics = breakdown_of(estimate(s), "dp_comm");
  s.framework.dp_all_nics = false;
  const double one_nic = breakdown_of(estimate(s), "dp_comm");
  // 8 ranks per node: the network part of every gather grows eightfold.
  EXPECT_GT(one_nic, 4 * all_nics);
  s.nodes = 1;
  s.plan.dp = 8;
  s.framework.dp_all_nics = true;
  const double one_node = breakdown_of(estimate(s), "dp_comm");
  s.framework.dp_all_nics = false;
  EXPECT_DOUBLE_EQ(breakdown_of(estimate(s), "dp_comm"), one_node);  // no network, no difference
}

Scenario moe_scenario(int ep) {
  Scenario s = h100_scenario();
  s.model = llama(24, 2048, 1024, 16, 4, 32000);
  s.model.moe_experts = 64;
  s.model.moe_top_k = 4;
  s.model.seq_len = 4096;
  s.nodes = 8;
  s.plan = {1, 1, 64, 1, ep, 1, false, 1, 1, Recompute::selective};
  s.global_batch = 128;
  return s;
}

TEST(Memory, ExpertStateShardsOverExpertDataParallelRanks) {
  // ep 8 inside dp 64: each expert shard has 8 replicas, so the distributed optimizer splits its
  // 12 bytes per parameter 8 ways while dense parameters split 64 ways (Megatron-Core).
  const Scenario s = moe_scenario(8);
  const ParamCounts c = count_params(s.model);
  const double experts = 24.0 * 64 * c.expert / 8;
  const double dense = c.total - 24.0 * 64 * c.expert;
  EXPECT_NEAR(memory_per_device(s).optimizer_gib * 1024 * 1024 * 1024, (dense / 64 + experts / 8) * 12,
              1e-6 * experts);
}

// LoRA's adapters on an expert sit with it: split over expert parallelism, their gradients and
// optimizer state sharded over the expert-data-parallel group, while attention's, a shared
// expert's and a dense layer's FFN adapters shard over dp. By hand (rank 16, separate projections):
// attention 16 ((2048 + 2048) + 2 (2048 + 512) + (2048 + 2048)); an expert's gated FFN
// 3 x 16 (2048 + 1024), a shared expert's the same; a dense layer's, 8192 wide, 3 x 16 (2048 + 8192).
TEST(Memory, LoraAdaptersOfExpertsShardWithTheirExperts) {
  Scenario s = moe_scenario(8);
  s.model.dense_layers = 2;
  s.model.dense_ffn_hidden = 8192;
  s.mode = TrainingMode::lora;
  s.lora_rank = 16;
  const double attention = 16.0 * (4096 + 2 * 2560 + 4096), expert = 3.0 * 16 * 3072, dense_ffn = 3.0 * 16 * 10240;
  const double experts = 22 * 64 * expert / 8, dense = 24 * attention + 2 * dense_ffn;
  const double gib = 1024.0 * 1024 * 1024, grad_bytes = s.framework.grad_bytes;
  const Memory mem = memory_per_device(s);
  EXPECT_NEAR(mem.gradients_gib * gib, (dense + experts) * grad_bytes, 1e-9 * experts);
  EXPECT_NEAR(mem.optimizer_gib * gib, (dense / 64 + experts / 8) * 12, 1e-9 * experts);
  // Without expert parallelism every rank holds all 64 experts' adapters, eight times as many,
  // and the optimizer shards them 64 ways: the same share of them as before.
  s.plan.ep = 1;
  const Memory whole = memory_per_device(s);
  EXPECT_NEAR(whole.gradients_gib * gib, (dense + 8 * experts) * grad_bytes, 1e-9 * experts);
  EXPECT_NEAR(whole.optimizer_gib * gib, mem.optimizer_gib * gib, 1e-9 * experts);
  // A shared expert on each expert layer is on every rank, beside attention.
  s.plan.ep = 8;
  s.model.moe_shared_experts = 1;
  EXPECT_NEAR(memory_per_device(s).gradients_gib * gib, (dense + 22 * expert + experts) * grad_bytes, 1e-9 * experts);
  // A prediction module is one more expert layer, with its adapters (one pipeline stage: here).
  s.model.mtp_layers = 1;
  EXPECT_NEAR(memory_per_device(s).gradients_gib * gib,
              (dense + attention + 23 * expert + experts * 23 / 22) * grad_bytes, 1e-9 * experts);
}

// A mixture's dense first layers (DeepSeek-V3's first_k_dense_replace) hold a dense FFN, not
// experts: a rank keeps the experts of the expert layers alone, and the rest whole (ZeRO 1 shards
// only the optimizer state).
TEST(Memory, DenseLayersOfAMixtureHoldNoExperts) {
  Scenario s = moe_scenario(8);
  s.model.dense_layers = 6;
  s.model.dense_ffn_hidden = 4096;
  const ParamCounts c = count_params(s.model);
  const double all_experts = 18.0 * 64 * c.expert;
  const double dense = c.total - all_experts, experts = all_experts / 8;
  const Memory m = memory_per_device(s);
  EXPECT_NEAR(m.weights_gib * 1024 * 1024 * 1024, (dense + experts) * 2, 1e-9 * dense);
  EXPECT_NEAR(m.optimizer_gib * 1024 * 1024 * 1024, (dense / 64 + experts / 8) * 12, 1e-9 * dense);
  // In a pipeline the dense layers sit on the first stage: with the first stage's 12 layers all
  // dense, the last stage holds 12 expert layers, as in a model without dense layers (whose first
  // stage, with the embeddings and the final norm, is larger by that norm, 4 KiB).
  s.plan.pp = 2;
  s.plan.dp = 32;
  s.model.dense_layers = 12;
  Scenario no_dense = s;
  no_dense.model.dense_layers = 0;
  EXPECT_NEAR(memory_per_device(s).weights_gib, memory_per_device(no_dense).weights_gib, 1e-5);
  EXPECT_NEAR(memory_per_device(s).optimizer_gib, memory_per_device(no_dense).optimizer_gib, 1e-5);
  // The step waits for that stage's optimizer step, not the first's.
  EXPECT_NEAR(breakdown_of(estimate(s), "optimizer"), breakdown_of(estimate(no_dense), "optimizer"),
              1e-4 * breakdown_of(estimate(no_dense), "optimizer"));
  // Its gradient reduction (all exposed within the rank here) outlasts its last backward, but the
  // last micro-batch's backward still drains through the first rank meanwhile: a longer backward
  // there (two samples a micro-batch) hides more of it.
  s.framework.dp_overlap = 0;
  s.framework.bucket_mib = 1e6;
  const double one_sample = breakdown_of(estimate(s), "dp_comm");
  s.plan.micro_batch = 2;
  EXPECT_GT(one_sample, 0);
  EXPECT_LT(breakdown_of(estimate(s), "dp_comm"), one_sample);
}

// A rank between the first and the last can hold the most: with the first rank's layers all dense,
// the second keeps expert layers, more micro-batches in flight than the last and no output layer.
// Short sequences and a small vocabulary make the experts outweigh the activations and the output
// layer, so it is the largest.
TEST(Memory, AMiddleRankWithExpertsCanBeTheLargest) {
  Scenario s = moe_scenario(8);
  s.model.seq_len = 128;
  s.model.vocab = 1000;
  s.model.dense_layers = 6;
  s.model.dense_ffn_hidden = 4096;
  s.plan.pp = 4;
  s.plan.dp = 16;
  ASSERT_FALSE(check_plan(s));
  const ParamCounts c = count_params(s.model);
  const double held = 6 * (c.attention + c.norms + c.router + c.shared_experts + 64 * c.expert / 8);
  EXPECT_NEAR(memory_per_device(s).weights_gib * 1024 * 1024 * 1024, held * 2, 1e-9 * held);
  // Dense layers spread among the expert layers leave every rank the mix, a quarter of its layers
  // dense: the first rank, with the embeddings, is then the largest.
  s.model.dense_layers_first = false;
  const double dense_ffn = 3.0 * 2048 * 4096;
  const double mixed = 6 * (c.attention + c.norms) + 4.5 * (c.router + c.shared_experts + 64 * c.expert / 8) +
                       1.5 * dense_ffn + c.embeddings;
  EXPECT_NEAR(memory_per_device(s).weights_gib * 1024 * 1024 * 1024, mixed * 2, 1e-9 * mixed);
}

// ZeRO-3 holds gathered its edge modules (embeddings, output layer) and two units, the one running
// and the one prefetched: under FSDP a layer of the largest kind on the rank (dense first layers,
// smaller here, do not shrink it as an average over the rank's layers would); under DeepSpeed's
// tensor-by-tensor gathers, an even share of that layer over its zero3_gathers_per_layer gathers.
TEST(Memory, Zero3HoldsTwoUnitsGathered) {
  Scenario s = moe_scenario(8);
  s.plan.zero = 3;
  const ParamCounts c = count_params(s.model);
  const double expert_layer = c.attention + c.norms + c.router + c.shared_experts + 64 * c.expert / 8;
  const double fixed_gib = s.accelerator.cal.runtime_reserve_gib + 2 * s.framework.bucket_mib / 1024.0;
  for (const int gathers : {1, 4}) {
    s.framework.zero3_gathers_per_layer = gathers;
    Scenario mixed = s;
    mixed.model.dense_layers = 12;
    mixed.model.dense_ffn_hidden = 1024;
    ASSERT_FALSE(check_plan(mixed));
    const double gathered = c.embeddings + c.output + 2 * expert_layer / gathers;
    for (const Scenario& job : {s, mixed})
      EXPECT_NEAR(memory_per_device(job).other_gib, fixed_gib + gathered * 2 / (1024.0 * 1024 * 1024), 1e-9);
  }
  s.framework.zero3_gathers_per_layer = 0;
  ASSERT_TRUE(check_plan(s).has_value());
  EXPECT_EQ(check_plan(s)->field, "framework.zero3_gathers_per_layer");
}

TEST(Estimate, ExpertGradientsCrossTheNetworkWhenEpFillsTheNode) {
  // ep 8 on 8-GPU nodes: an expert shard's replicas sit one per node, so its gradient reduction
  // has no intra-node stage. ep 64 leaves every expert shard with a single replica.
  Scenario s = moe_scenario(8);
  s.framework.dp_overlap = 0;
  s.framework.bucket_mib = 1e6;
  const double ep8 = breakdown_of(estimate(s), "dp_comm");
  const double expert_bytes = 24.0 * 64 * count_params(s.model).expert / 8 * s.framework.grad_bytes;
  const Link inter{3200 / 8.0 * 1e9 * 0.7 / 8, 15e-6};
  EXPECT_GT(ep8, 7.0 / 8 * expert_bytes / inter.bytes_per_s);
  s = moe_scenario(64);
  s.framework.dp_overlap = 0;
  s.framework.bucket_mib = 1e6;
  EXPECT_LT(breakdown_of(estimate(s), "dp_comm"), ep8 / 4);
}

TEST(Estimate, EpOverlapHidesItsShareOfTheAllToAllInAPipeline) {
  // The 1F1B steady state pairs one micro-batch's forward with another's backward; without a
  // pipeline there is nothing to pair.
  Scenario s = moe_scenario(8);
  s.plan.pp = 2;
  s.plan.dp = 32;
  const double plain = breakdown_of(estimate(s), "ep_comm");
  ASSERT_GT(plain, 0);
  s.framework.ep_overlap = 0.75;
  // 4 micro-batches on 2 stages: 3 of them in the steady state.
  EXPECT_NEAR(breakdown_of(estimate(s), "ep_comm"), plain * (1 - 0.75 * 3 / 4), 1e-9 * plain);
  s.plan.pp = 1;
  s.plan.dp = 64;
  const double no_pipeline = breakdown_of(estimate(s), "ep_comm");
  s.framework.ep_overlap = 0;
  EXPECT_DOUBLE_EQ(breakdown_of(estimate(s), "ep_comm"), no_pipeline);
}

TEST(Estimate, InterleavedChunksHideMoreOfTheGradientReduction) {
  // Each model chunk reduces when its last backward ends, so with vpp 2 the other chunk's
  // reduction overlaps the remaining backward; without interleaving only the last micro-batch's
  // backward is there to hide it.
  Scenario s = h100_scenario();
  s.instance.chips_per_node = 2;
  s.instance.inter_node_gbps = 100;  // slow enough that one backward cannot hide the reduction
  s.nodes = 16;
  s.plan = {1, 4, 8, 1, 1, 1, false, 1, 1, Recompute::selective};
  s.global_batch = 64;
  const double plain = breakdown_of(estimate(s), "dp_comm");
  s.plan.vpp = 2;
  const double interleaved = breakdown_of(estimate(s), "dp_comm");
  EXPECT_LT(interleaved, plain);
  EXPECT_GT(interleaved, 0);
  // When the reduction outlasts every window, the exposure drops by the window beyond one
  // backward: min(m, pp) (v-1)/v - 1 backwards, i.e. 1 for v = 2 and 2 for v = 4 (pp 4).
  s.instance.inter_node_gbps = 1;
  s.plan.vpp = 1;
  const double v1 = breakdown_of(estimate(s), "dp_comm");
  s.plan.vpp = 2;
  const double v2 = breakdown_of(estimate(s), "dp_comm");
  s.plan.vpp = 4;
  const double v4 = breakdown_of(estimate(s), "dp_comm");
  ASSERT_GT(v1 - v2, 0);
  EXPECT_NEAR(v1 - v4, 2 * (v1 - v2), 1e-9 * v1);
}

TEST(Estimate, ExpertParallelismBeyondDpTakesTensorParallelRanks) {
  // One 8-GPU node, tp 8, dp 1, ep 8: each GPU holds one whole expert (expert tp 1), the same
  // weight bytes as splitting every expert 8 ways, and the all-to-all stays inside the node.
  Scenario s = moe_scenario(8);
  s.nodes = 1;
  s.global_batch = 8;
  s.plan = {8, 1, 1, 1, 8, 1, true, 1, 1, Recompute::selective};
  ASSERT_FALSE(check_plan(s));
  EXPECT_EQ(expert_tp(s.plan), 1);
  const Estimate whole = estimate(s);
  Scenario split = s;
  split.plan.ep = 1;
  EXPECT_NEAR(whole.memory.weights_gib, estimate(split).memory.weights_gib, 1e-9);
  Scenario over_dp = s;  // the same 8 micro-batches per step, each GPU with its own tokens
  over_dp.plan = {1, 1, 8, 1, 8, 1, false, 1, 1, Recompute::selective};
  over_dp.global_batch = 64;
  EXPECT_LT(breakdown_of(whole, "ep_comm"), breakdown_of(estimate(over_dp), "ep_comm"));
  // Expert ranks sit expert_tp apart: with cp 2 on 2 nodes, ep 4 (expert tp 4) spans no more
  // nodes than ep 8 (expert tp 2) and moves the same bytes.
  Scenario cp2 = moe_scenario(4);
  cp2.nodes = 2;
  cp2.global_batch = 64;
  cp2.plan = {4, 1, 2, 2, 4, 1, true, 1, 1, Recompute::selective};
  ASSERT_FALSE(check_plan(cp2));
  const double ep4 = breakdown_of(estimate(cp2), "ep_comm");
  cp2.plan.ep = 8;
  ASSERT_FALSE(check_plan(cp2));
  EXPECT_LE(ep4, breakdown_of(estimate(cp2), "ep_comm"));
  // ep neither dividing dp x cp nor a multiple of it has no expert layout: named, not guessed.
  s.nodes = 3;
  s.global_batch = 12;
  s.plan = {2, 1, 12, 1, 8, 1, true, 1, 1, Recompute::selective};
  const auto p = check_plan(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "parallel.ep");
}

TEST(Estimate, MoreChipsNeverLowerStepFlops) {
  Scenario s = h100_scenario();
  double last = 0;
  for (int nodes : {1, 2, 4, 8}) {
    s.nodes = nodes;
    s.plan.dp = nodes * 8;
    const Estimate e = estimate(s);
    EXPECT_GE(e.hardware_flops_per_step, last);
    last = e.hardware_flops_per_step;
  }
}

TEST(Check, NamesTheField) {
  Scenario s = h100_scenario();
  s.plan.tp = 3;
  s.plan.dp = 32;
  auto p = check_plan(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "parallel");
  s.model.heads = 64;
  s.model.hidden = 8192;
  s.plan = {12, 1, 1, 1, 1, 1, true, 0, 1, Recompute::selective};
  s.nodes = 1;
  s.instance.chips_per_node = 12;
  p = check_plan(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "parallel.tp");
  EXPECT_EQ(p->reason, "12 does not divide heads (64)");
}

TEST(Check, GlobalBatchDivisibility) {
  Scenario s = h100_scenario();
  s.global_batch = 100;
  auto p = check_plan(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "global_batch");
}

TEST(Search, FindsAFittingPlanAndCountsThem) {
  Scenario s = llama70b_on_16_h100_nodes();
  const SearchResult r = search_plan(s, PlanRequest{});
  ASSERT_TRUE(r.best);
  EXPECT_TRUE(r.best->memory.fits);
  EXPECT_GT(r.considered, 50);
  EXPECT_EQ(r.best->plans_considered, r.considered);
  EXPECT_GT(r.best->mfu, 0.2);
  // The winner is at least as fast as a hand-picked Megatron layout.
  Scenario hand = s;
  hand.plan = {8, 4, 4, 1, 1, 1, true, 1, 1, Recompute::selective};
  ASSERT_FALSE(check_plan(hand));
  EXPECT_LE(r.best->step_time_s, estimate(hand).step_time_s * (1 + 1e-12));
}

// The optimizer's curse: of k options tied, the pick's expected excess is sigma times the mean of
// the largest of k standard normals (order statistics: 1/sqrt(pi), 3/(2 sqrt(pi)), 1.16296,
// 1.53875 for 2, 3, 5, 10); it falls as the options part and is none for one option or sigma 0.
TEST(Selection, PickOptimismIsTheExpectedMaximumOfTheErrors) {
  const double sigma = 0.05;
  const std::pair<int, double> tied[] = {{2, 1 / std::sqrt(std::acos(-1.0))}, {3, 1.5 / std::sqrt(std::acos(-1.0))}, {5, 1.16296}, {10, 1.53875}};
  for (const auto& [k, expected] : tied)
    EXPECT_NEAR(pick_optimism(std::vector<double>(static_cast<std::size_t>(k), 3.0), sigma), sigma * expected, sigma * 1e-4)
        << k << " options";
  double before = pick_optimism({0, 0}, sigma);
  for (double apart : {0.5, 1.0, 2.0, 4.0}) {
    const double now = pick_optimism({0, -apart * sigma}, sigma);
    EXPECT_LT(now, before) << apart;
    before = now;
  }
  EXPECT_LT(pick_optimism({0, -10 * sigma}, sigma), 1e-9);
  EXPECT_EQ(pick_optimism({1.0}, sigma), 0);
  EXPECT_EQ(pick_optimism({1.0, 1.0}, 0), 0);
  EXPECT_EQ(pick_optimism({1.0, 1.0}, std::nan("")), 0);
  // Non-finite options count for nothing; a thousand tied options give the expected maximum of as
  // many normals (3.2414 sigma).
  EXPECT_DOUBLE_EQ(pick_optimism({1.0, std::nan(""), 1.0, INFINITY}, sigma), pick_optimism({1.0, 1.0}, sigma));
  EXPECT_NEAR(pick_optimism(std::vector<double>(1000, 0.0), sigma), sigma * 3.2414, sigma * 1e-3);
  // Only distances count: speeds of any magnitude give the same.
  EXPECT_NEAR(pick_optimism({1e300, 1e300}, sigma), sigma / std::sqrt(std::acos(-1.0)), sigma * 1e-4);
}

// The search's pick adds its expected shortfall as a term of the step, exp(o) - 1 of the rest, o
// from the splits that fit; a fixed plan, or no layout error, adds none.
TEST(Search, PickCarriesTheOptimizersCurse) {
  Scenario s = llama70b_on_16_h100_nodes();
  PlanRequest rq;
  const SearchResult blind = search_plan(s, rq);
  rq.layout_error_sigma = 0.05;
  const SearchResult r = search_plan(s, rq);
  ASSERT_TRUE(r.best && blind.best);
  EXPECT_GT(r.best->splits_compared, 1);
  EXPECT_EQ(breakdown_of(*blind.best, "pick_optimism"), 0);
  const double extra = breakdown_of(*r.best, "pick_optimism");
  EXPECT_GT(extra, 0);
  EXPECT_NEAR(r.best->step_time_s, blind.best->step_time_s + extra, 1e-9 * r.best->step_time_s);
  EXPECT_LT(extra / blind.best->step_time_s, std::expm1(0.05 * 2.5));
  EXPECT_NEAR(r.best->tokens_per_s * r.best->step_time_s, blind.best->tokens_per_s * blind.best->step_time_s,
              1e-6 * blind.best->tokens_per_s * blind.best->step_time_s);
  Scenario fixed = s;
  fixed.plan = r.best->plan;
  EXPECT_EQ(breakdown_of(estimate(fixed), "pick_optimism"), 0);
}

// A stack's plans use only what it implements: the search offers nothing else, and a plan that
// uses something else is refused, naming the field. Megatron-LM of 2021: tensor and pipeline
// parallelism, full recompute, no sequence parallelism, selective recompute or optimizer sharding.
TEST(Search, OffersOnlyWhatTheStackImplements) {
  Scenario s = llama70b_on_16_h100_nodes();
  s.framework.parallelisms.sp = s.framework.parallelisms.cp = s.framework.parallelisms.ep = false;
  s.framework.selective = FrameworkProfile::Selective::none;
  s.framework.max_zero = 0;
  const SearchResult r = search_plan(s, PlanRequest{});
  ASSERT_TRUE(r.best);
  EXPECT_FALSE(r.best->plan.sequence_parallel);
  EXPECT_NE(r.best->plan.recompute, Recompute::selective);
  EXPECT_EQ(r.best->plan.zero, 0);
  // The same search with everything offered finds a faster plan: the limits bind.
  Scenario all = s;
  all.framework = FrameworkProfile{};
  const SearchResult free = search_plan(all, PlanRequest{});
  ASSERT_TRUE(free.best);
  EXPECT_LT(free.best->step_time_s, r.best->step_time_s);

  Scenario fixed = s;
  fixed.plan = {8, 4, 4, 1, 1, 1, true, 0, 1, Recompute::full};
  auto p = check_plan(fixed);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "parallel.sequence_parallel");
  fixed.plan.sequence_parallel = false;
  fixed.plan.recompute = Recompute::selective;
  p = check_plan(fixed);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "recompute");
  fixed.plan.recompute = Recompute::full;
  EXPECT_FALSE(check_plan(fixed));

  // A data-parallel-only stack (the Hugging Face Trainer): every plan is pure data parallelism.
  Scenario dp_only = s;
  dp_only.model = llama(16, 2048, 8192, 32, 8, 32000);
  dp_only.framework.parallelisms = {false, false, false, false, false, false};
  const SearchResult d = search_plan(dp_only, PlanRequest{});
  ASSERT_TRUE(d.best);
  EXPECT_EQ(d.best->plan.tp, 1);
  EXPECT_EQ(d.best->plan.pp, 1);
  dp_only.plan = {1, 2, 64, 1, 1, 1, false, 0, 1, Recompute::none};
  p = check_plan(dp_only);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->field, "parallel.pp");
}

// Tensor-parallel groups of ranks placed in order do not straddle two nodes: on 8-GPU nodes the
// search never takes tp 6 (8 does not divide by it), although 6 divides the heads and the devices.
TEST(Search, TensorParallelGroupsStayInsideANode) {
  Scenario s = h100_scenario();
  s.model = gpt3();
  s.nodes = 48;  // 384 GPUs: 6 divides them and GPT-3's 96 heads
  s.global_batch = 1536;
  PlanRequest rq;
  rq.pp = 16;
  const SearchResult r = search_plan(s, rq);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(8 % r.best->plan.tp, 0) << "tp " << r.best->plan.tp;
  // Nor does it weigh a tp that does not split the heads: tp 9, 18, 36 and 72 divide a 72-GPU rack
  // (an NVL72) but not GPT-3's 96 heads. Every plan it weighs is valid.
  Scenario rack = s;
  rack.instance.chips_per_node = 72;
  rack.nodes = 4;
  rack.global_batch = 288;
  const SearchResult on_rack = search_plan(rack, PlanRequest{});
  ASSERT_TRUE(on_rack.best);
  EXPECT_EQ(on_rack.valid, on_rack.considered);
  // Asked for, it is still estimated.
  rq.tp = 6;
  const SearchResult asked = search_plan(s, rq);
  ASSERT_TRUE(asked.best);
  EXPECT_EQ(asked.best->plan.tp, 6);
}

// With 56 sequences a data-parallel rank, the search also weighs one micro-batch of 56 (no
// accumulation), not only powers of two (7 micro-batches of 8).
TEST(Search, WeighsTheMicroBatchWithoutAccumulation) {
  Scenario s = h100_scenario();
  s.model = llama(16, 2048, 8192, 32, 8, 32000);
  s.model.seq_len = 256;
  s.nodes = 1;
  s.global_batch = 8 * 56;
  PlanRequest rq;
  rq.tp = rq.pp = 1;
  rq.recompute = static_cast<int>(Recompute::none);
  rq.zero = 0;
  const SearchResult r = search_plan(s, rq);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.best->plan.micro_batch, 56);
}

// Interleaving degrees that are not powers of two are weighed too: MLPerf's GPT-3 175B layout
// (tp 4, pp 8, one sequence a micro-batch, 8 of them a step) has 12 layers a stage, and its
// bubble shrinks most with 12 chunks of one layer.
TEST(Search, WeighsEveryInterleavingThatSplitsTheLayers) {
  Scenario s = h100_scenario();
  s.model = gpt3();
  s.nodes = 64;
  s.global_batch = 128;
  PlanRequest rq;
  rq.tp = 4;
  rq.pp = 8;
  rq.micro_batch = 1;
  rq.recompute = static_cast<int>(Recompute::none);
  const SearchResult r = search_plan(s, rq);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.best->plan.vpp, 12);
}

// Context parallelism is weighed for long sequences: Llama 3.1 70B at 131,072 tokens on 64 H100
// runs faster split over cp ranks than with cp 1, where it needs full recompute. Short sequences
// keep cp 1 without weighing it, and a stack without cp never gets it.
TEST(Search, WeighsContextParallelismForLongSequences) {
  Scenario s = h100_scenario();
  s.model = llama(80, 8192, 28672, 64, 8, 128256);
  s.model.seq_len = 131072;
  s.nodes = 8;
  s.global_batch = 32;
  const SearchResult r = search_plan(s, PlanRequest{});
  ASSERT_TRUE(r.best);
  EXPECT_GT(r.best->plan.cp, 1);
  PlanRequest one;
  one.cp = 1;
  const SearchResult without = search_plan(s, one);
  ASSERT_TRUE(without.best);
  EXPECT_LT(r.best->step_time_s, without.best->step_time_s);

  s.framework.parallelisms.cp = false;
  const SearchResult lacking = search_plan(s, PlanRequest{});
  ASSERT_TRUE(lacking.best);
  EXPECT_EQ(lacking.best->plan.cp, 1);

  Scenario short_seq = h100_scenario();
  short_seq.model.seq_len = 4096;
  const SearchResult auto_cp = search_plan(short_seq, PlanRequest{});
  const SearchResult fixed_cp = search_plan(short_seq, one);
  ASSERT_TRUE(auto_cp.best && fixed_cp.best);
  EXPECT_EQ(auto_cp.considered, fixed_cp.considered);
}

}  // namespace
}  // namespace tc
