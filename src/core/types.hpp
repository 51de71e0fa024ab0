// Plain data of the traincalc model: hardware, model shape, training set-up, results.
// Units live in the names. No I/O, no globals: src/io fills these structs, src/core computes on them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tc {

enum class Precision { fp32 = 0, tf32, bf16, fp16, fp8, fp4 };
constexpr int kPrecisionCount = 6;
const char* to_string(Precision p);

// How an FP8 recipe scales its operands: one scale a tensor (Transformer Engine's delayed and current
// scaling, torchao's tensorwise), or one a row of each GEMM operand (torchao's rowwise).
enum class Fp8Scaling { per_tensor = 0, rowwise };
const char* to_string(Fp8Scaling f);

enum class Recompute { none = 0, selective, full };
const char* to_string(Recompute r);

enum class TrainingMode { pretrain = 0, full_finetune, lora };
const char* to_string(TrainingMode m);

enum class ModelKind { decoder = 0, encoder, vit };
const char* to_string(ModelKind k);

// Calibration of an accelerator's achievable rates. Fitted on published runs; the preset records
// which rows (see docs/accuracy.md). A GEMM of F FLOPs takes F / (peak * matmul_efficiency_max),
// and never less than its operand traffic over HBM, plus kernel_overhead_us per kernel call.
struct AcceleratorCalibration {
  double matmul_efficiency_max = 0.8;     // large-GEMM fraction of dense peak
  // The same for FP8 and FP4 GEMMs, of their own peak: scaled low-precision GEMMs reach a smaller
  // fraction (cuBLASLt FP8 on H100 ~65-70% against ~75% for BF16). 0: as matmul_efficiency_max.
  double fp8_matmul_efficiency_max = 0;
  double kernel_overhead_us = 5.0;        // fixed cost per kernel call (launch, tile tail): a few us
  // Host time a step waits for, whatever its micro-batches: Trainium's stacks run PyTorch/XLA, whose
  // lazy tensors trace each step's graph anew and sync at its end (xm.mark_step). Fitted on
  // Trainium's published runs; 0 on GPUs, whose stacks launch asynchronously.
  double step_overhead_ms = 0;
  double attention_efficiency = 0.6;      // fused attention kernel (FlashAttention-2 class), fraction of dense peak
  // FlashAttention-3-class kernels (asynchronous warp-specialised MMA: FA3, cuDNN fused attention)
  // reach more of a Hopper or Blackwell GPU (Shah et al. 2024: 75% of H100 vs 35% for FA2).
  // 0: as attention_efficiency.
  double attention_v3_efficiency = 0;
  double hbm_efficiency = 0.85;           // achievable fraction of HBM bandwidth
  // Energy of a dense 16-bit GEMM FLOP at the chip's peak clock, other precisions in proportion to
  // their operand width (tensor_clock_fraction). 0: dense GEMMs never draw more than the chip's power.
  double gemm_energy_pj_per_flop = 0;
  double runtime_reserve_gib = 3.0;       // allocator, communication buffers, compiled graphs
  std::string fitted_on;                  // the published rows these values were fitted on
};

struct Accelerator {
  std::string id;
  std::string name;
  std::array<double, kPrecisionCount> peak_tflops{};  // dense, per chip, indexed by Precision; 0 = unsupported
  double hbm_gib = 0;             // per chip
  double hbm_tb_per_s = 0;            // per chip, decimal TB/s
  int devices_per_chip = 1;       // ranks a framework places per chip (NeuronCores / logical cores)
  double power_w = 0;             // board or chip power: energy, and the tensor clock it sustains (cal)
  bool stochastic_rounding = false;  // hardware SR: BF16 weights need no FP32 master copy
  // The compiler runs FP32 matrix multiplications in BF16 unless told not to (neuronx-cc
  // --auto-cast matmult, --auto-cast-type bf16 are its defaults).
  bool autocasts_fp32_matmul = false;
  // GEMM scheduling: a GEMM's output is cut into tiles of gemm_tile_m x gemm_tile_n elements that
  // run in waves over gemm_units parallel units (SMs of one device); 0 units: no quantization.
  int gemm_units = 0;
  int gemm_tile_m = 128, gemm_tile_n = 256;
  // Exponentials per second of the special-function units (10^12, per chip): a fused attention
  // kernel's softmax takes one per score element, forward and again backward, beside the tensor
  // cores' work; 0: not known, not modelled.
  double exp_tera_per_s = 0;
  // Compiler-managed on-chip memory per chip (Trainium's SBUF), MiB: a compiled graph keeps an
  // intermediate that fits there off HBM; 0: every unfused kernel's output goes through HBM.
  double sram_mib = 0;
  AcceleratorCalibration cal;
  std::string source;
};

// A link class: chips inside a scale-up domain, or nodes across the network.
struct Fabric {
  std::string type;               // e.g. "NVSwitch", "NeuronLink-v3 2D torus", "EFAv3"
  double gb_per_s_per_chip = 0;  // GB/s (bytes) per chip, one direction (for the network: per node share, see Instance)
  double latency_us = 5;          // per-hop alpha of the latency-bandwidth model
  double efficiency = 0.8;        // achievable fraction of the link for large messages
};

struct PriceTier {
  std::string tier;               // on_demand, reserved_1y[_convertible][_partial_upfront|_all_upfront],
                                  // reserved_3y..., capacity_block, sagemaker (see core/commitments)
  double price_usd_per_hour = 0;  // per instance
  std::string region;             // the first of `regions`
  std::vector<std::string> regions;  // every region (or Local Zone) with this price; empty: any
  std::string date;
  std::string source;
};

// The Spot Instance Advisor's interruption band for one region (core/commitments).
struct SpotBand {
  std::string region;
  int band = 0;                   // 0..4: <5%, 5-10%, 10-15%, 15-20%, >20%
  double saving = 0;              // average saving over On-Demand; 0: not published
  std::string date, source;
};

struct Instance {
  std::string id;
  std::string name;
  std::string accelerator_id;
  int chips_per_node = 8;         // chips in the scale-up domain
  Fabric intra;                   // per-chip bandwidth inside the node
  double inter_node_gbps = 0;     // network, Gbit/s per node (0: single node only)
  Fabric inter;                   // latency and efficiency of the network (gb_per_s_per_chip unused)
  double host_power_w = 0;        // CPUs, NICs, fans: added to chip power for energy
  std::vector<PriceTier> prices;  // empty: no public price
  // Earlier list prices that no longer apply, each dated by its last day; never billed, only
  // recognised when a claim quotes one.
  std::vector<PriceTier> price_history;
  double spot_discount = 0;       // typical fraction off on-demand; 0 = no spot offered
  std::vector<SpotBand> spot_advisor;      // interruption bands by region
  std::vector<std::string> regions_offered;  // empty: the regions of its prices
  bool ultraserver = false;       // sold as UltraServers (Capacity Blocks end 60 min early, not 30)
  std::string source;
};

struct ModelShape {
  std::string id;
  std::string name;
  ModelKind kind = ModelKind::decoder;
  int layers = 0;
  int hidden = 0;
  int ffn_hidden = 0;             // per expert for MoE
  int heads = 0;
  int kv_heads = 0;               // = heads for MHA
  int head_dim = 0;               // 0: hidden / heads (Qwen3, GPT-OSS and Gemma set it apart)
  int seq_len = 0;                // for ViT derived from image and patch
  int vocab = 0;                  // 0 for ViT (classification head instead)
  bool gated_ffn = true;          // SwiGLU (3 matrices) vs GeLU (2)
  // GPT-OSS's SwiGLU clamps both halves at this limit and adds 1 to the linear half (openai/gpt-oss
  // model.py, swiglu; config.json swiglu_limit 7.0); 0: a plain SwiGLU. Timed op by op
  // (activation_elements in core/estimate.cpp).
  double swiglu_limit = 0;
  bool tied_embeddings = false;
  bool biases = false;            // linear biases and LayerNorm (vs RMSNorm without bias)
  bool dropout = false;           // training keeps dropout masks
  int learned_positions = 0;      // learned absolute position embeddings (0: rotary)
  int moe_experts = 0;
  int moe_top_k = 0;
  int moe_shared_experts = 0;
  // Layers of a mixture-of-experts model that have a dense FFN of dense_ffn_hidden instead of
  // experts (DeepSeek-V3's first_k_dense_replace, Qwen-MoE's mlp_only_layers): counted exactly in
  // the parameters, each kind timed as itself (see docs/hf-config.md).
  int dense_layers = 0;
  int dense_ffn_hidden = 0;
  // They are the model's first layers (DeepSeek-V3), held by the first pipeline ranks; else
  // (spread among the expert layers: Qwen-MoE's decoder_sparse_step) every rank holds the mix.
  bool dense_layers_first = true;
  // Multi-token prediction modules trained beside the model (DeepSeek-V3, arXiv 2412.19437,
  // Section 2.2, depth 1): each a transformer layer of the model's own kind (a mixture's has
  // experts), a projection of the normalized hidden state and next-token embedding (2h) to h, and
  // the shared output layer with a loss of its own, on the last pipeline stage. Not in a published
  // parameter count (DeepSeek-V3's 671B excludes it).
  int mtp_layers = 0;
  // Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, Section 2.1; DeepSeek-V3, arXiv
  // 2412.19437, Section 2.1.1): keys and values come from a kv_lora_rank latent (plus one shared
  // rotary key of qk_rope_head_dim), queries from a q_lora_rank latent (0: straight from hidden).
  // With MLA, head_dim is a query/key head's width (nope + rope) and v_head_dim a value head's;
  // kv_heads = heads. kv_lora_rank 0: standard (grouped-query) attention, v_head_dim unused.
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
  // ViT
  int image_size = 0;
  int patch_size = 0;
  int channels = 3;
  int num_classes = 0;
  std::string source;
};

struct ParallelPlan {
  int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, vpp = 1;
  bool sequence_parallel = false;
  int zero = 0;                   // 0-3; FSDP full shard = 3
  int micro_batch = 1;
  Recompute recompute = Recompute::selective;
  // With full recompute, the layers of a stage that recompute (Megatron's --recompute-method block
  // --recompute-num-layers: the first ones of each stage); the others keep their activations.
  // 0: all of them.
  int recompute_layers = 0;
  // The layers of the first and the last pipeline stage, the rest as evenly as they go over the
  // others (Megatron-Core's --decoder-first/last-pipeline-num-layers, which need it even, or its
  // pipeline_model_parallel_layout; recalled): -1 leaves the whole split to pipeline_layout.
  int first_stage_layers = -1, last_stage_layers = -1;
};

// A knob left at kAuto is chosen by the plan search. A knob added here is one of io's plan_knobs.
constexpr int kAuto = -1;
struct PlanRequest {
  int tp = kAuto, pp = kAuto, dp = kAuto, cp = kAuto, ep = kAuto, vpp = kAuto;
  int sequence_parallel = kAuto;  // 0, 1 or kAuto
  int zero = kAuto;
  int micro_batch = kAuto;
  int recompute = kAuto;          // a Recompute value or kAuto
  int recompute_layers = 0;       // with full recompute: layers per stage (ParallelPlan), 0: all
  int first_stage_layers = -1, last_stage_layers = -1;  // as in ParallelPlan
  // false: a global batch that no plan splits over the cluster is replaced by the nearest that
  // one does (a warning names both); true: no plan then, and the error names the nearest fixes.
  bool exact_global_batch = false;
  // The spread of the model's error between layouts of one job (log units; docs/accuracy.md,
  // "Choosing a layout"): the searched plan's step adds the optimizer's curse it implies
  // (core/selection.hpp). 0: none.
  double layout_error_sigma = 0;
  // A plan kept from an earlier search (a preview while a control is held): its pick keeps that
  // search's optimism rather than reckoning one among the few plans left to search.
  std::optional<double> kept_pick_optimism;
};

// Framework behaviour that is not hardware: overlap of communication, gradient precision.
struct FrameworkProfile {
  std::string id = "megatron";
  double dp_overlap = 0.9;        // ZeRO 0-2: share of the backward left after gradients are ready that hides their
                                  // reduction; ZeRO-3: share of a layer's compute that hides the next gathers
  double tp_overlap = 0.0;        // share of TP collectives hidden behind GEMMs
  // Share of TP collectives PyTorch's asynchronous tensor parallelism hides when a job turns it on
  // (Scenario::async_tp): 0 where the stack does not run it.
  double async_tp_overlap = 0.0;
  double ep_overlap = 0.0;        // share of EP all-to-alls hidden behind other micro-batches' compute
  bool dp_all_nics = true;        // DP collectives spread a node's traffic over all its NICs
  double grad_bytes = 2;          // bytes per gradient element communicated and stored
  double bucket_mib = 25;         // last gradient bucket is always exposed (PyTorch DDP)
  // Separate elementwise kernels per layer forward (norms, residual adds, activation, rotary,
  // dropout; backward twice as many): fused stacks (Transformer Engine's layernorm_linear, fused
  // bias-activation and bias-dropout-add) launch fewer than eager PyTorch. Each pays the kernel cost.
  double elementwise_kernels_per_layer = 10;
  // Kernels a mixture-of-experts layer adds forward for routing (router GEMM, softmax, top-k,
  // token counts, permute, unpermute, their index work): fused dispatchers launch fewer.
  double moe_kernels_per_layer = 12;
  // The distributed optimizer gathers updated parameters behind the next step's forward, bucket by
  // bucket (Megatron-Core --overlap-param-gather); otherwise the gather follows the step exposed.
  bool overlap_param_gather = false;
  // An interleaved pipeline posts each chunk's activation and gradient transfers asynchronously and
  // waits only when the next chunk needs them, so they run behind the chunks' compute
  // (Megatron-LM's overlap_p2p_comm, on unless --no-overlap-p2p-communication).
  bool overlap_p2p = false;
  // The stack runs FlashAttention-3-class attention kernels (Transformer Engine's cuDNN fused
  // attention) rather than FlashAttention-2 or PyTorch SDPA's default backend.
  bool attention_v3_kernels = false;
  // An FP8/FP4 GEMM keeps the quantized copy of its input for the weight gradient, not the 16-bit
  // one (Transformer Engine's Linear, LayerNormLinear and LayerNormMLP modules).
  bool keeps_quantized_gemm_inputs = false;
  // Local experts' GEMMs are launched one expert at a time (Transformer Engine's GroupedLinear
  // loops over cuBLAS calls on a few streams) rather than as one grouped kernel: each pays the
  // kernel cost, and under FP8/FP4 so does each expert's quantize launch.
  bool per_expert_gemms = false;
  // Host time each of those per-expert quantize launches adds to its kernel cost (us): a stack that
  // quantizes the experts' splits one by one from the host, behind the dispatcher's sync on the token
  // counts, leaves the GPU waiting on it (recalled, not re-checked). Fitted on the megatron profile,
  // which pays it only where a release turns per_expert_gemms on (Megatron-Bridge 25.11).
  double expert_quantize_us = 0;
  // An FP8/FP4 recipe quantizes each weight once a step, on its first micro-batch, and reuses the
  // copy (Transformer Engine's is_first_microbatch weight cache), rather than every micro-batch.
  bool caches_quantized_weights = false;
  // Q, K and V are one linear module, as are a gated FFN's gate and up projections (Megatron-Core's
  // linear_qkv and linear_fc1), so LoRA adapts each fused module with one adapter pair.
  bool fused_projections = false;
  // The token dispatcher sends a token once to each expert-parallel rank that holds any of its
  // top_k experts (DeepEP and HybridEP, Megatron-Core's flex dispatcher), not once per expert.
  bool dispatch_once_per_rank = false;
  // What "selective" recompute means in the stack: the attention core (Korthikanti et al. 2022,
  // Megatron), or per-op checkpointing that keeps the outputs of the attention kernel and of every
  // other matmul of a block and replays the rest (torchtitan's selective "op" mode).
  // none: the stack has no selective recompute (it came with Korthikanti et al. 2022).
  enum class Selective { attention, every_other_matmul, none } selective = Selective::attention;
  int zero3_gathers_per_layer = 1;// ZeRO-3 collectives per layer and pass (FSDP: one flat unit)
  int max_zero = 3;               // highest ZeRO stage the framework implements
  // The parallelisms beyond data parallelism the stack implements: the plan search offers only
  // these, and a plan that uses another is refused (a 2021 stack has no sequence, context or expert
  // parallelism; the Hugging Face Trainer on Neuron is data parallel only).
  struct Parallelisms {
    bool tp = true, sp = true, pp = true, vpp = true, cp = true, ep = true;
  } parallelisms;
  // Where the stack runs: Megatron and DeepSpeed build on CUDA libraries, the Neuron stacks on the
  // Neuron SDK; a scenario that puts a stack on the other platform is refused (io/scenario).
  bool runs_on_gpu = true, runs_on_neuron = true;
};

struct Scenario {
  ModelShape model;
  Accelerator accelerator;
  Instance instance;
  int nodes = 1;
  int chips = 0;                  // chips in use when not nodes x chips_per_node (a partial rack)
  Precision precision = Precision::bf16;
  Fp8Scaling fp8_scaling = Fp8Scaling::per_tensor;  // with precision fp8
  ParallelPlan plan;
  long long global_batch = 0;     // sequences per optimizer step
  TrainingMode mode = TrainingMode::pretrain;
  int lora_rank = 0;
  double train_tokens = 0;        // training amount (tokens = samples x seq_len)
  bool flash_attention = true;
  bool master_weights = true;     // FP32 master copy; false with stochastic rounding
  bool auto_cast = true;          // let a compiler that auto-casts FP32 matmuls to BF16 do so
  bool fp32_loss_logits = true;   // the loss keeps an FP32 copy of the logits (false: a fused kernel)
  bool async_tp = false;          // PyTorch's asynchronous TP, where the framework runs it
  double power_limit_w = 0;       // per chip (nvidia-smi -pl); 0 or above power_w: the chip's own power
  FrameworkProfile framework;
  // Set by the plan search on its pick: the expected excess of the pick's predicted log speed over
  // its true one (core/selection.hpp); estimate() adds it to the step as its own term.
  double pick_optimism = 0;
};

struct NamedTerm {
  std::string name;
  double value = 0;
};

struct Memory {
  double weights_gib = 0, gradients_gib = 0, optimizer_gib = 0, activations_gib = 0, other_gib = 0;
  double total_gib = 0, capacity_gib = 0;
  bool fits = false;
  int max_micro_batch = 0;        // largest micro-batch that fits with the rest of the plan (0: none)
};

struct Estimate {
  ParallelPlan plan;
  int chips = 0;
  int devices = 0;
  double step_time_s = 0;
  std::vector<NamedTerm> breakdown_s;   // sums to step_time_s
  double tokens_per_s = 0;
  double samples_per_s = 0;
  double tokens_per_s_per_chip = 0;
  long long global_batch = 0;           // sequences per step the estimate ran with
  double model_flops_per_step = 0;
  double hardware_flops_per_step = 0;
  double mfu = 0, hfu = 0;
  double tflops_per_chip = 0;           // model FLOPs per second per chip, in TFLOP/s
  long long grad_accum = 0;             // micro-batches per pipeline per step
  double steps = 0;
  double train_time_s = 0;
  Memory memory;
  double params = 0;
  double active_params = 0;
  double checkpoint_bytes = 0;          // weights + optimizer state of what trains (LoRA: the adapters)
  double frozen_weights_bytes = 0;      // LoRA: the base model's weights, kept beside its checkpoints
  int plans_considered = 1;
  // The plan search's ways of splitting the model that fit (tp, pp, cp, ep); 0 where its pick kept
  // an earlier search's correction (PlanRequest::kept_pick_optimism).
  int splits_compared = 0;
  double pick_optimism = 0;             // the plan search's correction of its pick (Scenario::pick_optimism)
  double first_stage_layers = 0, last_stage_layers = 0;  // the model's layers on them, as timed
  std::vector<std::string> warnings;
};

}  // namespace tc
