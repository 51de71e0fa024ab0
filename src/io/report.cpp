#include "io/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/labels.hpp"
#include "core/text.hpp"

namespace tc::io {

std::string format_fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string format_decimal(double v) {
  if (!std::isfinite(v)) return "-";
  if (v == 0) return "0";
  // Ten significant digits, never an exponent: 2.3e-05 reads as 0.000023 in a spreadsheet too.
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  std::string s = format_fixed(v, std::clamp(9 - magnitude, 0, 12));
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

namespace {
std::string pad(const std::string& s, size_t width) { return s + std::string(width - std::min(width - 1, s.size()), ' '); }
}  // namespace


Json estimate_json(const ScenarioSpec& spec, const Estimate& e, const Uncertainty& u) {
  const Scenario& s = spec.scenario;
  Json j;
  if (!spec.name.empty()) j["scenario"] = spec.name;
  j["model"] = spec.model_id;
  j["instance"] = spec.instance_id;
  j["accelerator"] = s.accelerator.id;
  j["nodes"] = s.nodes;
  j["chips"] = e.chips;
  j["devices"] = e.devices;
  j["precision"] = to_string(s.precision);
  if (s.precision == Precision::fp8) j["fp8_scaling"] = to_string(s.fp8_scaling);
  j["framework"] = s.framework.id;
  j["async_tp"] = runs_async_tp(s);
  const ParallelPlan& p = e.plan;
  j["plan"] = {{"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"cp", p.cp}, {"ep", p.ep},
               {"vpp", p.vpp}, {"sequence_parallel", p.sequence_parallel}, {"zero", p.zero},
               {"micro_batch", p.micro_batch}, {"recompute", to_string(p.recompute)},
               {"recompute_layers", p.recompute_layers},
               {"grad_accum", e.grad_accum}, {"expert_tp", expert_tp(p)}};
  if (p.first_stage_layers >= 0) j["plan"]["first_stage_layers"] = p.first_stage_layers;
  if (p.last_stage_layers >= 0) j["plan"]["last_stage_layers"] = p.last_stage_layers;
  j["plans_considered"] = e.plans_considered;
  j["splits_compared"] = e.splits_compared;
  j["global_batch"] = e.global_batch;  // the scenario's, or the nearest that splits (a warning says so)
  j["params"] = e.params;
  j["active_params"] = e.active_params;
  j["step_time_s"] = e.step_time_s;
  Json b = Json::object();
  for (const auto& t : e.breakdown_s) b[t.name] = t.value;
  j["breakdown_s"] = b;
  j["tokens_per_s"] = e.tokens_per_s;
  j["samples_per_s"] = e.samples_per_s;
  j["tokens_per_s_per_chip"] = e.tokens_per_s_per_chip;
  j["mfu"] = e.mfu;
  j["hfu"] = e.hfu;
  j["tflops_per_chip"] = e.tflops_per_chip;
  j["model_flops_per_step"] = e.model_flops_per_step;
  j["hardware_flops_per_step"] = e.hardware_flops_per_step;
  const Memory& m = e.memory;
  j["memory_gib_per_device"] = {{"weights", m.weights_gib}, {"gradients", m.gradients_gib},
                                {"optimizer", m.optimizer_gib}, {"activations", m.activations_gib},
                                {"other", m.other_gib}, {"total", m.total_gib},
                                {"capacity", m.capacity_gib}};
  j["fits"] = m.fits;
  j["max_micro_batch"] = m.max_micro_batch;
  j["steps"] = e.steps;
  j["train_time_s"] = e.train_time_s;
  j["checkpoint_bytes"] = e.checkpoint_bytes;
  j["uncertainty"] = uncertainty_json(u, e);
  j["warnings"] = e.warnings;
  if (!u.note.empty()) j["warnings"].push_back("uncertainty: " + u.note);
  return j;
}

std::string format_si(double v) {
  if (!std::isfinite(v)) return "-";
  const char* units[] = {"", " k", " M", " G", " T", " P", " E"};
  int i = 0;
  double a = std::fabs(v);
  while (a >= 1000 && i < 6) {
    a /= 1000;
    v /= 1000;
    ++i;
  }
  return format_fixed(v, a < 10 ? 2 : a < 100 ? 1 : 0) + units[i];
}

std::string expert_tp_note(const ParallelPlan& p) {
  return expert_tp(p) != p.tp ? " (expert tp " + std::to_string(expert_tp(p)) + ")" : "";
}

std::string recompute_layers_text(const ParallelPlan& p) {
  if (p.recompute_layers <= 0) return "";
  return std::to_string(p.recompute_layers) + " layers a stage";
}

std::string estimate_text(const ScenarioSpec& spec, const Estimate& e, const Uncertainty& u) {
  const Scenario& s = spec.scenario;
  std::ostringstream o;
  if (!spec.name.empty()) o << spec.name << "\n";
  o << (s.model.name.empty() ? spec.model_id : s.model.name) << " (" << format_si(e.params) << " parameters) on "
    << s.nodes << " x " << spec.instance_id << " = " << e.chips << " " << s.accelerator.name << ", "
    << to_string(s.precision) << (rowwise_fp8(s) ? " (rowwise)" : "")
    << (runs_async_tp(s) ? ", async TP" : "") << "\n";
  const ParallelPlan& p = e.plan;
  o << "plan: tp " << p.tp << ", pp " << p.pp << " (vpp " << p.vpp
    << (p.first_stage_layers >= 0 ? "; first stage: " + layers_text(p.first_stage_layers) : "")
    << (p.last_stage_layers >= 0 ? "; last stage: " + layers_text(p.last_stage_layers) : "")
    << "), dp " << p.dp << ", cp "
    << p.cp << ", ep " << p.ep << expert_tp_note(p)
    << ", ZeRO " << p.zero << (p.sequence_parallel ? ", SP" : "")
    << ", micro-batch " << p.micro_batch << " x " << e.grad_accum << " accumulation, recompute "
    << to_string(p.recompute)
    << (p.recompute_layers > 0 ? " (" + recompute_layers_text(p) + ")" : std::string())
    << "  (" << e.plans_considered << " plans considered)\n\n";
  o << "step time       " << format_duration(e.step_time_s) << "\n";
  o << "throughput      " << format_si(e.tokens_per_s) << " tokens/s, "
    << format_si(e.tokens_per_s_per_chip) << " tokens/s per chip\n";
  o << "utilization     MFU " << format_fixed(100 * e.mfu, 1) << "%, HFU " << format_fixed(100 * e.hfu, 1)
    << "%, " << format_fixed(e.tflops_per_chip, 0) << " TFLOP/s per chip\n";
  o << "training        " << format_si(e.steps) << " steps, " << format_duration(e.train_time_s)
    << "\n";
  const BandFactors f = band_factors(u, e);
  o << "uncertainty     typically within " << format_fixed(100 * u.mean_abs_error, 0) << "% (" << u.basis
    << "); step time " << band_range(f, e.step_time_s, BandSide::time, format_duration) << "\n";
  if (!u.note.empty()) o << "                " << u.note << "\n";
  o << "\nwhere a step goes\n";
  for (const auto& t : e.breakdown_s) {
    if (t.value <= 0) continue;
    o << "  " << pad(plain_label(t.name), 34) << format_duration(t.value) << "  "
      << format_fixed(100 * t.value / e.step_time_s, 1) << "%\n";
  }
  const Memory& m = e.memory;
  o << "\nmemory per device " << format_fixed(m.total_gib, 1) << " of " << format_fixed(m.capacity_gib, 1)
    << " GiB" << (m.fits ? " (fits)" : " (DOES NOT FIT)") << ": weights " << format_fixed(m.weights_gib, 1)
    << ", gradients " << format_fixed(m.gradients_gib, 1) << ", optimizer " << format_fixed(m.optimizer_gib, 1)
    << ", activations " << format_fixed(m.activations_gib, 1) << ", other " << format_fixed(m.other_gib, 1)
    << "; largest micro-batch that fits: " << m.max_micro_batch << "\n";
  for (const auto& w : e.warnings) o << "warning: " << w << "\n";
  return o.str();
}

namespace {

void wall_text(std::ostringstream& o, const char* title, const WallTime& w) {
  o << "\n" << title << "  " << format_duration(w.total_s) << "\n";
  for (const auto& t : w.terms)
    if (t.value > 0) o << "  " << pad(plain_label(t.name), 26) << format_duration(t.value) << "\n";
}


// A bill as a finance reader checks it: every line as quantity x rate, the tiers' hours and
// rates, per run, per month, per token, and what is free or assumed.
void bill_text(std::ostringstream& o, const Bill& b) {
  o << "\nbill (" << b.kind << (b.instance_id.empty() ? "" : ", " + b.instance_id) << ", "
    << format_fixed(b.runs, b.runs == static_cast<long long>(b.runs) ? 0 : 2) << (b.runs == 1 ? " run" : " runs")
    << ")  " << (b.priced ? format_usd(b.total_usd) : std::string("incomplete: unpriced hours")) << "\n";
  for (const auto& l : b.lines)
    o << "  " << pad(plain_label(l.item), 36) << format_usd(l.usd) << "  = " << format_fixed(l.quantity, l.quantity < 100 ? 2 : 0)
      << " " << l.unit << " x " << format_usd(l.usd_per_unit) << " (" << l.detail << ")\n";
  for (const auto& t : b.tiers) {
    o << "  tier " << plain_label("instance." + t.tier)
      << (t.billed_tier != t.tier ? " (billed as " + plain_label("instance." + t.billed_tier) + ")" : "") << ": "
      << format_fixed(100 * t.share, 1) << "% of the hours, " << format_fixed(t.instance_hours, 0) << " instance-hours";
    if (t.priced)
      o << " x " << format_usd(t.usd_per_hour) << "/h" << (t.region.empty() ? "" : " in " + t.region)
        << (t.date.empty() ? "" : " (" + t.date + ")");
    else
      o << ": no public price";
    o << "\n";
  }
  if (b.priced) {
    o << "  " << pad("per run", 28) << format_usd(b.usd_per_run) << "\n";
    o << "  " << pad("per month", 28) << format_usd(b.usd_per_month) << "  (" << format_fixed(b.campaign_months, 2)
      << " months of campaign)\n";
    if (b.tokens > 0) o << "  " << pad("per 1M tokens", 28) << format_usd(b.usd_per_million_tokens) << "\n";
  }
  for (const auto& n : b.notes) o << "  note: " << n << "\n";
}

void owned_text(std::ostringstream& o, const CostResult& c) {
  const Bill& ob = *c.owned;
  if (c.owned_wall) wall_text(o, "wall time of a run on the owned cluster", *c.owned_wall);
  bill_text(o, ob);
  o << "  " << pad("per year", 28) << format_usd(ob.usd_per_year) << "  (" << format_usd(ob.usd_per_node_hour)
    << " per node-hour, idle hours included)\n";
  o << "  cost of ownership over the horizon " << format_usd(ob.tco_usd_horizon) << ":";
  for (const auto& t : ob.tco_usd_by_item) o << " " << plain_label(t.name) << " " << format_usd(t.value) << ";";
  o << "\n  break-even: " << ob.break_even_note << "\n";
}

void deadline_and_payback(std::ostringstream& o, const CostReport& r) {
  const CostResult& c = r.result;
  if (c.deadline)
    o << "\ndeadline " << format_duration(c.deadline->deadline_s) << ": a run takes " << format_duration(c.deadline->wall_s)
      << (c.deadline->meets ? ", in time with " + format_duration(c.deadline->margin_s) + " to spare"
                            : ", late by " + format_duration(-c.deadline->margin_s))
      << "\n";
  if (!r.baseline) return;
  const BaselineComparison& p = *r.baseline;
  o << "\nagainst " << p.baseline_instance << ": ";
  if (!p.priced) {
    o << "no saving computed (unpriced hours)\n";
    return;
  }
  o << format_usd(p.usd_per_run) << " vs " << format_usd(p.baseline_usd_per_run) << " a run ("
    << format_fixed(100 * p.saving_fraction, 1) << "% saved, " << format_usd(p.saving_usd_per_month) << " a month); ";
  if (p.payback_months)
    o << "the " << format_usd(p.engineering_usd) << " migration pays back in " << format_fixed(*p.payback_months, 1)
      << " months\n";
  else
    o << "the " << format_usd(p.engineering_usd) << " migration never pays back (no monthly saving)\n";
}

}  // namespace

Table bill_table(const CostReport& r) {
  Table t;
  t.header = {"bill", "instance", "item", "label", "quantity", "unit", "usd_per_unit", "usd", "detail"};
  auto add = [&](const Bill& b) {
    for (const auto& l : b.lines)
      t.rows.push_back({b.kind, b.instance_id, l.item, plain_label(l.item), format_decimal(l.quantity), l.unit,
                        format_decimal(l.usd_per_unit), format_fixed(l.usd, 2), l.detail});
    t.rows.push_back({b.kind, b.instance_id, "total", "total", "", "", "", b.priced ? format_fixed(b.total_usd, 2) : "-",
                      b.priced ? "" : "incomplete: unpriced hours"});
  };
  add(r.result.bill);
  if (r.result.owned) add(*r.result.owned);
  return t;
}

std::string cost_text(const CostReport& r) {
  const CostResult& c = r.result;
  const Bill& b = c.bill;
  std::ostringstream o;
  wall_text(o, "wall time of a run", c.wall);
  bill_text(o, b);
  if (b.energy_known)
    o << "energy " << format_fixed(b.energy_kwh, 0) << " kWh, " << format_fixed(b.co2e_kg, 0) << " kg CO2e\n";
  if (c.owned) owned_text(o, c);
  deadline_and_payback(o, r);
  if (!r.claims.empty()) o << "\n" << describe(count_verdicts(r.claims)) << "\n";
  for (const auto& cl : r.claims) {
    o << "\nclaim" << (cl.id.empty() ? "" : " " + cl.id) << ": " << cl.text << "\n  verdict: " << to_string(cl.verdict) << "\n";
    for (const auto& why : cl.reasons) o << "  - " << why << "\n";
  }
  for (const auto& w : c.warnings) o << "warning: " << w << "\n";
  return o.str();
}

namespace {
// Header, an optional rule under it, then every row, each appended by `line`. Plain strings, not
// streams: the web page exports tables, and an ostringstream links libc++'s locales into it.
template <class Line>
std::string render(const Table& t, Line line, const std::string& rule = "") {
  std::string o;
  line(o, t.header);
  o += rule;
  for (const auto& r : t.rows) line(o, r);
  return o;
}

// Cells carry text from inputs (ids, model names): a control character there (an ANSI escape, a
// carriage return) would act on the terminal or break the row, so every format shows it as \u00XX.
Table printable(const Table& t) {
  auto clean = [](std::vector<std::string>& cells) {
    for (auto& c : cells) {
      if (std::none_of(c.begin(), c.end(), [](char ch) { return (ch >= 0 && ch < 0x20) || ch == 0x7f; })) continue;
      std::string v;
      for (char ch : c) {
        if ((ch >= 0 && ch < 0x20) || ch == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(ch)));
          v += buf;
        } else {
          v += ch;
        }
      }
      c = v;
    }
  };
  Table out = t;
  clean(out.header);
  for (auto& r : out.rows) clean(r);
  return out;
}
}  // namespace

std::string table_text(const Table& raw) {
  const Table t = printable(raw);
  std::vector<size_t> w(t.header.size(), 0);
  auto widen = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
  };
  widen(t.header);
  for (const auto& r : t.rows) widen(r);
  return render(t, [&](std::string& o, const std::vector<std::string>& r) {
    for (size_t i = 0; i < w.size(); ++i) {
      const std::string cell = i < r.size() ? r[i] : "";
      o += cell + std::string(w[i] - cell.size() + (i + 1 < w.size() ? 2 : 0), ' ');
    }
    o += "\n";
  });
}

std::string table_csv(const Table& raw) {
  const Table t = printable(raw);
  // RFC 4180 quoting; a leading = + - @ is neutralised so a spreadsheet never runs a formula.
  auto cell = [](const std::string& c) {
    std::string v = c;
    const bool number = whole_number(v).has_value();
    if (!number && !v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@'))
      v = "'" + v;
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char ch : v) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  return render(t, [&](std::string& o, const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size(); ++i) o += (i ? "," : "") + cell(r[i]);
    o += "\n";
  });
}

std::string table_markdown(const Table& raw) {
  const Table t = printable(raw);
  auto cell = [](const std::string& c) {
    std::string v;
    for (char ch : c) v += ch == '|' ? std::string("\\|") : ch == '\n' ? std::string(" ") : std::string(1, ch);
    return v;
  };
  std::string rule = "|";
  for (size_t i = 0; i < t.header.size(); ++i) rule += "---|";
  return render(
      t,
      [&](std::string& o, const std::vector<std::string>& r) {
        o += "|";
        for (const auto& c : r) o += " " + cell(c) + " |";
        o += "\n";
      },
      rule + "\n");
}

}  // namespace tc::io
