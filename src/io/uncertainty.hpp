// How sure an estimate is: the band of signed errors that published runs of the closest family
// show against the model: of the accelerator with the framework and the class of model, with the
// class, with the framework, or alone, the first with nine runs or more. Built from a band table:
// presets/accuracy/uncertainty.json, which scripts/accuracy_report.py generates, or a file of the
// same schema merged over it (so that the report can measure, through this same code, the band a
// source would have got had it never been measured).
#pragma once

#include <string>

#include "core/types.hpp"
#include "io/json_util.hpp"

namespace tc::io {

struct Uncertainty {
  bool covered = false;           // the accelerator itself has published runs
  int runs = 0;                   // runs the band comes from
  double mean_abs_error = 0;
  double error_low = 0;           // signed error (predicted / measured - 1), 10th percentile
  double error_high = 0;          // 90th percentile
  std::string basis;              // "h100-sxm with megatron: 24 published runs"
  std::string note;               // said plainly when outside the data
};

// A traincalc.uncertainty/1 document, checked once: "groups", each the spread of the
// out-of-sample errors of one group of published runs (its runs, mean_abs_error, signed error_p10
// and error_p90) of an accelerator, with a framework ("" for any) and a class of model
// (model_class, "" or absent for any); a group of a framework on any accelerator, as older tables
// had, is checked and unused;
// "relatives", the accelerator whose band one without runs takes (the one it shares a calibration
// with, or whose fit its calibration takes), followed down the chain to one with a band (nine runs
// or more); "unseen.from_relative", what accelerators predicted from a relative's calibration
// showed; "coverage", the span of each shape dimension over the published runs. Kept as the
// document (the page's code size is budgeted).
struct BandTable {
  Json doc;
};

// Reads a traincalc.uncertainty/1 document; throws InputError naming the field.
BandTable parse_band_table(const Json& doc, const std::string& label);
// "layout_error": {"sigma", "jobs", "layouts"}, the spread (log units) of the out-of-sample error
// between the layouts of one job over the jobs published with several, which the plan search's
// pick is corrected for (PlanRequest::layout_error_sigma); 0 where the table has none. At most
// 0.2: a model whose error from one layout to another spread wider could not rank layouts at all
// (the published runs' spread is near 0.06), and its correction would swamp the step.
constexpr double kMaxLayoutErrorSigma = 0.2;
double layout_error_sigma(const BandTable& t);
// The table built into the program (presets/accuracy/uncertainty.json).
const BandTable& builtin_band_table();

// The class of model a band is kept for: "moe" (a decoder with experts), "dense" (one without),
// "encoder" or "vit". Mixtures of experts are predicted with a wider scatter than dense decoders
// (docs/accuracy.md), so one band for both is too wide for the one and too narrow for the other.
std::string model_class(const ModelShape& m);

Uncertainty uncertainty_for(const Scenario& s, const BandTable& table);

// Throughput may be `faster` times higher or `slower` times lower than estimated (both >= 1);
// times scale inversely. faster never takes HFU above 1.
struct BandFactors {
  double faster = 1, slower = 1;
};
BandFactors band_factors(const Uncertainty& u, const Estimate& e);

// A figure's band as "low to high": a duration or a bill grows when the run is slower, an MFU or
// a throughput when it is faster.
enum class BandSide { time, speed };
template <class Format>
std::string band_range(const BandFactors& f, double value, BandSide side, Format format) {
  const bool time = side == BandSide::time;
  return format(value / (time ? f.faster : f.slower)) + " to " + format(value * (time ? f.slower : f.faster));
}

// {"tokens_per_s": [low, high], "step_time_s": [...], "train_time_s": [...], "typical_error": x,
//  "runs": n, "basis": "...", "covered": bool, "note": "..."}
Json uncertainty_json(const Uncertainty& u, const Estimate& e);

}  // namespace tc::io
