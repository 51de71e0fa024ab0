// Results as JSON (the CLI contract), as a readable text summary, and as comparison tables in
// text, CSV and Markdown (shared by the CLI and the browser's export).
#pragma once

#include <string>
#include <vector>

#include "core/types.hpp"
#include "io/cost_json.hpp"
#include "io/json_util.hpp"
#include "io/scenario.hpp"
#include "io/uncertainty.hpp"

namespace tc::io {

Json estimate_json(const ScenarioSpec& spec, const Estimate& e, const Uncertainty& band);
std::string estimate_text(const ScenarioSpec& spec, const Estimate& e, const Uncertainty& band);
// " (expert tp N)" when the expert layers split over fewer tp ranks than the dense ones, else "".
std::string expert_tp_note(const ParallelPlan& p);
// "N layers a stage" with a given recompute_layers, else "".
std::string recompute_layers_text(const ParallelPlan& p);
// Wall time, the itemized bill, energy and the claim verdicts as readable text.
std::string cost_text(const CostReport& r);

// A table: header plus rows of cells, rendered in one of the formats.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};
std::string table_text(const Table& t);
std::string table_csv(const Table& t);
std::string table_markdown(const Table& t);

// The bill's lines as a table (quantity x rate = usd, with its detail), the cloud bill's and then
// the owned cluster's, each closed by its total: `estimate --format csv|markdown`.
Table bill_table(const CostReport& r);

// Human-readable quantities: "1.23 M", "12.35" (fixed digits). Durations and money:
// tc::format_duration and tc::format_usd (core/cost.hpp).
std::string format_fixed(double value, int digits);
// A plain decimal for CSV and Markdown cells: up to ten significant digits, no exponent, no
// trailing zeros ("0.000023", "1000000000000", "55.04"); "-" when not finite.
std::string format_decimal(double value);
std::string format_si(double value);

}  // namespace tc::io
