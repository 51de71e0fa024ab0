// Published training runs (tests/data/published_runs.csv) turned into scenarios, estimated, and
// compared: the accuracy test, `traincalc validate` and docs/accuracy.md all read them here.
#pragma once

#include <string>
#include <vector>

#include "io/presets.hpp"
#include "io/scenario.hpp"

namespace tc::io {

struct PublishedRun {
  std::string id, source, model, accelerator, family, framework, software;
  std::vector<std::pair<std::string, std::string>> fields;  // the CSV row, by column
  // The measurement the row is compared on: tokens/s per chip, else step time (ViT rows publish
  // samples/s only). 0 when missing; `problem` then says which field.
  double measured_tokens_per_s_per_chip = 0;
  double measured_step_time_s = 0;
  std::vector<std::string> notes;  // defaults the row took for fields it left empty
  std::string problem;             // non-empty: the row cannot be checked (names the field)
  // Non-empty: why the figure is not counted, the source's own word (a regression it names and fixed
  // in its next release) or the dataset's curator's (a cell likely mistyped, which the source's own
  // rows contradict). Estimated and shown, left out of every mean and of the fit.
  std::string known_issue;
};

struct RunCheck {
  PublishedRun run;
  double measured_tokens_per_s_per_chip = 0;  // as published, or from the step time
  double predicted_tokens_per_s_per_chip = 0;
  double band_low_tokens_per_s_per_chip = 0;  // the estimate's p10-p90 band (io/uncertainty)
  double band_high_tokens_per_s_per_chip = 0;
  double error = 0;          // signed: predicted / measured - 1
  std::string model_class;   // the class of model its band is kept for (io/uncertainty.hpp)
  bool fits = true;
  std::string problem;       // non-empty when the row could not be estimated
};

// RFC 4180 CSV with a header row (a UTF-8 byte-order mark and CRLF line ends are accepted);
// throws InputError naming the line on a malformed row or a missing required column. A row whose
// own values are unusable (no positive measurement) carries a `problem` instead.
std::vector<PublishedRun> read_published_runs(const std::string& csv_text);

// The scenario of a row. Unstated fields take the documented defaults of
// tests/data/published_runs.README.md ("How traincalc reads a row"), recorded in run.notes.
Json scenario_for_run(const PublishedRun& run, const PresetLibrary& lib);

RunCheck check_run(const PublishedRun& run, const PresetLibrary& lib);

// Source families for the leave-one-source-out test: Megatron-LM (2021 paper), MosaicML,
// NeMo/Megatron-Bridge, MLPerf, torchtitan, SimuMax, and the Neuron stacks one by one (NxD, NeMo
// on Neuron, Megatron-LM on Neuron, PyTorch Neuron): each a different table by different authors.
std::string source_family(const std::string& source, const std::string& software);

// "mean absolute error 6.1% over 320 rows; 2 rows failed: ID (reason); ..."
struct ValidationSummary {
  int rows = 0, failed = 0, known_issues = 0;
  double mean_abs_error = 0;
  std::string failures;  // "ID (reason); ID (reason)"
  std::string known;     // "ID (issue); ID (issue)": estimated, not in the mean
};
ValidationSummary summarize(const std::vector<RunCheck>& checks);
// The summary as one line. With no row estimated there is no mean to print, and the line says so
// rather than showing 0.0%.
std::string summary_line(const ValidationSummary& s);

}  // namespace tc::io
