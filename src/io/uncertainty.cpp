#include "io/uncertainty.hpp"

#include <algorithm>
#include <string_view>

#include "core/estimate.hpp"
#include "core/text.hpp"

namespace tc::io {

namespace {

const Json& table() {
  static const Json doc = parse_embedded("presets/accuracy/uncertainty.json");
  return doc;
}

const Json* find_any_group(const std::string& acc, const std::string& fw) {
  const Json& t = table();
  if (!t.contains("groups")) return nullptr;
  for (const auto& g : t["groups"])
    if (g.value("accelerator", "") == acc && g.value("framework", "") == fw) return &g;
  return nullptr;
}

// A p10-p90 band promises 80% only from 9 errors up: split-conformal edges are the order
// statistics of rank floor(0.1 (n+1)) and ceil(0.9 (n+1)), and below n = 9 they are the extremes,
// which hold a new error with probability (n-1)/(n+1) < 0.8 (Lei et al. 2018, Section 2).
constexpr int kMinBandRuns = 9;

const Json* find_group(const std::string& acc, const std::string& fw) {
  const Json* g = find_any_group(acc, fw);
  return g && g->value("runs", 0) >= kMinBandRuns ? g : nullptr;
}

int group_runs(const std::string& acc, const std::string& fw) {
  const Json* g = find_any_group(acc, fw);
  return g ? g->value("runs", 0) : 0;
}

void add_note(Uncertainty& u, const std::string& note) { append_item(u.note, note, "; "); }

// Widens the band by the spread of another group's errors (they compound).
void widen_by(Uncertainty& u, const Json& group) {
  u.error_low += std::min(0.0, group["error_p10"].get<double>());
  u.error_high += std::max(0.0, group["error_p90"].get<double>());
  u.mean_abs_error += group["mean_abs_error"].get<double>();
}

void scale(Uncertainty& u, double factor) {
  u.error_low *= factor;
  u.error_high *= factor;
  u.mean_abs_error *= factor;
}

}  // namespace

Uncertainty uncertainty_for(const Scenario& s) {
  Uncertainty u;
  std::string acc = s.accelerator.id;
  u.covered = find_group(acc, "") != nullptr;
  const int own_runs = group_runs(acc, "");
  const std::string own = own_runs > 0 ? "too few published runs for " + acc + " for a band (" +
                                             std::to_string(own_runs) + " predicted out of sample)"
                                       : "no published runs for " + acc;
  if (!u.covered) {
    const Json& t = table();
    if (t.contains("relatives") && t["relatives"].contains(acc)) acc = t["relatives"][acc].get<std::string>();
  }
  const Json* g = find_group(acc, s.framework.id);
  const bool with_framework = g != nullptr;
  if (!g) g = find_group(acc, "");
  if (!g) {
    // Nothing to go by: say so, with a wide band rather than none.
    u.error_low = -0.5;
    u.error_high = 0.5;
    u.basis = "no published runs";
    u.note = "no published runs for " + s.accelerator.id + " or a close relative: treat as a rough guess";
    return u;
  }
  u.runs = (*g)["runs"].get<int>();
  u.mean_abs_error = (*g)["mean_abs_error"].get<double>();
  u.error_low = std::min(0.0, (*g)["error_p10"].get<double>());
  u.error_high = std::max(0.0, (*g)["error_p90"].get<double>());
  u.basis = acc + (with_framework ? " with " + s.framework.id : "") + ": " + std::to_string(u.runs) +
            " published runs";
  if (!u.covered) {
    // Outside the data: the relative's band, widened by what leave-one-source-out measured for an
    // accelerator whose runs were held out and which was predicted from its relative's fit
    // (docs/accuracy.md); doubled when that measurement is missing.
    const Json& t = table();
    if (t.contains("unseen") && t["unseen"].contains("from_relative")) {
      const Json& n = t["unseen"]["from_relative"];
      widen_by(u, n);
      add_note(u, own + "; band from " + acc +
                      ", widened by the error of accelerators predicted from a relative's calibration (" +
                      std::to_string(n["runs"].get<int>()) + " held-out runs)");
      // Its calibration says where it came from (scripts/calibrate.py writes it).
      if (s.accelerator.cal.fitted_on.rfind("derived from microbenchmarks", 0) == 0)
        add_note(u, "extrapolated from microbenchmarks: its efficiencies come from its own kernel "
                    "benchmarks and Trainium1's measured software gap");
    } else {
      scale(u, 2);
      add_note(u, own + "; band from " + acc + ", doubled");
    }
  }
  // A framework never measured on this accelerator (or its relative) carries its efficiency over
  // from other accelerators: widen by that framework's spread there, or by half without any.
  if (!with_framework) {
    const int few = group_runs(acc, s.framework.id);
    const std::string measured = few > 0 ? "too few published " + s.framework.id + " runs on " + acc +
                                               " for a band (" + std::to_string(few) + " predicted out of sample)"
                                         : "no published " + s.framework.id + " runs on " + acc;
    if (const Json* f = find_group("", s.framework.id)) {
      widen_by(u, *f);
      add_note(u, measured + ": band widened by " + s.framework.id + "'s error on every accelerator (" +
                      std::to_string((*f)["runs"].get<int>()) + " runs)");
    } else {
      scale(u, 1.5);
      add_note(u, (few > 0 ? measured : "no published runs with framework " + s.framework.id) +
                      ": band widened by half");
    }
  }
  // Far outside the shapes and cluster sizes of the published runs (beyond twice their span).
  const Json& t = table();
  if (t.contains("coverage")) {
    const std::pair<const char*, double> dims[] = {
        {"hidden", s.model.hidden}, {"layers", s.model.layers},
        {"seq_len", tokens_per_sample(s.model)}, {"chips", chips_of(s)}};
    for (const auto& [name, v] : dims) {
      if (!t["coverage"].contains(name)) continue;
      const double lo = t["coverage"][name][0].get<double>(), hi = t["coverage"][name][1].get<double>();
      if (v >= lo / 2 && v <= hi * 2) continue;
      scale(u, 1.5);
      add_note(u, name + (" " + format_number(v)) + " is far outside the published runs (" + format_number(lo) +
                      " to " + format_number(hi) + "): band widened by half");
    }
  }
  if (s.model.kind != ModelKind::decoder) {
    scale(u, 1.5);
    add_note(u, std::string("no published ") + to_string(s.model.kind) + " runs: band widened by half");
  }
  return u;
}

BandFactors band_factors(const Uncertainty& u, const Estimate& e) {
  // A run that was err too fast in the model (predicted / measured - 1 = err) really takes
  // time x (1 + err): the error band maps to a band on times and throughput. Bounded whatever the
  // widening compounded to: 0 < low <= estimate <= high, and no band promises a utilisation above
  // the peak (a run cannot be faster than its hardware allows).
  const double lo = std::clamp(1 + u.error_low, 0.05, 1.0);
  BandFactors f;
  f.slower = std::max(1.0, 1 + u.error_high);
  f.faster = e.hfu > 0 ? std::min(1 / lo, std::max(1.0, 1 / e.hfu)) : 1 / lo;
  return f;
}

Json uncertainty_json(const Uncertainty& u, const Estimate& e) {
  const BandFactors f = band_factors(u, e);
  Json j;
  j["tokens_per_s"] = {e.tokens_per_s / f.slower, e.tokens_per_s * f.faster};
  j["step_time_s"] = {e.step_time_s / f.faster, e.step_time_s * f.slower};
  j["train_time_s"] = {e.train_time_s / f.faster, e.train_time_s * f.slower};
  j["mfu"] = {e.mfu / f.slower, e.mfu * f.faster};
  j["typical_error"] = u.mean_abs_error;
  j["runs"] = u.runs;
  j["basis"] = u.basis;
  j["covered"] = u.covered;
  j["note"] = u.note;
  return j;
}

}  // namespace tc::io
