// The same job on several instances, each with its own plan search and bill: the CLI's
// `compare` command and the browser's comparison panel share it.
#pragma once

#include <string>
#include <vector>

#include "io/cost_json.hpp"
#include "io/report.hpp"

namespace tc::io {

struct CompareRow {
  std::string instance_id;
  std::string problem;          // non-empty: this instance cannot run the job (the reason)
  ScenarioSpec spec;
  Estimate estimate;
  CostReport cost;
  bool fastest = false, cheapest = false;
};

std::vector<CompareRow> compare_instances(const ScenarioSpec& spec, const PresetLibrary& lib,
                                          const std::vector<std::string>& instance_ids);

// A plan in a table cell: "tp4 pp2 dp32", with cp, ep and the expert tp when they are not trivial.
std::string plan_short(const ParallelPlan& p);

Table compare_table(const std::vector<CompareRow>& rows);
Json compare_json(const std::vector<CompareRow>& rows);

}  // namespace tc::io
