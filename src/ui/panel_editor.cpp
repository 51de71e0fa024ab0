// Scenario editor: every input of a scenario file as a control. Controls read and write the
// scenario document; a value the file leaves out shows what the model resolved it to.
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/commitments.hpp"
#include "core/cost.hpp"
#include "core/estimate.hpp"
#include "io/report.hpp"
#include "io/schema.hpp"
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {

float field_width() { return ImGui::GetFontSize() * 9.0f; }

std::string doc_string(const AppState& s, const std::string& path, const std::string& fallback = "") {
  const io::Json* v = doc_get(s.doc, path);
  return v && v->is_string() ? v->get<std::string>() : fallback;
}

// A flag's value in the scenario: its schema default when absent (or not a boolean, which parsing
// reports).
bool doc_flag(const AppState& s, const std::string& path) {
  const io::Json* v = doc_get(s.doc, path);
  return v && v->is_boolean() ? v->get<bool>() : io::scenario_field(path).default_value == "true";
}

void flag_checkbox(AppState& s, const char* label, const std::string& path) {
  bool on = doc_flag(s, path);
  if (ImGui::Checkbox(label, &on)) doc_set(s.doc, path, on);
}

// A field's help, with its default when it has one.
std::string field_help(const io::FieldDef& f) {
  return std::string(f.help) + (f.default_value.empty() ? "" : " Default: " + std::string(f.default_value) + ".");
}

template <class T>
T clamp_to(const io::FieldDef& f, T v) {
  return std::clamp(v, static_cast<T>(f.min), static_cast<T>(f.max));
}

// A combo of an enumeration field's values; true when one was chosen.
bool enum_field(AppState& s, const char* label, const std::string& path) {
  const io::FieldDef& f = io::scenario_field(path);
  const std::string current = doc_string(s, path, std::string(f.default_value));
  bool chosen = false;
  if (ImGui::BeginCombo(label, current.c_str())) {
    for (const auto v : f.values) {
      const std::string value(v);
      if (ImGui::Selectable(value.c_str(), current == value)) {
        doc_set(s.doc, path, value);
        chosen = true;
      }
    }
    ImGui::EndCombo();
  }
  return chosen;
}

// A plan knob: "auto" (the plan search chooses) or a fixed integer.
void knob(AppState& s, const char* label, const std::string& path, int resolved) {
  const io::FieldDef& f = io::scenario_field(path);
  const int min = static_cast<int>(f.min), max = static_cast<int>(f.max);
  const io::Json* v = doc_get(s.doc, path);
  bool is_auto = v ? v->is_string() : f.default_value == "auto";
  int value = v && v->is_number() ? static_cast<int>(v->get<double>()) : resolved;
  ImGui::PushID(path.c_str());
  if (ImGui::Checkbox("auto", &is_auto)) doc_set(s.doc, path, is_auto ? io::Json("auto") : io::Json(std::max(min, resolved)));
  ImGui::SameLine();
  ImGui::BeginDisabled(is_auto);
  ImGui::SetNextItemWidth(field_width());
  if (ImGui::InputInt(label, &value, 1, 8)) doc_set(s.doc, path, std::clamp(value, min, max));
  ImGui::EndDisabled();
  remember_rect(path);
  help_marker(field_help(f));
  ImGui::PopID();
}

// A number the scenario may leave out (then the model's default, shown greyed, applies). Its unit,
// range, help and whether it is an integer come from its row of the schema table (io/schema).
struct OptionalField {
  const char* path;
  const char* label;
  std::function<double(const Outcome&)> resolved;  // NaN when unknown
};

void optional_field(AppState& s, const Outcome* o, const OptionalField& f) {
  const io::FieldDef& d = io::scenario_field(f.path);
  const bool integer = d.type == io::FieldType::integer || d.type == io::FieldType::integer_auto;
  ImGui::PushID(f.path);
  const io::Json* v = doc_get(s.doc, f.path);
  bool set = v && v->is_number();
  double resolved = o && f.resolved ? f.resolved(*o) : NAN;
  if (ImGui::Checkbox("##set", &set)) {
    if (set)
      doc_set(s.doc, f.path, std::isfinite(resolved) ? clamp_to(d, resolved) : std::max(d.min, 0.0));
    else
      doc_erase(s.doc, f.path);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Set a value (unticked: the model's default)");
  remember_rect(f.path);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field_width());
  v = doc_get(s.doc, f.path);  // the box may just have set or erased it
  set = v && v->is_number();
  if (set) {
    double value = v->get<double>();
    const bool changed = integer ? [&] {
      int iv = static_cast<int>(value);
      const bool c = ImGui::InputInt(f.label, &iv);
      value = iv;
      return c;
    }()
                                 : ImGui::InputDouble(f.label, &value, 0, 0, "%.6g");
    if (changed && std::isfinite(value)) doc_set(s.doc, f.path, clamp_to(d, value));
  } else {
    ImGui::BeginDisabled();
    std::string shown = std::isfinite(resolved) ? fmt_exact(resolved) : "default";
    if (v && v->is_string()) shown = v->get<std::string>();
    char buf[64];
    const std::size_t n = std::min<std::size_t>(shown.size(), sizeof buf - 1);
    shown.copy(buf, n);
    buf[n] = 0;
    ImGui::InputText(f.label, buf, sizeof buf, ImGuiInputTextFlags_ReadOnly);
    ImGui::EndDisabled();
  }
  ImGui::SameLine();
  text_disabled(std::string(d.unit));
  help_marker(field_help(d));
  ImGui::PopID();
}

const CostInputs* inputs(const Outcome& o) { return o.cost ? &o.job.cost : nullptr; }
double or_nan(const std::optional<double>& v) { return v ? *v : NAN; }

const std::vector<OptionalField>& overhead_fields() {
  using O = const Outcome&;
  static const std::vector<OptionalField> f = {
      {"overheads.compile.first_s", "first compile",
       [](O o) { return inputs(o) && inputs(o)->compile.first_s ? *inputs(o)->compile.first_s
                                                                 : compile_defaults(o.job.spec.scenario.accelerator).first_s; }},
      {"overheads.compile.recompile_s", "each new shape",
       [](O o) { return inputs(o) && inputs(o)->compile.recompile_s ? *inputs(o)->compile.recompile_s
                                                                     : compile_defaults(o.job.spec.scenario.accelerator).recompile_s; }},
      {"overheads.compile.shapes", "input shapes",
       [](O o) { return inputs(o) ? inputs(o)->compile.shapes : NAN; }},
      {"overheads.compile.cache_hit", "compile cache hit",
       [](O o) { return inputs(o) ? inputs(o)->compile.cache_hit : NAN; }},
      {"overheads.warmup.minutes", "warm-up",
       [](O o) { return inputs(o) && inputs(o)->warmup.minutes ? *inputs(o)->warmup.minutes
                                                                : compile_defaults(o.job.spec.scenario.accelerator).warmup_min; }},
      {"overheads.warmup.throughput", "warm-up speed",
       [](O o) { return inputs(o) && inputs(o)->warmup.throughput ? *inputs(o)->warmup.throughput
                                                                   : compile_defaults(o.job.spec.scenario.accelerator).warmup_throughput; }},
      {"overheads.checkpoint.interval_min", "checkpoint every",
       [](O o) { return o.cost ? o.cost->result.wall.checkpoint_interval_s / 60 : NAN; }},
      {"overheads.checkpoint.write_gb_per_s", "checkpoint write",
       [](O o) { return inputs(o) ? or_nan(inputs(o)->checkpoint.write_gb_per_s) : NAN; }},
      {"overheads.checkpoint.kept", "checkpoints kept",
       [](O o) { return inputs(o) ? inputs(o)->checkpoint.kept : NAN; }},
      {"overheads.failures.per_node_hour", "failures",
       [](O o) { return inputs(o) ? inputs(o)->failures.per_node_hour : NAN; }},
      {"overheads.failures.restart_min", "restart after failure",
       [](O o) { return inputs(o) ? inputs(o)->failures.restart_min : NAN; }},
      {"overheads.spot.interruptions_per_hour", "spot interruptions",
       [](O o) { return inputs(o) ? or_nan(inputs(o)->spot.interruptions_per_hour) : NAN; }},
      {"overheads.spot.restart_min", "restart after reclaim",
       [](O o) { return inputs(o) ? inputs(o)->spot.restart_min : NAN; }},
      {"overheads.queue_hours", "queueing",
       [](O o) { return inputs(o) ? inputs(o)->queue_hours : NAN; }},
      {"overheads.storage.dataset_gb", "dataset",
       [](O o) { return inputs(o) ? inputs(o)->storage.dataset_gb : NAN; }},
      {"overheads.storage.usd_per_gb_month", "storage price",
       [](O o) { return inputs(o) ? or_nan(inputs(o)->storage.usd_per_gb_month) : NAN; }},
      {"overheads.storage.retention_days", "retention",
       [](O o) { return inputs(o) ? inputs(o)->storage.retention_days : NAN; }},
      {"overheads.transfer.cross_region_copies", "cross-region copies",
       [](O o) { return inputs(o) ? inputs(o)->transfer.cross_region_copies : NAN; }},
      {"overheads.transfer.cross_region_usd_per_gb", "cross-region price",
       [](O o) { return inputs(o) ? or_nan(inputs(o)->transfer.cross_region_usd_per_gb) : NAN; }},
      {"overheads.transfer.egress_gb_per_month", "egress per month",
       [](O o) { return inputs(o) ? inputs(o)->transfer.egress_gb_per_month : NAN; }},
      {"overheads.transfer.egress_usd_per_gb", "egress price",
       [](O o) { return inputs(o) ? or_nan(inputs(o)->transfer.egress_usd_per_gb) : NAN; }},
      {"overheads.engineering.person_weeks", "engineering",
       [](O o) { return inputs(o) ? inputs(o)->engineering.person_weeks : NAN; }},
      {"overheads.engineering.usd_per_week", "cost of a week",
       [](O o) { return inputs(o) ? inputs(o)->engineering.usd_per_week : NAN; }},
      {"overheads.engineering.spread_runs", "spread over runs",
       [](O o) { return inputs(o) ? inputs(o)->engineering.spread_runs : NAN; }},
      {"energy.usd_per_kwh", "electricity",
       [](O o) { return inputs(o) ? inputs(o)->energy.usd_per_kwh : NAN; }},
  };
  return f;
}

const std::vector<OptionalField>& campaign_fields() {
  using O = const Outcome&;
  static const std::vector<OptionalField> f = {
      {"campaign.runs", "runs", [](O o) { return inputs(o) ? inputs(o)->campaign.runs : NAN; }},
      {"campaign.full_runs", "full runs",
       [](O o) { return inputs(o) ? or_nan(inputs(o)->campaign.full_runs) : NAN; }},
      {"campaign.truncated_fraction", "truncated runs train",
       [](O o) { return inputs(o) ? inputs(o)->campaign.truncated_fraction : NAN; }},
      {"campaign.runs_per_month", "runs per month",
       [](O o) { return inputs(o) ? inputs(o)->campaign.runs_per_month : NAN; }},
      {"deadline_days", "deadline", nullptr},
  };
  return f;
}

// The tiers to offer for the scenario's instance: its list-price tiers, then the ones derived from
// on demand (spot, Savings Plans) and a negotiated rate.
std::vector<std::string> tier_choices(const AppState& s) {
  std::vector<std::string> v = {"on_demand"};
  auto add = [&](const std::string& t) {
    if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
  };
  if (s.current.ok)
    for (const auto& p : s.current.job.spec.scenario.instance.prices) add(p.tier);
  for (const char* t : {"capacity_block", "spot", "savings_plan_compute_1y", "savings_plan_compute_3y",
                        "savings_plan_instance_1y", "savings_plan_instance_3y", "custom"})
    add(t);
  return v;
}

// One mix entry's tier, and the discount a Savings Plan needs (AWS publishes only its maximum).
bool tier_picker(AppState& s, io::Json& e, const std::string& tier) {
  bool changed = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 13);
  if (ImGui::BeginCombo("##tier", fmt_tier(tier).c_str())) {
    for (const auto& t : tier_choices(s))
      if (ImGui::Selectable(fmt_tier(t).c_str(), tier == t)) {
        e["tier"] = t;
        if (t.rfind("savings_plan_", 0) == 0 && !e.contains("discount")) e["discount"] = 0.3;
        changed = true;
      }
    ImGui::EndCombo();
  }
  const auto name = parse_tier(tier);
  if (name && name->kind == TierKind::savings_plan) {
    ImGui::SameLine();
    const float max = static_cast<float>(savings_plan_max_discount(name->plan));
    float d = e.contains("discount") && e["discount"].is_number() ? e["discount"].get<float>() : 0.0f;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::SliderFloat("off", &d, 0.0f, max, "%.2f")) {
      e["discount"] = std::round(std::clamp(d, 0.0f, max) * 100.0) / 100.0;
      changed = true;
    }
    help_marker("Your Savings Plan discount off on demand: AWS publishes no plan rate for these instances, "
                "only the maximum (" + fmt_percent(max, 0) + ", AWS Savings Plans FAQ).");
  }
  return changed;
}

// Where the instances are priced, and who pays a commitment's idle hours.
// The regions the instance presets price in, sorted.
std::vector<std::string> known_regions(const AppState& s) {
  std::vector<std::string> regions;
  for (const auto& i : s.lib.instances)
    for (const auto& p : i.prices)
      for (const auto& r : p.regions)
        if (std::find(regions.begin(), regions.end(), r) == regions.end()) regions.push_back(r);
  std::sort(regions.begin(), regions.end());
  return regions;
}

void region_editor(AppState& s) {
  const std::vector<std::string> regions = known_regions(s);
  const io::Json* cur = doc_get(s.doc, "pricing.region");
  const std::string region = cur && cur->is_string() ? cur->get<std::string>() : "us-east-1";
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 13);
  if (ImGui::BeginCombo("region", region.c_str())) {
    for (const auto& r : regions)
      if (ImGui::Selectable(r.c_str(), r == region)) doc_set(s.doc, "pricing.region", r);
    ImGui::EndCombo();
  }
  help_marker(std::string(io::scenario_field("pricing.region").help));
  const io::Json* idle = doc_get(s.doc, "pricing.idle_commitment");
  bool share = idle && idle->is_string() && idle->get<std::string>() == "share";
  if (ImGui::Checkbox("other work fills idle commitments", &share)) {
    if (share) doc_set(s.doc, "pricing.idle_commitment", "share");
    else doc_erase(s.doc, "pricing.idle_commitment");
  }
  help_marker(std::string(io::scenario_field("pricing.idle_commitment").help));
}

void pricing_editor(AppState& s) {
  region_editor(s);
  // The editor works on the mix form; the single-tier form is read as a one-entry mix.
  io::Json mix = io::Json::array();
  if (const io::Json* m = doc_get(s.doc, "pricing.mix"); m && m->is_array()) {
    mix = *m;
  } else if (const io::Json* t = doc_get(s.doc, "pricing.tier"); t && t->is_string()) {
    io::Json e = {{"tier", *t}, {"fraction", 1.0}};
    if (const io::Json* fb = doc_get(s.doc, "pricing.fallback"); fb && fb->is_string()) e["fallback"] = *fb;
    mix.push_back(e);
  } else {
    mix.push_back({{"tier", "on_demand"}, {"fraction", 1.0}, {"fallback", "capacity_block"}});
  }
  bool changed = false;
  int remove = -1;
  double sum = 0;
  const bool by_instances = !mix.empty() && mix[0].is_object() && mix[0].contains("instances");
  for (std::size_t i = 0; i < mix.size(); ++i) {
    io::Json& e = mix[i];
    if (!e.is_object()) continue;
    ImGui::PushID(static_cast<int>(i));
    const std::string tier = e.value("tier", std::string("on_demand"));
    changed = tier_picker(s, e, tier) || changed;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (by_instances) {
      int n = e.contains("instances") && e["instances"].is_number() ? static_cast<int>(e["instances"].get<double>()) : 0;
      if (ImGui::InputInt("instances", &n)) {
        e["instances"] = std::max(0, n);
        changed = true;
      }
    } else {
      float f = e.contains("fraction") && e["fraction"].is_number() ? e["fraction"].get<float>() : 0.0f;
      if (ImGui::SliderFloat("share", &f, 0.0f, 1.0f, "%.2f")) {
        e["fraction"] = std::round(f * 100.0) / 100.0;
        changed = true;
      }
      sum += e.contains("fraction") && e["fraction"].is_number() ? e["fraction"].get<double>() : 0;
    }
    if (tier == "custom") {
      ImGui::SameLine();
      double rate = e.contains("usd_per_hour") && e["usd_per_hour"].is_number() ? e["usd_per_hour"].get<double>() : 0;
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
      if (ImGui::InputDouble("$/h", &rate, 0, 0, "%.2f") && std::isfinite(rate)) {
        e["usd_per_hour"] = std::clamp(rate, 0.0, 1e6);
        e.erase("discount");
        changed = true;
      }
    }
    if (mix.size() > 1) {
      ImGui::SameLine();
      if (ImGui::SmallButton("x")) remove = static_cast<int>(i);
    }
    ImGui::PopID();
  }
  if (remove >= 0) {
    mix.erase(static_cast<std::size_t>(remove));
    changed = true;
  }
  if (mix.size() < 6 && ImGui::SmallButton("+ tier")) {
    mix.push_back(by_instances ? io::Json{{"tier", "spot"}, {"instances", 0}} : io::Json{{"tier", "spot"}, {"fraction", 0.0}});
    changed = true;
  }
  if (!by_instances && std::fabs(sum - 1.0) > 1e-9) {
    ImGui::SameLine();
    text_colored(kColorBad, "shares sum to " + fmt_fixed(sum, 2) + ", not 1");
  }
  help_marker("Shares of the instance-hours billed at each price tier. 'custom' is a negotiated rate "
              "per instance-hour. Prices and their dates: hover the instance picker, or the Sources panel.");
  if (changed) {
    doc_erase(s.doc, "pricing.tier");
    doc_erase(s.doc, "pricing.fallback");
    doc_set(s.doc, "pricing.mix", mix);
  }
}

std::vector<std::pair<std::string, std::string>> model_items(const AppState& s) {
  std::vector<std::pair<std::string, std::string>> v;
  for (const auto& m : s.lib.models) v.emplace_back(m.id, m.name);
  return v;
}
std::vector<std::pair<std::string, std::string>> instance_items(const AppState& s) {
  std::vector<std::pair<std::string, std::string>> v;
  for (const auto& i : s.lib.instances) v.emplace_back(i.id, i.name);
  return v;
}

// Model and instance pickers.
void hardware_fields(AppState& s) {
  std::string model = doc_string(s, "model", "custom");
  if (id_picker("model", model, model_items(s), s.view.model_filter)) doc_set(s.doc, "model", model);
  remember_rect("model");
  sources_tooltip(s, "model", model);
  // A model from a Hugging Face config.json: the shape its configuration maps to (io/hf_config).
  if (const io::Json* hf = doc_get(s.doc, "model.hf_config")) {
    const io::Json* name = doc_get(s.doc, "model.name");
    const io::Json* id = hf->is_object() && hf->contains("_name_or_path") ? &hf->at("_name_or_path") : nullptr;
    const io::Json* type = hf->is_object() && hf->contains("model_type") ? &hf->at("model_type") : nullptr;
    const io::Json* shown = name ? name : id ? id : type;
    ImGui::TextDisabled("from config.json: %s", shown && shown->is_string() ? shown->get<std::string>().c_str() : "");
  }
  ImGui::SameLine();
  help_marker("Any Hugging Face model: paste its config.json (Ctrl+V outside a field), drop the file on the "
              "page, or Import it. Notes under the results say what the mapping approximates and which "
              "keys it did not use.");
  std::string inst = doc_string(s, "instance", "custom");
  if (id_picker("instance", inst, instance_items(s), s.view.instance_filter)) set_instance(s, inst);
  remember_rect("instance");
  if (const Instance* ip = s.lib.instance(inst)) sources_tooltip(s, "instance", ip->id);
}

// The -/+ of a field: to the next value the global batch splits over (AppState's step_field).
void step_buttons(AppState& s, const char* path) {
  ImGui::PushID(path);
  ImGui::SameLine(0, 2);
  if (ImGui::Button("-")) step_field(s, path, -1);
  ImGui::SameLine(0, 2);
  if (ImGui::Button("+")) step_field(s, path, +1);
  ImGui::PopID();
}

// Nodes, or chips, of the cluster; switching converts the resolved size.
void cluster_fields(AppState& s, const Outcome* o) {
  const Estimate* e = o ? &o->est : nullptr;
  int mode = s.view.nodes_as_chips ? 1 : 0;
  if (ImGui::RadioButton("nodes", &mode, 0)) {
    s.view.nodes_as_chips = false;
    if (o) {
      doc_erase(s.doc, "chips");
      doc_set(s.doc, "nodes", o->job.spec.scenario.nodes);
    }
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("chips", &mode, 1)) {
    s.view.nodes_as_chips = true;
    if (e) {
      doc_erase(s.doc, "nodes");
      doc_set(s.doc, "chips", e->chips);
    }
  }
  if (!s.view.nodes_as_chips) {
    const io::Json* nv = doc_get(s.doc, "nodes");
    int nodes = nv && nv->is_number() ? static_cast<int>(nv->get<double>()) : (o ? o->job.spec.scenario.nodes : 1);
    if (ImGui::SliderInt("##nodes_slider", &nodes, 1, 1024, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
      doc_erase(s.doc, "chips");
      doc_set(s.doc, "nodes", clamp_to(io::scenario_field("nodes"), nodes));
    }
    remember_rect("nodes");
    step_buttons(s, "nodes");
    ImGui::SameLine();
    ImGui::TextUnformatted("nodes");
    if (o) {
      ImGui::SameLine();
      text_disabled("= " + std::to_string(o->est.chips) + " chips");
    }
  } else {
    const io::Json* cv = doc_get(s.doc, "chips");
    int chips = cv && cv->is_number() ? static_cast<int>(cv->get<double>()) : (e ? e->chips : 1);
    if (ImGui::InputInt("chips##input", &chips, 1, 16)) {
      doc_erase(s.doc, "nodes");
      doc_set(s.doc, "chips", clamp_to(io::scenario_field("chips"), chips));
    }
    remember_rect("chips");
  }
}

void precision_and_batch_fields(AppState& s, const Outcome* o) {
  enum_field(s, "precision", "precision");
  // The chosen precision's peak: its own source (peak_tflops.fp4) as well as the general one.
  const std::string prec = doc_string(s, "precision", std::string(io::scenario_field("precision").default_value));
  if (o) sources_tooltip(s, "accelerator", o->job.spec.scenario.accelerator.id, ("peak_tflops." + prec).c_str());
  if (prec == "fp8") {
    enum_field(s, "FP8 scaling", "fp8_scaling");
    help_marker(field_help(io::scenario_field("fp8_scaling")));
  }

  // Batch.
  {
    const io::Json* gv = doc_get(s.doc, "global_batch");
    long long gb_resolved = o ? o->job.spec.scenario.global_batch : 1024;
    int gb = gv && gv->is_number() ? static_cast<int>(gv->get<double>()) : static_cast<int>(std::min<long long>(gb_resolved, 1 << 30));
    const io::FieldDef& f = io::scenario_field("global_batch");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::InputInt("##global_batch", &gb, 0, 0)) doc_set(s.doc, "global_batch", clamp_to(f, gb));
    remember_rect("global_batch");
    step_buttons(s, "global_batch");
    ImGui::SameLine();
    ImGui::TextUnformatted("global batch");
    help_marker(field_help(f) + " The -/+ buttons step to the next batch that splits over a plan.");
    bool exact = doc_get(s.doc, "global_batch_exact") && doc_get(s.doc, "global_batch_exact")->is_boolean() &&
                 doc_get(s.doc, "global_batch_exact")->get<bool>();
    if (ImGui::Checkbox("exact batch", &exact)) {
      if (exact) doc_set(s.doc, "global_batch_exact", true);
      else doc_erase(s.doc, "global_batch_exact");
    }
    help_marker(field_help(io::scenario_field("global_batch_exact")));
  }
}

// The layers of the first and the last pipeline stage, greyed as the layout the estimate took
// until one is stated.
const std::vector<OptionalField>& stage_fields() {
  using O = const Outcome&;
  static const std::vector<OptionalField> f = {
      {"parallel.first_stage_layers", "first stage", [](O o) { return o.est.first_stage_layers; }},
      {"parallel.last_stage_layers", "last stage", [](O o) { return o.est.last_stage_layers; }}};
  return f;
}

// The plan knobs, each auto or fixed, and the plan the search chose.
void plan_fields(AppState& s, const Outcome* o) {
  const Estimate* e = o ? &o->est : nullptr;
  const ParallelPlan p = e ? e->plan : ParallelPlan{};
  knob(s, "micro-batch", "micro_batch", p.micro_batch);
  knob(s, "tensor (tp)", "parallel.tp", p.tp);
  knob(s, "pipeline (pp)", "parallel.pp", p.pp);
  knob(s, "data (dp)", "parallel.dp", p.dp);
  knob(s, "context (cp)", "parallel.cp", p.cp);
  knob(s, "expert (ep)", "parallel.ep", p.ep);
  knob(s, "virtual stages", "parallel.vpp", p.vpp);
  if (p.pp > 1 || doc_get(s.doc, "parallel.first_stage_layers") || doc_get(s.doc, "parallel.last_stage_layers"))
    for (const auto& f : stage_fields()) optional_field(s, o, f);
  knob(s, "ZeRO stage", "parallel.zero", p.zero);
  {
    const io::Json* v = doc_get(s.doc, "parallel.sequence_parallel");
    int sp = !v || v->is_string() ? 0 : (v->get<bool>() ? 2 : 1);
    const char* sp_names[] = {"auto", "off", "on"};
    ImGui::SetNextItemWidth(field_width() + ImGui::GetFrameHeight() + ImGui::GetFontSize() * 3);
    if (ImGui::Combo("sequence parallel", &sp, sp_names, 3))
      doc_set(s.doc, "parallel.sequence_parallel", sp == 0 ? io::Json("auto") : io::Json(sp == 2));
  }
  ImGui::SetNextItemWidth(field_width() + ImGui::GetFrameHeight() + ImGui::GetFontSize() * 3);
  enum_field(s, "recompute", "recompute");
  help_marker(field_help(io::scenario_field("recompute")));
  const std::string rc = doc_string(s, "recompute", "auto");
  if (rc == "full") {
    const io::Json* v = doc_get(s.doc, "recompute_layers");
    int layers = v && v->is_number_integer() ? v->get<int>() : 0;
    ImGui::SetNextItemWidth(field_width() + ImGui::GetFrameHeight() + ImGui::GetFontSize() * 3);
    if (ImGui::InputInt("recomputed layers (0: all)", &layers)) {
      if (layers > 0) doc_set(s.doc, "recompute_layers", layers);
      else doc_erase(s.doc, "recompute_layers");
    }
    help_marker(field_help(io::scenario_field("recompute_layers")));
  }
  if (e) {
    ImGui::PushTextWrapPos(0.0f);
    text_disabled("chosen: tp " + std::to_string(e->plan.tp) + ", pp " + std::to_string(e->plan.pp) + ", dp " +
                  std::to_string(e->plan.dp) + (e->plan.cp > 1 ? ", cp " + std::to_string(e->plan.cp) : std::string()) +
                  (e->plan.ep > 1 ? ", ep " + std::to_string(e->plan.ep) + io::expert_tp_note(e->plan) : std::string()) +
                  ", ZeRO " + std::to_string(e->plan.zero) + ", micro-batch " +
                  std::to_string(e->plan.micro_batch) + ", recompute " + to_string(e->plan.recompute) +
                  (e->plan.recompute_layers > 0 ? " of " + io::recompute_layers_text(e->plan) : std::string()) +
                  " (" +
                  std::to_string(e->plans_considered) + " plans)");
    ImGui::PopTextWrapPos();
  }
}

// Training mode and amount, framework and numerics.
void training_fields(AppState& s, const Outcome* o, float label_w) {
  ImGui::PushItemWidth(label_w);
  const bool lora = doc_string(s, "training.mode") == "lora";
  if (enum_field(s, "mode", "training.mode") && doc_string(s, "training.mode") != "lora")
    doc_erase(s.doc, "training.lora_rank");
  if (lora) {
    const io::Json* lv = doc_get(s.doc, "training.lora_rank");
    int r = lv && lv->is_number() ? static_cast<int>(lv->get<double>()) : 16;
    if (ImGui::InputInt("LoRA rank", &r)) doc_set(s.doc, "training.lora_rank", clamp_to(io::scenario_field("training.lora_rank"), r));
  }
  const bool by_samples = doc_get(s.doc, "training.samples") != nullptr;
  int amount = by_samples ? 1 : 0;
  if (ImGui::RadioButton("tokens", &amount, 0) && by_samples) {
    doc_erase(s.doc, "training.samples");
    doc_erase(s.doc, "training.epochs");
    doc_set(s.doc, "training.tokens", o ? o->job.spec.scenario.train_tokens : 1e12);
  }
  ImGui::SameLine();
  if (ImGui::RadioButton("samples x epochs", &amount, 1) && !by_samples) {
    doc_erase(s.doc, "training.tokens");
    doc_set(s.doc, "training.samples", 100000);
    doc_set(s.doc, "training.epochs", 1);
  }
  if (!by_samples) {
    const io::Json* tv = doc_get(s.doc, "training.tokens");
    double tokens = tv && tv->is_number() ? tv->get<double>() : 0;
    // "##amount": the radio button above is "tokens" too, and one id would make them one widget.
    if (ImGui::InputDouble("tokens##amount", &tokens, 0, 0, "%.4g") && std::isfinite(tokens))
      doc_set(s.doc, "training.tokens", clamp_to(io::scenario_field("training.tokens"), tokens));
    remember_rect("tokens");
  } else {
    const io::Json* sv = doc_get(s.doc, "training.samples");
    double samples = sv && sv->is_number() ? sv->get<double>() : 0;
    if (ImGui::InputDouble("samples", &samples, 0, 0, "%.6g") && std::isfinite(samples))
      doc_set(s.doc, "training.samples", clamp_to(io::scenario_field("training.samples"), samples));
    const io::Json* ev = doc_get(s.doc, "training.epochs");
    double epochs = ev && ev->is_number() ? ev->get<double>() : 1;
    if (ImGui::InputDouble("epochs", &epochs, 0, 0, "%.4g") && std::isfinite(epochs))
      doc_set(s.doc, "training.epochs", clamp_to(io::scenario_field("training.epochs"), epochs));
  }
  // Framework and numerics.
  std::string fw = doc_string(s, "framework", "");
  const std::string fw_preview = fw.empty() ? (o ? "default (" + o->job.spec.scenario.framework.id + ")" : "default") : fw;
  if (ImGui::BeginCombo("framework", fw_preview.c_str())) {
    if (ImGui::Selectable("default", fw.empty())) doc_erase(s.doc, "framework");
    // Each stack in its own words, its id (what a file or link names) beside it.
    for (const auto& id : frameworks_for(s, doc_string(s, "instance", ""))) {
      const io::FrameworkInfo* info = s.lib.framework_info(id);
      const std::string label = (info && info->name != id ? info->name + "  (" + id + ")" : id) + "##" + id;
      if (ImGui::Selectable(label.c_str(), fw == id)) doc_set(s.doc, "framework", id);
    }
    ImGui::EndCombo();
  }
  if (!fw.empty()) sources_tooltip(s, "framework", fw);
  ImGui::PopItemWidth();
  flag_checkbox(s, "flash attention", "flash_attention");
  ImGui::SameLine();
  flag_checkbox(s, "FP32 master weights", "master_weights");
  flag_checkbox(s, "FP32 loss logits", "fp32_loss_logits");
  // Offered where the stack runs it, and wherever the scenario has it on, so that it can be turned off.
  if (doc_flag(s, "async_tp") || (o && async_tp_available(o->job.spec.scenario))) {
    ImGui::SameLine();
    flag_checkbox(s, "async TP", "async_tp");
    help_marker(field_help(io::scenario_field("async_tp")));
  }
}

// The instance whose bill the savings are measured against.
void baseline_field(AppState& s, float label_w) {
  std::string bl = doc_string(s, "baseline_instance", "");
  ImGui::SetNextItemWidth(label_w);
  auto items = instance_items(s);
  items.insert(items.begin(), {"", "(none)"});
  if (id_picker("savings against", bl, items, s.view.instance_filter)) {
    if (bl.empty())
      doc_erase(s.doc, "baseline_instance");
    else
      doc_set(s.doc, "baseline_instance", bl);
  }
}

}  // namespace

// One field of `obj` drawn from its row of the schema table: a combo of its values (or of the
// known regions, for an id), or a number clamped to its range; unset, the model's default, which
// the row's help names. True when the user changed it.
bool row_control(AppState& s, io::Json& obj, const io::FieldDef& f) {
  const std::string key(f.path.substr(f.path.rfind('.') + 1));
  bool changed = false;
  ImGui::PushID(key.c_str());
  ImGui::SetNextItemWidth(field_width());
  const bool set = obj.is_object() && obj.contains(key);
  if (f.type == io::FieldType::enumeration || f.type == io::FieldType::id) {
    std::vector<std::string> choices(f.values.begin(), f.values.end());
    if (f.type == io::FieldType::id) choices = known_regions(s);
    const std::string current = set && obj[key].is_string() ? obj[key].get<std::string>() : std::string(f.default_value);
    if (ImGui::BeginCombo(key.c_str(), current.c_str())) {
      for (const auto& c : choices)
        if (ImGui::Selectable(c.c_str(), c == current)) obj[key] = c, changed = true;
      ImGui::EndCombo();
    }
  } else {
    double value = set && obj[key].is_number() ? obj[key].get<double>() : NAN;
    if (ImGui::InputDouble(key.c_str(), &value, 0, 0, std::isfinite(value) ? "%.6g" : "default") &&
        std::isfinite(value))
      obj[key] = std::clamp(value, f.min, f.max), changed = true;
    ImGui::SameLine();
    text_disabled(std::string(f.unit));
  }
  if (set) {
    ImGui::SameLine();
    if (ImGui::SmallButton("reset")) obj.erase(key), changed = true;
  }
  help_marker(field_help(f));
  ImGui::PopID();
  return changed;
}

// The storage services, FSx tier and size, and the transfer's regions and sizes: the rows of those
// sections that the overheads list above does not draw.
void storage_and_transfer_fields(AppState& s) {
  for (const char* section : {"overheads.storage", "overheads.transfer"}) {
    const io::Json* cur = doc_get(s.doc, section);
    io::Json obj = cur && cur->is_object() ? *cur : io::Json::object();
    bool changed = false;
    for (const auto& f : io::scenario_fields()) {
      const bool in_section = f.path.rfind(std::string(section) + ".", 0) == 0;
      const bool listed = std::any_of(overhead_fields().begin(), overhead_fields().end(),
                                      [&](const OptionalField& o) { return f.path == o.path; });
      if (in_section && !listed && f.path != "overheads.storage.retention_months") changed = row_control(s, obj, f) || changed;
    }
    if (!changed) continue;
    if (obj.empty()) doc_erase(s.doc, section);
    else doc_set(s.doc, section, obj);
  }
}

// The fields each kind of incident takes, as io/cost_json reads them.
bool incident_takes(const std::string& kind, std::string_view field) {
  if (field == "kind") return true;
  if (kind == "lost_day") return field == "days";
  if (kind == "oom") return field == "hours";
  if (kind == "throughput_regression") return field == "fraction" || field == "days";
  return field == "fraction" || field == "progress";  // failed_runs
}

// The incidents, one block each: its kind and that kind's fields, from the incidents[] rows.
void incidents_editor(AppState& s) {
  const io::Json* cur = doc_get(s.doc, "incidents");
  io::Json list = cur && cur->is_array() ? *cur : io::Json::array();
  bool changed = false;
  int remove = -1;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_object()) continue;
    ImGui::PushID(static_cast<int>(i));
    ImGui::Separator();
    const std::string kind = list[i].value("kind", std::string("oom"));
    for (const auto& f : io::scenario_fields())
      if (f.path.rfind("incidents[].", 0) == 0 && incident_takes(kind, f.path.substr(12)))
        changed = row_control(s, list[i], f) || changed;
    // A new kind keeps only the fields it takes (a lost day has no hours).
    for (const char* k : {"days", "hours", "fraction", "progress"})
      if (!incident_takes(list[i].value("kind", kind), k) && list[i].contains(k)) list[i].erase(k), changed = true;
    if (ImGui::SmallButton("remove incident")) remove = static_cast<int>(i);
    ImGui::PopID();
  }
  if (remove >= 0) list.erase(static_cast<std::size_t>(remove)), changed = true;
  if (ImGui::SmallButton("add incident")) list.push_back({{"kind", "oom"}, {"hours", 4}}), changed = true;
  help_marker(std::string(io::scenario_field("incidents").help));
  if (!changed) return;
  if (list.empty()) doc_erase(s.doc, "incidents");
  else doc_set(s.doc, "incidents", list);
}

void panel_editor(AppState& s) {
  const Outcome* o = shown(s);
  const float label_w = ImGui::GetFontSize() * 16;
  ImGui::PushItemWidth(label_w);
  hardware_fields(s);
  cluster_fields(s, o);
  precision_and_batch_fields(s, o);
  ImGui::PopItemWidth();

  if (ImGui::CollapsingHeader("Parallel plan", ImGuiTreeNodeFlags_DefaultOpen)) plan_fields(s, o);
  if (ImGui::CollapsingHeader("Training amount", ImGuiTreeNodeFlags_DefaultOpen)) training_fields(s, o, label_w);
  if (ImGui::CollapsingHeader("Pricing", ImGuiTreeNodeFlags_DefaultOpen)) pricing_editor(s);
  if (ImGui::CollapsingHeader("Overheads")) {
    for (const auto& f : overhead_fields()) optional_field(s, o, f);
    storage_and_transfer_fields(s);
  }
  if (ImGui::CollapsingHeader("Incidents")) incidents_editor(s);
  if (ImGui::CollapsingHeader("Campaign and deadline")) {
    for (const auto& f : campaign_fields()) optional_field(s, o, f);
    baseline_field(s, label_w);
  }
}

}  // namespace tc::ui
