#include "io/validation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/text.hpp"
#include "io/job.hpp"
#include "io/report.hpp"
#include "io/uncertainty.hpp"

namespace tc::io {

namespace {

// A table of published runs has hundreds of rows (tests/data/published_runs.csv: 334); each row
// is a plan search, and 16 MiB of short rows would be 200,000 of them, half a gigabyte once split
// into cells. Reading stops past this many.
constexpr std::size_t kMaxCsvRows = 10000;

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string cell;
  bool quoted = false;
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(cell);
      cell.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      rows.back().push_back(cell);
      cell.clear();
      if (rows.size() > kMaxCsvRows + 1)  // the header and kMaxCsvRows rows, and this one
        throw InputError("csv line " + std::to_string(line),
                         "more than " + std::to_string(kMaxCsvRows) + " rows after the header; not read further");
      rows.emplace_back();
      ++line;
    } else {
      cell += c;
    }
  }
  if (quoted) throw InputError("csv line " + std::to_string(line), "unterminated quoted field");
  if (!cell.empty() || !rows.back().empty()) rows.back().push_back(cell);
  while (!rows.empty() && rows.back().empty()) rows.pop_back();
  return rows;
}

std::string field(const PublishedRun& r, const std::string& key) {
  for (const auto& kv : r.fields)
    if (kv.first == key) return kv.second;
  return "";
}

bool contains(const std::string& hay, const char* needle) { return hay.find(needle) != std::string::npos; }

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Json number_or_string(const std::string& s) {
  if (const std::optional<double> n = whole_number(s)) {
    const double v = *n;
    // Only exact integers become integers: casting 1e300 (or nan) to long long is undefined, and
    // the scenario parser range-checks the double with the field's name.
    if (std::fabs(v) < 9007199254740992.0 && v == std::floor(v)) return static_cast<long long>(v);
    return v;
  }
  return s;
}

// The digits after `key` in a row's notes ("head_dim 128"), as the scenario parser will check them
// (atoi of a long run of digits is undefined), or nothing when the notes do not say.
std::optional<Json> number_in_notes(const std::string& notes, const std::string& key) {
  const size_t at = notes.find(key);
  if (at == std::string::npos) return std::nullopt;
  size_t end = at + key.size();
  while (end < notes.size() && std::isdigit(static_cast<unsigned char>(notes[end]))) ++end;
  if (end == at + key.size()) return std::nullopt;
  return number_or_string(notes.substr(at + key.size(), end - at - key.size()));
}

// The recipe a row's notes name after "precision detail: " (the dataset's label where its precision
// column is coarser, tests/data/published_runs.README.md), up to the next ';', '|' or character
// that is not printable, trimmed and cut to 40 characters: it is quoted in the row's scenario
// description, which takes printable text only.
std::string precision_detail(const std::string& notes) {
  static const std::string key = "precision detail:";
  const size_t at = notes.find(key);
  if (at == std::string::npos) return "";
  std::string d;
  for (size_t i = at + key.size(); i < notes.size() && d.size() < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(notes[i]);
    if (c == ';' || c == '|' || !std::isprint(c)) break;
    if (c != ' ' || !d.empty()) d.push_back(static_cast<char>(c));
  }
  while (!d.empty() && d.back() == ' ') d.pop_back();
  return d;
}

// The row's FP8 recipe from its precision detail: torchao's rowwise scaling is modelled
// (Scenario::fp8_scaling); block scales (MXFP8) run as the model's per-tensor FP8 and the row says
// so, since such runs measured mostly slower than per-tensor ones on the same layouts
// (docs/accuracy.md).
void apply_fp8_recipe(const PublishedRun& run, Json& doc, std::vector<std::string>& notes) {
  if (field(run, "precision") != "fp8") return;
  const std::string d = precision_detail(field(run, "notes"));
  const std::string l = lower(d);
  for (const char* scaling : {"mxfp8", "block"})
    if (l.find(scaling) != std::string::npos) {
      notes.push_back("precision: " + d + " timed as per-tensor FP8 (its scaling is not modelled)");
      return;
    }
  if (l.find("rowwise") != std::string::npos) doc["fp8_scaling"] = "rowwise";
}

// A positive finite measurement, or 0 when the cell is empty; anything else is the row's problem.
double measurement(PublishedRun& r, const char* key) {
  const std::string cell = field(r, key);
  if (cell.empty()) return 0;
  const double v = whole_number(cell).value_or(0);
  if (!std::isfinite(v) || v <= 0) {
    if (r.problem.empty()) r.problem = std::string(key) + ": must be a positive number (got \"" + cell + "\")";
    return 0;
  }
  return v;
}

// presets/accuracy/software.json: the stack a row names -> framework profile and its defaults.
const Json& software_table() {
  static const Json doc = parse_embedded("presets/accuracy/software.json", embedded_validation_presets());
  return doc;
}

const Json* software_entry(const std::string& name) {
  const Json& t = software_table();
  if (name.empty() || !t.contains("software")) return nullptr;
  const std::string key = lower(name);
  for (const auto& e : t["software"]) {
    if (lower(e["software"].get<std::string>()) == key) return &e;
    for (const auto& a : e.value("aliases", Json::array()))
      if (lower(a.get<std::string>()) == key) return &e;
  }
  return nullptr;
}

// The entry a row uses: its own software's, else the accelerator's default profile's.
const Json* profile_entry(const PublishedRun& r) {
  if (const Json* e = software_entry(r.software)) return e;
  const Json& t = software_table();
  const bool trainium = r.accelerator.rfind("trainium", 0) == 0;
  const std::string fw = t["default_profile"][trainium ? "trainium" : "gpu"].get<std::string>();
  for (const auto& e : t["software"])
    if (e["framework"] == fw) return &e;
  return nullptr;
}

}  // namespace

std::string source_family(const std::string& s, const std::string& software) {
  if (contains(s, "Narayanan")) return "Megatron-LM";
  if (contains(s, "MosaicML")) return "MosaicML";
  if (contains(s, "SimuMax")) return "SimuMax";
  if (contains(s, "MLPerf")) return "MLPerf";
  if (contains(s, "NeMo") || contains(s, "Megatron-Bridge")) return "NeMo/Megatron-Bridge";
  if (contains(s, "torchtitan")) return "torchtitan";
  if (contains(s, "neuron") || contains(s, "Neuron")) return "Neuron: " + (software.empty() ? "other" : software);
  return "other";
}

std::vector<PublishedRun> read_published_runs(const std::string& raw) {
  // A spreadsheet's UTF-8 byte-order mark would otherwise become part of the first column's name.
  const std::string bom = "\xEF\xBB\xBF";
  const std::string text = raw.compare(0, bom.size(), bom) == 0 ? raw.substr(bom.size()) : raw;
  if (const std::size_t at = invalid_utf8_at(text); at != std::string::npos)
    throw InputError("csv", "not UTF-8 text (byte " + std::to_string(at) + ")");
  const auto rows = parse_csv(text);
  if (rows.empty()) throw InputError("csv", "empty");
  const auto& header = rows[0];
  for (const char* need : {"id", "accelerator", "measured_tokens_per_s_per_chip"})
    if (std::find(header.begin(), header.end(), need) == header.end())
      throw InputError("csv header", std::string("missing column '") + need + "'");
  std::vector<PublishedRun> out;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].size() != header.size())
      throw InputError("csv row " + std::to_string(i + 1),
                       std::to_string(rows[i].size()) + " fields, header has " + std::to_string(header.size()));
    PublishedRun r;
    for (size_t k = 0; k < header.size(); ++k) r.fields.emplace_back(header[k], rows[i][k]);
    r.id = field(r, "id");
    r.source = field(r, "source");
    r.model = field(r, "model");
    r.accelerator = field(r, "accelerator");
    r.software = field(r, "software");
    r.known_issue = field(r, "known_issue");
    r.family = source_family(r.source, r.software);
    const Json* e = profile_entry(r);
    r.framework = e ? (*e)["framework"].get<std::string>() : "megatron";
    if (r.software.empty())
      r.notes.push_back("software: empty; took profile " + r.framework);
    else if (!software_entry(r.software))
      r.notes.push_back("software: no profile for '" + r.software + "'; took " + r.framework);
    r.measured_tokens_per_s_per_chip = measurement(r, "measured_tokens_per_s_per_chip");
    r.measured_step_time_s = measurement(r, "measured_step_time_s");
    if (r.problem.empty() && r.measured_tokens_per_s_per_chip <= 0 && r.measured_step_time_s <= 0)
      r.problem = "measured_tokens_per_s_per_chip: empty, and no measured_step_time_s to compare with";
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

// The preset a row's model names (by its name or id, any case): it holds what the CSV's columns
// cannot (latent attention, dense layers among the experts, sliding windows, shared experts).
const ModelShape* preset_named(const PresetLibrary& lib, const std::string& name) {
  const std::string key = lower(name);
  for (const auto& m : lib.models)
    if (lower(m.name) == key || lower(m.id) == key) return &m;
  return nullptr;
}

Json model_for_run(const PublishedRun& run, const Json& profile, const PresetLibrary& lib,
                   std::vector<std::string>& notes) {
  auto num = [&](const char* k) { return number_or_string(field(run, k)); };
  const std::string& name = run.model;
  // Encoders and ViTs start from their preset (learned positions, biases, GeLU, dropout) and take
  // the row's shape; an image model publishes no sequence: ViT-Base/16 at 224 px.
  if (contains(name, "ViT")) {
    notes.push_back("seq_len: empty; ViT-Base/16 at 224 px (197 tokens)");
    return {{"base", "vit-b16"}};
  }
  Json model = {{"layers", num("layers")}, {"hidden", num("hidden")}, {"ffn_hidden", num("ffn_hidden")},
                {"heads", num("heads")}, {"kv_heads", num("kv_heads")}, {"seq_len", num("seq_len")},
                {"vocab", num("vocab")}};
  if (field(run, "seq_len").empty() && profile.contains("default_seq_len")) {
    model["seq_len"] = profile["default_seq_len"];
    notes.push_back("seq_len: empty; took " + profile["software"].get<std::string>() + "'s default " +
                    profile["default_seq_len"].dump());
  }
  if (contains(name, "BERT")) {
    model["base"] = "bert-large";
    return model;
  }
  // GPT, MPT and Nemotron-4 use a plain (GeLU / squared-ReLU) FFN; Llama, Qwen, DeepSeek and
  // GPT-OSS are gated.
  const bool gpt_family = (contains(name, "GPT") || contains(name, "MPT") || contains(name, "Nemotron")) &&
                          !contains(name, "OSS");
  model["gated_ffn"] = !gpt_family;
  if (contains(name, "GPT") && !contains(name, "OSS")) model["biases"] = true;
  // The CSV has no head_dim column; rows whose heads do not span the hidden size say it in notes.
  const std::string row_notes = field(run, "notes");
  if (const auto hd = number_in_notes(row_notes, "head_dim ")) model["head_dim"] = *hd;
  if (!field(run, "moe_experts").empty()) {
    model["moe_experts"] = num("moe_experts");
    model["moe_top_k"] = num("moe_top_k");
  }
  // A published architecture takes the rest of its shape from its preset, the row's columns
  // winning; a row that says how many of its (cut) layers are dense overrides the preset's.
  if (const ModelShape* preset = preset_named(lib, name)) model["base"] = preset->id;
  if (const auto dl = number_in_notes(row_notes, "dense_layers=")) model["dense_layers"] = *dl;
  return model;
}

// Links come from the accelerator's instance preset with the row's node size (else the largest
// node); unstated network bandwidth too.
Json instance_for_run(const PublishedRun& run, const PresetLibrary& lib, std::vector<std::string>& notes) {
  const Instance* base = nullptr;
  // atoi of an out-of-range cell is undefined: read it as a number; the scenario parser checks it.
  const Json cell = number_or_string(field(run, "chips_per_node"));
  const int per_node = cell.is_number_integer() && cell.get<long long>() > 0 && cell.get<long long>() <= 1000000
                           ? static_cast<int>(cell.get<long long>())
                           : 0;
  for (const auto& i : lib.instances) {
    if (i.accelerator_id != run.accelerator) continue;
    if (!base || i.chips_per_node == per_node ||
        (base->chips_per_node != per_node && i.chips_per_node > base->chips_per_node))
      base = &i;
  }
  Json inst = {{"accelerator", run.accelerator},
               {"chips_per_node", number_or_string(field(run, "chips_per_node"))},
               {"devices_per_chip", number_or_string(field(run, "devices_per_chip"))}};
  if (base) inst["base"] = base->id;
  const std::string net = field(run, "inter_node_gbps");
  inst["inter_node_gbps"] = !net.empty() ? number_or_string(net) : Json(base ? base->inter_node_gbps : 0.0);
  if (net.empty() && base && base->inter_node_gbps <= 0) {
    // A rack-scale domain with no published network (GB300 NVL72 on AWS): the HGX board of the same
    // GPU (a Grace-Blackwell rack part gbNNN and its board bNNN)
    // gives its NIC per GPU (HGX B300: 8 x ConnectX-8 at 800 Gb/s, NVIDIA Blackwell Ultra datasheet).
    for (const auto& i : lib.instances) {
      if (i.inter_node_gbps <= 0 || i.chips_per_node <= 0 || run.accelerator.size() < 2 ||
          i.accelerator_id != run.accelerator.substr(1))
        continue;
      const double per_chip = i.inter_node_gbps / i.chips_per_node;
      inst["inter_node_gbps"] = per_chip * per_node;
      notes.push_back("inter_node_gbps: not stated; " + format_number(per_chip) + " Gbit/s per chip as on " + i.id);
      break;
    }
  }
  return inst;
}

// Fine-tuning rows say so in their source ("(SFT)", "(LoRA)"); LoRA at the stack's default rank.
Json training_for_run(const PublishedRun& run, const Json& profile, std::vector<std::string>& notes) {
  if (contains(run.source, "(LoRA)")) {
    const int rank = profile.value("default_lora_rank", 16);
    notes.push_back("training: LoRA rank not stated; took " + std::to_string(rank));
    return {{"mode", "lora"}, {"lora_rank", rank}, {"tokens", 0}};
  }
  if (contains(run.source, "(SFT)")) return {{"mode", "full_finetune"}, {"tokens", 0}};
  return {{"tokens", 0}};
}

}  // namespace

// A published layout ran, so it fit. When the stack's default recompute, taken because the row
// leaves it empty, does not fit the model's memory, the row recomputes fully the fewest layers of
// each stage that fit (Megatron's --recompute-method block --recompute-num-layers, which recipes
// tune so), and says so.
void fit_unstated_recompute(Json& doc, const PresetLibrary& lib, std::vector<std::string>& notes) {
  auto fits = [&](const Json& d) {
    return evaluate(parse_job(d, lib, "row"), lib, kVariantOptions).est.memory.fits;
  };
  try {
    Json full = doc;
    full["recompute"] = "full";
    if (doc["micro_batch"] == "auto" || fits(doc) || !fits(full)) return;
    int lo = 1, hi = doc["model"].value("layers", 1);
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      full["recompute_layers"] = mid;
      if (fits(full)) hi = mid;
      else lo = mid + 1;
    }
    full["recompute_layers"] = lo;
    doc = full;
    notes.push_back("recompute: the default does not fit; full recompute of the first " + std::to_string(lo) +
                    " layers of each stage, the fewest that fit");
  } catch (const InputError&) {
    // The row's own problem is reported when it is evaluated.
  }
}

Json scenario_for_run(const PublishedRun& run, const PresetLibrary& lib) {
  auto num = [&](const char* k) { return number_or_string(field(run, k)); };
  const Json* entry = profile_entry(run);
  const Json profile = entry ? *entry : Json::object();
  std::vector<std::string> notes;
  Json micro_batch = num("micro_batch");
  if (field(run, "micro_batch").empty()) {
    micro_batch = "auto";
    notes.push_back("micro_batch: empty; searched (auto)");
  }
  std::string rc = field(run, "recompute");
  if (rc.empty()) {
    rc = profile.value("default_recompute", "auto");
    notes.push_back("recompute: empty; took " + profile.value("software", std::string("the profile")) +
                    "'s default (" + rc + ")");
  }
  Json doc = {{"name", run.id},
              {"model", model_for_run(run, profile, lib, notes)},
              {"instance", instance_for_run(run, lib, notes)},
              {"chips", num("chips")},
              {"precision", field(run, "precision")},
              {"parallel", {{"tp", num("tp")}, {"pp", num("pp")}, {"dp", num("dp")}, {"cp", num("cp")},
                            {"ep", num("ep")}, {"vpp", num("vpp")},
                            {"sequence_parallel", field(run, "sequence_parallel") == "yes"},
                            {"zero", num("zero")}}},
              {"micro_batch", micro_batch},
              {"global_batch", num("global_batch")},
              {"recompute", rc},
              {"framework", run.framework},
              {"flash_attention", profile.value("flash_attention", true)},
              {"master_weights", profile.value("master_weights", true)},
              {"fp32_loss_logits", profile.value("fp32_loss_logits", true)},
              {"async_tp", profile.value("async_tp", false)},
              {"training", training_for_run(run, profile, notes)}};
  // A part sold or run below its chip's power (the torchtitan async-TP rows: H100 at 500 W).
  if (!field(run, "power_limit_w").empty()) doc["power_limit_w"] = num("power_limit_w");
  // A part whose memory is not its accelerator preset's (the torchtitan async-TP rows: H100s with
  // 96 GB of HBM2e at 2.4 TB/s): the preset, calibration included, with the row's memory.
  Json memory = Json::object();
  for (const char* k : {"hbm_gib", "hbm_tb_per_s"})
    if (!field(run, k).empty()) memory[k] = num(k);
  if (!memory.empty()) {
    memory["base"] = run.accelerator;
    if (const Accelerator* a = lib.accelerator(run.accelerator)) memory["name"] = a->name + " with the row's memory";
    doc["instance"]["accelerator"] = memory;
  }
  // A release whose kernels differ from its profile's (Megatron-Bridge 25.11: local experts launched
  // one by one) keeps the profile, its id and its fitted constants and changes only what it names.
  if (const auto changes = profile.find("framework_changes"); changes != profile.end() && changes->is_object()) {
    doc["framework"] = *changes;
    doc["framework"]["base"] = run.framework;
  }
  if (field(run, "recompute").empty()) fit_unstated_recompute(doc, lib, notes);
  apply_fp8_recipe(run, doc, notes);
  std::string defaults;
  for (const auto& n : notes) append_item(defaults, n, "; ");
  if (!defaults.empty()) doc["description"] = "defaults: " + defaults;
  return doc;
}

RunCheck check_run(const PublishedRun& run, const PresetLibrary& lib) {
  RunCheck c;
  c.run = run;
  if (!run.problem.empty()) {
    c.problem = run.problem;
    return c;
  }
  try {
    const Json doc = scenario_for_run(run, lib);
    if (doc.contains("description"))
      c.run.notes.push_back(doc["description"].get<std::string>().substr(std::string("defaults: ").size()));
    // The row is a job like any scenario, evaluated as `estimate` evaluates one (io/job.hpp); as a
    // comparison row, without claims, baseline or an owned cluster, which a published run has none of.
    // Devices count ranks: on Trainium1 the row's degrees are NeuronCores, as in the scenario.
    const Job job = parse_job(doc, lib, run.id);
    c.model_class = model_class(job.spec.scenario.model);
    const Result r = evaluate(job, lib, kVariantOptions);
    const Estimate& e = r.est;
    // A layout the model cannot time (a collective over a link of no bandwidth) is the row's
    // problem, as `estimate` reports it, never a prediction of 0 tokens/s in the mean.
    if (!(std::isfinite(e.step_time_s) && e.step_time_s > 0 && e.tokens_per_s_per_chip > 0))
      throw InputError("step_time_s", "the estimate has no finite step time");
    c.predicted_tokens_per_s_per_chip = e.tokens_per_s_per_chip;
    // Rows that publish only a step time are compared on it (the same ratio as on throughput).
    c.measured_tokens_per_s_per_chip =
        run.measured_tokens_per_s_per_chip > 0
            ? run.measured_tokens_per_s_per_chip
            : e.tokens_per_s_per_chip * e.step_time_s / run.measured_step_time_s;
    c.error = e.tokens_per_s_per_chip / c.measured_tokens_per_s_per_chip - 1.0;
    c.fits = e.memory.fits;
    const Json band = uncertainty_json(r.band, e)["tokens_per_s"];
    c.band_low_tokens_per_s_per_chip = band[0].get<double>() / e.chips;
    c.band_high_tokens_per_s_per_chip = band[1].get<double>() / e.chips;
  } catch (const InputError& e) {
    c.problem = e.what();
  }
  return c;
}

ValidationSummary summarize(const std::vector<RunCheck>& checks) {
  ValidationSummary s;
  double abs_sum = 0;
  for (const auto& c : checks) {
    if (c.problem.empty() && !c.run.known_issue.empty()) {
      ++s.known_issues;
      append_item(s.known, c.run.id + " (" + c.run.known_issue + ")", "; ");
      continue;
    }
    if (c.problem.empty()) {
      abs_sum += std::fabs(c.error);
      ++s.rows;
      continue;
    }
    ++s.failed;
    append_item(s.failures, c.run.id + " (" + c.problem + ")", "; ");
  }
  s.mean_abs_error = s.rows ? abs_sum / s.rows : 0;
  return s;
}

std::string summary_line(const ValidationSummary& s) {
  std::string line = s.rows ? "mean absolute error " + format_fixed(100 * s.mean_abs_error, 1) + "% over " +
                                  count_text(s.rows, "row")
                            : "no row estimated, so no mean absolute error";
  if (s.failed) line += "; " + count_text(s.failed, "row") + " failed: " + s.failures;
  if (s.known_issues) line += "; " + count_text(s.known_issues, "row") + " left out as flagged (known_issue): " + s.known;
  return line;
}

}  // namespace tc::io
