// libFuzzer target: a CSV of published runs as `traincalc validate` reads it (header, rows,
// quoting, BOM, CRLF), each row turned into a scenario and estimated, then the table printed. A
// malformed file is an InputError naming the line; a row that cannot be estimated carries a
// problem naming its field; a row that can has a finite positive prediction and a band holding it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.hpp"
#include "io/validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string csv(reinterpret_cast<const char*>(data), size);
  const auto& lib = tc::fuzz::builtin();
  std::vector<tc::io::PublishedRun> runs;
  try {
    runs = tc::io::read_published_runs(csv);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
    return 0;
  }
  std::vector<tc::io::RunCheck> checks;
  // A few rows per input: each is a plan search; the CLI's own bound on rows is its input cap.
  for (std::size_t i = 0; i < runs.size() && i < 4; ++i) {
    const tc::io::RunCheck c = tc::io::check_run(runs[i], lib);
    if (c.problem.empty()) {
      const double p = c.predicted_tokens_per_s_per_chip;
      if (!(p > 0) || !std::isfinite(p)) tc::fuzz::fail("row " + runs[i].id + ": prediction not finite and > 0");
      if (!std::isfinite(c.error)) tc::fuzz::fail("row " + runs[i].id + ": error not finite");
      if (!(c.band_low_tokens_per_s_per_chip <= p && p <= c.band_high_tokens_per_s_per_chip))
        tc::fuzz::fail("row " + runs[i].id + ": band does not hold the prediction");
    } else if (c.problem.find(": ") == std::string::npos) {
      tc::fuzz::fail("row problem names no field: " + c.problem);
    }
    checks.push_back(c);
  }
  const auto sum = tc::io::summarize(checks);
  if (!std::isfinite(sum.mean_abs_error)) tc::fuzz::fail("summary not finite");
  return 0;
}
