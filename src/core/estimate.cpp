#include "core/estimate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/collectives.hpp"
#include "core/cost.hpp"
#include "core/params.hpp"
#include "core/text.hpp"

namespace tc {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = kMiB * 1024.0;

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// Bytes of a stored activation element: FP8 recipes (Micikevicius et al. 2022) keep activations
// in 16 bits between FP8 GEMMs, and FP4 recipes (NVIDIA Transformer Engine, NVFP4) likewise.
double activation_bytes(Precision p) {
  return (p == Precision::fp32 || p == Precision::tf32) ? 4.0 : 2.0;
}
double operand_bytes(Precision p) {
  switch (p) {
    // NVFP4: 4-bit elements plus one FP8 (E4M3) scale per block of 16 (NVIDIA's NVFP4
    // description; Transformer Engine docs), 0.5 + 1/16 bytes. MXFP4 (Trainium3; one E8M0 scale
    // per 32, 0.53125 bytes) takes the same figure: one fp4 precision, the larger overhead.
    case Precision::fp4: return 0.5625;
    case Precision::fp8: return 1.0;
    case Precision::bf16:
    case Precision::fp16: return 2.0;
    default: return 4.0;
  }
}
// Precisions whose GEMM operands are quantized from 16-bit activations.
bool low_precision(Precision p) { return p == Precision::fp8 || p == Precision::fp4; }
// torchtitan's per-op selective checkpointing (torchtitan parallelize.py, _apply_ac_to_transformer_block,
// mode "op": save the outputs of matmuls and of the attention kernel "except every second mm").
// Dense blocks only: an MoE block's grouped expert GEMMs fall outside its list.
bool every_other_matmul(const Scenario& s) {
  return s.framework.selective == FrameworkProfile::Selective::every_other_matmul && s.model.moe_experts == 0;
}
// A dense block's forward matmuls, each 2 h x width FLOPs a token: Q, K, V, O, then gate, up,
// down (gated) or in, out. The policy replays the 2nd, 4th and 6th: K, O, and up or out.
double block_matmul_width(const ModelShape& m) {
  return attention_width(m) + kv_width(m) + kv_value_width(m) + value_width(m) +
         (m.gated_ffn ? 3.0 : 2.0) * m.ffn_hidden;
}
double replayed_matmul_width(const ModelShape& m) { return kv_width(m) + value_width(m) + m.ffn_hidden; }
double loss_logit_bytes(const Scenario& s) { return s.fp32_loss_logits ? 4.0 : activation_bytes(s.precision); }
// What unfused attention stores per score element for a backward that does not recompute it: the
// softmax output, and with dropout its mask and output (5 a s^2 b per layer with 2-byte activations;
// Korthikanti et al. 2022, Section 4.1).
double stored_softmax_bytes(const ModelShape& m, double act_bytes) {
  return act_bytes + (m.dropout ? 1.0 + act_bytes : 0.0);
}
// The activation function's memory traffic and what its backward keeps, in FFN-width elements a
// token. A fused bias-SwiGLU kernel reads gate and up and writes their product (3), keeping the two
// halves; GeLU reads and writes (2), keeping its input. GPT-OSS's clamped SwiGLU (swiglu_limit) is
// taken to run op by op, as Megatron-Core's unfused glu path does with activation_func_clamp_value
// and glu_linear_offset (recalled; whether a later release fuses it is not checked here, and the
// published GPT-OSS runs are what support the cost: docs/accuracy.md): two clamps, the fused
// quick-GELU x sigmoid(1.702 x), the +1 on the linear half and the product read and write 11, and
// autograd keeps the clamped gate, its activation and the offset linear half besides the two
// halves (5). Their extra launches are left in the framework's fitted kernel count.
double activation_elements(const ModelShape& m) {
  return m.swiglu_limit > 0 ? 11.0 : (m.gated_ffn ? 3.0 : 2.0);
}
double activation_kept(const ModelShape& m) {
  return m.swiglu_limit > 0 ? 5.0 : (m.gated_ffn ? 2.0 : 1.0);
}
bool frozen_base(const Scenario& s) { return s.mode == TrainingMode::lora; }
// The job's LoRA adapter parameters on the modules its stack builds (fused_projections): all of
// them, or those a token passes through (active). None without LoRA.
double adapter_params(const Scenario& s, bool active) {
  if (!frozen_base(s)) return 0;
  const bool fused = s.framework.fused_projections;
  return active ? lora_active_params(s.model, s.lora_rank, fused) : lora_params(s.model, s.lora_rank, fused);
}
// Layers of a stage that full recompute replays: all, or the first recompute_layers of them.
double recomputed_layers(const ParallelPlan& pl, double layers) {
  if (pl.recompute != Recompute::full) return 0;
  return pl.recompute_layers > 0 ? std::min<double>(pl.recompute_layers, layers) : layers;
}

// Where a group of n ranks with the given stride in Megatron's rank order (tp fastest, then cp,
// dp, pp) lands: ranks sharing a node, and nodes spanned.
struct Span {
  int n_intra = 1;
  int n_inter = 1;
};
Span span_of(int n, int stride, int devices_per_node) {
  if (n <= 1) return {};
  if (stride >= devices_per_node) return {1, n};
  const int n_intra = std::min(n, std::max(1, devices_per_node / stride));
  return {n_intra, (n + n_intra - 1) / n_intra};
}

// The layers a pipeline rank holds. `routed`: those with routed experts.
struct RankLayers {
  double layers = 0, routed = 0;
  double dense_share() const { return layers > 0 ? 1.0 - routed / layers : 0.0; }
};

// The layers of each pipeline rank: rank r holds virtual stages k pp + r (Narayanan et al. 2021,
// Section 2.2). Where the layers do not divide over the virtual stages but two more would, the
// embedding and the loss take a layer's place each (Megatron-Core's
// account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split: Llama 3.1 405B's
// 126 layers on 128 virtual stages). Otherwise every stage takes the rounded-up count and the last
// what is left where that leaves only the last short (Megatron-Bridge's DeepSeek-V3 layouts: 61
// layers on 16 virtual stages as 15 x 4 and 1; recalled), else they go as evenly as they can, the
// first stages one more (a split Megatron-Core's pipeline_model_parallel_layout can state; rounding
// up would leave whole stages empty, which no framework builds). A mixture's dense layers that are
// its first (DeepSeek-V3's first_k_dense_replace) sit on the first ranks; spread ones leave every
// rank the model's mix.
// A scenario can state the first or the last stage's layers instead (ParallelPlan); the other
// stages then share the rest as evenly as they can, the first ones one more, as a stage's layers
// go over its vpp chunks (Megatron-Core's pipeline_model_parallel_layout can state such a split).
struct PipelineLayout {
  bool stated = false, edges_take_places = false, last_short = false;
  int stage_base = 0, stages_with_one_more = 0;  // layers (or places) a virtual stage
  std::vector<RankLayers> ranks;
};
bool stated_layout(const ParallelPlan& pl) {
  return pl.pp > 1 && (pl.first_stage_layers >= 0 || pl.last_stage_layers >= 0);
}
long long stated_stage_layers(const ModelShape& m, const ParallelPlan& pl, int rank) {
  const int first = pl.first_stage_layers, last = pl.last_stage_layers;
  if (rank == 0 && first >= 0) return first;
  if (rank == pl.pp - 1 && last >= 0) return last;
  const int others = std::max(1, pl.pp - (first >= 0 ? 1 : 0) - (last >= 0 ? 1 : 0));
  const long long rest = std::max(0LL, static_cast<long long>(m.layers) - std::max(first, 0) - std::max(last, 0));
  const int among = rank - (first >= 0 ? 1 : 0);  // its place among the stages not stated
  return rest / others + (among < rest % others ? 1 : 0);
}
// The places (layers, or the embedding's and the loss's) of each virtual stage, in order.
std::vector<long long> virtual_stage_sizes(const ModelShape& m, const ParallelPlan& pl, PipelineLayout& out) {
  const int virtual_stages = pl.pp * pl.vpp;
  std::vector<long long> size(static_cast<std::size_t>(virtual_stages));
  if (out.stated) {
    for (int rank = 0; rank < pl.pp; ++rank) {
      const long long layers = stated_stage_layers(m, pl, rank);
      for (int k = 0; k < pl.vpp; ++k)
        size[static_cast<std::size_t>(k) * pl.pp + rank] = layers / pl.vpp + (k < layers % pl.vpp ? 1 : 0);
    }
    return size;
  }
  const int places = m.layers + (out.edges_take_places ? 2 : 0), rest = places % virtual_stages;
  const int rounded_up = places / virtual_stages + (rest > 0 ? 1 : 0);
  out.last_short = rest > 0 && places > (virtual_stages - 1) * rounded_up;
  out.stage_base = out.last_short ? rounded_up : places / virtual_stages;
  out.stages_with_one_more = out.last_short ? 0 : rest;
  long long left = places;
  for (std::size_t j = 0; j < size.size(); ++j) {
    size[j] = std::min<long long>(left, out.stage_base + (static_cast<int>(j) < out.stages_with_one_more ? 1 : 0));
    left -= size[j];
  }
  return size;
}
PipelineLayout pipeline_layout(const ModelShape& m, const ParallelPlan& pl) {
  PipelineLayout out;
  const int virtual_stages = pl.pp * pl.vpp;
  out.stated = stated_layout(pl);
  out.edges_take_places = !out.stated && m.layers % virtual_stages != 0 && (m.layers + 2) % virtual_stages == 0;
  const std::vector<long long> size = virtual_stage_sizes(m, pl, out);
  out.ranks.resize(static_cast<std::size_t>(pl.pp));
  std::vector<long long> dense(static_cast<std::size_t>(pl.pp));
  long long start = out.edges_take_places ? -1 : 0;  // a virtual stage's first layer; -1: the embedding
  for (std::size_t j = 0; j < size.size(); ++j) {  // rank j mod pp holds virtual stage j
    const std::size_t rank = j % static_cast<std::size_t>(pl.pp);
    const long long lo = std::max(0LL, start), hi = std::min<long long>(m.layers, start + size[j]);
    start += size[j];
    if (hi <= lo) continue;
    out.ranks[rank].layers += static_cast<double>(hi - lo);
    dense[rank] += std::max(0LL, std::min<long long>(m.dense_layers, hi) - lo);
  }
  for (std::size_t rank = 0; rank < out.ranks.size() && m.moe_experts > 0; ++rank) {
    RankLayers& r = out.ranks[rank];
    r.routed = m.dense_layers_first ? r.layers - static_cast<double>(dense[rank])
                                    : r.layers * (1.0 - static_cast<double>(m.dense_layers) / m.layers);
  }
  // The prediction modules run after the last layer, beside the loss, on the last stage
  // (Megatron-Core's multi-token prediction block; recalled): a layer of the routed kind each.
  RankLayers& last = out.ranks.back();
  last.layers += m.mtp_layers;
  if (m.moe_experts > 0) last.routed += m.mtp_layers;
  return out;
}

// The launches of one linear layer's GEMMs (Ctx::linear): kernel costs a GEMM, quantize launches
// before the forward and the backward GEMMs, and the host time each quantize adds.
struct GemmLaunches {
  double gemms = 1, quantizes = 0, quantize_host_s = 0;
};

// Everything derived from the scenario that the time and memory formulas share.
struct Ctx {
  const Scenario& sc;
  const ModelShape& m;
  const ParallelPlan& pl;
  ParamCounts params;
  int devices = 0, devices_per_node = 0;
  int s = 0;                    // tokens per sample
  double tokens_mb = 0;         // tokens per device per micro-batch (b s / cp)
  long long micro_batches = 1;  // per pipeline per step
  PipelineLayout layout;
  double recomputed_share = 0;  // of the model's layers, those full recompute replays
  // unquantized_flops: the peak of the work an FP8/FP4 recipe leaves in 16 bits (attention, the
  // output layer); the math precision's otherwise.
  double peak_flops = 0, unquantized_flops = 0, hbm_bytes_per_s = 0;
  bool quantized = false;       // the linear layers run in FP8/FP4
  double exp_per_s = 0;         // special-function exponentials per second (0: not modelled)
  double fp32_ops_per_s = 0;    // scalar FP32 instructions per second on the CUDA cores (GPUs)
  double gemm_efficiency = 0;   // large-GEMM fraction of peak at the scenario's precision
  double act_bytes = 2, op_bytes = 2;
  Link intra, inter, on_chip;
  double kv = 0;                // K width: kv_heads x head_dim
  double kv_local = 0;          // a rank's K width: at least one head (replicated when tp exceeds them)
  double v_local = 0;           // a rank's V width, likewise (narrower than K's under latent attention)
  int etp = 1;                  // tensor-parallel degree of the expert layers

  explicit Ctx(const Scenario& scenario)
      : sc(scenario), m(scenario.model), pl(scenario.plan), params(count_params(scenario.model)) {
    const Accelerator& a = sc.accelerator;
    devices = devices_of(sc);
    devices_per_node = sc.instance.chips_per_node * a.devices_per_chip;
    s = tokens_per_sample(m);
    tokens_mb = static_cast<double>(pl.micro_batch) * s / pl.cp;
    const long long per_pipeline = static_cast<long long>(pl.micro_batch) * pl.dp;
    micro_batches = per_pipeline > 0 ? std::max(1LL, sc.global_batch / per_pipeline) : 1;
    layout = pipeline_layout(m, pl);
    for (const RankLayers& r : layout.ranks) recomputed_share += recomputed_layers(pl, r.layers);
    recomputed_share /= std::max(1, transformer_layers(m));
    const Precision math = matmul_precision(sc);
    const double clock = power_limited_clock_fraction(sc);
    peak_flops = a.peak_tflops[static_cast<int>(math)] * 1e12 / a.devices_per_chip * tensor_clock_fraction(sc, math);
    gemm_efficiency = low_precision(sc.precision) && a.cal.fp8_matmul_efficiency_max > 0
                          ? a.cal.fp8_matmul_efficiency_max
                          : a.cal.matmul_efficiency_max;
    // FP8 and FP4 recipes (Transformer Engine) run only the linear layers in FP8/FP4; attention
    // stays BF16.
    quantized = low_precision(math);
    const Precision unquantized = quantized ? Precision::bf16 : math;
    unquantized_flops =
        a.peak_tflops[static_cast<int>(unquantized)] * 1e12 / a.devices_per_chip * tensor_clock_fraction(sc, unquantized);
    exp_per_s = a.exp_tera_per_s * 1e12 / a.devices_per_chip * clock;
    // The FP32 peak counts a fused multiply-add as two FLOPs; every softmax instruction is taken at
    // the FMA's issue rate (conversions, recalled to issue slower on Ampere and Hopper, not checked).
    fp32_ops_per_s = a.peak_tflops[static_cast<int>(Precision::fp32)] * 1e12 / 2 / a.devices_per_chip * clock;
    hbm_bytes_per_s = a.hbm_tb_per_s * 1e12 * a.cal.hbm_efficiency / a.devices_per_chip;
    act_bytes = activation_bytes(sc.precision);
    op_bytes = operand_bytes(math);
    // Ranks on one chip share its links; the network share of a rank is the node's NIC bandwidth
    // over the ranks in the node, since all of them communicate at once in data parallelism.
    intra.bytes_per_s = sc.instance.intra.gb_per_s_per_chip * 1e9 * sc.instance.intra.efficiency /
                        a.devices_per_chip;
    intra.latency_s = sc.instance.intra.latency_us * 1e-6;
    inter.bytes_per_s = std::max(1.0, sc.instance.inter_node_gbps / 8.0 * 1e9 *
                                          sc.instance.inter.efficiency / devices_per_node);
    inter.latency_s = sc.instance.inter.latency_us * 1e-6;
    on_chip.bytes_per_s = hbm_bytes_per_s / 2;  // a copy through on-chip memory reads and writes
    on_chip.latency_s = intra.latency_s / 2;
    kv = kv_width(m);
    kv_local = std::max(kv / pl.tp, static_cast<double>(head_dim(m)));
    v_local = std::max(kv_value_width(m) / pl.tp, static_cast<double>(is_mla(m) ? m.v_head_dim : head_dim(m)));
    etp = expert_tp(pl);
  }

  const AcceleratorCalibration& cal() const { return sc.accelerator.cal; }
  const RankLayers& held(int rank) const { return layout.ranks[static_cast<std::size_t>(rank)]; }

  // `count` GEMMs (M x K) . (K x N): the slower of their math at the large-GEMM efficiency, over
  // the units their tiles fill, and their operand traffic. Roofline (Williams et al. 2009).
  // `unquantized`: a GEMM an FP8/FP4 recipe leaves in BF16 (the output layer, below).
  double gemm_work_s(double M, double N, double K, double count = 1, bool unquantized = false) const {
    if (M <= 0 || N <= 0 || K <= 0) return 0;
    const bool bf16 = unquantized && quantized;
    const double rate = (bf16 ? unquantized_flops * cal().matmul_efficiency_max : peak_flops * gemm_efficiency) *
                        tile_fill(sc.accelerator, M, N, K, count);
    const double math = count * 2.0 * M * N * K / rate;
    const double traffic = count * (M * K + K * N + M * N) * (bf16 ? act_bytes : op_bytes) / hbm_bytes_per_s;
    return std::max(math, traffic);
  }
  double kernel_s() const { return cal().kernel_overhead_us * 1e-6; }

  // Forward and backward of `count` same-shaped weight matrices run as one grouped GEMM per pass
  // (Megatron-Core's grouped GEMM over local experts: count problems); count = 1 is a plain linear
  // layer. Each GEMM pays `gemms` kernel costs (GemmLaunches): one for a grouped kernel, one per matrix
  // where a stack launches them one by one. Their tiles still share the waves (tile_fill over count):
  // the per-expert launches run on a few streams side by side. `quantizes` more kernel costs, each
  // plus `quantize_host_s`, go before the forward GEMM (its input) and before the two backward ones
  // (the output gradient, which both read). Frozen weights skip the weight gradient.
  struct Pass {
    double fwd = 0, bwd = 0;
  };
  Pass linear(double M, double N, double K, bool frozen, double count = 1, bool unquantized = false,
              GemmLaunches l = {}) const {
    if (count <= 0 || M <= 0) return {};
    const double launch = l.gemms * kernel_s(), quantize = l.quantizes * (kernel_s() + l.quantize_host_s);
    const double dgrad = gemm_work_s(M, K, N, count, unquantized) + launch + quantize;
    const double wgrad = frozen ? 0.0 : gemm_work_s(K, N, M, count, unquantized) + launch;
    return {gemm_work_s(M, N, K, count, unquantized) + launch + quantize, dgrad + wgrad};
  }

  // The node-local stage of a group's collective: through on-chip memory when the group's ranks
  // in a node are cores of one chip (a node of one multi-core chip, which has no chip-to-chip
  // link), else over the node's chip-to-chip link.
  const Link& node_link(const Span& sp, int stride) const {
    return sp.n_intra * stride <= sc.accelerator.devices_per_chip ? on_chip : intra;
  }
  // Link for a group of ranks: on one chip, inside the node, or (hierarchically) across nodes.
  double group_all_reduce_s(double bytes, int n, int stride) const {
    if (n <= 1) return 0;
    if (n * stride <= sc.accelerator.devices_per_chip) return all_reduce_s(bytes, n, on_chip);
    const Span sp = span_of(n, stride, devices_per_node);
    return hierarchical_all_reduce_s(bytes, sp.n_intra, sp.n_inter, node_link(sp, stride), inter);
  }
  double group_reduce_scatter_s(double bytes, int n, int stride) const {
    if (n <= 1) return 0;
    if (n * stride <= sc.accelerator.devices_per_chip) return reduce_scatter_s(bytes, n, on_chip);
    const Span sp = span_of(n, stride, devices_per_node);
    return hierarchical_reduce_scatter_s(bytes, sp.n_intra, sp.n_inter, node_link(sp, stride), inter);
  }
  // Data-parallel reduce-scatter or all-gather. A framework whose collectives do not spread a
  // node's traffic over all its NICs runs them as one flat ring across nodes: every rank's share
  // crosses its own NIC share (the multi-rail aggregation that hierarchical_reduce_scatter_s
  // assumes is missing).
  double dp_reduce_scatter_s(double bytes, int n, int stride) const {
    if (n <= 1 || bytes <= 0) return 0;
    const Span sp = span_of(n, stride, devices_per_node);
    if (!sc.framework.dp_all_nics && sp.n_inter > 1)
      return single_rail_reduce_scatter_s(bytes, n, sp.n_intra, sp.n_inter, node_link(sp, stride), inter);
    return group_reduce_scatter_s(bytes, n, stride);
  }
  double dp_all_reduce_s(double bytes, int n, int stride) const {
    if (!sc.framework.dp_all_nics) return 2 * dp_reduce_scatter_s(bytes, n, stride);
    return group_all_reduce_s(bytes, n, stride);
  }
  // Expert weights are replicated only over the data-parallel ranks outside their expert-parallel
  // group (Megatron-Core's expert data parallelism), at a stride of the ep group's span.
  // When ep also takes tp ranks, every expert shard has a single replica.
  int expert_dp() const {
    return m.moe_experts > 0 && pl.ep > 1 ? std::max(1, pl.dp * pl.cp / pl.ep) : pl.dp * pl.cp;
  }
  int expert_dp_stride() const { return m.moe_experts > 0 && pl.ep > 1 ? etp * pl.ep : pl.tp; }
  double group_all_to_all_s(double bytes, int n, int stride) const {
    if (n <= 1) return 0;
    if (n * stride <= sc.accelerator.devices_per_chip) return all_to_all_s(bytes, n, on_chip);
    const Span sp = span_of(n, stride, devices_per_node);
    // Across nodes, the (n_inter-1)/n_inter share of the buffer crosses the network.
    const double off_node = sp.n_inter > 1 ? static_cast<double>(sp.n_inter - 1) / sp.n_inter : 0;
    return all_to_all_s(bytes * (1 - off_node), sp.n_intra, node_link(sp, stride)) +
           (off_node > 0 ? bytes * off_node / inter.bytes_per_s + (sp.n_inter - 1) * inter.latency_s
                         : 0);
  }
};

// Per-layer, per-micro-batch times on one device (seconds).
struct LayerTimes {
  double matmul_fwd = 0, matmul_bwd = 0;
  double attention_fwd = 0, attention_bwd = 0;
  double memory_fwd = 0, memory_bwd = 0;
  double tp_fwd = 0, tp_bwd = 0;
  double cp_fwd = 0, cp_bwd = 0, ep_fwd = 0, ep_bwd = 0;
};

// Multi-head latent attention's projections up to the output projection (DeepSeek-V3, arXiv
// 2412.19437, Section 2.1.1): the down-projections to the latents (and the shared rotary key) are
// small and taken as replicated on every tp rank; the up-projections split by heads over tp.
void mla_projections(const Ctx& x, LayerTimes& r) {
  const ModelShape& m = x.m;
  const double t = x.pl.tp, T = x.tokens_mb, h = m.hidden, n = m.heads / t, qk = head_dim(m);
  const bool frozen = frozen_base(x.sc);
  const double down = m.q_lora_rank + m.kv_lora_rank + m.qk_rope_head_dim;
  const Ctx::Pass passes[] = {
      x.linear(T, m.q_lora_rank > 0 ? down : m.kv_lora_rank + m.qk_rope_head_dim, h, frozen),
      m.q_lora_rank > 0 ? x.linear(T, n * qk, m.q_lora_rank, frozen) : x.linear(T, n * qk, h, frozen),
      x.linear(T, n * (qk - m.qk_rope_head_dim + m.v_head_dim), m.kv_lora_rank, frozen),
  };
  for (const auto& p : passes) {
    r.matmul_fwd += p.fwd;
    r.matmul_bwd += p.bwd;
  }
}

// A mixture-of-experts layer's routed experts on one rank, under balanced routing: each local expert
// sees the routed tokens of the data replicas in its ep group (ep x etp / tp of them) over all
// experts, and computes its 1/etp of the FFN width. A stack that launches local experts one by one
// pays a kernel cost each (per_expert_gemms), else one for the grouped kernel. Under an FP8/FP4
// recipe such a stack also quantizes each expert's operands on their own (Transformer Engine's
// GroupedLinear splits its input by expert and quantizes each split; recalled, not re-checked): the
// input before the forward GEMM and the output gradient before the backward ones, one launch each
// an expert (quantizes), each with the stack's host time besides (expert_quantize_us). LoRA's
// adapters beside the experts are not GroupedLinear's splits: none.
struct LocalExperts {
  double count = 0, tokens_each = 0, width = 0;
  GemmLaunches launches;
};
LocalExperts local_experts(const Ctx& x) {
  const ModelShape& m = x.m;
  const double ep = x.pl.ep, n_local = std::ceil(static_cast<double>(m.moe_experts) / ep);
  const double tokens_each = x.tokens_mb * m.moe_top_k * (ep * x.etp / x.pl.tp) / m.moe_experts;
  const double width = static_cast<double>(m.ffn_hidden) / x.etp;
  if (!x.sc.framework.per_expert_gemms) return {n_local, tokens_each, width, {}};
  return {n_local, tokens_each, width,
          {n_local, low_precision(x.sc.precision) ? n_local : 0.0, x.sc.framework.expert_quantize_us * 1e-6}};
}

// LoRA's adapter pairs (Hu et al. 2021) beside each adapted projection, on the tokens it sees:
// small GEMMs whose per-call cost dominates. A stack that fuses Q, K, V into one module, and a
// gated FFN's gate and up, adapts each fused module once. An FFN's adapters run with its matrices:
// the dense FFN, or each local expert on its routed tokens and each shared expert on all of them.
void lora_adapters(const Ctx& x, LayerTimes& r) {
  const ModelShape& m = x.m;
  const double t = x.pl.tp, T = x.tokens_mb, h = m.hidden, q = attention_width(m), rk = x.sc.lora_rank;
  const bool fused = x.sc.framework.fused_projections;
  auto adapt = [&](double tokens, double in, double out, double count = 1, double launches = 1) {
    for (const Ctx::Pass& p : {x.linear(tokens, rk, in, false, count, false, {launches}),
                               x.linear(tokens, out, rk, false, count, false, {launches})}) {
      r.matmul_fwd += p.fwd;
      r.matmul_bwd += p.bwd;
    }
  };
  auto adapt_ffn = [&](double tokens, double width, double count, double launches) {
    if (fused) {
      adapt(tokens, h, (m.gated_ffn ? 2.0 : 1.0) * width, count, launches);
    } else {
      for (int i = 0; i < (m.gated_ffn ? 2 : 1); ++i) adapt(tokens, h, width, count, launches);
    }
    adapt(tokens, width, h, count, launches);
  };
  if (fused) {
    adapt(T, h, q / t + 2 * x.kv_local);
  } else {
    for (const double out : {q / t, x.kv_local, x.kv_local}) adapt(T, h, out);
  }
  adapt(T, q / t, h);
  if (m.moe_experts <= 0) {
    adapt_ffn(T, m.ffn_hidden / t, 1, 1);
    return;
  }
  const LocalExperts e = local_experts(x);
  adapt_ffn(e.tokens_each, e.width, e.count, e.launches.gemms);
  adapt_ffn(T, m.ffn_hidden / t, m.moe_shared_experts, 1);
}

// Per-layer, per-micro-batch times on one device, by kind of work; each part adds to r.
void layer_gemms(const Ctx& x, LayerTimes& r) {
  const ModelShape& m = x.m;
  const ParallelPlan& pl = x.pl;
  const double t = pl.tp, T = x.tokens_mb, h = m.hidden, f = m.ffn_hidden;
  const bool frozen = frozen_base(x.sc);
  auto add = [&](Ctx::Pass p) {
    r.matmul_fwd += p.fwd;
    r.matmul_bwd += p.bwd;
  };
  // Megatron's column/row split (Shoeybi et al. 2019): QKV and FFN-in split outputs, O and
  // FFN-out split inputs over the tp ranks. KV heads are replicated when tp exceeds them.
  const double q = attention_width(m);
  if (is_mla(m)) {
    mla_projections(x, r);
  } else {
    add(x.linear(T, q / t + 2 * x.kv_local, h, frozen));
  }
  add(x.linear(T, h, value_width(m) / t, frozen));
  const double ffn_in = (m.gated_ffn ? 2.0 : 1.0) * f / t;
  if (m.moe_experts > 0) {
    // Every local expert runs the same GEMMs, grouped: one evaluation times the count keeps the
    // time bounded for any number of experts; the shared experts below are one dense MLP.
    const LocalExperts e = local_experts(x);
    const double expert_in = (m.gated_ffn ? 2.0 : 1.0) * e.width;
    add(x.linear(e.tokens_each, expert_in, h, frozen, e.count, false, e.launches));
    add(x.linear(e.tokens_each, h, e.width, frozen, e.count, false, e.launches));
    add(x.linear(T, ffn_in, h, frozen, m.moe_shared_experts));
    add(x.linear(T, h, f / t, frozen, m.moe_shared_experts));
    add(x.linear(pl.sequence_parallel ? T / t : T, m.moe_experts, h, frozen));  // the router, on a rank's tokens
  } else {
    add(x.linear(T, ffn_in, h, frozen));
    add(x.linear(T, h, f / t, frozen));
  }
  if (x.sc.mode == TrainingMode::lora && x.sc.lora_rank > 0) lora_adapters(x, r);
}

void layer_attention(const Ctx& x, LayerTimes& r) {
  const ModelShape& m = x.m;
  const double t = x.pl.tp, T = x.tokens_mb, q = attention_width(m), v = value_width(m);
  // Attention scores and context: 2 b s_q s_kv (h_qk + h_v) FLOPs forward (4 b s_q s_kv h when
  // both are h); FlashAttention skips the masked half for causal models and its backward costs
  // 2.5 forwards (Dao 2023, Section 3).
  const double s_kv = x.s;
  double attn_flops = 2.0 * T * s_kv * (q + v) / t;
  const AttentionKernel kernel = attention_kernel(x.sc, x.pl);  // at unquantized_flops' precision
  const double rate = x.unquantized_flops * kernel.efficiency;
  if (kernel.kind != AttentionKernel::Kind::unfused) {
    attn_flops = 2.0 * T * attended_keys(m) * (q + v) / t;
    const bool v3 = kernel.kind == AttentionKernel::Kind::fa3;
    // The softmax takes one exponential per score element on the special-function units, forward
    // and again backward (recomputing P), at a rate that does not grow with the head width: an
    // H100 has 3.9 T/s of them beside 989 TFLOP/s of matmul (Shah et al. 2024, FlashAttention-3,
    // Section 3.1). FlashAttention-2-class kernels run them between their GEMMs; FlashAttention-3-
    // class kernels overlap the two (ping-pong warpgroups, ibid.), so the slower one sets the pace.
    // Beside the exponential, the online softmax spends about four scalar FP32 instructions per
    // score element each way on the CUDA cores, whose throughput is a small fraction of the tensor
    // cores' (forward: row max, scaled subtract, row sum, conversion of P to 16 bits; backward:
    // scaled subtract, dP - D, the product with P, conversion of dS; Dao 2023, FlashAttention-2,
    // Section 3.1 and Algorithms 1-2). Both are GPU units: an accelerator without an exponential
    // rate (Trainium, whose softmax runs on its vector and scalar engines) leaves the softmax out.
    constexpr double kSoftmaxFp32OpsPerScore = 4;
    double softmax_s = 0;
    if (x.exp_per_s > 0) {
      const double fp32_s = x.fp32_ops_per_s > 0 ? kSoftmaxFp32OpsPerScore / x.fp32_ops_per_s : 0.0;
      softmax_s = (m.heads / t) * T * attended_keys(m) * (1 / x.exp_per_s + fp32_s);
    }
    const double mm_fwd = attn_flops / rate, mm_bwd = 2.5 * mm_fwd;
    r.attention_fwd = v3 ? std::max(mm_fwd, softmax_s) : mm_fwd + softmax_s;
    r.attention_bwd = v3 ? std::max(mm_bwd, softmax_s) : mm_bwd + softmax_s;
  } else {
    // Unfused: two batched GEMMs plus the score matrix written and read by softmax and dropout.
    const double scores = (m.heads / t) * T * s_kv;
    double fwd_bytes = 4.0 * scores * x.act_bytes, bwd_bytes = 6.0 * scores * x.act_bytes;
    if (kernel.scores_on_chip) {
      // A compiled graph keeps them on chip (attention_kernel) but for what the layers the backward
      // does not recompute store (stored_softmax_bytes), written once and read once.
      const double kept = x.pl.recompute == Recompute::selective
                              ? 0.0
                              : 1.0 - x.recomputed_share;
      fwd_bytes = bwd_bytes = scores * kept * stored_softmax_bytes(m, x.act_bytes);
    }
    r.attention_fwd = attn_flops / rate + fwd_bytes / x.hbm_bytes_per_s;
    r.attention_bwd = 2.0 * attn_flops / rate + bwd_bytes / x.hbm_bytes_per_s;
  }

}

void layer_memory(const Ctx& x, LayerTimes& r) {
  const ModelShape& m = x.m;
  const ParallelPlan& pl = x.pl;
  const double t = pl.tp, T = x.tokens_mb, h = m.hidden, f = m.ffn_hidden;
  // Memory-bound work per token: two norms (read, write), two residual adds (read 2, write 1),
  // bias-dropout (read, write, mask) when training with dropout, the activation function over the
  // FFN width (activation_elements), rotary embeddings on Q and K. Sequence parallelism splits the
  // h-wide parts over tp (Korthikanti et al. 2022, Section 4.2.2); backward moves about twice the
  // bytes.
  const double rep = pl.sequence_parallel ? 1.0 / t : 1.0;
  const double moe_factor = m.moe_experts > 0 ? m.moe_top_k + m.moe_shared_experts : 1;
  double elems = rep * h * (4.0 + 6.0 + (m.dropout ? 5.0 : 0.0)) + moe_factor * activation_elements(m) * f / t;
  if (m.learned_positions == 0 && m.kind == ModelKind::decoder) elems += 2.0 * (h + x.kv) / t;
  // A GEMM whose operands are narrower than the activations converts its inputs first (read the
  // activation, write the operand): FP8/FP4 recipes quantize 16-bit ones (1.5 activation-sized
  // elements for FP8), and Neuron's auto-cast turns FP32 matmul inputs into BF16 ones (neuronx-cc
  // --auto-cast matmult, its default). The inputs of QKV, O, FFN in and out.
  const double cast = 1.0 + x.op_bytes / x.act_bytes;
  if (x.op_bytes < x.act_bytes) elems += cast * (rep * 2.0 * h + h / t + moe_factor * f / t);
  // Rowwise scales run along the dimension a GEMM reduces, so the weight gradient, which reduces
  // over tokens, needs its input and its output gradient quantized again from their 16-bit copies
  // (torchao's Float8Linear with axiswise scaling), and a tensor-parallel input is gathered in 16
  // bits and quantized whole rather than quantized before the gather (per-tensor recipes).
  double requantized = 0;
  if (rowwise_fp8(x.sc)) {
    elems += cast * (1.0 - rep) * 2.0 * h;
    const double inputs = 2.0 * h + h / t + moe_factor * f / t;
    const double output_grads = attention_width(m) / t + x.kv_local + x.v_local + h +
                                moe_factor * ((m.gated_ffn ? 2.0 : 1.0) * f / t + h);
    requantized = cast * (inputs + output_grads);
  }
  // Token routing of a mixture-of-experts layer (Megatron-Core's token dispatcher): the router's
  // logits, softmax and top-k over E experts, then each token copied to its top_k slots before the
  // experts (permute: read h, write k h) and gathered back after them (read k h, write h).
  double kernels = x.sc.framework.elementwise_kernels_per_layer;
  if (m.moe_experts > 0) {
    elems += 3.0 * m.moe_experts * rep + 2.0 * (1.0 + m.moe_top_k) * h * rep;
    kernels += x.sc.framework.moe_kernels_per_layer;
  }
  // Each elementwise kernel also pays the per-kernel cost; backward launches twice as many.
  const double launches = kernels * x.kernel_s();
  r.memory_fwd = T * elems * x.act_bytes / x.hbm_bytes_per_s + launches;
  r.memory_bwd = 2.0 * (r.memory_fwd) + T * requantized * x.act_bytes / x.hbm_bytes_per_s;
}

void layer_communication(const Ctx& x, LayerTimes& r) {
  const ModelShape& m = x.m;
  const ParallelPlan& pl = x.pl;
  const double t = pl.tp, T = x.tokens_mb, h = m.hidden;
  // Tensor parallelism: two all-reduces of b s h per layer forward and two backward; sequence
  // parallelism turns each into a reduce-scatter plus an all-gather of the same volume
  // (Korthikanti et al. 2022). tp ranks are adjacent (stride 1).
  if (pl.tp > 1) {
    const double bytes = T * h * x.act_bytes;
    // The overlap splits each collective into peer-to-peer chunks behind the GEMM over the node's
    // shared memory (Transformer Engine's userbuffers, CUDA IPC handles; PyTorch's symmetric memory
    // for asynchronous TP): a tp group that spans nodes runs its collectives unhidden.
    const double hidden = pl.tp <= x.devices_per_node ? tp_hidden_share(x.sc, pl) : 0.0;
    const double one = x.group_all_reduce_s(bytes, pl.tp, 1) * (1.0 - hidden);
    r.tp_fwd = 2 * one;
    r.tp_bwd = 2 * one;
  }
  // Context parallelism: K and V blocks travel the ring in forward; in backward K and V travel
  // again beside the accumulating dK and dV, twice the bytes. The ring overlaps the attention
  // kernel (Liu et al. 2023, Ring Attention), so only the excess is exposed. cp ranks follow the
  // tp ranks.
  if (pl.cp > 1) {
    const double kv_bytes = T * (x.kv_local + x.v_local) * x.act_bytes * pl.cp;
    const double ring = x.group_reduce_scatter_s(kv_bytes, pl.cp, pl.tp);
    r.cp_fwd = std::max(0.0, ring - r.attention_fwd);
    r.cp_bwd = std::max(0.0, 2.0 * ring - r.attention_bwd);
  }
  // Expert parallelism: dispatch and combine all-to-alls of the routed tokens, forward and
  // backward (Lepikhin et al. 2021, GShard). Megatron-Core orders expert ranks expert-tp, then
  // ep, then expert-dp (cp folds into the data-parallel side): ep ranks sit expert_tp apart.
  if (m.moe_experts > 0 && pl.ep > 1) {
    // Under sequence parallelism each tp rank dispatches only its 1/tp of the tokens; a token
    // travels as top_k copies, or, with a deduplicating dispatcher, one to each rank holding any
    // of its experts (dispatch_copies).
    const double tokens = pl.sequence_parallel ? T / t : T;
    const double bytes = tokens * dispatch_copies(m, pl.ep, x.sc.framework.dispatch_once_per_rank) * h * x.act_bytes;
    // Frameworks that overlap one micro-batch's all-to-all with another's compute hide a share.
    // That pairs a forward with another micro-batch's backward, as the m - p + 1 steady-state
    // micro-batches of a 1F1B pipeline do (Narayanan et al. 2021, Section 2.2); taken here to
    // need a pipeline (a recalled Megatron-Core restriction, see docs/accuracy.md).
    const double mbs = static_cast<double>(x.micro_batches);
    const double steady = pl.pp > 1 ? std::max(0.0, mbs - pl.pp + 1) / mbs : 0.0;
    const double hidden = x.sc.framework.ep_overlap * steady;
    const double one = x.group_all_to_all_s(bytes, pl.ep, x.etp) * (1.0 - hidden);
    r.ep_fwd = 2 * one;
    r.ep_bwd = 2 * one;
  }
}

LayerTimes one_layer_times(const Ctx& x) {
  LayerTimes r;
  layer_gemms(x, r);
  layer_attention(x, r);
  layer_memory(x, r);
  layer_communication(x, r);  // context parallelism hides behind the attention times above
  return r;
}

double blend(double a, double share_b, double b) { return (1 - share_b) * a + share_b * b; }
template <std::size_t N>
std::array<double, N> blend(const std::array<double, N>& a, double share_b, const std::array<double, N>& b) {
  std::array<double, N> r{};
  for (std::size_t i = 0; i < N; ++i) r[i] = blend(a[i], share_b, b[i]);
  return r;
}
LayerTimes blend(const LayerTimes& a, double share_b, const LayerTimes& b) {
  static_assert(sizeof(LayerTimes) == 12 * sizeof(double), "blend every field of LayerTimes");
  LayerTimes r;
  for (double LayerTimes::*f : {&LayerTimes::matmul_fwd, &LayerTimes::matmul_bwd, &LayerTimes::attention_fwd,
                                &LayerTimes::attention_bwd, &LayerTimes::memory_fwd, &LayerTimes::memory_bwd,
                                &LayerTimes::tp_fwd, &LayerTimes::tp_bwd, &LayerTimes::cp_fwd, &LayerTimes::cp_bwd,
                                &LayerTimes::ep_fwd, &LayerTimes::ep_bwd})
    r.*f = blend(a.*f, share_b, b.*f);
  return r;
}

// A model's layers are not all alike: DeepSeek-V3's first three have a dense FFN instead of
// experts (first_k_dense_replace). `routed` is a layer of the model's own shape (its only kind
// unless it is a mixture with dense layers), `dense` a mixture's dense-FFN layer.
template <class T>
struct ByLayerKind {
  T routed, dense;
};
template <class F>
auto by_layer_kind(const Ctx& x, F f) -> ByLayerKind<decltype(f(x))> {
  const ModelShape& m = x.m;
  const auto own = f(x);
  if (m.moe_experts <= 0 || m.dense_layers <= 0) return {own, own};
  Scenario dense = x.sc;
  ModelShape& d = dense.model;
  d.moe_experts = d.moe_top_k = d.moe_shared_experts = d.dense_layers = 0;
  d.ffn_hidden = m.dense_ffn_hidden;
  const Ctx dx(dense);
  return {own, f(dx)};
}

// A rank's layers' times, each kind weighed by its share of them.
template <class T>
T on_rank(const ByLayerKind<T>& kinds, const RankLayers& r) {
  return blend(kinds.routed, r.dense_share(), kinds.dense);
}

// Work outside the transformer blocks: output layer and loss on the last stage, patch or
// embedding work on the first.
struct EdgeTimes {
  double first_fwd = 0, first_bwd = 0, last_fwd = 0, last_bwd = 0;
};
EdgeTimes edge_times(const Ctx& x) {
  const ModelShape& m = x.m;
  const double t = x.pl.tp, T = x.tokens_mb, h = m.hidden;
  const bool frozen = frozen_base(x.sc);
  EdgeTimes e;
  if (m.kind == ModelKind::vit) {
    const double patch_in = static_cast<double>(m.patch_size) * m.patch_size * m.channels;
    const auto p = x.linear(T, h, patch_in, frozen);
    e.first_fwd = p.fwd;
    e.first_bwd = p.bwd;
    const auto head = x.linear(x.pl.micro_batch, m.num_classes, h, false);
    e.last_fwd = head.fwd;
    e.last_bwd = head.bwd;
    return e;
  }
  // Vocabulary-parallel output layer and a cross-entropy passing over its logits three times each
  // way (forward: the upcast, the row max, the exponentials and their sum; backward: the softmax
  // less the one-hot target read and written as the logits' gradient), upcast to FP32 unless a
  // fused kernel reads the 16-bit ones. FP8 and FP4 recipes quantize the transformer layers only:
  // Megatron-Core's output layer is a plain ColumnParallelLinear outside Transformer Engine's
  // autocast, and torchtitan's float8 conversion skips the module named "output"; it runs in BF16.
  const auto logits = x.linear(T, m.vocab / t, h, frozen, 1, true);
  const double loss = 3.0 * T * (m.vocab / t) * loss_logit_bytes(x.sc) / x.hbm_bytes_per_s;
  // Each prediction module projects its 2h-wide input to h, then runs the output layer and a loss
  // again (DeepSeek-V3, Section 2.2); its layer is timed with the rank's others.
  const auto projection = x.linear(T, h / t, 2.0 * h, frozen);
  const double passes = 1.0 + m.mtp_layers;
  e.last_fwd = passes * (logits.fwd + loss) + m.mtp_layers * projection.fwd;
  e.last_bwd = passes * (logits.bwd + loss) + m.mtp_layers * projection.bwd;
  return e;
}

// Routed-expert parameters of `expert_layers` layers on a device (they shard over expert_dp, not dp).
double expert_params(const Ctx& x, double expert_layers) {
  return expert_layers * x.m.moe_experts * x.params.expert / x.pl.ep / x.etp;
}

double stage_expert_params(const Ctx& x, int rank) { return expert_params(x, x.held(rank).routed); }

// The transformer-layer parameters of `r`'s layers outside the routed experts, split over tensor
// parallel: its routed ones have a router and shared experts, the others a dense FFN.
// `gemm_weights_only` leaves out the norms and the router, which no FP8 recipe quantizes.
double dense_params(const Ctx& x, const RankLayers& r, bool gemm_weights_only) {
  const ParamCounts& c = x.params;
  const bool moe = x.m.moe_experts > 0;
  const double dense_ffn = !moe ? c.ffn_dense : x.m.dense_layers > 0 ? c.dense_layer - c.attention - c.norms : 0.0;
  const double every = c.attention + (gemm_weights_only ? 0.0 : c.norms);
  const double expert_layer = c.shared_experts + (gemm_weights_only ? 0.0 : c.router);
  return (r.layers * every + r.routed * expert_layer + (r.layers - r.routed) * dense_ffn) / x.pl.tp;
}

// Parameters a rank keeps after ZeRO sharding: dense ones over dp x cp, routed experts over
// their expert-data-parallel group.
double sharded_params(const Ctx& x, double params, double experts, bool shard) {
  if (!shard) return params;
  return (params - experts) / (x.pl.dp * x.pl.cp) + experts / x.expert_dp();
}

// What a device of pipeline rank `rank` trains of its `params_on_device`: all of them, or under
// LoRA its adapters alone (lora_params_on), an expert's split over expert parallelism as its
// weights are, the others over tensor parallel; and of those, the routed experts', which shard
// over their expert-data-parallel group.
struct Trainable {
  double all = 0, experts = 0;
};
Trainable trainable_on(const Ctx& x, int rank, double params_on_device) {
  if (!frozen_base(x.sc)) return {params_on_device, stage_expert_params(x, rank)};
  const RankLayers held = x.held(rank);
  const LoraSplit a = lora_params_on(x.m, x.sc.lora_rank, x.sc.framework.fused_projections, held.layers,
                                     held.routed, x.m.moe_experts);
  const double experts = a.experts / x.pl.ep / x.etp;
  return {a.rest / x.pl.tp + experts, experts};
}

// Parameters of pipeline rank `rank`'s edge modules on a device: the first holds the embeddings,
// the last the output layer and the prediction modules' projections (their layers are the rank's).
double edge_params(const Ctx& x, int rank) {
  const ParamCounts& c = x.params;
  double p = 0;
  if (rank == 0) p += c.embeddings;
  const double table = static_cast<double>(x.m.vocab) * x.m.hidden;
  if (rank == x.pl.pp - 1) {
    p += c.output > 0 ? c.output : (x.m.kind == ModelKind::decoder && x.pl.pp > 1 ? table : 0.0);
    // The prediction modules' own weights, and the embedding they look the next tokens up in: a
    // copy on the last stage when the first holds it and the output layer is not it.
    p += c.mtp_projections;
    if (x.m.mtp_layers > 0 && x.pl.pp > 1 && c.output > 0) p += table;
  }
  return p / x.pl.tp;
}

// Parameters held by a device of pipeline rank `rank` before ZeRO sharding.
double stage_params(const Ctx& x, int rank) {
  const RankLayers r = x.held(rank);
  return dense_params(x, r, false) + expert_params(x, r.routed) + edge_params(x, rank);
}

// ZeRO-3's gathered weights on pipeline rank `rank` at their peak: its edge modules (embeddings,
// output layer), which the root unit keeps gathered from its forward to its backward (PyTorch
// FSDP2's fully_shard: the root does not reshard after forward; recalled), and two of its largest
// units, the one running and the one prefetched (Zhao et al. 2023, Section 3.3). A unit is a layer,
// or, where a stack gathers tensor by tensor (DeepSpeed ZeRO-3), an even share of the layer over its
// zero3_gathers_per_layer gathers, as its communication is timed (its largest tensor, a GPT FFN
// matrix, is a third of the layer, not a quarter: the even share is a little low).
double zero3_gathered_params(const Ctx& x, int rank) {
  const RankLayers held = x.held(rank);
  double layer = 0;
  if (held.routed > 0) layer = dense_params(x, {1, 1}, false) + expert_params(x, 1);
  if (held.layers > held.routed) layer = std::max(layer, dense_params(x, {1, 0}, false));
  return edge_params(x, rank) + 2.0 * layer / x.sc.framework.zero3_gathers_per_layer;
}

// Activation bytes one layer keeps for one micro-batch: Korthikanti et al. 2022, Section 4,
// generalised to GQA, gated FFNs, MoE, FlashAttention and dropout-free models.
double layer_activation_bytes(const Ctx& x, Recompute recompute) {
  const ModelShape& m = x.m;
  const ParallelPlan& pl = x.pl;
  const double t = pl.tp, T = x.tokens_mb, h = m.hidden, f = m.ffn_hidden, e = x.act_bytes;
  const double rep = (pl.sequence_parallel || pl.tp == 1) ? 1.0 / t : 1.0;
  const double mask = m.dropout ? 1.0 : 0.0;
  if (recompute == Recompute::full) return e * T * h * rep;  // only the layer input
  if (recompute == Recompute::selective && every_other_matmul(x.sc)) {
    // The block's input and what the policy keeps: the outputs of Q (1st matmul), V (3rd), the
    // attention kernel, the FFN's first matmul (5th) and, gated, its down projection (7th).
    const double kept = attention_width(m) / t + x.v_local + (value_width(m) + f + (m.gated_ffn ? h : 0)) / t;
    return e * T * (h * rep + kept);
  }
  // Bytes of a stored GEMM input: its quantized copy where the stack keeps that one (FP8: 1 byte,
  // not 2; norms, attention and the activation function keep their 16-bit inputs).
  const double g = low_precision(x.sc.precision) && x.sc.framework.keeps_quantized_gemm_inputs
                       ? operand_bytes(x.sc.precision)
                       : e;
  // Attention block: norm input, QKV input, Q K V, output-projection input, dropout mask.
  const double q = attention_width(m);
  double attn = (e + g) * T * h * rep + e * T * (q / t + x.kv_local + x.v_local) + g * T * value_width(m) / t +
                mask * T * h * rep;
  // Latent attention also keeps its latents c_Q and c_KV (DeepSeek-V3, Section 2.1.1) twice: each is
  // RMS-normed before its up projection (ibid., Section 4.2), whose backward reads the norm's input
  // and whose weight gradient reads the normed latent. Megatron-Core scatters the latents to the
  // sequence-parallel region (recalled), so sequence parallelism splits them as the block's input.
  if (is_mla(m)) attn += (e + g) * T * (m.q_lora_rank + m.kv_lora_rank) * rep;
  if (!x.sc.flash_attention && recompute == Recompute::none) {
    attn += stored_softmax_bytes(m, e) * (m.heads / t) * T * x.s;
  }
  // FFN block: norm input, FFN input (an MoE layer's feeds the 16-bit router), what the
  // activation keeps (activation_kept) and its output, the second GEMM's input, dropout mask; MoE
  // keeps them for each routed copy of a token.
  const bool moe = m.moe_experts > 0;
  const double routed = moe ? m.moe_top_k + m.moe_shared_experts : 1.0;
  double ffn = (e + (moe ? e : g)) * T * h * rep + routed * T * (activation_kept(m) * e + g) * f / t +
               mask * T * h * rep;
  // Dispatched tokens, the experts' first GEMM input: the device's local experts receive
  // T top_k etp / tp of them.
  if (moe) ffn += g * T * m.moe_top_k * h * x.etp / t;
  return attn + ffn;
}

}  // namespace

double tile_fill(const Accelerator& a, double M, double N, double K, double count) {
  const double units = a.gemm_units;
  const double product = count * M * N * K;
  if (units <= 0 || a.gemm_tile_m <= 0 || a.gemm_tile_n <= 0 || !(product > 0) || !std::isfinite(product))
    return 1;
  // Split-K: outputs of less than one wave split their inner dimension over the idle units, down
  // to kMinSplitK elements a split (the heuristic of cuBLAS and CUTLASS for skinny outputs).
  constexpr double kMinSplitK = 256;
  auto fill = [&](double tm, double tn) {
    const double tiles = count * std::ceil(M / tm) * std::ceil(N / tn);
    const double splits = std::max(1.0, std::min(std::floor(units / tiles), std::floor(K / kMinSplitK)));
    return count * M * N * splits / (std::ceil(tiles * splits / units) * units * tm * tn);
  };
  return std::max(fill(a.gemm_tile_m, a.gemm_tile_n), fill(a.gemm_tile_n, a.gemm_tile_m));
}

int expert_tp(const ParallelPlan& pl) {
  const int dp_n = pl.dp * pl.cp;
  if (pl.ep <= 1 || dp_n % pl.ep == 0) return pl.tp;
  return std::max(1, pl.tp * dp_n / pl.ep);
}

AttentionKernel attention_kernel(const Scenario& s, const ParallelPlan& pl) {
  const Precision math = matmul_precision(s);
  const AcceleratorCalibration& c = s.accelerator.cal;
  AttentionKernel k;
  k.precision = low_precision(math) ? Precision::bf16 : math;
  if (!s.flash_attention) {
    k.kind = AttentionKernel::Kind::unfused;
    k.efficiency = c.matmul_efficiency_max;
    // The NeuronCore's SBUF is software-managed: neuronx-cc places a graph's tensors in it and
    // moves them to and from HBM by DMA (AWS Neuron docs, NeuronCore-v2 architecture: 24 MiB a
    // core). Taken here: the scores stay on chip where one head's for one sequence (its queries on
    // this rank) fit the rank's share of it, ignoring the backward's second score-sized buffer.
    const double seq = tokens_per_sample(s.model), rows = seq / pl.cp;
    const double sram_bytes = s.accelerator.sram_mib * kMiB / s.accelerator.devices_per_chip;
    k.scores_on_chip = rows * seq * activation_bytes(s.precision) <= sram_bytes;
  } else if (s.framework.attention_v3_kernels && c.attention_v3_efficiency > 0) {
    k.kind = AttentionKernel::Kind::fa3;
    k.efficiency = c.attention_v3_efficiency;
  } else {
    k.efficiency = c.attention_efficiency;
  }
  return k;
}

bool rowwise_fp8(const Scenario& s) { return s.precision == Precision::fp8 && s.fp8_scaling == Fp8Scaling::rowwise; }

bool async_tp_available(const Scenario& s) { return s.framework.async_tp_overlap > 0 && !is_neuron(s.accelerator); }

bool runs_async_tp(const Scenario& s) { return s.async_tp && async_tp_available(s); }

double tp_hidden_share(const Scenario& s, const ParallelPlan& pl) {
  if (!pl.sequence_parallel) return 0;
  // A rowwise recipe gathers the input in 16 bits and casts it whole before its GEMM: torchtitan
  // measured asynchronous TP 4-6% faster than vanilla on rowwise runs against 9-16% on BF16 and
  // tensorwise ones (tests/data/published_runs.csv, TTITAN-ASYNCTP).
  return (rowwise_fp8(s) ? 0.5 : 1.0) * (runs_async_tp(s) ? s.framework.async_tp_overlap : s.framework.tp_overlap);
}

double dispatch_copies(const ModelShape& m, int ep, bool once_per_rank) {
  const int k = m.moe_top_k, e = m.moe_experts;
  // Megatron-Core's alltoall dispatcher permutes one row per (token, expert) pair and sends each
  // (routing_map.sum over experts): top_k copies, two experts on one rank included.
  if (!once_per_rank) return k;
  if (ep <= 1 || e <= 0) return std::min(k, ep);
  // C(E - g, k) / C(E, k) = C(E - k, g) / C(E, g) for g = E / ep experts a rank: a product over the
  // smaller of k and g, each factor at most 1 - max(k, g) / E, stopped once negligible (at most
  // about sqrt(41 E) factors).
  const int g = e / ep, n = std::min(k, g), other = k + g - n;
  double missed = 1.0;
  for (int i = 0; i < n && missed > 1e-18; ++i) missed *= static_cast<double>(e - other - i) / (e - i);
  return std::min(ep * (1.0 - missed), static_cast<double>(std::min(k, ep)));  // not above it by rounding
}

Precision matmul_precision(const Scenario& s) {
  const bool cast = s.precision == Precision::fp32 && s.accelerator.autocasts_fp32_matmul && s.auto_cast;
  return cast ? Precision::bf16 : s.precision;
}

std::string lora_rank_reason(int rank, const ModelShape& m) {
  return num(rank) + " exceeds the model's narrowest adapted weight (" + num(max_lora_rank(m)) +
         ": hidden, attention, K/V and FFN widths); an adapter's rank cannot exceed it";
}

long long count_product(std::initializer_list<long long> factors) {
  long long p = 1;
  for (const long long f : factors) {
    if (f <= 0) return f == 0 ? 0 : -1;  // a non-positive degree is reported by its own check
    p = p > kCountCap / f ? kCountCap : p * f;
  }
  return p;
}

int devices_of(const Scenario& s) { return chips_of(s) * s.accelerator.devices_per_chip; }

double power_limited_clock_fraction(const Scenario& s) {
  const double full = s.accelerator.power_w, cap = s.power_limit_w;
  if (!(cap > 0) || !(full > 0) || cap >= full) return 1.0;
  return std::cbrt(cap / full);
}

double chip_power_w(const Scenario& s) {
  const double full = s.accelerator.power_w, cap = s.power_limit_w;
  return cap > 0 && full > 0 && cap < full ? cap : full;
}

double tensor_clock_fraction(const Scenario& s, Precision p) {
  static constexpr double kBits[] = {32, 32, 16, 16, 8, 4};  // fp32, tf32, bf16, fp16, fp8, fp4
  const double clock = power_limited_clock_fraction(s), power_w = chip_power_w(s);
  const double gemm_w = s.accelerator.cal.gemm_energy_pj_per_flop * kBits[static_cast<int>(p)] / 16 *
                        s.accelerator.peak_tflops[static_cast<int>(p)];
  return gemm_w > 0 && power_w > 0 ? std::min(clock, power_w / gemm_w) : clock;
}

int chips_of(const Scenario& s) {
  return s.chips > 0 ? s.chips : s.nodes * s.instance.chips_per_node;
}

int tokens_per_sample(const ModelShape& m) {
  return m.kind == ModelKind::vit ? vit_tokens(m) : m.seq_len;
}

namespace {
std::optional<InputProblem> check_mla(const ModelShape& m) {
  auto bad = [](const char* f, std::string why) { return InputProblem{std::string("model.") + f, why}; };
  if (m.q_lora_rank < 0 || m.kv_lora_rank < 0 || m.qk_rope_head_dim < 0 || m.v_head_dim < 0)
    return bad("kv_lora_rank", "latent attention sizes must not be negative");
  if (!is_mla(m)) {
    if (m.q_lora_rank + m.qk_rope_head_dim + m.v_head_dim != 0)
      return bad("kv_lora_rank", "must be set with q_lora_rank, qk_rope_head_dim or v_head_dim");
    return std::nullopt;
  }
  if (m.v_head_dim <= 0) return bad("v_head_dim", "must be positive with latent attention");
  if (m.qk_rope_head_dim >= head_dim(m))
    return bad("qk_rope_head_dim", "must be below head_dim (" + num(head_dim(m)) + ")");
  if (m.kv_heads != m.heads) return bad("kv_heads", "must equal heads with latent attention");
  return std::nullopt;
}
}  // namespace

std::optional<InputProblem> check_model(const ModelShape& m) {
  auto bad = [](const char* f, std::string why) { return InputProblem{std::string("model.") + f, why}; };
  if (m.layers <= 0) return bad("layers", "must be positive");
  if (m.hidden <= 0) return bad("hidden", "must be positive");
  if (m.heads <= 0) return bad("heads", "must be positive");
  if (m.head_dim < 0) return bad("head_dim", "must not be negative");
  if (m.head_dim == 0 && m.hidden % m.heads != 0)
    return bad("heads", num(m.heads) + " does not divide hidden (" + num(m.hidden) + "); set head_dim");
  if (m.kv_heads <= 0) return bad("kv_heads", "must be positive");
  if (m.heads % m.kv_heads != 0)
    return bad("kv_heads", num(m.kv_heads) + " does not divide heads (" + num(m.heads) + ")");
  if (m.ffn_hidden <= 0) return bad("ffn_hidden", "must be positive");
  if (m.kind == ModelKind::vit) {
    if (m.patch_size <= 0 || m.image_size < m.patch_size)
      return bad("patch_size", "must be positive and at most image_size");
    if (m.channels <= 0) return bad("channels", "must be positive");
  } else {
    if (m.seq_len <= 0) return bad("seq_len", "must be positive");
    if (m.vocab <= 0) return bad("vocab", "must be positive");
  }
  if (m.moe_experts < 0) return bad("moe_experts", "must not be negative");
  if (m.moe_experts > 0 && (m.moe_top_k <= 0 || m.moe_top_k > m.moe_experts))
    return bad("moe_top_k", "must be between 1 and moe_experts (" + num(m.moe_experts) + ")");
  if (m.moe_experts == 0 && m.moe_top_k != 0) return bad("moe_top_k", "set without moe_experts");
  if (m.dense_layers < 0 || m.dense_layers >= m.layers || (m.dense_layers > 0 && m.moe_experts == 0))
    return bad("dense_layers", "must be below layers (" + num(m.layers) + ") and needs moe_experts");
  if (m.dense_layers > 0 && m.dense_ffn_hidden <= 0) return bad("dense_ffn_hidden", "must be positive");
  if (m.mtp_layers < 0 || m.mtp_layers > m.layers)
    return bad("mtp_layers", "must be 0 to layers (" + num(m.layers) + ")");
  if (m.mtp_layers > 0 && m.kind != ModelKind::decoder)
    return bad("mtp_layers", "multi-token prediction needs a decoder's next tokens");
  if (!(m.swiglu_limit >= 0) || !std::isfinite(m.swiglu_limit))
    return bad("swiglu_limit", "must be a finite, non-negative number");
  if (m.swiglu_limit > 0 && !m.gated_ffn) return bad("swiglu_limit", "needs gated_ffn (or set swiglu_limit to 0)");
  return check_mla(m);
}

namespace {
// A stated first or last stage: within the model, and with a pipeline to be the first or last of.
std::optional<InputProblem> check_stage_layers(const ModelShape& m, const ParallelPlan& pl) {
  const int first = pl.first_stage_layers, last = pl.last_stage_layers;
  const char* field = last >= 0 ? "parallel.last_stage_layers" : "parallel.first_stage_layers";
  for (const int n : {first, last})
    if (n < -1 || n > m.layers)
      return InputProblem{n == last ? "parallel.last_stage_layers" : "parallel.first_stage_layers",
                          "must be 0 to layers (" + num(m.layers) + ")"};
  if (first < 0 && last < 0) return std::nullopt;
  if (pl.pp < 2) return InputProblem{field, "needs pp > 1"};
  const long long rest = static_cast<long long>(m.layers) - std::max(first, 0) - std::max(last, 0);
  if (rest < 0)
    return InputProblem{field, "the first and the last stage hold " + num(m.layers - rest) +
                                   " layers, more than the model's " + num(m.layers)};
  const int others = pl.pp - (first >= 0 ? 1 : 0) - (last >= 0 ? 1 : 0);
  if (others == 0 && rest != 0)
    return InputProblem{field, "on 2 stages the first and the last hold all " + num(m.layers) + " layers"};
  // No framework builds an empty stage between two others (pipeline_layout).
  if (rest < others)
    return InputProblem{field, "leaves " + num(static_cast<double>(rest)) + " layers to the " + num(others) +
                                   " other stages, each of which needs one"};
  return std::nullopt;
}

// A plan may use only what its stack implements: a Megatron-LM of 2021 had neither sequence
// parallelism nor selective recompute (both Korthikanti et al. 2022), nor a distributed optimizer.
std::optional<InputProblem> check_stack_implements(const FrameworkProfile& fw, const ParallelPlan& pl) {
  const FrameworkProfile::Parallelisms& has = fw.parallelisms;
  const struct {
    bool used, implemented;
    const char* field;
    const char* what;
  } uses[] = {{pl.tp > 1, has.tp, "parallel.tp", "tensor parallelism"},
              {pl.sequence_parallel, has.sp, "parallel.sequence_parallel", "sequence parallelism"},
              {pl.pp > 1, has.pp, "parallel.pp", "pipeline parallelism"},
              {pl.vpp > 1, has.vpp, "parallel.vpp", "interleaved pipeline stages"},
              {pl.cp > 1, has.cp, "parallel.cp", "context parallelism"},
              {pl.ep > 1, has.ep, "parallel.ep", "expert parallelism"},
              {pl.recompute == Recompute::selective, fw.selective != FrameworkProfile::Selective::none,
               "recompute", "selective recompute"}};
  for (const auto& u : uses)
    if (u.used && !u.implemented)
      return InputProblem{u.field, "framework " + fw.id + " does not implement " + u.what};
  if (pl.zero > fw.max_zero)
    return InputProblem{"parallel.zero", "framework " + fw.id + " implements ZeRO up to stage " +
                                             num(fw.max_zero) + " (got " + num(pl.zero) + ")"};
  return std::nullopt;
}

}  // namespace

std::optional<InputProblem> check_tp_heads(const ModelShape& m, int tp) {
  const auto bad = [](std::string why) { return InputProblem{"parallel.tp", std::move(why)}; };
  if (m.heads % tp != 0) return bad(num(tp) + " does not divide heads (" + num(m.heads) + ")");
  if (tp > m.kv_heads && tp % m.kv_heads != 0)
    return bad(num(tp) + " is not a multiple of kv_heads (" + num(m.kv_heads) + ") to replicate KV heads");
  if (tp < m.kv_heads && m.kv_heads % tp != 0)
    return bad(num(tp) + " does not divide kv_heads (" + num(m.kv_heads) + ")");
  return std::nullopt;
}

std::optional<InputProblem> check_plan(const Scenario& s) {
  if (auto p = check_model(s.model)) return p;
  const ModelShape& m = s.model;
  const ParallelPlan& pl = s.plan;
  const Accelerator& a = s.accelerator;
  auto bad = [](const std::string& f, std::string why) { return InputProblem{f, why}; };
  if (a.peak_tflops[static_cast<int>(s.precision)] <= 0)
    return bad("precision", std::string(to_string(s.precision)) + " is not supported on " + a.id);
  if (a.devices_per_chip <= 0) return bad("instance.devices_per_chip", "must be positive");
  // Below about a quarter of its power a chip no longer runs at a clock the cube law describes.
  if (s.power_limit_w > 0 && a.power_w > 0 && s.power_limit_w < 0.25 * a.power_w)
    return bad("power_limit_w", num(s.power_limit_w) + " W is below a quarter of " + a.id + "'s " +
                                    num(a.power_w) + " W: no chip sustains a training clock there");
  // The same for a chip whose power holds its dense GEMMs under a tenth of its clock (an absurd
  // power_w, or energy a FLOP): the step would be out of all proportion, far from its cause.
  if (tensor_clock_fraction(s, matmul_precision(s)) < 0.1)
    return bad(s.power_limit_w > 0 ? "power_limit_w" : "accelerator.power_w",
               "holds " + a.id + "'s dense GEMMs under a tenth of its clock (calibration.gemm_energy_pj_per_flop)");
  if (s.instance.chips_per_node <= 0) return bad("instance.chips_per_node", "must be positive");
  if (s.nodes <= 0) return bad("nodes", "must be positive");
  // Every collective inside a node of several chips runs over this link: a 0 would surface as an
  // infinite step time, far from its cause.
  if (s.instance.chips_per_node > 1 && !(s.instance.intra.gb_per_s_per_chip > 0))
    return bad("instance.intra.gb_per_s_per_chip", "is 0 but the " + num(s.instance.chips_per_node) +
                                                   " chips of a node communicate over it");
  if (s.nodes > 1 && s.instance.inter_node_gbps <= 0)
    return bad("instance.inter_node_gbps", "is 0 but the job spans " + num(s.nodes) + " nodes");
  const int degrees[] = {pl.tp, pl.pp, pl.dp, pl.cp, pl.ep, pl.vpp, pl.micro_batch};
  const char* names[] = {"parallel.tp", "parallel.pp", "parallel.dp", "parallel.cp",
                         "parallel.ep", "parallel.vpp", "micro_batch"};
  for (int i = 0; i < 7; ++i)
    if (degrees[i] <= 0) return bad(names[i], "must be positive (got " + num(degrees[i]) + ")");
  if (auto problem = check_stack_implements(s.framework, pl)) return problem;
  const long long product = count_product({pl.tp, pl.pp, pl.dp, pl.cp});
  const int dev = devices_of(s);
  if (product != dev)
    return bad("parallel", "tp x pp x dp x cp = " + num(static_cast<double>(product)) +
                               " but the cluster has " + num(dev) + " devices (" + num(chips_of(s)) +
                               " chips x " + num(a.devices_per_chip) + ")");
  if (auto problem = check_tp_heads(m, pl.tp)) return problem;
  // Megatron-Core can count the embedding and the loss as one pipeline layer each
  // (account_for_embedding_in_pipeline_split, account_for_loss_in_pipeline_split): Llama 3.1 405B's
  // 126 layers then fill pp x vpp = 128 virtual stages.
  if (count_product({pl.pp, pl.vpp}) > m.layers + 2LL)
    return bad("parallel.pp", "pp x vpp = " + num(1.0 * pl.pp * pl.vpp) + " exceeds layers + 2 (" +
                                  num(m.layers) + " layers, embedding and loss)");
  if (pl.vpp > 1 && pl.pp == 1) return bad("parallel.vpp", "needs pp > 1");
  if (auto problem = check_stage_layers(m, pl)) return problem;
  if (pl.recompute_layers < 0 || pl.recompute_layers > m.layers)
    return bad("recompute_layers", "must be between 0 (all) and layers (" + num(m.layers) + ")");
  if (pl.recompute_layers > 0 && pl.recompute != Recompute::full)
    return bad("recompute_layers", "needs recompute full (it counts the layers that recompute fully)");
  // The profile's loader bounds it; a scenario built in code must not divide a layer by zero.
  if (pl.zero >= 3 && s.framework.zero3_gathers_per_layer < 1)
    return bad("framework.zero3_gathers_per_layer", "must be at least 1");
  if (tokens_per_sample(m) % pl.cp != 0)
    return bad("parallel.cp", num(pl.cp) + " does not divide the sequence length (" +
                                  num(tokens_per_sample(m)) + ")");
  if (pl.ep > 1) {
    if (m.moe_experts == 0) return bad("parallel.ep", "needs a mixture-of-experts model");
    if (m.moe_experts % pl.ep != 0)
      return bad("parallel.ep", num(pl.ep) + " does not divide moe_experts (" + num(m.moe_experts) + ")");
    // Megatron-core carves expert-parallel groups out of tp x dp x cp ranks (see expert_tp).
    const int dp_n = pl.dp * pl.cp;  // divides the devices (checked above): no overflow
    const bool inside_dp = dp_n % pl.ep == 0;
    const bool takes_tp = pl.ep % dp_n == 0 && pl.tp % (pl.ep / dp_n) == 0;
    if (!inside_dp && !takes_tp)
      return bad("parallel.ep", num(pl.ep) + " must divide dp x cp (" + num(dp_n) +
                                    "), or be a multiple of it that divides tp x dp x cp (" +
                                    num(pl.tp * dp_n) + ")");
  }
  if (pl.zero < 0 || pl.zero > 3) return bad("parallel.zero", "must be 0, 1, 2 or 3");
  if (s.global_batch <= 0) return bad("global_batch", "must be positive");
  const long long per_step = count_product({pl.micro_batch, pl.dp});
  if (s.global_batch % per_step != 0)
    return bad("global_batch", num(static_cast<double>(s.global_batch)) +
                                   " is not divisible by micro_batch x dp (" + num(pl.micro_batch) +
                                   " x " + num(pl.dp) + ")");
  if (s.mode == TrainingMode::lora && s.lora_rank <= 0)
    return bad("training.lora_rank", "must be positive for LoRA");
  if (s.mode == TrainingMode::lora && s.lora_rank > max_lora_rank(m))
    return bad("training.lora_rank", lora_rank_reason(s.lora_rank, m));
  if (!(s.train_tokens >= 0) || !std::isfinite(s.train_tokens))
    return bad("training.tokens", "must be a finite, non-negative number");
  return std::nullopt;
}

double model_flops_per_token(const Scenario& s) {
  const ModelShape& m = s.model;
  const ParamCounts c = count_params(m);
  // Matmul parameters: all but the embedding tables; the output layer counts even when tied, and
  // once more for each prediction module, which runs it again (Megatron-Bridge's FLOP count).
  double matmul = c.layers_active + c.mtp_active;
  if (m.kind == ModelKind::vit) {
    matmul += static_cast<double>(m.patch_size) * m.patch_size * m.channels * m.hidden;
  } else {
    matmul += (1.0 + m.mtp_layers) * static_cast<double>(m.vocab) * m.hidden;
  }
  // Causal attention needs only the unmasked half of the score matrix (Megatron-Bridge's and
  // FlashAttention's FLOP counts halve it); counting the masked half would let MFU pass 1.
  // Scores take the query/key width, context the value width (they differ under MLA).
  const double attention = 3.0 * attention_fwd_flops_per_key(m) * attended_keys(m);
  if (s.mode == TrainingMode::lora) {
    // Frozen weights: forward and activation gradients only; adapters train fully. The attention
    // core has no weights to freeze: its backward (dQ, dK, dV) runs in full for the gradients to
    // reach the adapters below it.
    return 4.0 * matmul + attention + 6.0 * adapter_params(s, true);
  }
  return 6.0 * matmul + attention;
}

// The pipeline ranks whose memory can be the largest: the first (most micro-batches in flight,
// the embeddings), the last (the output layer and logits) and, between them, each rank holding
// more layers than the rank before it (the first's embedding takes a layer's place) or expert
// layers it lacks (a mixture's dense layers sit on the first ranks); any other rank keeps fewer
// micro-batches than the one before it and no more parameters.
std::vector<int> ranks_to_check(const Ctx& x) {
  std::vector<int> ranks = {0};
  RankLayers before = x.held(0);
  for (int r = 1; r < x.pl.pp - 1; ++r) {
    const RankLayers held = x.held(r);
    if (held.layers > before.layers || held.routed > before.routed) ranks.push_back(r);
    before = held;
  }
  if (x.pl.pp > 1) ranks.push_back(x.pl.pp - 1);
  return ranks;
}

Memory memory_per_device(const Scenario& s) {
  const Ctx x(s);
  const ParallelPlan& pl = s.plan;
  Memory mem;
  const double wbytes = activation_bytes(s.precision);
  const bool mixed = s.precision != Precision::fp32 && s.precision != Precision::tf32;
  // Mixed-precision Adam (Rajbhandari et al. 2020, ZeRO Section 3.1): FP32 master copy and two
  // FP32 moments; hardware stochastic rounding lets BF16 weights update without the master.
  const double master = (mixed && s.master_weights) ? 4.0 : 0.0;
  const double opt_bytes = master + 8.0;
  const double grad_bytes = mixed ? s.framework.grad_bytes : 4.0;
  double worst = -1;
  // A layer's activation bytes for each recompute choice, for each kind of layer.
  const auto bytes_by_kind = by_layer_kind(x, [](const Ctx& c) {
    return std::array<double, 3>{layer_activation_bytes(c, Recompute::none),
                                 layer_activation_bytes(c, Recompute::selective),
                                 layer_activation_bytes(c, Recompute::full)};
  });
  for (const int rank : ranks_to_check(x)) {
    const bool last = rank == pl.pp - 1;
    const RankLayers held = x.held(rank);
    const double p_dev = stage_params(x, rank);
    // The distributed optimizer shards over dp x cp (experts over their expert-data-parallel group).
    const double experts = stage_expert_params(x, rank);
    const auto [trainable, trainable_experts] = trainable_on(x, rank, p_dev);
    Memory cur;
    cur.weights_gib = sharded_params(x, p_dev, experts, pl.zero >= 3) * wbytes / kGiB;
    if (s.mode == TrainingMode::lora) cur.weights_gib += trainable * wbytes / kGiB;
    cur.gradients_gib = sharded_params(x, trainable, trainable_experts, pl.zero >= 2) * grad_bytes / kGiB;
    cur.optimizer_gib = sharded_params(x, trainable, trainable_experts, pl.zero >= 1) * opt_bytes / kGiB;

    // 1F1B keeps up to pp - r micro-batches in flight on rank r. Interleaving multiplies the first's
    // by 1 + (p-1)/(p v) (Korthikanti et al. 2022, Section 4.2.3) and leaves the last's; a rank
    // between them is taken at 1 + (p-r-1)/(p v), in proportion (assumed).
    const double stages_ahead = pl.pp - rank;
    double in_flight = std::min<double>(stages_ahead, static_cast<double>(x.micro_batches));
    if (pl.vpp > 1) in_flight *= 1.0 + (stages_ahead - 1.0) / (pl.pp * pl.vpp);
    const auto bytes_by_recompute = on_rank(bytes_by_kind, held);
    auto layer_bytes = [&](Recompute rc) { return bytes_by_recompute[static_cast<std::size_t>(rc)]; };
    // Layers that recompute keep their input only; the others (block recompute of some) keep all.
    const double replayed = recomputed_layers(pl, held.layers);
    const double per_stage = pl.recompute == Recompute::full
                                 ? replayed * layer_bytes(Recompute::full) +
                                       (held.layers - replayed) * layer_bytes(Recompute::none)
                                 : held.layers * layer_bytes(pl.recompute);
    double act = per_stage * in_flight;
    // Recomputing a layer rebuilds, transiently, what it did not keep: the replayed forward holds
    // everything the layer's backward reads, an unfused attention's scores too.
    if (pl.recompute == Recompute::full || (pl.recompute == Recompute::selective && every_other_matmul(s)))
      act += layer_bytes(Recompute::none) - layer_bytes(pl.recompute);
    if (last && s.model.kind != ModelKind::vit) {
      // The 16-bit logits, plus the FP32 copy the loss keeps for its gradient unless a fused
      // kernel computes the gradient from the 16-bit ones (flash-attn's cross_entropy); each
      // prediction module's loss keeps its own.
      act += (1.0 + s.model.mtp_layers) * x.tokens_mb * (s.model.vocab / pl.tp) *
             (wbytes + (s.fp32_loss_logits ? 4.0 : 0.0));
      // A prediction module also keeps its shifted tokens' embedding (h) and the concatenation its
      // projection needs for the weight gradient (2h), split over tp where sequence parallelism
      // splits the norms around them (DeepSeek-V3, Section 2.2).
      act += s.model.mtp_layers * x.tokens_mb * 3.0 * s.model.hidden * wbytes / (pl.sequence_parallel ? pl.tp : 1);
    }
    cur.activations_gib = act / kGiB;
    // Runtime reserve, two gradient buckets in flight, and ZeRO-3's gathered weights.
    double other = s.accelerator.cal.runtime_reserve_gib / s.accelerator.devices_per_chip;
    other += 2.0 * s.framework.bucket_mib / 1024.0;
    if (pl.zero >= 3) other += zero3_gathered_params(x, rank) * wbytes / kGiB;
    cur.other_gib = other;
    cur.total_gib = cur.weights_gib + cur.gradients_gib + cur.optimizer_gib + cur.activations_gib +
                    cur.other_gib;
    if (cur.total_gib > worst) {
      worst = cur.total_gib;
      mem = cur;
    }
  }
  mem.capacity_gib = s.accelerator.hbm_gib / s.accelerator.devices_per_chip;
  mem.fits = mem.total_gib <= mem.capacity_gib;
  return mem;
}

namespace {
int largest_fitting_micro_batch(const Scenario& s) {
  const long long per_dp = s.global_batch / std::max(1, s.plan.dp);
  int best = 0;
  Scenario trial = s;
  for (long long b = 1; b <= std::min<long long>(per_dp, 4096); ++b) {
    if (per_dp % b != 0) continue;
    trial.plan.micro_batch = static_cast<int>(b);
    if (!memory_per_device(trial).fits) break;
    best = static_cast<int>(b);
  }
  return best;
}
}  // namespace

namespace {

// Rank `rank`'s work beside its layers, forward and backward: a decoder's output layer and loss on
// the last (its first rank's embedding lookup costs nothing here), a ViT's patch embedding on the
// first, its head on the last.
Ctx::Pass edge_on_rank(const Ctx& x, const EdgeTimes& E, int rank) {
  Ctx::Pass t;
  if (rank == 0) t.fwd += E.first_fwd, t.bwd += E.first_bwd;
  if (rank == x.pl.pp - 1) t.fwd += E.last_fwd, t.bwd += E.last_bwd;
  return t;
}

// An FP8/FP4 recipe quantizes the transformer layers' weights for their GEMMs: it reads each 16-bit
// weight and writes a rowwise and a columnwise quantized copy (Transformer Engine's cast-transpose:
// Hopper's FP8 GEMMs take one operand layout, so the transposed copy feeds the input gradient;
// MXFP8's block scales run along one dimension; per-tensor current scaling on Blackwell writes one
// copy after another read for its amax, about as many bytes). A stack that caches the copies over a
// step's micro-batches (Transformer Engine's is_first_microbatch) pays once a step, spread here over
// its micro-batches; others every micro-batch, and again, the forward's copy only, in the layers a
// full recompute replays. The output layer runs in BF16 (gemm_work_s). `copies`: quantized copies
// written of each weight.
double weight_quantization_s(const Ctx& x, const RankLayers& r, int copies) {
  if (!low_precision(x.sc.precision)) return 0;
  const double held = dense_params(x, r, true) + expert_params(x, r.routed);
  // Rowwise scaling quantizes each copy along its own axis from the 16-bit weight: a read each.
  return held * ((rowwise_fp8(x.sc) ? copies : 1) * 2.0 + copies * x.op_bytes) / x.hbm_bytes_per_s;
}

// The link between pipeline ranks `distance` devices apart in Megatron's rank order: the network
// once that crosses a node; a pipeline inside one chip (its NeuronCores) passes through on-chip memory.
const Link& pipeline_link(const Ctx& x, double distance) {
  return distance >= x.devices_per_node                      ? x.inter
         : x.devices <= x.sc.accelerator.devices_per_chip ? x.on_chip
                                                           : x.intra;
}

// One micro-batch on a pipeline rank, term by term.
struct MicroBatchTimes {
  double matmul = 0, attention = 0, memory = 0, tp = 0, cp = 0, ep = 0, recompute = 0, p2p = 0;
  double total() const { return matmul + attention + memory + tp + cp + ep + recompute + p2p; }
};

// One micro-batch's backward on a rank with the edge work `edge`, its recompute apart.
double backward_s(const LayerTimes& L, const RankLayers& r, const Ctx::Pass& edge) {
  return r.layers * (L.matmul_bwd + L.attention_bwd + L.memory_bwd + L.tp_bwd + L.cp_bwd + L.ep_bwd) + edge.bwd;
}

// `L`: a layer of the rank's, `r` its layers, `edge_s` its work beside them.
MicroBatchTimes micro_batch_times(const Ctx& x, const LayerTimes& L, const RankLayers& r, double edge_s) {
  const Scenario& s = x.sc;
  const ParallelPlan& pl = x.pl;
  const ModelShape& m = x.m;
  const double n = r.layers;
  const bool full_rc = pl.recompute == Recompute::full;
  const bool sel_rc = pl.recompute == Recompute::selective;
  const double mb_matmul = n * (L.matmul_fwd + L.matmul_bwd) + edge_s;
  const double mb_attention = n * (L.attention_fwd + L.attention_bwd);
  const bool cached = s.framework.caches_quantized_weights;
  const double mb_memory = n * (L.memory_fwd + L.memory_bwd) +
                           weight_quantization_s(x, r, 2) / (cached ? static_cast<double>(x.micro_batches) : 1.0);
  const double mb_tp = n * (L.tp_fwd + L.tp_bwd);
  const double mb_cp = n * (L.cp_fwd + L.cp_bwd);
  const double mb_ep = n * (L.ep_fwd + L.ep_bwd);
  // Full recompute replays each layer's forward, collectives included; selective replays only
  // the attention core (Korthikanti et al. 2022, Section 5).
  double mb_recompute = 0;
  if (full_rc)
    mb_recompute = recomputed_layers(pl, n) *
                   (L.matmul_fwd + L.attention_fwd + L.memory_fwd + L.tp_fwd + L.cp_fwd + L.ep_fwd +
                    (cached || n <= 0 ? 0.0 : weight_quantization_s(x, r, 1) / n));
  if (sel_rc) mb_recompute = n * L.attention_fwd;
  // Per-op checkpointing replays every other matmul and every elementwise op, not attention, and
  // the tensor-parallel collectives its policy does not save. It saves reduce-scatters (torchtitan's
  // _save_list; recalled), so under sequence parallelism the all-gathers before the QKV and FFN
  // GEMMs run again, half the forward's tensor-parallel time on a ring; without it, the
  // all-reduces. (Its context-parallel ring runs inside the saved attention kernel; the policy
  // applies to dense models only, every_other_matmul.)
  if (sel_rc && every_other_matmul(s)) {
    const double replayed_tp = pl.sequence_parallel ? 0.5 : 1.0;
    mb_recompute = n * (replayed_matmul_width(m) / block_matmul_width(m) * L.matmul_fwd + L.memory_fwd +
                        replayed_tp * L.tp_fwd);
  }

  // Pipeline point-to-point: each virtual stage sends activations forward and gradients back;
  // the scatter-gather optimisation sends 1/tp of the tensor (Narayanan et al. 2021, Section 4.1).
  double mb_p2p = 0;
  if (pl.pp > 1) {
    const double bytes = x.tokens_mb * m.hidden * x.act_bytes / pl.tp;
    mb_p2p = 2.0 * pl.vpp * point_to_point_s(bytes, pipeline_link(x, static_cast<double>(pl.tp) * pl.cp * pl.dp));
    // Overlapped (interleaved schedules only), the transfers show only where they outlast the
    // micro-batch's compute they run behind.
    if (s.framework.overlap_p2p && pl.vpp > 1)
      mb_p2p = std::max(0.0, mb_p2p - (mb_matmul + mb_attention + mb_memory + mb_recompute));
  }


  return {mb_matmul, mb_attention, mb_memory, mb_tp, mb_cp, mb_ep, mb_recompute, mb_p2p};
}

// A rank's exposed data-parallel communication: `after_backward`, the gradient reduction that
// outlasts its last backward (a later pipeline rank's hides behind the drain, estimate()), and
// `elsewhere`, what no drain hides: the parameter gather, which follows the optimizer step, and
// ZeRO-2's and ZeRO-3's collectives during every micro-batch.
struct DpExposed {
  double after_backward = 0, elsewhere = 0;
};
DpExposed dp_exposed_s(const Ctx& x, const LayerTimes& L, double mb_recompute, int rank) {
  const Scenario& s = x.sc;
  const ParallelPlan& pl = x.pl;
  const double n = x.held(rank).layers;
  const double mbs = static_cast<double>(x.micro_batches);
  // Data parallelism: gradients of the trainable parameters a rank holds, reduced across dp x cp
  // (ranks with stride tp). ZeRO-0: all-reduce; ZeRO-1/2: reduce-scatter of gradients and
  // all-gather of updated weights (Rajbhandari et al. 2020). Reduction overlaps the last
  // micro-batch's backward except its last bucket (Li et al. 2020, PyTorch DDP).
  const double p_dev = stage_params(x, rank);
  const double experts = stage_expert_params(x, rank);
  const auto [trainable, trainable_experts] = trainable_on(x, rank, p_dev);
  const int dp_n = pl.dp * pl.cp;
  const double overlap = s.framework.dp_overlap;
  const double rank_grad_bytes = trainable * s.framework.grad_bytes;
  const double wbytes = activation_bytes(s.precision);
  const double grad_bytes = s.framework.grad_bytes;
  // One reduce-scatter (or all-gather; all-reduce for ZeRO-0) of `bytes` per parameter: the dense
  // parameters over dp x cp, the routed experts over their expert-data-parallel group, as one
  // collective when the two groups are the same.
  const bool same_group = x.expert_dp() == dp_n && x.expert_dp_stride() == pl.tp;
  auto dp_collective = [&](double bytes, double dense, double expert, bool all_reduce) {
    auto one = [&](double params, int ranks, int stride) {
      return all_reduce ? x.dp_all_reduce_s(bytes * params, ranks, stride)
                        : x.dp_reduce_scatter_s(bytes * params, ranks, stride);
    };
    if (same_group) return one(dense + expert, dp_n, pl.tp);
    return one(dense, dp_n, pl.tp) + one(expert, x.expert_dp(), x.expert_dp_stride());
  };
  const double dense_trainable = trainable - trainable_experts;
  DpExposed dp;
  if (dp_n > 1 && pl.zero < 3) {
    const double gather = pl.zero == 0 ? 0.0 : dp_collective(wbytes, dense_trainable, trainable_experts, false);
    // A distributed optimizer that overlaps its parameter gather with the next forward, bucket by
    // bucket, exposes only the first bucket of it (Megatron-Core --overlap-param-gather: each
    // bucket's all-gather is waited for by the forward of the layers it holds).
    const bool hide_gather = s.framework.overlap_param_gather && pl.zero >= 1;
    const double reduce = dp_collective(grad_bytes, dense_trainable, trainable_experts, pl.zero == 0);
    const double comm = reduce + (hide_gather ? 0.0 : gather);
    // Each model chunk's reduction starts when its last backward ends (Megatron-Core's per-chunk
    // grad_sync_func; the interleaved schedule of Narayanan et al. 2021, Section 2.2.2). Backward
    // runs the chunks in reverse, so chunk 0 (holding the first layers) finishes last: the other
    // chunks' reductions start while about min(m, pp) (v-1)/v micro-batch backwards remain, chunk
    // 0's only behind its own last backward, and the final bucket is always exposed. Without
    // interleaving (v = 1) that is DDP's overlap with the last backward (Li et al. 2020).
    const double v = pl.vpp;
    const double bwd = n * (L.matmul_bwd + L.attention_bwd + L.memory_bwd);  // one micro-batch
    const double bucket = std::min(1.0, s.framework.bucket_mib * 1024 * 1024 / std::max(1.0, rank_grad_bytes));
    // Micro-batch passes the reduction (and a hidden gather) can overlap.
    const double passes = std::max(1.0, std::min<double>(mbs, pl.pp) * (v - 1) / v);
    const double window = passes * bwd;
    auto exposed = [&](double c) {
      return std::max({c - overlap * window, c / v - overlap * bwd / v, std::min(c / v, c * bucket)});
    };
    dp.after_backward = exposed(reduce);
    dp.elsewhere = exposed(comm) - dp.after_backward;  // a gather not overlapped with the forward
    if (pl.zero == 2) {
      // Gradients partitioned (Rajbhandari et al. 2020, Section 5.2) leave no full buffer to
      // accumulate into: every micro-batch's are reduce-scattered during its own backward
      // (DeepSpeed's engine: stage 2 communicates outside gradient-accumulation boundaries too;
      // FSDP's SHARD_GRAD_OP outside no_sync), each exposing its excess over that backward or its
      // last bucket.
      dp.elsewhere += (mbs - 1) * std::max(reduce - overlap * bwd, reduce * bucket);
    }
    if (hide_gather) {
      const double fwd = n * (L.matmul_fwd + L.attention_fwd + L.memory_fwd);  // one micro-batch
      const double fwd_window = passes * fwd;
      dp.elsewhere += std::max(gather - overlap * fwd_window, std::min(gather / v, gather * bucket));
    }
  } else if (dp_n > 1) {
    // ZeRO-3 / FSDP full shard: every layer's weights are all-gathered before its forward and
    // again before its backward, and its gradients reduce-scattered after, in every micro-batch.
    // Prefetching hides a gather behind the previous layer's compute, so per layer only the excess
    // of communication over compute shows, plus the first gather of each pass (Zhao et al. 2023,
    // PyTorch FSDP, Section 3.3).
    const double per_layer = 1.0 / std::max(1.0, n);  // embeddings spread over layers
    // Frameworks that gather per parameter tensor rather than per block pay the ring latency more
    // often: the layer's bytes split over zero3_gathers_per_layer collectives.
    const int k = s.framework.zero3_gathers_per_layer;
    const double ag = k * dp_collective(wbytes * per_layer / k, p_dev - experts, experts, false);
    const double rs = k * dp_collective(grad_bytes * per_layer / k, dense_trainable, trainable_experts, false);
    const double fwd = L.matmul_fwd + L.attention_fwd + L.memory_fwd;
    const double bwd = L.matmul_bwd + L.attention_bwd + L.memory_bwd + mb_recompute / std::max(1.0, n);
    const double per_mb = n * (std::max(0.0, ag - overlap * fwd) + std::max(0.0, ag + rs - overlap * bwd)) + 2 * ag;
    dp.elsewhere = mbs * per_mb;
  }
  return dp;
}

double optimizer_s(const Ctx& x, int rank) {
  const Scenario& s = x.sc;
  const ParallelPlan& pl = x.pl;
  const auto [trainable, trainable_experts] = trainable_on(x, rank, stage_params(x, rank));
  // Adam step: reads gradients, reads and writes the master copy and both moments, writes the
  // 16-bit weights, for the parameters this rank owns (HBM-bound).
  const bool mixed = s.precision != Precision::fp32 && s.precision != Precision::tf32;
  const double owned = sharded_params(x, trainable, trainable_experts, pl.zero >= 1);
  const double adam_bytes = s.framework.grad_bytes + 2 * 8.0 +
                            (mixed && s.master_weights ? 2 * 4.0 + 2.0 : 2 * activation_bytes(s.precision));
  const double optimizer = owned * adam_bytes / x.hbm_bytes_per_s;
  return optimizer;
}

// Throughput, FLOPs and utilisation of a step of `step` seconds.
void fill_rates(Estimate& out, const Scenario& s, double step, double recomputed_share) {
  const ModelShape& m = s.model;
  const bool full_rc = s.plan.recompute == Recompute::full;
  const bool sel_rc = s.plan.recompute == Recompute::selective;
  const int s_len = tokens_per_sample(m);
  const double tokens_per_step = static_cast<double>(s.global_batch) * s_len;
  out.global_batch = s.global_batch;
  out.tokens_per_s = tokens_per_step / step;
  out.samples_per_s = static_cast<double>(s.global_batch) / step;
  out.tokens_per_s_per_chip = out.tokens_per_s / out.chips;
  out.model_flops_per_step = model_flops_per_token(s) * tokens_per_step;
  // Hardware FLOPs add what recompute replays: the forward of the recomputed transformer layers
  // for full (the output layer and the loss sit outside the checkpointed blocks), the attention
  // scores for selective, every other matmul for per-op checkpointing. Unfused attention computes
  // the whole score matrix, its masked part too, each time it runs.
  const double attention_fwd_per_key = attention_fwd_flops_per_key(m);
  const double keys_run = s.flash_attention ? attended_keys(m) : s_len;
  const double attention_fwd_per_token = attention_fwd_per_key * keys_run;
  const double adapters = adapter_params(s, true);
  // Full recompute replays the prediction modules' layers, not their projections, which sit
  // outside the checkpointed blocks with the output layer.
  const ParamCounts c = count_params(m);
  const double blocks_active = c.layers_active + c.mtp_active - c.mtp_projections;
  const double layers_fwd_per_token = 2.0 * (blocks_active + adapters) + attention_fwd_per_token;
  double replay = 0;
  if (full_rc) replay = layers_fwd_per_token * tokens_per_step * recomputed_share;
  if (sel_rc) replay = attention_fwd_per_token * tokens_per_step;
  if (sel_rc && every_other_matmul(s))
    replay = 2.0 * transformer_layers(m) * m.hidden * replayed_matmul_width(m) * tokens_per_step;
  const double masked = s.flash_attention ? 0.0 : 3.0 * attention_fwd_per_key * (s_len - attended_keys(m));
  out.hardware_flops_per_step = out.model_flops_per_step + replay + masked * tokens_per_step;
  // Utilisation is of the peak the matrix math ran at (BF16 for an auto-cast FP32 job).
  const double peak = s.accelerator.peak_tflops[static_cast<int>(matmul_precision(s))] * 1e12;
  out.mfu = out.model_flops_per_step / (step * out.chips * peak);
  out.hfu = out.hardware_flops_per_step / (step * out.chips * peak);
  out.tflops_per_chip = out.model_flops_per_step / step / out.chips / 1e12;
  out.steps = tokens_per_step > 0 ? s.train_tokens / tokens_per_step : 0;
  out.train_time_s = out.steps * step;
}

// The uneven layout the timing took (pipeline_layout), in words: a framework needs it stated.
std::string uneven_layout_text(const PipelineLayout& l, int layers, int virtual_stages) {
  if (l.edges_take_places)
    return "the embedding and the loss take a layer's place each (Megatron-Core's "
           "account_for_embedding_in_pipeline_split and ..._loss_...)";
  const int more = l.stages_with_one_more;
  const std::string split =
      l.last_short ? "virtual stages of " + layers_text(l.stage_base) + ", the last of " +
                         layers_text(layers - static_cast<long long>(virtual_stages - 1) * l.stage_base)
                   : "the first " + (more == 1 ? std::string("virtual stage") : num(more) + " virtual stages") +
                         " of " + layers_text(l.stage_base + 1) + ", the other " + num(virtual_stages - more) +
                         " of " + layers_text(l.stage_base);
  return split + " (Megatron-Core's pipeline_model_parallel_layout states such a split); the fullest rank sets the pace";
}

// The pipeline rank that sets the pace (1F1B: every rank waits for the slowest) and how much longer
// its micro-batch takes than the ranks' mean: the output layer, the loss and the prediction modules
// weigh on the last, a mixture's first dense layers on the first.
struct SlowestRank {
  int rank = 0;
  double excess_fraction = 0;  // of the ranks' mean micro-batch
};

// The stated first or last stage that paces the pipeline best where that rank sets the pace: its
// layers one fewer at a time, each timed, until the step grows again (it shortens while that rank
// sets the pace, then lengthens as another does) or after kStageCountsTried counts; only layouts
// that fit (any, where the plan does not: its own warning says so), and a saving of a hundredth
// or more. "" where none, where the layout is stated already, or where a middle rank sets the pace
// (its layers follow from the edges').
std::string restated_stage_text(const Ctx& x, SlowestRank slow, const Estimate& now) {
  constexpr int kStageCountsTried = 16;  // bounds the work an estimate spends here
  const bool first = slow.rank == 0, last = slow.rank == x.pl.pp - 1;
  if (x.layout.stated || first == last) return "";
  Scenario t = x.sc;
  int& count = last ? t.plan.last_stage_layers : t.plan.first_stage_layers;
  const int held = static_cast<int>(last ? now.last_stage_layers : now.first_stage_layers);
  double best_s = 0.99 * now.step_time_s;
  int best = -1;
  for (int n = held - 1; n >= 0 && n >= held - kStageCountsTried; --n) {
    count = n;
    if (check_plan(t)) break;
    const Estimate e = estimate(t, false);
    if (e.step_time_s > best_s && best >= 0) break;
    if ((e.memory.fits || !now.memory.fits) && e.step_time_s < best_s) best_s = e.step_time_s, best = n;
  }
  if (best < 0) return "";
  return "; parallel." + std::string(last ? "last" : "first") + "_stage_layers " + num(best) +
         " would make the step " + num(std::round(1000 * (1 - best_s / now.step_time_s)) / 10) + "% shorter";
}

std::string slowest_rank_text(const Ctx& x, SlowestRank slow, const Estimate& now) {
  const bool last = slow.rank == x.pl.pp - 1;
  const int mtp = last ? x.m.mtp_layers : 0;
  const auto layers = static_cast<long long>(x.held(slow.rank).layers) - mtp;
  std::string holds = layers > 0 ? layers_text(layers) : "no layers";
  if (slow.rank == 0) holds += ", the embedding";
  if (last) holds += ", the output layer and the loss";
  if (mtp > 0) holds += ", " + num(mtp) + (mtp == 1 ? " prediction module" : " prediction modules");
  const std::string restated = restated_stage_text(x, slow, now);
  return "pipeline rank " + num(slow.rank + 1) + " of " + num(x.pl.pp) + " sets the pace: its micro-batch (" +
         holds + ") takes " + num(std::round(slow.excess_fraction * 100)) + "% longer than the ranks' mean" +
         (restated.empty() ? " (Megatron-Core's pipeline_model_parallel_layout can move layers off it)" : restated);
}

void add_plan_warnings(Estimate& out, const Ctx& x, SlowestRank slow) {
  const ParallelPlan& pl = x.pl;
  const ModelShape& m = x.m;
  const int virtual_stages = pl.pp * pl.vpp;
  if (m.layers % virtual_stages != 0 && !x.layout.stated)
    out.warnings.push_back("layers (" + num(m.layers) + ") are not divisible by pp x vpp (" + num(virtual_stages) +
                           "): " + uneven_layout_text(x.layout, m.layers, virtual_stages));
  // A tenth: below it the imbalance is within the band of the estimate (assumed).
  if (slow.excess_fraction > 0.1) out.warnings.push_back(slowest_rank_text(x, slow, out));
  if (pl.tp > m.kv_heads)
    out.warnings.push_back("tp (" + num(pl.tp) + ") exceeds kv_heads (" + num(m.kv_heads) +
                           "): KV heads are replicated");
  if (pl.tp > x.devices_per_node)
    out.warnings.push_back("tp (" + num(pl.tp) + ") spans nodes: its collectives cross the network");
  if (x.sc.async_tp && !runs_async_tp(x.sc))
    out.warnings.push_back("async_tp: framework " + x.sc.framework.id + " does not run async TP; its TP overlap applies");
  // Transformer Engine's modules (those that keep quantized GEMM inputs) scale per tensor or by
  // blocks: torchao's rowwise recipe is not theirs.
  if (rowwise_fp8(x.sc) && x.sc.framework.keeps_quantized_gemm_inputs)
    out.warnings.push_back("fp8_scaling: rowwise is torchao's recipe; framework " + x.sc.framework.id +
                           " runs Transformer Engine's");
  if (pl.tp > 1 && !pl.sequence_parallel)
    out.warnings.push_back("tensor parallelism without sequence parallelism replicates norm and "
                           "dropout activations on every tp rank");
  // The claim check calls a claim above this implausible (core/claims): an estimate above it is a
  // best case no published large run has reached, and says so rather than contradicting it.
  if (out.mfu > kPublishedMfuCeiling && out.chips >= kLargeRunChips)
    out.warnings.push_back("MFU " + num(std::round(out.mfu * 1000) / 10) + "% is above the " +
                           num(kPublishedMfuCeiling * 100) + "% no published large run has reached (best: 55.2%, "
                           "MegaScale 2024): a best case for this plan; the band's slow edge is the safer figure");
  if (!out.memory.fits)
    out.warnings.push_back("does not fit: " + num(std::round(out.memory.total_gib * 10) / 10) +
                           " GiB per device needed, " + num(out.memory.capacity_gib) + " GiB available" +
                           (out.memory.max_micro_batch > 0
                                ? "; micro_batch " + num(out.memory.max_micro_batch) + " would fit"
                                : "; no micro-batch fits this plan"));
}

}  // namespace

Estimate estimate(const Scenario& s, bool complete) {
  const Ctx x(s);
  const ParallelPlan& pl = s.plan;
  Estimate out;
  out.plan = pl;
  out.chips = chips_of(s);
  out.devices = x.devices;
  out.grad_accum = x.micro_batches;
  out.first_stage_layers = x.held(0).layers;
  out.last_stage_layers = x.held(pl.pp - 1).layers - s.model.mtp_layers;
  if (pl.pp == 1) out.first_stage_layers -= s.model.mtp_layers;

  const ByLayerKind<LayerTimes> kinds = by_layer_kind(x, one_layer_times);
  const EdgeTimes E = edge_times(x);
  const double mbs = static_cast<double>(x.micro_batches);
  // Each pipeline rank's micro-batch, with its own layers (a mixture's dense ones on the first, a
  // short last chunk) and edge work. 1F1B: the busiest runs every micro-batch; the pipeline's fill
  // and drain pass once through each other rank, a v-th of its micro-batch a virtual stage
  // (Narayanan et al. 2021, Section 2.2: (p - 1) / v stage times for equal stages).
  // The step then waits for the slowest rank's optimizer step, which needs every rank's gradients
  // (the global gradient norm clips them), and for what of a rank's data-parallel reduction outlasts
  // the drain: after its last backward, the last micro-batch's still passes each rank before it, a
  // v-th of its backward each. A middle rank holding the layers of the middle rank before it has
  // its times (a plan search runs this for every candidate plan, pp up to layers + 2).
  MicroBatchTimes mb, own;
  SlowestRank slow;
  RankLayers before;
  DpExposed own_dp;
  double stages_s = 0, drain_s = 0, own_bwd = 0, dp_comm = 0, optimizer = 0;
  for (int rank = 0; rank < pl.pp; ++rank) {
    const RankLayers held = x.held(rank);
    const bool as_before = rank > 1 && rank < pl.pp - 1 && held.layers == before.layers && held.routed == before.routed;
    before = held;
    if (!as_before) {
      const LayerTimes L = on_rank(kinds, held);
      const Ctx::Pass edge = edge_on_rank(x, E, rank);
      own = micro_batch_times(x, L, held, edge.fwd + edge.bwd);
      own_bwd = backward_s(L, held, edge) + own.recompute;
      own_dp = dp_exposed_s(x, L, own.recompute, rank);
      optimizer = std::max(optimizer, optimizer_s(x, rank));
      if (rank == 0 || own.total() > mb.total()) {
        mb = own;
        slow.rank = rank;
      }
    }
    stages_s += own.total();
    dp_comm = std::max(dp_comm, own_dp.elsewhere + std::max(0.0, own_dp.after_backward - drain_s));
    drain_s += own_bwd / pl.vpp;
  }
  const double bubble = (stages_s - mb.total()) / pl.vpp;
  slow.excess_fraction = mb.total() / (stages_s / pl.pp) - 1.0;
  // The host work a step waits for once (AcceleratorCalibration::step_overhead_ms): fitted on
  // Trainium's published runs, where it carries from one Neuron stack to another (docs/accuracy.md).
  const double host_s = s.accelerator.cal.step_overhead_ms * 1e-3;
  // The plan search's pick runs on average slower than predicted by its optimism (the optimizer's
  // curse, Smith and Winkler 2006): exp(o) - 1 of the rest of the step, the last term.
  out.pick_optimism = s.pick_optimism > 0 ? s.pick_optimism : 0.0;
  const double excess = std::expm1(out.pick_optimism);
  out.breakdown_s = {
      {"matmul", mbs * mb.matmul},
      {"attention", mbs * mb.attention},
      {"memory_bound", mbs * mb.memory},
      {"recompute", mbs * mb.recompute},
      {"tp_comm", mbs * mb.tp},
      {"cp_comm", mbs * mb.cp},
      {"ep_comm", mbs * mb.ep},
      {"pp_p2p", mbs * mb.p2p},
      {"pp_bubble", bubble},
      {"dp_comm", dp_comm},
      {"optimizer", optimizer},
      {"step_overhead", host_s},
      {"pick_optimism", 0.0},
  };
  double step = 0;
  for (const auto& t : out.breakdown_s) step += t.value;
  out.breakdown_s.back().value = step * excess;
  step += step * excess;
  out.step_time_s = step;
  fill_rates(out, s, step, x.recomputed_share);

  out.memory = memory_per_device(s);
  if (!complete) return out;
  out.memory.max_micro_batch = largest_fitting_micro_batch(s);
  const ParamCounts c = x.params;
  out.params = c.total;
  out.active_params = c.active;
  const bool mixed = s.precision != Precision::fp32 && s.precision != Precision::tf32;
  // A checkpoint holds what trains, its weights and optimizer state: under LoRA the adapters alone
  // (a Hugging Face Trainer's checkpoint-N of a PEFT model: the adapter weights and the optimizer
  // state of the trainable parameters; NeMo's PEFT checkpoints likewise; recalled). The frozen base
  // is stored once, beside them, for the adapters to be of use.
  const double wbytes = activation_bytes(s.precision);
  const double trainable_total = frozen_base(s) ? adapter_params(s, false) : c.total + c.mtp;
  out.checkpoint_bytes = trainable_total * (wbytes + ((mixed && s.master_weights) ? 12.0 : 8.0));
  out.frozen_weights_bytes = frozen_base(s) ? (c.total + c.mtp) * wbytes : 0.0;
  add_plan_warnings(out, x, slow);
  return out;
}

}  // namespace tc
