// The DOM mirror's text beyond the headline rows (mirror_json in app_state.cpp): what a sighted
// user reads on the canvas (band, warnings, bill lines, claim verdicts, banners) and the main
// inputs with their choices, which the page turns into real HTML controls (web/app.js).
#include <cmath>
#include <optional>

#include "core/claims.hpp"
#include "io/json_util.hpp"
#include "io/schema.hpp"
#include "ui/format.hpp"
#include "ui/mirror.hpp"

namespace tc::ui {

namespace {

// The band as the headline cards give it: times and bills scale with the throughput error of
// published runs of the same accelerator (src/io/uncertainty).
std::string band_text(const Outcome& o) {
  const io::Uncertainty& u = o.band;
  const io::BandFactors f = io::band_factors(u, o.est);
  std::string t = "Typically within " + fmt_fixed(100 * u.mean_abs_error, 0) + "% (" + u.basis + ")";
  if (o.cost) {
    const auto& r = o.cost->result;
    t += "; wall time " + io::band_range(f, r.wall.total_s, io::BandSide::time, fmt_duration);
    if (r.bill.priced) t += ", bill " + io::band_range(f, r.bill.total_usd, io::BandSide::time, fmt_usd);
  }
  t += "; MFU " + io::band_range(f, o.est.mfu, io::BandSide::speed, [](double v) { return fmt_percent(v); }) + ".";
  if (!u.note.empty()) t += " " + u.note + ".";
  return t;
}

io::Json bill_lines(const Bill& b) {
  io::Json lines = io::Json::array();
  for (const auto& l : b.lines)
    lines.push_back(l.item + ": " + fmt_fixed(l.quantity, l.quantity < 100 ? 2 : 0) + " " + l.unit + " x " +
                    fmt_usd(l.usd_per_unit) + " = " + fmt_usd(l.usd) + (l.detail.empty() ? "" : " (" + l.detail + ")"));
  lines.push_back("Total: " + (b.priced ? fmt_usd(b.total_usd) : std::string("not priced")));
  return lines;
}

io::Json choices(const std::vector<std::pair<std::string, std::string>>& items) {
  io::Json c = io::Json::array();
  for (const auto& [id, name] : items) c.push_back({{"value", id}, {"label", name}});
  return c;
}

// The value an input shows: the scenario's own, else what the model resolved it to.
io::Json input_value(const AppState& s, const char* path, const Outcome* o) {
  if (const io::Json* v = doc_get(s.doc, path)) return *v;
  if (!o) return nullptr;
  const std::string p = path;
  if (p == "nodes") return o->job.spec.scenario.nodes;
  if (p == "global_batch") return o->job.spec.scenario.global_batch;
  if (p == "precision") return std::string(io::scenario_field("precision").default_value);
  return nullptr;
}

}  // namespace

const std::vector<std::string>& mirror_input_paths() {
  static const std::vector<std::string> paths = {"model", "instance", "nodes", "precision", "global_batch"};
  return paths;
}

void add_mirror_details(io::Json& j, const AppState& s) {
  const Outcome* o = shown(s);
  io::Json warnings = io::Json::array(), bill = io::Json::array(), claims = io::Json::array();
  if (o) {
    j["band"] = band_text(*o);
    for (const auto& w : io::plain_warnings(*o)) warnings.push_back(w);
    if (o->cost) {
      bill = bill_lines(o->cost->result.bill);
      for (const auto& c : o->cost->claims)
        claims.push_back(std::string(to_string(c.verdict)) + ": " + c.text +
                         (c.reasons.empty() ? "" : " (" + c.reasons.front() + ")"));
    }
  }
  j["warnings"] = warnings;
  j["bill"] = bill;
  j["claims"] = claims;
  io::Json banners = io::Json::array();
  for (const auto& b : s.banners) banners.push_back(io::plain_message(b.text));
  j["banners"] = banners;

  std::vector<std::pair<std::string, std::string>> models, instances, precisions;
  for (const auto& m : s.lib.models) models.emplace_back(m.id, m.name);
  for (const auto& i : s.lib.instances) instances.emplace_back(i.id, i.name);
  for (const auto v : io::scenario_field("precision").values) precisions.emplace_back(std::string(v), std::string(v));
  io::Json inputs = io::Json::array();
  for (const auto& path : mirror_input_paths()) {
    const io::FieldDef& f = io::scenario_field(path);
    io::Json in = {{"path", path}, {"label", path == "global_batch" ? "global batch (sequences per step)" : path},
                   {"value", input_value(s, path.c_str(), o)}, {"help", std::string(f.help)}};
    if (path == "model") in["choices"] = choices(models);
    if (path == "instance") in["choices"] = choices(instances);
    if (path == "precision") in["choices"] = choices(precisions);
    if (path == "nodes" || path == "global_batch") {
      in["min"] = f.min;
      in["max"] = f.max;
    }
    inputs.push_back(std::move(in));
  }
  j["inputs"] = inputs;
}

bool set_mirror_input(AppState& s, const std::string& path, const std::string& text) {
  bool known = false;
  for (const auto& p : mirror_input_paths()) known = known || p == path;
  if (!known) return false;
  if (path == "nodes" || path == "global_batch") {
    // A whole number goes in as a number; anything else as typed, so that the scenario's own
    // check names the field ("nodes: must be a number"), as an imported file's would.
    const std::optional<double> n = io::whole_number(text);
    const double v = n.value_or(0);
    const bool whole = n && v == std::floor(v) && std::fabs(v) < 1e15;
    if (path == "nodes") doc_erase(s.doc, "chips");
    doc_set(s.doc, path, whole ? io::Json(static_cast<long long>(v)) : io::Json(text));
  } else if (path == "instance") {
    set_instance(s, text);
  } else {
    doc_set(s.doc, path, text);
  }
  return true;
}

}  // namespace tc::ui
