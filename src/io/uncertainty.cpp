#include "io/uncertainty.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/estimate.hpp"
#include "core/text.hpp"

namespace tc::io {

namespace {

constexpr double kMaxBandError = 100;  // a signed error of +10,000%: beyond any band worth showing
constexpr int kMaxBandRuns = 1000000;

// A group's accelerator or framework: an id, or "" for any.
void check_key_or_any(const Json& g, const char* key, const std::string& path) {
  const Json& v = require_key(g, key, path);
  if (!v.is_string() || !v.get_ref<const std::string&>().empty())
    to_string_value(v, path_key(path, key), kMaxIdLength);
}

const std::vector<std::string_view> kModelClasses = {"moe", "dense", "encoder", "vit"};

void check_group(const Json& g, const std::string& path, bool keyed) {
  require_object(g, path);
  if (keyed) {
    check_keys(g, path, {"accelerator", "framework", "model_class", "runs", "mean_abs_error", "error_p10", "error_p90"});
    check_key_or_any(g, "accelerator", path);
    check_key_or_any(g, "framework", path);
    // A class of model, or "" (as absent) for any.
    if (has_key(g, "model_class") && g["model_class"] != "") get_enum(g, "model_class", path, kModelClasses);
  } else {
    check_keys(g, path, {"accelerators", "runs", "mean_abs_error", "error_p10", "error_p90"});  // "accelerators": for readers
  }
  get_int(g, "runs", path, 0, kMaxBandRuns);
  get_number(g, "mean_abs_error", path, 0, kMaxBandError);
  // Signed errors as the report wrote them; uncertainty_for keeps 0 inside the band it builds.
  const double lo = get_number(g, "error_p10", path, -1, kMaxBandError);
  const double hi = get_number(g, "error_p90", path, -1, kMaxBandError);
  if (lo > hi) throw InputError(path_key(path, "error_p10"), "must not exceed error_p90 (" + format_number(hi) + ")");
}

// A group of an accelerator, a framework ("" for any) and a class of model ("" for any).
const Json* find_any_group(const BandTable& t, const std::string& acc, const std::string& fw,
                           const std::string& cls = "") {
  for (const auto& g : t.doc["groups"])
    if (g["accelerator"] == acc && g["framework"] == fw && g.value("model_class", "") == cls) return &g;
  return nullptr;
}

// A p10-p90 band promises 80% only from 9 errors up: split-conformal edges are the order
// statistics of rank floor(0.1 (n+1)) and ceil(0.9 (n+1)), and below n = 9 they are the extremes,
// which hold a new error with probability (n-1)/(n+1) < 0.8 (Lei et al. 2018, Section 2).
constexpr int kMinBandRuns = 9;

const Json* find_group(const BandTable& t, const std::string& acc, const std::string& fw, const std::string& cls = "") {
  const Json* g = find_any_group(t, acc, fw, cls);
  return g && (*g)["runs"].get<int>() >= kMinBandRuns ? g : nullptr;
}

int group_runs(const BandTable& t, const std::string& acc, const std::string& fw, const std::string& cls = "") {
  const Json* g = find_any_group(t, acc, fw, cls);
  return g ? (*g)["runs"].get<int>() : 0;
}

void add_note(Uncertainty& u, const std::string& note) { append_item(u.note, note, "; "); }

// Widens the band by the spread of another group's errors, independent of the band's own. For
// centred, roughly normal errors the p10 and p90 edges and the mean absolute error of a sum are
// those of each part added in quadrature (the variances add); adding the edges themselves gave
// bands that held 97% of the runs of sources left out (docs/accuracy.md), not 80%.
// (Errors are read at most 100 and grow by small factors: their squares cannot overflow.)
double in_quadrature(double a, double b) { return std::sqrt(a * a + b * b); }

void widen_by(Uncertainty& u, const Json& group) {
  u.error_low = -in_quadrature(std::min(0.0, u.error_low), std::min(0.0, group["error_p10"].get<double>()));
  u.error_high = in_quadrature(std::max(0.0, u.error_high), std::max(0.0, group["error_p90"].get<double>()));
  u.mean_abs_error = in_quadrature(u.mean_abs_error, group["mean_abs_error"].get<double>());
}

void scale(Uncertainty& u, double factor) {
  u.error_low *= factor;
  u.error_high *= factor;
  u.mean_abs_error *= factor;
}

}  // namespace

BandTable parse_band_table(const Json& doc, const std::string& label) {
  const std::string base = label + ": ";
  require_object(doc, label);
  check_keys(doc, base, {"schema", "about", "generated", "groups", "relatives", "unseen", "coverage", "layout_error"});
  const std::string gp = path_key(base, "groups");
  const Json& groups = get_array(doc, "groups", base, 10000);
  for (std::size_t i = 0; i < groups.size(); ++i) check_group(groups[i], path_index(gp, i), true);
  const std::string rp = path_key(base, "relatives");
  for (const auto& [acc, rel] : get_object(doc, "relatives", base).items())
    to_string_value(rel, path_key(rp, shown_key(acc)), kMaxIdLength);
  const std::string up = path_key(base, "unseen");
  const Json& unseen = get_object(doc, "unseen", base);
  check_keys(unseen, up, {"from_relative"});
  if (has_key(unseen, "from_relative")) check_group(unseen["from_relative"], path_key(up, "from_relative"), false);
  const std::string cp = path_key(base, "coverage");
  const Json& coverage = get_object(doc, "coverage", base);
  check_keys(coverage, cp, {"hidden", "layers", "seq_len", "chips"});
  for (const auto& [dim, span] : coverage.items()) {
    const std::string p = path_key(cp, dim);
    if (!span.is_array() || span.size() != 2) throw InputError(p, "must be [low, high] (got " + describe_value(span) + ")");
    const double hi = to_positive(span[1], path_index(p, 1), 1e15);
    if (to_positive(span[0], path_index(p, 0), 1e15) > hi)
      throw InputError(path_index(p, 0), "must not exceed " + format_number(hi));
  }
  if (has_key(doc, "layout_error")) {
    const std::string lp = path_key(base, "layout_error");
    const Json& le = get_object(doc, "layout_error", base);
    check_keys(le, lp, {"sigma", "jobs", "layouts"});
    get_number(le, "sigma", lp, 0, kMaxLayoutErrorSigma);
    get_int(le, "jobs", lp, 0, 100000);
    get_int(le, "layouts", lp, 0, 100000);
  }
  return {doc};
}

double layout_error_sigma(const BandTable& t) {
  return has_key(t.doc, "layout_error") ? t.doc["layout_error"]["sigma"].get<double>() : 0.0;
}

const BandTable& builtin_band_table() {
  static const std::string path = "presets/accuracy/uncertainty.json";
  static const BandTable t = parse_band_table(parse_embedded(path), path);
  return t;
}

namespace {

// Far outside the shapes and cluster sizes of the published runs (beyond twice their span).
void widen_outside_published_shapes(Uncertainty& u, const Scenario& s, const BandTable& t) {
  const std::pair<const char*, double> dims[] = {
      {"hidden", s.model.hidden}, {"layers", s.model.layers},
      {"seq_len", tokens_per_sample(s.model)}, {"chips", chips_of(s)}};
  const Json& span = t.doc["coverage"];
  for (const auto& [name, v] : dims) {
    if (!span.contains(name)) continue;
    const double lo = span[name][0].get<double>(), hi = span[name][1].get<double>();
    if (v >= lo / 2 && v <= hi * 2) continue;
    scale(u, 1.5);
    add_note(u, name + (" " + format_number(v)) + " is far outside the published runs (" + format_number(lo) +
                    " to " + format_number(hi) + "): band widened by half");
  }
}

std::string class_words(const std::string& cls) {
  return cls == "moe" ? "mixture-of-experts" : cls == "vit" ? "ViT" : cls;
}

// "too few published WHAT runs on ACC for a band (N predicted out of sample)", or none at all.
std::string runs_note(const std::string& what, const std::string& acc, int runs) {
  return runs > 0 ? "too few published " + what + " runs on " + acc + " for a band (" + std::to_string(runs) +
                        " predicted out of sample)"
                  : "no published " + what + " runs on " + acc;
}

// Whether the table keeps any class of model for the accelerator (older tables have none).
bool has_classes(const BandTable& t, const std::string& acc) {
  for (const auto& g : t.doc["groups"])
    if (g["accelerator"] == acc && g.value("model_class", "") != "") return true;
  return false;
}

struct ClosestGroup {
  const Json* group = nullptr;
  std::string framework, model_class;  // "" where the group takes any
};

// The closest group with a band: the framework and the class of model, the class, the framework,
// the accelerator. The class narrows a band before the framework: a framework's runs of another
// class carry the errors of terms (routing, all-to-alls) the job does not have.
ClosestGroup closest_group(const BandTable& t, const std::string& acc, const std::string& fw, const std::string& cls) {
  const std::string any;
  for (int i = 0; i < 4; ++i) {
    const std::string& f = i % 2 ? any : fw;
    const std::string& c = i < 2 ? cls : any;
    if (const Json* g = find_group(t, acc, f, c)) return {g, f, c};
  }
  return {};
}

}  // namespace

std::string model_class(const ModelShape& m) {
  if (m.kind == ModelKind::encoder) return "encoder";
  if (m.kind == ModelKind::vit) return "vit";
  return m.moe_experts > 0 ? "moe" : "dense";
}

Uncertainty uncertainty_for(const Scenario& s, const BandTable& t) {
  Uncertainty u;
  std::string acc = s.accelerator.id;
  u.covered = find_group(t, acc, "") != nullptr;
  const int own_runs = group_runs(t, acc, "");
  const std::string own = own_runs > 0 ? "too few published runs for " + acc + " for a band (" +
                                             std::to_string(own_runs) + " predicted out of sample)"
                                       : "no published runs for " + acc;
  // Down the chain of relatives (gb300 to b200, b200 to h100-sxm) to the first with a band. Real
  // chains take two steps; a cycle or a long chain in a hand-written table ends after eight.
  const Json& relatives = t.doc["relatives"];
  for (int hops = 0; !find_group(t, acc, "") && relatives.contains(acc) && hops < 8; ++hops)
    acc = relatives[acc].get<std::string>();
  const std::string cls = model_class(s.model);
  const std::string& fw = s.framework.id;
  const auto [g, with_fw, with_cls] = closest_group(t, acc, fw, cls);
  const bool with_framework = !with_fw.empty();
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
  u.basis = acc + (with_framework ? " with " + fw : "") + (with_cls.empty() ? "" : ", " + class_words(cls) + " models") +
            ": " + std::to_string(u.runs) + " published runs";
  if (!u.covered) {
    // Outside the data: the relative's band, widened by what leave-one-source-out measured for an
    // accelerator whose runs were held out and which was predicted from its relative's fit
    // (docs/accuracy.md). Without that measurement, by an independent error as large as the
    // relative's own: sqrt(2) times its band, as widen_by adds errors.
    if (const Json& unseen = t.doc["unseen"]; unseen.contains("from_relative")) {
      const Json& n = unseen["from_relative"];
      widen_by(u, n);
      add_note(u, own + "; band from " + acc +
                      ", widened by the error of accelerators predicted from a relative's calibration (" +
                      std::to_string(n["runs"].get<int>()) + " held-out runs)");
      // Its calibration says where it came from (scripts/calibrate.py writes it).
      if (s.accelerator.cal.fitted_on.rfind("derived from microbenchmarks", 0) == 0)
        add_note(u, "extrapolated from microbenchmarks: its efficiencies come from its own kernel "
                    "benchmarks and Trainium1's measured software gap");
    } else {
      scale(u, std::sqrt(2.0));
      add_note(u, own + "; band from " + acc + ", widened by as much again");
    }
  }
  // A framework without a band of its own here (of the job's class, where the band is the class's)
  // is a source never measured on this accelerator: what the band already holds. Its errors carry
  // every source's offset (scripts/accuracy_report.py), each predicted by a calibration that had
  // never seen the source (the frameworks only one source ran, with their constants unfitted).
  // Widening it again by the framework's spread elsewhere counted the offsets twice: 94% of the
  // runs of sources never seen fell inside, not 80% (docs/accuracy.md).
  if (!with_framework)
    add_note(u, runs_note(fw + (with_cls.empty() ? "" : " " + class_words(cls)), acc, group_runs(t, acc, fw, with_cls)) +
                    ": the band of any new source on it");
  widen_outside_published_shapes(u, s, t);
  if (with_cls.empty()) {
    // A band of mostly other classes' runs is widened by half for a job of any class but dense
    // decoders (the factor is an assumption): out of sample, bands of mostly dense decoders' runs
    // held under half of the mixture-of-experts runs of sources never seen (docs/accuracy.md, by
    // class of model). A table without classes has no group of the job's: none of its runs count.
    const bool classes = has_classes(t, acc), dense = cls == "dense";
    const int class_runs = group_runs(t, acc, with_fw, cls);
    const bool widen = !dense && 2 * class_runs < u.runs;
    if (widen) scale(u, 1.5);
    const std::string widened = widen ? ": band widened by half" : "";
    if (!classes) {
      if (widen) add_note(u, "the band table keeps no class of model" + widened);
    } else {
      // The note gives the share that decided: the class's runs among the band's own.
      add_note(u, runs_note(class_words(cls), acc, group_runs(t, acc, "", cls)) +
                      (dense ? "" : "; " + std::to_string(class_runs) + " of the band's " + std::to_string(u.runs) +
                                        " runs are theirs" + widened));
    }
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
