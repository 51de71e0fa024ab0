// libFuzzer target: `traincalc compare` of a scenario on a set of instances. The first byte picks
// the instances (a bit mask over the built-in ones; 0: the scenario's compare_instances), the rest
// is the scenario text. Every row has a result or a problem; the fastest and cheapest marks point
// at rows with results; the table and the JSON print; every number in the JSON is finite.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "io/compare.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& lib = tc::fuzz::builtin();
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  tc::io::Job job;
  try {
    job = tc::io::parse_job_text(text, lib, "fuzz.json");
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
    return 0;
  }
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < lib.instances.size() && i < 8; ++i)
    if (data[0] & (1u << i)) ids.push_back(lib.instances[i].id);
  if (ids.empty()) ids = job.spec.compare_instances;
  if (ids.empty()) ids = {job.spec.instance_id};
  std::vector<tc::io::CompareRow> rows;
  try {
    rows = tc::io::compare_instances(job, lib, ids);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
    return 0;
  }
  if (rows.size() != ids.size()) tc::fuzz::fail("compare: a row per instance");
  for (const auto& r : rows) {
    if (r.problem.empty()) {
      tc::fuzz::check_estimate(r.result.est);
    } else if ((r.fastest || r.cheapest)) {
      tc::fuzz::fail("compare: a row without a result is marked fastest or cheapest");
    }
  }
  const tc::io::Json j = tc::io::compare_json(rows);
  tc::fuzz::check_json_numbers(j);
  (void)j.dump();
  for (const auto style : {tc::io::TableStyle::human, tc::io::TableStyle::plain})
    (void)tc::io::table_text(tc::io::compare_table(rows, style));
  return 0;
}
