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

// The job of a comparison row: the job itself on its own instance, else the job on `instance_id`.
Job compare_job(const Job& job, const PresetLibrary& lib, const std::string& instance_id);

std::vector<CompareRow> compare_instances(const Job& job, const PresetLibrary& lib,
                                          const std::vector<std::string>& instance_ids);

// Fastest by the wall time of a run, cheapest by the campaign bill among priced rows; only rows
// whose plan fits and whose cost is known count. Null entries are rows without a result.
// Indexes into `results`, -1 for none.
struct Marks {
  int fastest = -1, cheapest = -1;
};
Marks fastest_and_cheapest(const std::vector<const Result*>& results);

// A plan in a table cell: "tp4 pp2 dp32", with cp, ep and the expert tp when they are not trivial.
std::string plan_short(const ParallelPlan& p);

Table compare_table(const std::vector<CompareRow>& rows);
Json compare_json(const std::vector<CompareRow>& rows);

}  // namespace tc::io
