#include "io/schema.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "core/commitments.hpp"
#include "core/labels.hpp"
#include "io/presets.hpp"

namespace tc::io {

const char* to_string(FieldType t) {
  switch (t) {
    case FieldType::id: return "id";
    case FieldType::id_list: return "list of ids";
    case FieldType::integer: return "integer";
    case FieldType::integer_auto: return "integer or \"auto\"";
    case FieldType::number: return "number";
    case FieldType::number_auto: return "number or \"auto\"";
    case FieldType::enumeration: return "one of";
    case FieldType::flag: return "true or false";
    case FieldType::flag_auto: return "true, false or \"auto\"";
    case FieldType::price_mix: return "pricing tiers";
    case FieldType::id_map: return "id to id";
    case FieldType::text: return "text";
    case FieldType::section: return "object";
    case FieldType::list: return "list of objects";
  }
  return "";
}

namespace {

constexpr double kMaxDegree = 1 << 20;
using T = FieldType;

// The scenario's own fields: model, cluster, plan, training.
std::vector<FieldDef> job_fields() {
  return {
      {"name", "", T::text, "", 0, 0, "", "Shown as the scenario's title.", ""},
      {"description", "", T::text, "", 0, 0, "", "What the scenario is about.", ""},
      {"source", "", T::text, "", 0, 0, "", "Where its figures come from.", ""},
      {"model", "m", T::id, "", 0, 0, "",
       "A preset model (traincalc list models), an inline shape, or {\"hf_config\": a Hugging Face config.json, "
       "\"seq_len\", \"name\"} (docs/hf-config.md).", ""},
      {"instance", "i", T::id, "", 0, 0, "", "A preset instance (traincalc list instances), or an inline one.", ""},
      {"compare_instances", "c", T::id_list, "", 0, 0, "the instance",
       "Instances `traincalc compare` and the comparison panel run the same job on; on another chip or node "
       "size the plan search chooses the whole plan.", ""},
      {"compare_at", "ca", T::enumeration, "", 0, 0, "chips when the scenario gives chips, else nodes",
       "What comparison rows keep equal: the chip count (whole nodes where a node size does not divide it) or "
       "the node count.", "", {"chips", "nodes"}},
      {"nodes", "n", T::integer, "nodes", 1, 1000000, "1", "Instances (scale-up domains) of the cluster.", "",
       {}, "chips"},
      {"chips", "ch", T::integer, "chips", 1, 100000000, "", "The cluster in chips instead of nodes; whole nodes are billed.",
       "", {}, "nodes"},
      {"precision", "p", T::enumeration, "", 0, 0, "bf16",
       "Number format of the matrix multiplications. fp8 is per-tensor scaling unless fp8_scaling says "
       "otherwise; MXFP8 is timed as it (7-11% slower in published runs; docs/accuracy.md).",
       "",
       {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4"}},
      {"fp8_scaling", "f8", T::enumeration, "", 0, 0, "per_tensor",
       "With fp8: a scale a tensor, or a row (torchao's rowwise: 26-34% slower than tensorwise "
       "measured; its casts are modelled, its kernels' speed is not).",
       "torchao Float8Linear", {"per_tensor", "rowwise"}},
      {"framework", "fw", T::id, "", 0, 0, "neuronx-distributed on Trainium, else megatron",
       "Framework profile: overlap of communication, gradient precision, and the parallelisms and recompute it "
       "implements, the only ones a plan may use (traincalc list frameworks). It must "
       "run on the instance's chips (runs_on: Megatron on GPUs, the Neuron stacks on Trainium, FSDP on both); "
       "a comparison row on the other platform takes that platform's default.", ""},
      {"micro_batch", "mb", T::integer_auto, "sequences", 1, 1000000, "auto",
       "Sequences per device per forward pass.", ""},
      {"global_batch", "gb", T::integer, "sequences", 1, 1e9, "about 4M tokens per step; 1024 images for ViT",
       "Sequences per optimizer step. When no parallel plan splits it over the cluster (it must be a multiple "
       "of dp x micro_batch), the estimate uses a batch within 5% that one does (or the nearest), says so in a "
       "warning, and keeps tokens per step close to the choice.",
       "Llama 3 and GPT-3 trained with 4M-token batches (Touvron et al. 2023, Brown et al. 2020)"},
      {"global_batch_exact", "gbx", T::flag, "", 0, 0, "false",
       "Use global_batch exactly: where it splits over no plan, the scenario fails and the error names the "
       "nearest node counts, global batches and chip counts that work.", ""},
      {"parallel", "", T::section, "", 0, 0, "", "The parallel plan; each knob fixed or left to the plan search.", ""},
      {"parallel.tp", "tp", T::integer_auto, "ranks", 1, kMaxDegree, "auto", "Tensor parallel degree.", ""},
      {"parallel.pp", "pp", T::integer_auto, "stages", 1, kMaxDegree, "auto", "Pipeline stages.", ""},
      {"parallel.dp", "dp", T::integer_auto, "replicas", 1, 1e8, "auto", "Data parallel replicas.", ""},
      {"parallel.cp", "cp", T::integer_auto, "ranks", 1, kMaxDegree, "auto",
       "Context parallel degree. auto: weighed where each rank keeps 4,096 tokens of a sequence or more "
       "(sequences of 8,192 and longer), else 1.", ""},
      {"parallel.ep", "ep", T::integer_auto, "ranks", 1, kMaxDegree, "auto",
       "Expert parallel degree (MoE): divides dp x cp, or is a multiple of it that also takes tp ranks (the "
       "experts then split over tp x dp x cp / ep ranks).", ""},
      {"parallel.vpp", "vpp", T::integer_auto, "chunks", 1, kMaxDegree, "auto",
       "Interleaved pipeline chunks per stage.", ""},
      {"parallel.first_stage_layers", "fsl", T::integer, "layers", 0, 100000, "an even split",
       "Layers of the first pipeline stage; the stages not stated share the rest as evenly as they can, "
       "one or more each.",
       "Megatron-Core --decoder-first-pipeline-num-layers"},
      {"parallel.last_stage_layers", "lsl", T::integer, "layers", 0, 100000, "an even split",
       "Layers of the last pipeline stage, which also runs the output layer and the loss.",
       "Megatron-Core --decoder-last-pipeline-num-layers"},
      {"parallel.zero", "zero", T::integer_auto, "", 0, 3, "auto", "ZeRO stage, 0-3; FSDP full shard is 3.", ""},
      {"parallel.sequence_parallel", "sp", T::flag_auto, "", 0, 0, "auto",
       "Sequence parallelism over the tensor parallel ranks.", ""},
      {"recompute", "rc", T::enumeration, "", 0, 0, "auto",
       "Activation recomputation. auto: the plan search picks the fastest that fits.", "",
       {"none", "selective", "full", "auto"}},
      {"recompute_layers", "rl", T::integer, "layers", 0, 100000, "0 (all)",
       "With full recompute, the layers of each pipeline stage that recompute; the others keep their "
       "activations (the fewest that fit trade least speed for memory). Megatron counts its flag in each "
       "model chunk: with interleaving, a stage recomputes vpp times it.",
       "Megatron-LM --recompute-method block --recompute-num-layers"},
      {"training", "", T::section, "", 0, 0, "", "How much to train: tokens, or samples and epochs.", ""},
      {"training.mode", "tm", T::enumeration, "", 0, 0, "pretrain", "Pretraining, full fine-tuning or LoRA.", "",
       {"pretrain", "full_finetune", "lora"}},
      {"training.tokens", "tt", T::number, "tokens", 0, 1e18, "", "Tokens to train on.", "", {}, "training.samples", 1},
      {"training.samples", "ts", T::number, "samples", 0, 1e15, "", "Dataset size, with training.epochs.", "", {},
       "training.tokens", 1},
      {"training.epochs", "te", T::number, "epochs", 0, 1e6, "1", "Passes over training.samples.", "", {}, {}, 1e-3},
      {"training.lora_rank", "lr", T::integer, "", 1, 65536, "16 with mode lora", "Rank of the LoRA adapters.", ""},
      {"flash_attention", "fa", T::flag, "", 0, 0, "true", "Fused attention kernels (FlashAttention).",
       "Dao et al. 2022"},
      {"master_weights", "mw", T::flag, "", 0, 0, "true",
       "FP32 master weights; without them BF16 updates lose small gradients unless the chip rounds "
       "stochastically.", ""},
      {"auto_cast", "ac", T::flag, "", 0, 0, "true",
       "Let a compiler that runs FP32 matmuls in BF16 do so (Neuron's default); false keeps them FP32.",
       "neuronx-cc --auto-cast matmult (AWS Neuron docs)"},
      {"fp32_loss_logits", "fl", T::flag, "", 0, 0, "true",
       "The loss keeps an FP32 copy of the logits for its gradient (Megatron's vocabulary-parallel "
       "cross-entropy, PyTorch's on upcast logits); false for a fused kernel that keeps only the 16-bit "
       "logits (flash-attn's cross_entropy, llm-foundry's default fused_crossentropy).",
       "flash-attn losses/cross_entropy.py; llm-foundry ComposerMPTCausalLM loss_fn"},
      {"async_tp", "atp", T::flag, "", 0, 0, "false",
       "PyTorch's async TP on GPUs: sequence-parallel TP collectives run in chunks behind their GEMMs, "
       "where the framework runs it.",
       "torchtitan enable_async_tensor_parallel"},
      {"power_limit_w", "pw", T::number, "W", 0, 1e5, "the chip's power (power_w)",
       "Power cap per chip (nvidia-smi -pl, or a part sold at a lower power): compute slows as the cube root "
       "of cap / power_w, dense GEMMs in proportion to the cap where the chip's energy a FLOP binds them "
       "(Blackwell); energy is billed at the cap.",
       "first-order CMOS scaling, Hennessy & Patterson, Computer Architecture 6th ed. Section 1.5"},
  };
}

// Bounds of the cost fields (docs/reliability.md lists them). A maximum is far beyond any real
// campaign; a minimum keeps what the cost model divides by (an interval, a bandwidth, a share, a
// number of years or runs) from making a bill overflow: 1e-300 runs per month is 1e300 months.
constexpr double kMaxUsd = 1e12;           // a price, a salary, a capex per node
constexpr double kMaxUsdPerUnit = 1e4;     // per GB, per GB-month, per kWh
constexpr double kMaxGb = 1e12;            // a dataset or a transfer (an exabyte)
constexpr double kMaxMinutes = 1e7;        // about 19 years
constexpr double kMaxSeconds = 1e9;        // about 32 years
constexpr double kMaxRuns = 1e6;
constexpr double kMinRuns = 1e-3;
constexpr double kMaxRatePerHour = 100;    // failures per node-hour, interruptions per hour
constexpr double kMinYears = 0.01, kMaxYears = 100;
constexpr double kMinShare = 1e-3;         // utilization, truncated fraction
constexpr double kMaxMonths = 1200;
constexpr double kMaxPowerW = 1e7;
constexpr double kMaxBytes = 1e35;
constexpr const char* kCost = "src/core/cost.hpp";
const std::vector<std::string_view> kServices = {"s3_standard", "s3_express_one_zone", "fsx_lustre"};

std::vector<FieldDef> pricing_fields() {
  return {
      {"pricing", "", T::section, "", 0, 0, "on_demand", "One tier for all hours (tier, fallback) or a mix.",
       "src/io/cost_json.hpp"},
      {"pricing.tier", "", T::id, "", 0, 0, "on_demand",
       "The one tier every hour is billed at (core/commitments.hpp lists them); a link writes it as a one-tier "
       "pr.", "AWS EC2 pricing pages (presets/instances.json)"},
      {"pricing.fallback", "", T::id, "", 0, 0, "capacity_block with the default tier",
       "The tier billed when pricing.tier has no public price for the instance.", ""},
      {"pricing.usd_per_hour", "", T::number, "USD per instance-hour", 0, kMaxUsd, "",
       "A negotiated rate, with tier custom.", ""},
      {"pricing.discount", "", T::number, "fraction", 0, 1, "",
       "Fraction off on demand (custom, savings plans: required, at most the published maximum; spot).",
       "AWS Savings Plans pricing page"},
      {"pricing.mix", "pr", T::price_mix, "", 0, 0, "", "Shares of instance-hours per tier, or instances per tier.",
       "src/io/cost_json.hpp"},
      {"pricing.spot_discount", "sd", T::number, "fraction", 0, 1,
       "the Spot Instance Advisor's average saving in the region, else the instance preset's",
       "Fraction off on-demand for every spot share.", "AWS Spot Instance Advisor"},
      {"pricing.region", "rg", T::id, "", 0, 0, "us-east-1",
       "AWS region every instance is priced in. Given, an instance without a price there says where it has one; "
       "left at the default, an instance sold only elsewhere (trn2.48xlarge: us-east-2) is priced there, said so.",
       "AWS Price List (presets/instances.json)"},
      {"pricing.instance_regions", "ir", T::id_map, "", 0, 0, "",
       "A region per instance id, for an instance not sold in pricing.region (trn2.48xlarge: us-east-2); "
       "the comparison names each row's region. A link writes instance:region pairs.", ""},
      {"pricing.idle_commitment", "ic", T::enumeration, "", 0, 0, "bill",
       "Hours of a Reserved Instance or Savings Plan term, or of a Capacity Block, that the campaign does not "
       "use: bill (this job pays them) or share (other work fills them; reported, not billed).",
       "EC2 User Guide: RIs are billed every hour of the term", {"bill", "share"}},
  };
}

// What the bill is measured against.
std::vector<FieldDef> goal_fields() {
  return {
      {"deadline_days", "dl", T::number, "days", 0.001, 1e6, "", "Does one full run finish in time?", ""},
      {"baseline_instance", "bl", T::id, "", 0, 0, "",
       "Savings and payback are measured against this instance, at the plan the search finds for it where its "
       "chip or node size differs.", ""},
  };
}

std::vector<FieldDef> overhead_fields() {
  return {
      {"overheads", "", T::section, "", 0, 0, "", "Compile, warm-up, checkpoints, failures, spot, queueing, "
       "storage by service, transfer, engineering.", kCost},
      {"overheads.queue_hours", "o.queue_hours", T::number, "hours", 0, kMaxMinutes / 60, "0",
       "Waiting for capacity before each run: wall time, not billed.", ""},
      {"overheads.compile.first_s", "o.compile.first_s", T::number, "s", 0, kMaxSeconds,
       "by accelerator family (Neuron: minutes; CUDA: seconds)", "First compile of the training graph.",
       "core/cost.cpp compile_defaults()"},
      {"overheads.compile.recompile_s", "o.compile.recompile_s", T::number, "s", 0, kMaxSeconds,
       "by accelerator family", "Compile of each further input shape.", "core/cost.cpp compile_defaults()"},
      {"overheads.compile.shapes", "o.compile.shapes", T::integer, "shapes", 1, 100000, "1",
       "Distinct input shapes (sequence-length buckets): shapes - 1 recompiles.", ""},
      {"overheads.compile.cache_hit", "o.compile.cache_hit", T::number, "fraction", 0, 1, "0",
       "Share of compile work a later run finds in a reused compile cache.", ""},
      {"overheads.warmup.minutes", "o.warmup.minutes", T::number, "minutes", 0, kMaxMinutes, "by accelerator family",
       "Slow phase at the start of a run (loader, caches, autotuning).", "core/cost.cpp compile_defaults()"},
      {"overheads.warmup.throughput", "o.warmup.throughput", T::number, "fraction", 0, 1, "by accelerator family",
       "Share of steady throughput during the warm-up.", "core/cost.cpp compile_defaults()"},
      {"overheads.checkpoint.interval_min", "o.checkpoint.interval_min", T::number_auto, "minutes", 1.0 / 60,
       kMaxMinutes, "auto", "Training between checkpoints; auto: the Young/Daly optimum for the failure rate.",
       "Young 1974; Daly 2006"},
      {"overheads.checkpoint.write_gb_per_s", "o.checkpoint.write_gb_per_s", T::number, "GB/s", 1e-3, 1e6,
       "the FSx file system's throughput on FSx for Lustre, else 10",
       "Aggregate write bandwidth to checkpoint storage.", "FSx for Lustre User Guide (hardware.md 2.4.6)"},
      {"overheads.checkpoint.bytes", "o.checkpoint.bytes", T::number, "bytes", 0, kMaxBytes,
       "the weights and optimizer state of what trains (LoRA: the adapters)", "Size of one checkpoint; 0 takes it from the estimate.", ""},
      {"overheads.checkpoint.kept", "o.checkpoint.kept", T::integer, "checkpoints", 0, 100000, "2",
       "Checkpoints kept in storage at a time.", ""},
      {"overheads.failures.per_node_hour", "o.failures.per_node_hour", T::number, "per node-hour", 0,
       kMaxRatePerHour, "1.58e-4",
       "Unexpected interruptions per node-hour.",
       "Llama 3 (Dubey et al. 2024, sec. 3.3.4): 419 in 54 days on 2,048 nodes"},
      {"overheads.failures.restart_min", "o.failures.restart_min", T::number, "minutes", 0, kMaxMinutes, "20",
       "Detect a failure, replace the node, reload the checkpoint.", ""},
      {"overheads.spot.interruptions_per_hour", "o.spot.interruptions_per_hour", T::number, "per instance-hour", 0,
       kMaxRatePerHour, "the instance's Spot Instance Advisor band in the region",
       "Spot interruptions per spot instance-hour.", "AWS Spot Instance Advisor (presets/instances.json)"},
      {"overheads.spot.restart_min", "o.spot.restart_min", T::number, "minutes", 0, kMaxMinutes, "30",
       "Get spot capacity back and restart.", ""},
      {"overheads.engineering.person_weeks", "o.engineering.person_weeks", T::number, "person-weeks", 0, kMaxRuns,
       "0", "One-off migration or porting effort.", ""},
      {"overheads.engineering.usd_per_week", "o.engineering.usd_per_week", T::number, "USD per person-week", 0,
       kMaxUsd, "0", "Loaded cost of one person-week.", ""},
      {"overheads.engineering.spread_runs", "o.engineering.spread_runs", T::number, "runs", 0, kMaxRuns, "0",
       "Spread the one-off over this many runs (0: all on this campaign).", "", {}, {}, kMinRuns},
  };
}

std::vector<FieldDef> storage_fields() {
  return {
      {"overheads.storage.dataset_gb", "o.storage.dataset_gb", T::number, "GB", 0, kMaxGb, "0",
       "Training data kept in storage during the campaign.", ""},
      {"overheads.storage.retention_days", "o.storage.retention_days", T::number, "days", 0, kMaxMonths * 730 / 24,
       "0", "Checkpoints and data kept after the campaign.", ""},
      {"overheads.storage.retention_months", "o.storage.retention_months", T::number, "months", 0, kMaxMonths, "",
       "The older form of retention_days (a month is 730 h).", "AWS pricing convention: 730 hours a month"},
      {"overheads.storage.checkpoints_service", "o.storage.checkpoints_service", T::enumeration, "", 0, 0,
       "s3_standard", "Where checkpoints are stored.", "AWS S3 and FSx pricing pages (presets/services.json)",
       kServices},
      {"overheads.storage.dataset_service", "o.storage.dataset_service", T::enumeration, "", 0, 0, "s3_standard",
       "Where the dataset is stored.", "AWS S3 and FSx pricing pages (presets/services.json)", kServices},
      {"overheads.storage.fsx_tier", "o.storage.fsx_tier", T::enumeration, "", 0, 0, "persistent_2_125",
       "FSx for Lustre deployment and throughput tier (MB/s per TiB), when a service is fsx_lustre.",
       "FSx for Lustre pricing page (presets/services.json)",
       {"persistent_2_125", "persistent_2_250", "persistent_2_500", "persistent_2_1000", "scratch_2"}},
      {"overheads.storage.fsx_capacity_tib", "o.storage.fsx_capacity_tib", T::number, "TiB", 1e-3, kMaxGb / 1024,
       "what it holds", "Provisioned FSx for Lustre capacity.", ""},
      {"overheads.storage.usd_per_gb_month", "o.storage.usd_per_gb_month", T::number, "USD per GB-month", 0,
       kMaxUsdPerUnit, "each service's published, tiered rate", "A flat rate for every stored GB instead.", ""},
      {"overheads.transfer.cross_region_copies", "o.transfer.cross_region_copies", T::number, "copies", 0, kMaxRuns,
       "0", "Copies of the dataset to another region.", ""},
      {"overheads.transfer.copy_gb", "o.transfer.copy_gb", T::number, "GB", 0, kMaxGb, "overheads.storage.dataset_gb",
       "Size of one copy.", ""},
      {"overheads.transfer.copy_from_region", "o.transfer.copy_from_region", T::id, "", 0, 0, "us-east-1",
       "Region a copy leaves (transfer is billed out of the source).", "AWS EC2 data transfer pricing"},
      {"overheads.transfer.copy_to_region", "o.transfer.copy_to_region", T::id, "", 0, 0,
       "another region, at the usual US/EU rate", "Region a copy goes to.", "AWS EC2 data transfer pricing"},
      {"overheads.transfer.cross_region_usd_per_gb", "o.transfer.cross_region_usd_per_gb", T::number, "USD per GB",
       0, kMaxUsdPerUnit, "the region pair's published rate", "A flat inter-region rate instead.", ""},
      {"overheads.transfer.egress_gb", "o.transfer.egress_gb", T::number, "GB", 0, kMaxGb, "0",
       "To the internet, once per campaign.", ""},
      {"overheads.transfer.egress_gb_per_month", "o.transfer.egress_gb_per_month", T::number, "GB per month", 0,
       kMaxGb, "0", "To the internet, every month of the campaign.", ""},
      {"overheads.transfer.egress_usd_per_gb", "o.transfer.egress_usd_per_gb", T::number, "USD per GB", 0,
       kMaxUsdPerUnit, "the published tiers and the free 100 GB a month", "A flat egress rate instead.",
       "AWS EC2 data transfer pricing"},
  };
}

std::vector<FieldDef> campaign_fields() {
  return {
      {"campaign", "", T::section, "", 0, 0, "one run", "Runs, full runs, truncated fraction, runs per month.", kCost},
      {"campaign.runs", "k.runs", T::number, "runs", kMinRuns, kMaxRuns, "1", "Runs of the job (may be an expected "
       "count).", ""},
      {"campaign.full_runs", "k.full_runs", T::number, "runs", 0, kMaxRuns, "all of them",
       "Runs that train to the end.", ""},
      {"campaign.truncated_fraction", "k.truncated_fraction", T::number, "fraction", kMinShare, 1, "1",
       "Share of the training each other run completes.", ""},
      {"campaign.runs_per_month", "k.runs_per_month", T::number, "runs per month", 0, kMaxRuns, "0 (back to back)",
       "Pace of the campaign.", "", {}, {}, kMinRuns},
      {"incidents", "in", T::list, "", 0, 0, "", "Lost days, OOMs, throughput regressions and failed-run fractions, "
       "each a bill line at the blended instance rate. A link writes how many (in=2), then each item's fields "
       "(in.0.kind, in.0.hours, ...).", "src/io/cost_json.hpp"},
      {"incidents[].kind", "in.kind", T::enumeration, "", 0, 0, "", "What happened.", "",
       {"lost_day", "oom", "throughput_regression", "failed_runs"}},
      {"incidents[].days", "in.days", T::number, "days", kMinYears, kMaxMinutes / 1440, "1 for lost_day",
       "lost_day: days lost; throughput_regression: calendar days it lasted.", ""},
      {"incidents[].hours", "in.hours", T::number, "hours", kMinYears, kMaxMinutes / 60, "",
       "oom: hours of the job's nodes lost.", ""},
      {"incidents[].fraction", "in.fraction", T::number, "fraction", 0, 1, "",
       "throughput_regression: throughput lost (below 1); failed_runs: share of runs rerun.", ""},
      {"incidents[].progress", "in.progress", T::number, "fraction", 1e-3, 1, "1",
       "failed_runs: share of a run done when it fails.", ""},
      {"incidents[].note", "in.note", T::text, "", 0, 0, "", "Shown on the bill line (e.g. the claim, A39).", ""},
  };
}

std::vector<FieldDef> owned_fields() {
  return {
      {"owned_cluster", "", T::section, "", 0, 0, "", "An owned cluster (capex, depreciation to a residual, "
       "financing, maintenance, power, colocation, staff): its bill and the break-even utilization against the "
       "cloud.", kCost},
      {"owned_cluster.instance", "oc.instance", T::id, "", 0, 0, "the job's instance", "The hardware owned.", ""},
      {"owned_cluster.nodes", "oc.nodes", T::integer, "nodes", 1, 1000000, "the job's nodes", "Size of the cluster.",
       ""},
      {"owned_cluster.capex_usd_per_node", "oc.capex_usd_per_node", T::number, "USD", 0, kMaxUsd, "",
       "Purchase price of one node with its share of the network (required).", ""},
      {"owned_cluster.depreciation_years", "oc.depreciation_years", T::number, "years", kMinYears, kMaxYears, "4",
       "Straight line to the residual value.", ""},
      {"owned_cluster.residual_fraction", "oc.residual_fraction", T::number, "fraction", 0, 1, "0",
       "Resale value at the end of depreciation, as a share of capex.", ""},
      {"owned_cluster.financing_rate", "oc.financing_rate", T::number, "per year", 0, 1, "0 (paid in cash)",
       "Annual interest on the capex.", ""},
      {"owned_cluster.financing_years", "oc.financing_years", T::number, "years", kMinYears, kMaxYears,
       "depreciation_years", "Loan term.", ""},
      {"owned_cluster.maintenance_usd_per_year", "oc.maintenance_usd_per_year", T::number, "USD per year", 0,
       kMaxUsd, "0", "Support contracts for the whole cluster.", ""},
      {"owned_cluster.maintenance_fraction_per_year", "oc.maintenance_fraction_per_year", T::number,
       "fraction of capex per year", 0, 1, "0", "Support as a share of capex (adds to the above).", ""},
      {"owned_cluster.colocation_usd_per_kw_month", "oc.colocation_usd_per_kw_month", T::number,
       "USD per kW-month", 0, kMaxUsdPerUnit, "0", "Colocation by IT power (node power, before PUE).", ""},
      {"owned_cluster.utilization", "oc.utilization", T::number, "fraction", kMinShare, 1, "0.6",
       "Busy share of the year (idle hours are paid too).", ""},
      {"owned_cluster.node_power_w", "oc.node_power_w", T::number, "W", 0, kMaxPowerW,
       "chips x chip power + host power", "Measured power of one node.", "presets/accelerators.json"},
      {"owned_cluster.idle_power_fraction", "oc.idle_power_fraction", T::number, "fraction", 0, 1, "0.3",
       "Power drawn while idle, as a share of busy power.", ""},
      {"owned_cluster.pue", "oc.pue", T::number, "", 1, 10, "1.3", "On-premises power usage effectiveness.",
       "Uptime Institute 2023 survey (~1.58 average; 1.3 for a modern GPU room)"},
      {"owned_cluster.usd_per_kwh", "oc.usd_per_kwh", T::number, "USD per kWh", 0, kMaxUsdPerUnit,
       "energy.usd_per_kwh", "Electricity price on premises.", ""},
      {"owned_cluster.facility_usd_per_year", "oc.facility_usd_per_year", T::number, "USD per year", 0, kMaxUsd,
       "0", "Space, cooling plant, network contracts.", ""},
      {"owned_cluster.staff_usd_per_year", "oc.staff_usd_per_year", T::number, "USD per year", 0, kMaxUsd, "0",
       "Operations staff.", ""},
      {"owned_cluster.horizon_years", "oc.horizon_years", T::number, "years", kMinYears, kMaxYears, "3",
       "Years the total cost of ownership is summed over.", ""},
  };
}

std::vector<FieldDef> energy_fields() {
  return {
      {"energy", "", T::section, "", 0, 0, "", "Electricity price, grid intensity, PUE, node power.", kCost},
      {"energy.usd_per_kwh", "e.usd_per_kwh", T::number, "USD per kWh", 0, kMaxUsdPerUnit, "0.10",
       "Electricity price (shown beside the cloud bill; priced into an owned one).",
       "EIA 2024: US industrial ~0.08, commercial ~0.13"},
      {"energy.grid_kg_co2e_per_kwh", "e.grid_kg_co2e_per_kwh", T::number, "kg CO2e per kWh", 0, 100, "0.37",
       "Grid carbon intensity.", "EPA eGRID 2022 US average (~820 lb CO2e/MWh)"},
      {"energy.cloud_pue", "e.cloud_pue", T::number, "", 1, 10, "1.15", "Power usage effectiveness of the cloud "
       "data centre.", "Amazon sustainability report 2023 (AWS global PUE)"},
      {"energy.node_power_w", "e.node_power_w", T::number, "W", 0, kMaxPowerW, "chips x chip power + host power",
       "Measured power of one node.", "presets/accelerators.json, presets/instances.json"},
  };
}

// Bounds of a claim's figures: 35x to 10,000x above the largest figure any system had in 2026, so
// that the checker still calls an overstated claim implausible or impossible, while a typo of
// 1e15 is an error naming the field; and a floor (a second, a thousandth of a unit) under what
// the checker divides by, so that no implied figure overflows (1e-300 s would imply 1e303 MFU). Largest today: GB300 15 PFLOP/s dense FP4 and 288 GB HBM at
// 8 TB/s per GPU, NVLink5 1.8 TB/s, 3,200 Gbit/s EFA per node (presets/instances.json); Llama 3
// 405B trained on 3.8e25 FLOPs (Dubey et al. 2024); no training bill near $100 B.
constexpr double kClaimDays = 3650;  // ten years of training
constexpr const char* kSeeds = "../shared/reference/seed-cases.md";

std::vector<FieldDef> claim_fields() {
  return {
      {"claims", "", T::list, "", 0, 0, "", "Claims of a field report to check against the model.",
       "src/io/cost_json.hpp"},
      {"claims[].id", "", T::text, "", 0, 0, "", "The report's number (A12): capital letters then a number.", kSeeds},
      {"claims[].text", "", T::text, "", 0, 0, "", "The claim as the report words it.", kSeeds},
      {"claims[].reason", "", T::text, "", 0, 0, "", "Why a claim of text alone cannot be checked.", ""},
      {"claims[].instance", "", T::id, "", 0, 0, "the scenario's", "The instance the claim is about.", ""},
      {"claims[].other_workload", "", T::flag, "", 0, 0, "false", "The claim is about another model than the "
       "scenario's: only its hardware figures are checked.", ""},
      {"claims[].runs", "", T::number, "runs", 1e-6, kMaxRuns, "1", "Runs of the wall time in bill_usd.", ""},
      {"claims[].nodes", "", T::integer, "nodes", 1, 1000000, "the scenario's", "Nodes the claim ran on.", ""},
      {"claims[].wall_time_s", "", T::number, "s", 1, kClaimDays * 86400, "", "Wall time claimed.", ""},
      {"claims[].wall_time_hours", "", T::number, "hours", 1.0 / 3600, kClaimDays * 24, "", "Wall time claimed.", ""},
      {"claims[].wall_time_days", "", T::number, "days", 1.0 / 86400, kClaimDays, "", "Wall time claimed.", ""},
      {"claims[].bill_usd", "", T::number, "USD", 0, 1e11, "", "Bill claimed.", ""},
      {"claims[].bill_other_usd", "", T::number, "USD", 0, 1e11, "0", "Part of bill_usd that is not compute.", ""},
      {"claims[].usd_per_hour", "", T::number, "USD per instance-hour", 1e-3, 1e5, "", "Rate claimed.", ""},
      {"claims[].tier", "", T::id, "", 0, 0, "on_demand", "Tier of usd_per_hour.", ""},
      {"claims[].tflops_per_chip", "", T::number, "TFLOP/s", 1e-3, 1e5, "", "Achieved model FLOP rate per chip.", ""},
      {"claims[].peak_tflops", "", T::number, "TFLOP/s", 1e-3, 1e5, "", "Peak rate per chip claimed.", ""},
      {"claims[].mfu", "", T::number, "fraction", 0, 10, "", "Model FLOPs utilization claimed (1 = 100%).", ""},
      {"claims[].tokens_per_s", "", T::number, "tokens/s", 1e-3, 1e10, "", "Throughput of the whole job.", ""},
      {"claims[].training_flops", "", T::number, "FLOPs", 1, 1e30, "", "Training compute claimed.", ""},
      {"claims[].chips_per_node", "", T::integer, "chips", 1, 10000, "", "Chips per node claimed.", ""},
      {"claims[].hbm_gb_per_chip", "", T::number, "GB", 1e-3, 1e4, "", "HBM per chip claimed.", ""},
      {"claims[].hbm_gb_per_node", "", T::number, "GB", 1e-3, 1e6, "", "HBM per node claimed.", ""},
      {"claims[].hbm_tb_per_s", "", T::number, "TB/s", 1e-3, 1e3, "", "HBM bandwidth per chip claimed.", ""},
      {"claims[].link_gb_per_s", "", T::number, "GB/s", 1e-3, 1e5, "", "Chip-to-chip link bandwidth claimed.", ""},
      {"claims[].network_gbps", "", T::number, "Gbit/s", 1e-3, 1e6, "", "Network bandwidth per node claimed.", ""},
      {"claims[].collective.bytes", "", T::number, "bytes", 1, 1e15, "", "Size of a collective claimed.", ""},
      {"claims[].collective.time_s", "", T::number, "s", 1e-9, 1e6, "", "Its time.", ""},
      {"claims[].collective.ranks", "", T::integer, "ranks", 2, 10000000, "2", "Ranks it spans.", ""},
      {"claims[].parts", "", T::list, "", 0, 0, "", "Several figures of one claim, each checked as a claim (the "
       "claim's instance, nodes, tier, runs and wall time are their defaults).", ""},
  };
}

}  // namespace

const std::vector<FieldDef>& scenario_fields() {
  static const std::vector<FieldDef> fields = [] {
    std::vector<FieldDef> v = job_fields();
    for (auto part : {pricing_fields, goal_fields, overhead_fields, storage_fields, campaign_fields, owned_fields,
                      energy_fields, claim_fields}) {
      const std::vector<FieldDef> rows = part();
      v.insert(v.end(), rows.begin(), rows.end());
    }
    return v;
  }();
  return fields;
}

const FieldDef& scenario_field(std::string_view path) {
  for (const auto& f : scenario_fields())
    if (f.path == path) return f;
  throw std::logic_error("no scenario field " + std::string(path));
}

const std::vector<std::string_view>& scenario_keys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> k;
    for (const auto& f : scenario_fields())
      if (f.path.find('.') == std::string_view::npos) k.push_back(f.path);
    return k;
  }();
  return keys;
}

namespace {

bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' || c == ']';
}

// `token` in plain words when it is a scenario path, a model's field or a pricing tier's id, else
// unchanged. A path starts with a top-level key and either goes deeper or is a key of several
// words: "nodes" is already a word, and "p5.48xlarge" or "e.g" start with no key. A tier id of
// several words ("reserved_3y") reads as AWS names it; "spot" already does.
std::string plain_token(const std::string& token) {
  const std::size_t root_end = std::min(token.find('.'), token.find('['));
  const std::string root = token.substr(0, root_end);
  const auto& keys = scenario_keys();
  if (std::find(keys.begin(), keys.end(), root) == keys.end()) {
    if (token.find('_') == std::string::npos) return token;
    // A model's field ("kv_heads (8)"), as the model presets and an inline model name it.
    const auto& model = model_keys();
    if (root_end == std::string::npos && std::find(model.begin(), model.end(), token) != model.end())
      return plain_label(token);
    const auto tier = parse_tier(token);
    return tier ? describe_tier(*tier) : token;
  }
  if (root_end == std::string::npos && root.find('_') == std::string::npos) return token;
  const std::string hf = "model.hf_config.";
  if (token.rfind(hf, 0) == 0 && token.size() > hf.size()) return "config.json field " + token.substr(hf.size());
  if (token == "model.hf_config") return "config.json";
  return plain_label(token);
}

}  // namespace

std::string plain_message(std::string_view message) {
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    if (!path_char(message[i])) {
      out += message[i++];
      continue;
    }
    std::size_t end = i;
    while (end < message.size() && path_char(message[end])) ++end;
    std::size_t stop = end;  // a sentence's full stop is not part of the path
    while (stop > i && message[stop - 1] == '.') --stop;
    out += plain_token(std::string(message.substr(i, stop - i)));
    out += message.substr(stop, end - stop);
    i = end;
  }
  return out;
}

}  // namespace tc::io
