// The same job on several instances, each evaluated with its own plan search and bill, and the
// one rule for the fastest and the cheapest: the CLI's `compare` command and the browser's
// comparison panel share it.
#pragma once

#include <string>
#include <vector>

#include "io/job.hpp"
#include "io/report.hpp"

namespace tc::io {

struct CompareRow {
  std::string instance_id;
  std::string problem;          // non-empty: this instance cannot run the job (the reason)
  Job job;
  Result result;                // with a cost report when problem is empty
  bool fastest = false, cheapest = false;
};

// The job of a comparison row: the job itself on its own instance, else the job on `instance_id`
// at equal chips or equal nodes (ScenarioSpec::compare_at). A one-off porting effort
// (overheads.engineering) belongs to the rows on the scenario's software stack (Neuron or CUDA):
// the other rows run where the team already is.
Job compare_job(const Job& job, const PresetLibrary& lib, const std::string& instance_id);

// The instances of a comparison: the scenario's own first (always a row), then `ids`, each once.
std::vector<std::string> comparison_ids(const Job& job, const std::vector<std::string>& ids);

// What the rows of a comparison say together: the rule for equal sizes, regions that differ.
std::vector<std::string> comparison_notes(const std::vector<CompareRow>& rows);

std::vector<CompareRow> compare_instances(const Job& job, const PresetLibrary& lib,
                                          const std::vector<std::string>& instance_ids);

// Fastest by the wall time of a run, cheapest by the campaign bill among priced rows; only rows
// whose plan fits and whose cost is known count. Null entries are rows without a result.
// Indexes into `results`, -1 for none.
struct Marks {
  int fastest = -1, cheapest = -1;
};
Marks fastest_and_cheapest(const std::vector<const Result*>& results);
// Sets the rows' fastest and cheapest flags by that rule (rows with a problem never count).
void mark_fastest_and_cheapest(std::vector<CompareRow>& rows);

// One row per instance with its price (tier id and plain words, region, date, $/h) and its own
// warnings. `human` (text): durations as "4.0 days"; `plain` (CSV, Markdown, the page's export):
// plain decimals in the header's unit (step_time_s, wall_time_days).
enum class TableStyle { human, plain };
Table compare_table(const std::vector<CompareRow>& rows, TableStyle style);
Json compare_json(const std::vector<CompareRow>& rows);

}  // namespace tc::io
