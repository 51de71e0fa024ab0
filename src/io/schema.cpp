#include "io/schema.hpp"

#include <stdexcept>

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
    case FieldType::text: return "text";
    case FieldType::section: return "object";
    case FieldType::list: return "list of objects";
  }
  return "";
}

namespace {

constexpr double kMaxDegree = 1 << 20;
using T = FieldType;

}  // namespace

const std::vector<FieldDef>& scenario_fields() {
  static const std::vector<FieldDef> fields = {
      {"name", "", T::text, "", 0, 0, "", "Shown as the scenario's title.", ""},
      {"description", "", T::text, "", 0, 0, "", "What the scenario is about.", ""},
      {"source", "", T::text, "", 0, 0, "", "Where its figures come from.", ""},
      {"model", "m", T::id, "", 0, 0, "",
       "A preset model (traincalc list models), an inline shape, or {\"hf_config\": a Hugging Face config.json, "
       "\"seq_len\", \"name\"} (docs/hf-config.md).", ""},
      {"instance", "i", T::id, "", 0, 0, "", "A preset instance (traincalc list instances), or an inline one.", ""},
      {"compare_instances", "c", T::id_list, "", 0, 0, "the instance",
       "Instances `traincalc compare` and the comparison panel run the same job on.", ""},
      {"compare_at", "ca", T::enumeration, "", 0, 0, "chips when the scenario gives chips, else nodes",
       "What comparison rows keep equal: the chip count (whole nodes where a node size does not divide it) or "
       "the node count.", "", {"chips", "nodes"}},
      {"nodes", "n", T::integer, "nodes", 1, 1000000, "1", "Instances (scale-up domains) of the cluster.", "",
       {}, "chips"},
      {"chips", "ch", T::integer, "chips", 1, 100000000, "", "The cluster in chips instead of nodes; whole nodes are billed.",
       "", {}, "nodes"},
      {"precision", "p", T::enumeration, "", 0, 0, "bf16", "Number format of the matrix multiplications.", "",
       {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4"}},
      {"framework", "fw", T::id, "", 0, 0, "neuronx-distributed on Trainium, else megatron",
       "Framework profile: overlap of communication, gradient precision (traincalc list frameworks).", ""},
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
      {"parallel.cp", "cp", T::integer_auto, "ranks", 1, kMaxDegree, "1", "Context parallel degree.", ""},
      {"parallel.ep", "ep", T::integer_auto, "ranks", 1, kMaxDegree, "auto",
       "Expert parallel degree (MoE): divides dp x cp, or is a multiple of it that also takes tp ranks (the "
       "experts then split over tp x dp x cp / ep ranks).", ""},
      {"parallel.vpp", "vpp", T::integer_auto, "chunks", 1, kMaxDegree, "auto",
       "Interleaved pipeline chunks per stage.", ""},
      {"parallel.zero", "zero", T::integer_auto, "", 0, 3, "auto", "ZeRO stage, 0-3; FSDP full shard is 3.", ""},
      {"parallel.sequence_parallel", "sp", T::flag_auto, "", 0, 0, "auto",
       "Sequence parallelism over the tensor parallel ranks.", ""},
      {"recompute", "rc", T::enumeration, "", 0, 0, "auto",
       "Activation recomputation. auto: the plan search picks the fastest that fits.", "",
       {"none", "selective", "full", "auto"}},
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
      {"power_limit_w", "pw", T::number, "W", 0, 1e5, "the chip's power (power_w)",
       "Power cap per chip (nvidia-smi -pl, or a part sold at a lower power): compute slows as the cube root "
       "of cap / power_w; energy is billed at the cap.",
       "first-order CMOS scaling, Hennessy & Patterson, Computer Architecture 6th ed. Section 1.5"},
      {"pricing", "", T::section, "", 0, 0, "on_demand", "One tier for all hours (tier, fallback) or a mix.",
       "src/io/cost_json.hpp"},
      {"pricing.mix", "pr", T::price_mix, "", 0, 0, "", "Shares of instance-hours per tier, or instances per tier.",
       "src/io/cost_json.hpp"},
      {"pricing.spot_discount", "sd", T::number, "fraction", 0, 1,
       "the Spot Instance Advisor's average saving in the region, else the instance preset's",
       "Fraction off on-demand for every spot share.", "AWS Spot Instance Advisor"},
      {"pricing.region", "rg", T::id, "", 0, 0, "us-east-1",
       "AWS region every instance is priced in. Given, an instance without a price there says where it has one; "
       "left at the default, an instance sold only elsewhere (trn2.48xlarge: us-east-2) is priced there, said so.",
       "AWS Price List (presets/instances.json)"},
      {"pricing.instance_regions", "", T::section, "", 0, 0, "",
       "A region per instance id, for an instance not sold in pricing.region (trn2.48xlarge: us-east-2); "
       "the comparison names each row's region.", ""},
      {"pricing.idle_commitment", "ic", T::enumeration, "", 0, 0, "bill",
       "Hours of a Reserved Instance or Savings Plan term, or of a Capacity Block, that the campaign does not "
       "use: bill (this job pays them) or share (other work fills them; reported, not billed).",
       "EC2 User Guide: RIs are billed every hour of the term", {"bill", "share"}},
      {"overheads", "", T::section, "", 0, 0, "", "Compile, warm-up, checkpoints, failures, spot, queueing, "
       "storage by service, transfer, engineering.", "src/core/cost.hpp"},
      {"campaign", "", T::section, "", 0, 0, "one run", "Runs, full runs, truncated fraction, runs per month.",
       "src/core/cost.hpp"},
      {"incidents", "", T::list, "", 0, 0, "", "Lost days, OOMs, throughput regressions and failed-run fractions, "
       "each a bill line at the blended instance rate.", "src/io/cost_json.hpp"},
      {"owned_cluster", "", T::section, "", 0, 0, "", "An owned cluster (capex, depreciation to a residual, financing, "
       "maintenance, power, colocation, staff): its bill and the break-even utilization against the cloud.",
       "src/core/cost.hpp"},
      {"energy", "", T::section, "", 0, 0, "", "Electricity price, grid intensity, PUE, node power.",
       "src/core/cost.hpp"},
      {"claims", "", T::list, "", 0, 0, "", "Claims of a field report to check against the model.",
       "src/io/cost_json.hpp"},
      {"deadline_days", "dl", T::number, "days", 0.001, 1e6, "", "Does one full run finish in time?", ""},
      {"baseline_instance", "bl", T::id, "", 0, 0, "", "Savings and payback are measured against this instance.", ""},
  };
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

}  // namespace tc::io
