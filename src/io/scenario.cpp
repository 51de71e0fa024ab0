#include "io/scenario.hpp"

#include <cmath>
#include <tuple>

#include "core/cost.hpp"
#include "core/params.hpp"
#include "core/text.hpp"
#include "io/hf_config.hpp"

namespace tc::io {

namespace {

// A field of a scenario: its key in the object at its parent path, and its row of the table.
struct Field {
  const FieldDef& def;
  std::string parent, key;
};
Field field(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos) return {scenario_field(path), "", std::string(path)};
  return {scenario_field(path), std::string(path.substr(0, dot)), std::string(path.substr(dot + 1))};
}

// A plan knob: an integer in its field's range, or "auto" for the plan search; absent, the
// field's default.
int knob(const Json& obj, std::string_view path) {
  const Field f = field(path);
  if (!has_key(obj, f.key))
    return f.def.default_value == "auto" ? kAuto : std::stoi(std::string(f.def.default_value));
  const Json& v = obj.at(f.key);
  if (v.is_string() && v.get<std::string>() == "auto") return kAuto;
  if (v.is_string())
    throw InputError(path_key(f.parent, f.key), "must be an integer or \"auto\" (got " + describe_value(v) + ")");
  return static_cast<int>(to_int64(v, path_key(f.parent, f.key), static_cast<long long>(f.def.min),
                                   static_cast<long long>(f.def.max)));
}

long long int_field_or(const Json& obj, std::string_view path, long long fallback) {
  const Field f = field(path);
  return get_int64_or(obj, f.key, f.parent, static_cast<long long>(f.def.min), static_cast<long long>(f.def.max),
                      fallback);
}

double number_field(const Json& obj, std::string_view path) {
  const Field f = field(path);
  return check_zero_or_at_least(get_number(obj, f.key, f.parent, f.def.min, f.def.max), std::string(path),
                                f.def.min_positive);
}

bool flag_field(const Json& obj, std::string_view path) {
  const Field f = field(path);
  return get_bool_or(obj, f.key, f.parent, f.def.default_value == "true");
}

// One of the field's values; absent, its default.
std::string enum_field(const Json& obj, std::string_view path) {
  const Field f = field(path);
  return get_enum_or(obj, f.key, f.parent, f.def.values, std::string(f.def.default_value));
}

// A field whose values are an enum's enumerators, in order (Precision, Fp8Scaling).
template <class E>
void read_enum(const Json& doc, std::string_view path, E& out) {
  const std::string v = enum_field(doc, path);
  const auto& values = scenario_field(path).values;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (v == values[i]) out = static_cast<E>(i);
}

// Default global batch: about 4M tokens per step (Llama 3 and GPT-3 trained with 4M-token
// batches; Touvron et al. 2023, Brown et al. 2020), rounded to a power of two; 1024 images for ViT.
long long default_global_batch(const ModelShape& m) {
  if (m.kind == ModelKind::vit) return 1024;
  const double sequences = 4194304.0 / std::max(1, tokens_per_sample(m));
  long long b = 1;
  while (b * 2 <= sequences) b *= 2;
  return b;
}

const FrameworkProfile* default_framework(const PresetLibrary& lib, const Accelerator& a) {
  if (is_neuron(a))
    if (const auto* f = lib.framework("neuronx-distributed")) return f;
  return lib.framework("megatron");
}

// "megatron runs on NVIDIA GPUs, not on trainium2 (there: neuronx-distributed, fsdp, ...)".
std::string platform_mismatch(const PresetLibrary& lib, const FrameworkProfile& fw, const Accelerator& a) {
  std::string there;
  for (const auto& id : lib.framework_ids_on(a)) append_item(there, id);
  return fw.id + " runs on " + (is_neuron(a) ? "NVIDIA GPUs" : "Neuron devices (Trainium, Inferentia)") +
         ", not on " + a.id + " (there: " + there + ")";
}

void read_model(ScenarioSpec& spec, const Json& doc, const PresetLibrary& lib) {
  const Json& mj = require_key(doc, "model", "");
  if (mj.is_string()) {
    const std::string id = to_string_value(mj, "model");
    spec.scenario.model = lib.require_model(id, "model");
    spec.model_id = id;
  } else if (is_hf_model(mj)) {
    HfModel hf = parse_hf_model(mj, "model");
    spec.scenario.model = std::move(hf.model);
    spec.model_notes = std::move(hf.notes);
    spec.model_id = "custom";
  } else {
    spec.scenario.model = parse_inline_model(mj, "model", lib);
    spec.model_id = "custom";
  }
}

void read_instance(ScenarioSpec& spec, const Json& doc, const PresetLibrary& lib) {
  const Json& ij = require_key(doc, "instance", "");
  Scenario& s = spec.scenario;
  if (ij.is_string()) {
    const std::string id = to_string_value(ij, "instance");
    s.instance = lib.require_instance(id, "instance");
    s.accelerator = lib.require_accelerator(s.instance.accelerator_id, "instance");
    spec.instance_id = id;
  } else {
    s.instance = parse_inline_instance(ij, "instance", lib, s.accelerator);
    spec.instance_id = "custom";
  }
}

void read_cluster(ScenarioSpec& spec, const Json& doc) {
  if (has_key(doc, "nodes") && has_key(doc, "chips"))
    throw InputError("chips", "give nodes or chips, not both");
  if (has_key(doc, "chips"))
    spec.requested_chips = static_cast<int>(int_field_or(doc, "chips", 0));
  else
    spec.scenario.nodes = static_cast<int>(int_field_or(doc, "nodes", 1));
}

// Nodes (and chips in use) of the cluster on the spec's instance.
void place_cluster(ScenarioSpec& spec) {
  Scenario& s = spec.scenario;
  const int per_node = spec.node_chips;
  s.instance.chips_per_node = per_node;
  s.chips = 0;
  spec.cluster_warning.clear();
  if (const int chips = spec.requested_chips; chips > 0) {
    if (chips < per_node) {
      // A part of one instance (e.g. 4 of a node's 8 GPUs): the scale-up domain shrinks with it.
      s.instance.chips_per_node = chips;
      s.nodes = 1;
      spec.cluster_warning = "chips (" + std::to_string(chips) + ") use part of one " + spec.instance_id +
                             " (" + std::to_string(per_node) + " chips); the whole instance is billed";
    } else if (chips % per_node != 0) {
      // Whole nodes are provisioned; the job runs on the chips asked for (e.g. 256 GPUs of four
      // NVL72 racks).
      s.nodes = (chips + per_node - 1) / per_node;
      s.chips = chips;
      spec.cluster_warning = "chips (" + std::to_string(chips) + ") fill " + std::to_string(s.nodes) +
                             " nodes of " + std::to_string(per_node) + " only partly; whole nodes are billed";
    } else {
      s.nodes = chips / per_node;
    }
  }
  if (1.0 * s.nodes * s.instance.chips_per_node * s.accelerator.devices_per_chip > 1e8)
    throw InputError(spec.requested_chips > 0 ? "chips" : "nodes",
                     "the cluster would hold more than 100 million devices");
}

// What follows the accelerator: the default framework and the master-weights warning. A chosen
// framework that does not run on the accelerator is refused, or, when the job moves to another
// instance (a comparison row), gives way to that platform's default with a warning.
enum class OtherPlatform { refuse, use_default };
void place_hardware(ScenarioSpec& spec, const PresetLibrary& lib, OtherPlatform other) {
  Scenario& s = spec.scenario;
  spec.framework_warning.clear();
  const bool elsewhere = spec.framework_given && !runs_on(s.framework, s.accelerator);
  if (elsewhere && other == OtherPlatform::refuse)
    throw InputError("framework", platform_mismatch(lib, s.framework, s.accelerator));
  if (!spec.framework_given || elsewhere) {
    const auto* f = default_framework(lib, s.accelerator);
    if (elsewhere)
      spec.framework_warning = "framework: " + platform_mismatch(lib, s.framework, s.accelerator) +
                               "; estimated with " + (f ? f->id : "the defaults");
    s.framework = f ? *f : FrameworkProfile{};
  }
  spec.rounding_warning.clear();
  if (!s.master_weights && !s.accelerator.stochastic_rounding)
    spec.rounding_warning = "master_weights is false on " + s.accelerator.id +
                            ", which has no hardware stochastic rounding: BF16 updates lose small "
                            "gradients";
}

void read_plan(ScenarioSpec& spec, const Json& doc) {
  PlanRequest& r = spec.request;
  if (has_key(doc, "parallel")) {
    const Json& p = get_object(doc, "parallel", "");
    check_keys(p, "parallel", {"tp", "pp", "dp", "cp", "ep", "vpp", "sequence_parallel", "zero",
                               "first_stage_layers", "last_stage_layers"});
    r.tp = knob(p, "parallel.tp");
    r.pp = knob(p, "parallel.pp");
    r.dp = knob(p, "parallel.dp");
    r.cp = knob(p, "parallel.cp");
    r.ep = knob(p, "parallel.ep");
    r.vpp = knob(p, "parallel.vpp");
    r.zero = knob(p, "parallel.zero");
    r.first_stage_layers = static_cast<int>(int_field_or(p, "parallel.first_stage_layers", -1));
    r.last_stage_layers = static_cast<int>(int_field_or(p, "parallel.last_stage_layers", -1));
    if (has_key(p, "sequence_parallel")) {
      const Json& v = p.at("sequence_parallel");
      r.sequence_parallel = (v.is_string() && v.get<std::string>() == "auto")
                                ? kAuto
                                : (to_bool(v, "parallel.sequence_parallel") ? 1 : 0);
    }
  }
  r.micro_batch = knob(doc, "micro_batch");
  const std::string rc = enum_field(doc, "recompute");
  r.recompute = rc == "auto" ? kAuto
                             : static_cast<int>(rc == "none" ? Recompute::none
                                                             : rc == "full" ? Recompute::full
                                                                            : Recompute::selective);
  r.recompute_layers = static_cast<int>(int_field_or(doc, "recompute_layers", 0));
  if (r.recompute_layers > 0 && r.recompute != kAuto && r.recompute != static_cast<int>(Recompute::full))
    throw InputError("recompute_layers", "needs recompute full or auto (it counts the layers that recompute "
                                         "fully; got recompute " + rc + ")");
  spec.scenario.global_batch =
      int_field_or(doc, "global_batch", default_global_batch(spec.scenario.model));
  r.exact_global_batch = flag_field(doc, "global_batch_exact");
}

// Products of the fixed degrees, checked in 64 bits where they are read (a file, a validate row
// and a link all come through here), naming the knob that makes the product impossible: the plan
// search would otherwise find nothing and say only that no plan matches.
void check_fixed_degrees(const ScenarioSpec& spec) {
  const PlanRequest& r = spec.request;
  const long long devices = devices_of(spec.scenario);
  const std::pair<const char*, int> knobs[] = {
      {"parallel.tp", r.tp}, {"parallel.cp", r.cp}, {"parallel.pp", r.pp}, {"parallel.dp", r.dp}};
  long long product = 1;
  std::string named;
  for (const auto& [path, value] : knobs) {
    if (value == kAuto) continue;
    product = count_product({product, value});
    if (value > 1) append_item(named, std::string(path).substr(9), " x ");
    // tp x cp x pp x dp equals the devices, so the product of the fixed ones divides them.
    if (product > devices || devices % product != 0)
      throw InputError(path, named + " = " + format_number(static_cast<double>(product)) +
                                 (product > devices ? " exceeds the " : " does not divide the ") +
                                 std::to_string(devices) + " devices of the cluster");
  }
  const int layers = spec.scenario.model.layers;
  if (r.pp != kAuto && r.vpp != kAuto && count_product({r.pp, r.vpp}) > layers + 2LL)
    throw InputError("parallel.vpp", "pp x vpp = " + format_number(static_cast<double>(count_product({r.pp, r.vpp}))) +
                                         " exceeds layers + 2 (" + std::to_string(layers) +
                                         " layers, embedding and loss)");
}

// The training amount in tokens: samples x epochs x tokens per sample stays under the cap of
// training.tokens, so that no product reaches 1e300 further on.
double tokens_of_samples(double samples, double epochs, double tokens_per_sample) {
  const double tokens = samples * epochs * tokens_per_sample;
  const double cap = scenario_field("training.tokens").max;
  if (tokens > cap)
    throw InputError("training.samples", "samples x epochs x tokens per sample = " + format_number(tokens) +
                                             " tokens exceeds the cap of training.tokens (" + format_number(cap) + ")");
  return tokens;
}

void read_training(ScenarioSpec& spec, const Json& doc) {
  Scenario& s = spec.scenario;
  const double tokens_per = tokens_per_sample(s.model);
  if (!has_key(doc, "training")) {
    spec.training_warnings.push_back("no training amount given (training.tokens or training.samples): "
                            "time and cost of the whole job are 0");
    return;
  }
  const Json& t = get_object(doc, "training", "");
  check_keys(t, "training", {"mode", "tokens", "samples", "epochs", "lora_rank"});
  const std::string mode = enum_field(t, "training.mode");
  s.mode = mode == "lora" ? TrainingMode::lora
                          : mode == "full_finetune" ? TrainingMode::full_finetune : TrainingMode::pretrain;
  s.lora_rank = static_cast<int>(int_field_or(t, "training.lora_rank", s.mode == TrainingMode::lora ? 16 : 0));
  if (s.mode != TrainingMode::lora && has_key(t, "lora_rank"))
    throw InputError("training.lora_rank", "only applies to mode \"lora\"");
  if (s.mode == TrainingMode::lora && s.lora_rank > max_lora_rank(s.model))
    throw InputError("training.lora_rank", lora_rank_reason(s.lora_rank, s.model));
  if (has_key(t, "tokens") && has_key(t, "samples"))
    throw InputError("training.samples", "give tokens or samples, not both");
  const double epochs = has_key(t, "epochs") ? number_field(t, "training.epochs") : 1.0;
  if (has_key(t, "epochs") && !has_key(t, "samples"))
    throw InputError("training.epochs", "needs training.samples (the dataset size)");
  if (has_key(t, "tokens")) {
    s.train_tokens = number_field(t, "training.tokens");
  } else if (has_key(t, "samples")) {
    s.train_tokens = tokens_of_samples(number_field(t, "training.samples"), epochs, tokens_per);
  } else {
    spec.training_warnings.push_back("training has no tokens or samples: time and cost of the whole job are 0");
  }
}

}  // namespace

ScenarioSpec parse_scenario(const Json& doc, const PresetLibrary& lib, const std::string& label) {
  // The document itself is named by its label ("stdin: must be an object (got an array)").
  require_object(doc, label);
  check_keys(doc, "", scenario_keys());
  ScenarioSpec spec;
  spec.name = get_string_or(doc, "name", "", "", kMaxStringLength);
  spec.description = get_string_or(doc, "description", "", "", kMaxTextLength);
  spec.source = get_string_or(doc, "source", "", "", kMaxTextLength);
  read_model(spec, doc, lib);
  read_instance(spec, doc, lib);
  spec.node_chips = spec.scenario.instance.chips_per_node;
  read_cluster(spec, doc);
  place_cluster(spec);
  Scenario& s = spec.scenario;
  read_enum(doc, "precision", s.precision);
  read_enum(doc, "fp8_scaling", s.fp8_scaling);
  read_plan(spec, doc);
  spec.request.layout_error_sigma = layout_error_sigma(lib.bands);
  check_fixed_degrees(spec);
  read_training(spec, doc);
  s.flash_attention = flag_field(doc, "flash_attention");
  s.master_weights = flag_field(doc, "master_weights");
  s.auto_cast = flag_field(doc, "auto_cast");
  s.fp32_loss_logits = flag_field(doc, "fp32_loss_logits");
  s.async_tp = flag_field(doc, "async_tp");
  if (has_key(doc, "power_limit_w")) s.power_limit_w = number_field(doc, "power_limit_w");
  if (has_key(doc, "framework")) {
    const Json& fj = doc.at("framework");
    s.framework = fj.is_object() ? parse_inline_framework(fj, "framework", lib)
                                 : lib.require_framework(to_string_value(fj, "framework"), "framework");
    spec.framework_given = true;
  }
  place_hardware(spec, lib, OtherPlatform::refuse);
  if (has_key(doc, "compare_at")) spec.compare_at = get_enum(doc, "compare_at", "", {"chips", "nodes"});
  if (has_key(doc, "compare_instances")) {
    const Json& arr = get_array(doc, "compare_instances", "", 64);
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string field = path_index("compare_instances", i);
      const std::string id = to_string_value(arr[i], field);
      lib.require_instance(id, field);
      spec.compare_instances.push_back(id);
    }
  }
  if (auto p = check_model(s.model)) throw InputError(p->field, p->reason);
  return spec;
}

ScenarioSpec parse_scenario_text(const std::string& text, const PresetLibrary& lib,
                                 const std::string& label) {
  return parse_scenario(parse_json(text, label), lib, label);
}

ScenarioSpec with_instance(const ScenarioSpec& spec, const PresetLibrary& lib,
                           const std::string& instance_id) {
  ScenarioSpec v = spec;
  Scenario& s = v.scenario;
  s.instance = lib.require_instance(instance_id, "instance");
  s.accelerator = lib.require_accelerator(s.instance.accelerator_id, "instance");
  v.instance_id = instance_id;
  v.node_chips = s.instance.chips_per_node;
  // Same chip count where the new instance's node size divides it, else whole nodes.
  if (v.requested_chips % v.node_chips != 0 && v.requested_chips > v.node_chips) {
    s.nodes = (v.requested_chips + v.node_chips - 1) / v.node_chips;
    v.requested_chips = 0;
  }
  // Data parallelism follows the chip count of the new cluster; on other hardware every knob does,
  // as for an owned cluster of other hardware (job.cpp).
  v.request.dp = kAuto;
  if (other_plan_hardware(spec.scenario, s)) v.request = searched_plan(v.request);
  place_cluster(v);
  place_hardware(v, lib, OtherPlatform::use_default);
  return v;
}

bool other_plan_hardware(const Scenario& from, const Scenario& to) {
  return from.accelerator.id != to.accelerator.id ||
         from.instance.chips_per_node * from.accelerator.devices_per_chip !=
             to.instance.chips_per_node * to.accelerator.devices_per_chip;
}

PlanRequest searched_plan(const PlanRequest& r) {
  PlanRequest searched;
  searched.exact_global_batch = r.exact_global_batch;
  searched.layout_error_sigma = r.layout_error_sigma;
  return searched;
}

namespace {
// Every knob of a plan request (core/types.hpp: a knob added there belongs here too).
auto plan_knobs(const PlanRequest& r) {
  return std::tie(r.tp, r.pp, r.dp, r.cp, r.ep, r.vpp, r.sequence_parallel, r.zero, r.micro_batch, r.recompute,
                  r.recompute_layers, r.first_stage_layers, r.last_stage_layers);
}
}  // namespace

bool fixes_plan(const PlanRequest& r) { return plan_knobs(r) != plan_knobs(searched_plan(r)); }

ScenarioSpec with_nodes(const ScenarioSpec& spec, int nodes) {
  ScenarioSpec v = spec;
  v.requested_chips = 0;
  v.scenario.nodes = nodes;
  v.request.dp = kAuto;
  place_cluster(v);
  return v;
}


namespace {

// The warnings about the inputs, in the order the estimate shows them.
std::vector<std::string> scenario_warnings(const ScenarioSpec& spec) {
  std::vector<std::string> w = spec.model_notes;
  if (!spec.cluster_warning.empty()) w.push_back(spec.cluster_warning);
  w.insert(w.end(), spec.training_warnings.begin(), spec.training_warnings.end());
  if (!spec.rounding_warning.empty()) w.push_back(spec.rounding_warning);
  if (!spec.framework_warning.empty()) w.push_back(spec.framework_warning);
  return w;
}

std::string fixes_text(const BatchFixes& f, int chips) {
  std::vector<std::string> ways;
  auto list = [](const auto& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? " or " : "") + std::to_string(values[i]);
    return out;
  };
  if (!f.nodes.empty()) ways.push_back("nodes " + list(f.nodes));
  if (!f.global_batches.empty()) ways.push_back("global_batch " + list(f.global_batches));
  if (f.chips > 0) ways.push_back("chips " + std::to_string(f.chips) + " (" + std::to_string(chips - f.chips) + " idle)");
  std::string out;
  for (std::size_t i = 0; i < ways.size(); ++i) out += (i ? ", " : "") + ways[i];
  return out.empty() ? "" : "; nearest that work: " + out;
}

}  // namespace

BatchFixes global_batch_fixes(const ScenarioSpec& spec) { return batch_fixes(spec.scenario, spec.request); }

Estimate run_estimate(const ScenarioSpec& spec) {
  const SearchResult r = search_plan(spec.scenario, spec.request);
  if (!r.best && r.why_none.field == "global_batch")
    throw InputError(r.why_none.field, r.why_none.reason + fixes_text(global_batch_fixes(spec), chips_of(spec.scenario)));
  if (!r.best) throw InputError(r.why_none.field, r.why_none.reason);
  Estimate e = *r.best;
  const std::vector<std::string> w = scenario_warnings(spec);
  e.warnings.insert(e.warnings.begin(), w.begin(), w.end());
  return e;
}

}  // namespace tc::io
