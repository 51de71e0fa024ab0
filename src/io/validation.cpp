#include "io/validation.hpp"

#include <algorithm>
#include <cstdlib>

namespace tc::io {

namespace {

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

Json number_or_string(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end && *end == '\0' && !s.empty()) {
    if (v == static_cast<long long>(v)) return static_cast<long long>(v);
    return v;
  }
  return s;
}

}  // namespace

std::string source_family(const std::string& s) {
  if (contains(s, "Narayanan")) return "Megatron-LM";
  if (contains(s, "MosaicML")) return "MosaicML";
  if (contains(s, "NeMo") || contains(s, "Megatron-Bridge")) return "NeMo/Megatron-Bridge";
  if (contains(s, "MLPerf")) return "MLPerf";
  if (contains(s, "torchtitan")) return "torchtitan";
  if (contains(s, "neuron")) return "Neuron";
  return "other";
}

std::vector<PublishedRun> read_published_runs(const std::string& text) {
  const auto rows = parse_csv(text);
  if (rows.empty()) throw InputError("csv", "empty");
  const auto& header = rows[0];
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
    r.family = source_family(r.source);
    // The paper's ZeRO-3 rows are its DeepSpeed baseline (Narayanan et al. 2021, Section 5.4).
    const bool deepspeed = r.family == "Megatron-LM" && field(r, "zero") == "3";
    r.framework = (r.family == "MosaicML" || r.family == "torchtitan") ? "fsdp"
                  : r.family == "Neuron"                              ? "neuronx-distributed"
                  : deepspeed                                         ? "deepspeed-zero3"
                  : r.family == "Megatron-LM"                         ? "megatron-2021"
                                                                      : "megatron";
    r.measured_tokens_per_s_per_chip = std::atof(field(r, "measured_tokens_per_s_per_chip").c_str());
    out.push_back(std::move(r));
  }
  return out;
}

Json scenario_for_run(const PublishedRun& run, const PresetLibrary& lib) {
  auto num = [&](const char* k) { return number_or_string(field(run, k)); };
  const std::string name = run.model;
  const bool gpt_style = contains(name, "GPT") || contains(name, "MPT") || contains(name, "Nemotron");
  const bool gpt_family = gpt_style && !contains(name, "OSS");
  Json model = {{"layers", num("layers")}, {"hidden", num("hidden")}, {"ffn_hidden", num("ffn_hidden")},
                {"heads", num("heads")}, {"kv_heads", num("kv_heads")}, {"seq_len", num("seq_len")},
                {"vocab", num("vocab")}};
  // GPT, MPT and Nemotron-4 use a plain (GeLU / squared-ReLU) FFN; Llama, Qwen, DeepSeek and
  // GPT-OSS are gated.
  model["gated_ffn"] = !gpt_family;
  if (contains(name, "GPT") && !contains(name, "OSS")) model["biases"] = true;
  // The CSV has no head_dim column; rows whose heads do not span the hidden size say it in notes.
  const std::string notes = field(run, "notes");
  const size_t hd = notes.find("head_dim ");
  if (hd != std::string::npos) model["head_dim"] = std::atoi(notes.c_str() + hd + 9);
  if (!field(run, "moe_experts").empty()) {
    model["moe_experts"] = num("moe_experts");
    model["moe_top_k"] = num("moe_top_k");
  }
  // Links come from the accelerator's instance preset with the row's node size (else the largest
  // node); unstated network bandwidth too.
  const Instance* base = nullptr;
  const int per_node = std::atoi(field(run, "chips_per_node").c_str());
  for (const auto& i : lib.instances) {
    if (i.accelerator_id != run.accelerator) continue;
    if (!base || i.chips_per_node == per_node ||
        (base->chips_per_node != per_node && i.chips_per_node > base->chips_per_node))
      base = &i;
  }
  Json inst = {{"accelerator", run.accelerator}, {"chips_per_node", num("chips_per_node")},
               {"devices_per_chip", num("devices_per_chip")}};
  if (base) inst["base"] = base->id;
  const std::string net = field(run, "inter_node_gbps");
  inst["inter_node_gbps"] = !net.empty() ? num("inter_node_gbps") : Json(base ? base->inter_node_gbps : 0.0);
  const std::string rc = field(run, "recompute");
  Json doc = {{"name", run.id},
              {"model", model},
              {"instance", inst},
              {"chips", num("chips")},
              {"precision", field(run, "precision")},
              {"parallel", {{"tp", num("tp")}, {"pp", num("pp")}, {"dp", num("dp")}, {"cp", num("cp")},
                            {"ep", num("ep")}, {"vpp", num("vpp")},
                            {"sequence_parallel", field(run, "sequence_parallel") == "yes"},
                            {"zero", num("zero")}}},
              {"micro_batch", num("micro_batch")},
              {"global_batch", num("global_batch")},
              {"recompute", rc.empty() ? "none" : rc},
              {"framework", run.framework},
              // FlashAttention (Dao et al. 2022) postdates the 2021 Megatron-LM runs.
              {"flash_attention", run.family != "Megatron-LM"},
              {"training", {{"tokens", 0}}}};
  return doc;
}

RunCheck check_run(const PublishedRun& run, const PresetLibrary& lib) {
  RunCheck c;
  c.run = run;
  try {
    const ScenarioSpec spec = parse_scenario(scenario_for_run(run, lib), lib, run.id);
    // Devices count ranks: on Trainium1 the row's degrees are NeuronCores, as in the scenario.
    const Estimate e = run_estimate(spec);
    c.predicted_tokens_per_s_per_chip = e.tokens_per_s_per_chip;
    c.error = e.tokens_per_s_per_chip / run.measured_tokens_per_s_per_chip - 1.0;
    c.fits = e.memory.fits;
  } catch (const InputError& e) {
    c.problem = e.what();
  }
  return c;
}

}  // namespace tc::io
