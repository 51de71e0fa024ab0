// How every figure the page shows was computed, as data: the formula in words, the inputs with
// their sources and dates (preset source notes, the price's date and region, the calibration),
// and the uncertainty band. The page shows an Explanation on hover; the text report can print
// one. Built on demand (a hover), never per frame for every figure.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "io/job.hpp"
#include "io/presets.hpp"

namespace tc::io {

struct ExplainInput {
  std::string name;    // "step time"
  std::string value;   // "12.35 s"
  std::string source;  // "estimate (docs/model.md, Step time)", "AWS Price List ... (2025-11-30)"
};

struct Explanation {
  Explanation() = default;
  Explanation(std::string title_, std::string value_, std::string formula_, std::vector<ExplainInput> inputs_,
              std::string band_)
      : title(std::move(title_)), value(std::move(value_)), formula(std::move(formula_)), inputs(std::move(inputs_)),
        band(std::move(band_)) {}
  std::string title;    // "Wall time"
  std::string value;    // the figure as shown
  std::string formula;  // in words, naming where it comes from
  std::vector<ExplainInput> inputs;
  std::string band;     // the range published runs allow, or why there is none
  std::vector<std::string> notes;  // warnings that bear on the figure
};

// Title, value, formula, one line per input ("name = value: source"), the notes and the band.
std::string explanation_text(const Explanation& x);
// `estimate --format explain`: the headline figures, the step-time terms, memory and the bill's
// items and tiers, each as explanation_text.
std::string result_explained(const Job& job, const Result& r, const PresetLibrary& lib);

// The headline figures of one evaluated job (also a comparison row's or a scaling point's).
Explanation explain_wall_time(const Result& r, const Job& job, const PresetLibrary& lib);
Explanation explain_bill(const Result& r, const Job& job, const PresetLibrary& lib);
Explanation explain_usd_per_million_tokens(const Result& r, const Job& job, const PresetLibrary& lib);
Explanation explain_mfu(const Result& r, const Job& job, const PresetLibrary& lib);
Explanation explain_step_time(const Result& r, const Job& job, const PresetLibrary& lib);
Explanation explain_chips(const Result& r, const Job& job, const PresetLibrary& lib);

// The parallel plan: searched (the fastest that fits) or as the scenario fixes it.
Explanation explain_plan(const Result& r);

// One term of the step time (an entry of Estimate::breakdown_s, by name: "tp_comm").
Explanation explain_step_term(const Result& r, const Job& job, const PresetLibrary& lib, const std::string& term);

// Memory per device: "total", one part ("weights", "gradients", "optimizer", "activations",
// "other") or "max_micro_batch".
Explanation explain_memory(const Result& r, const Job& job, const PresetLibrary& lib, const std::string& part);

// A bill item (an items_usd entry: "instance.capacity_block.idle") as its lines' quantity x rate.
Explanation explain_bill_item(const Bill& b, const std::string& item);
// A bill's total as the sum of its items (the cloud's or the owned cluster's).
Explanation explain_items_total(const Bill& b);
// A bill's per-run, per-month and instance-hour figures and its compute-only lower bound.
Explanation explain_bill_rates(const Bill& b);
// Energy and CO2e of the campaign; the job gives its PUE and grid intensity.
Explanation explain_energy(const Bill& b, const Job& job);
// The owned cluster's yearly cost, effective rate and cost over the horizon.
Explanation explain_ownership(const Bill& owned);
// The deadline check of a run; the baseline comparison's saving and payback.
Explanation explain_deadline(const Result& r);
Explanation explain_baseline(const BaselineComparison& c);
// A pricing tier of the bill: its share of the hours at its rate, with the price's source.
Explanation explain_price_tier(const TierLine& t);
// A term of the wall time of a run ("checkpoints").
Explanation explain_wall_term(const Result& r, const std::string& term);

}  // namespace tc::io
