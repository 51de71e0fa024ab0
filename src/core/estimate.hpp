// Step time, throughput, utilization and memory of one training job under one parallel plan.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>

#include "core/types.hpp"

namespace tc {

// A problem with the inputs, naming the scenario field it comes from.
// The highest MFU (model FLOPs over dense peak) that published large training runs report, the
// threshold above which a claim is implausible and an estimate says it is a best case: MegaScale
// (Jiang et al., NSDI 2024) 55.2% for a 175B model on 12,288 A100; PaLM 540B (Chowdhery et al.
// 2022) 46.2% on TPU v4; Llama 3 405B (Dubey et al. 2024) 38-43% on H100 in BF16. 60% leaves room
// above the best of them.
constexpr double kPublishedMfuCeiling = 0.60;
// The runs behind that ceiling used thousands of chips; small jobs publish more (62.7% MFU for
// MPT-3B on 8 A100s, tests/data/published_runs.csv LLMF-105), so an estimate is held to it from
// this size up.
constexpr int kLargeRunChips = 64;

struct InputProblem {
  std::string field;
  std::string reason;
};

// Checks the shape, the cluster and the plan; the first problem found, or nothing.
std::optional<InputProblem> check_model(const ModelShape& m);
std::optional<InputProblem> check_plan(const Scenario& s);
// Tensor parallelism splits the heads evenly and the KV heads evenly or into whole copies.
std::optional<InputProblem> check_tp_heads(const ModelShape& m, int tp);

int devices_of(const Scenario& s);
// A product of degrees or counts (tp x pp x dp x cp, pp x vpp, micro_batch x dp) in 64 bits,
// saturated at kCountCap: int products of degrees up to 2^20 wrap (to 0, a division by zero, or
// to a negative pipeline), and even four of them overflow 64 bits.
constexpr long long kCountCap = 1LL << 62;
long long count_product(std::initializer_list<long long> factors);
// Why a LoRA rank above max_lora_rank(m) is refused (training.lora_rank).
std::string lora_rank_reason(int rank, const ModelShape& m);
// The precision matrix multiplications run at: the scenario's, or BF16 where the compiler
// auto-casts FP32 matmuls (Neuron) and the scenario lets it.
Precision matmul_precision(const Scenario& s);
// The kernel attention runs as and its share of the peak at `precision`: FP8 and FP4 recipes keep
// attention in BF16; a fused FlashAttention-3-class kernel (the stack's, where the chip has an
// efficiency for it) or FlashAttention-2-class one at their fitted efficiencies; unfused batched
// GEMMs at the matmul efficiency, their scores kept on chip where the plan's share of them fits.
struct AttentionKernel {
  enum class Kind { unfused, fa2, fa3 } kind = Kind::fa2;
  Precision precision = Precision::bf16;
  double efficiency = 0;
  // Unfused only: one head's score matrix for one sequence (its queries on a rank of the plan's
  // cp) fits the device's compiler-managed on-chip memory (Accelerator::sram_mib).
  bool scores_on_chip = false;
};
AttentionKernel attention_kernel(const Scenario& s, const ParallelPlan& pl);
// Copies of a token the expert-parallel dispatcher sends: one per routed expert (top_k, two
// experts on one rank sent twice), or, with `once_per_rank`, one per rank holding any of its
// experts: with E experts in ep equal groups and top_k drawn without repeats, a rank is missed
// with probability C(E - E/ep, k) / C(E, k).
double dispatch_copies(const ModelShape& m, int ep, bool once_per_rank);
// An FP8 job with torchao's rowwise scaling (Scenario::fp8_scaling); other precisions ignore it.
bool rowwise_fp8(const Scenario& s);
// PyTorch's asynchronous tensor parallelism runs where the framework has a share for it and the chip
// is a GPU (it works through CUDA's symmetric memory); a job turns it on with `async_tp`.
bool async_tp_available(const Scenario& s);
bool runs_async_tp(const Scenario& s);
// The share of a tensor-parallel collective hidden behind GEMMs inside a node under `pl`: the
// framework's own overlap, or asynchronous TP's where it runs. Both split sequence parallelism's
// all-gather and reduce-scatter into chunks behind the GEMM they feed or follow (Megatron-Core's
// --tp-comm-overlap requires sequence parallelism; torch's micro-pipelining matches all-gather ->
// matmul and matmul -> reduce-scatter), so none hides without it; under rowwise FP8 only the
// reduce-scatter half does.
double tp_hidden_share(const Scenario& s, const ParallelPlan& pl);
int chips_of(const Scenario& s);
// Sustained clock of a chip capped below its power, as a fraction of its clock at full power.
// First-order CMOS scaling: dynamic power ~ C V^2 f with the voltage following the clock in the
// DVFS range, so power ~ f^3 and f ~ (P_cap / P)^(1/3) (Hennessy & Patterson, Computer
// Architecture, 6th ed., Section 1.5). It ignores static power, so it errs on the fast side.
// 1 without a cap, at or above the chip's power, or for a chip whose power is not known.
double power_limited_clock_fraction(const Scenario& s);
// The chip's power for energy: its own, or the cap below it.
double chip_power_w(const Scenario& s);
// Clock of the tensor units in dense GEMMs at precision p, as a fraction of the peak's: the
// power-limited clock above, and no faster than the chip's power (or cap) sustains, power over the
// energy of their FLOPs at peak (the power cap of the energy roofline: Choi, Bedard, Fowler and
// Vuduc 2013, "A roofline model of energy", IPDPS). A FLOP's energy follows its operand width
// (gemm_energy_pj_per_flop at 16 bits): GB200's peaks double as the width halves at one power, and
// Blackwell Ultra's FP4 peak, 1.5x GB200's, draws 1.5x its power. Power is taken to follow the clock
// linearly (the energy a FLOP fixed, as at the low-voltage end of the clock range; assumed, a
// pessimistic bound): GB300 (1,400 W) beats GB200 (1,200 W) at the same printed FP8 peak, and on a
// part where it binds, a cap slows dense GEMMs in proportion to it, below the cube law above.
double tensor_clock_fraction(const Scenario& s, Precision p);

// Tensor-parallel degree of the expert layers. Megatron-Core forms expert groups from the
// tp x dp x cp ranks of a stage (expert-tensor x expert x expert-data parallel): when ep divides
// dp x cp the experts split over tp like dense layers; when ep is a multiple of dp x cp it also
// takes tp ranks, and each expert splits over the tp ranks left (tp x dp x cp / ep).
int expert_tp(const ParallelPlan& pl);

// Share of a chip's GEMM units (SMs) doing useful work on `count` GEMMs (M x K) . (K x N)
// scheduled together (a grouped GEMM; 1 for a plain one): the M x N output is cut into tiles,
// padded at the edges (tile quantization), that run in waves over the units, the last wave partly
// idle (wave quantization; NVIDIA, Matrix Multiplication Background User's Guide, "Tile
// Quantization" and "Wave Quantization"). The library takes the better orientation of its tile
// and splits K when the output fills less than one wave. 1 for an accelerator without gemm_units.
double tile_fill(const Accelerator& a, double M, double N, double K, double count = 1);

// Sequence length of one sample: the model's seq_len, or the patch count for ViT.
int tokens_per_sample(const ModelShape& m);

// Model FLOPs per token for MFU: PaLM convention (Chowdhery et al. 2022, Appendix B), 6 N per
// token for the matmul parameters (output layer included, embedding lookups excluded) plus
// 12 l h s for attention (non-causal, as PaLM counts it); LoRA: 4 N + 6 N_adapter.
double model_flops_per_token(const Scenario& s);

Memory memory_per_device(const Scenario& s);

// Estimate for a plan already checked by check_plan. `complete` adds the largest fitting
// micro-batch (a search of its own), parameter counts, checkpoint size and warnings; the plan
// search compares plans without them.
Estimate estimate(const Scenario& s, bool complete = true);

}  // namespace tc
