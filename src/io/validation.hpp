// Published training runs (tests/data/published_runs.csv) turned into scenarios, estimated, and
// compared: the accuracy test, `traincalc validate` and docs/accuracy.md all read them here.
#pragma once

#include <string>
#include <vector>

#include "io/presets.hpp"
#include "io/scenario.hpp"

namespace tc::io {

struct PublishedRun {
  std::string id, source, model, accelerator, family, framework;
  std::vector<std::pair<std::string, std::string>> fields;  // the CSV row, by column
  double measured_tokens_per_s_per_chip = 0;
};

struct RunCheck {
  PublishedRun run;
  double predicted_tokens_per_s_per_chip = 0;
  double error = 0;          // signed: predicted / measured - 1
  bool fits = true;
  std::string problem;       // non-empty when the row could not be estimated
};

// RFC 4180 CSV with a header row; throws InputError naming the line on a malformed row.
std::vector<PublishedRun> read_published_runs(const std::string& csv_text);

// The scenario of a row. Unstated fields take documented defaults (docs/accuracy.md):
// inter_node_gbps from the accelerator's preset instance, recompute "none", FFN gated unless the
// model family is GPT/MPT-style (ffn = 4 h), framework from the source (FSDP for llm-foundry and
// torchtitan, NeuronX Distributed for Neuron, Megatron otherwise).
Json scenario_for_run(const PublishedRun& run, const PresetLibrary& lib);

RunCheck check_run(const PublishedRun& run, const PresetLibrary& lib);

// Source families for the leave-one-source-out test: Megatron-LM, MosaicML, NeMo/Megatron-Bridge,
// MLPerf, torchtitan, Neuron.
std::string source_family(const std::string& source);

}  // namespace tc::io
