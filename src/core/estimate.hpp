// Step time, throughput, utilization and memory of one training job under one parallel plan.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>

#include "core/types.hpp"

namespace tc {

// A problem with the inputs, naming the scenario field it comes from.
struct InputProblem {
  std::string field;
  std::string reason;
};

// Checks the shape, the cluster and the plan; the first problem found, or nothing.
std::optional<InputProblem> check_model(const ModelShape& m);
std::optional<InputProblem> check_plan(const Scenario& s);

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
int chips_of(const Scenario& s);

// Tensor-parallel degree of the expert layers. Megatron-Core forms expert groups from the
// tp x dp x cp ranks of a stage (expert-tensor x expert x expert-data parallel): when ep divides
// dp x cp the experts split over tp like dense layers; when ep is a multiple of dp x cp it also
// takes tp ranks, and each expert splits over the tp ranks left (tp x dp x cp / ep).
int expert_tp(const ParallelPlan& pl);

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
