// Reading published-run CSVs (`traincalc validate`, the accuracy test): the software column picks
// a profile, empty fields take the documented defaults and say so, and bad rows name their field.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/report.hpp"
#include "io/validation.hpp"
#include "support.hpp"

namespace tc::io {
namespace {

const char* kHeader =
    "id,source,model,layers,hidden,ffn_hidden,heads,kv_heads,seq_len,vocab,moe_experts,moe_top_k,"
    "accelerator,chips,chips_per_node,devices_per_chip,inter_node_gbps,precision,tp,pp,dp,cp,ep,vpp,"
    "sequence_parallel,zero,micro_batch,global_batch,recompute,measured_tokens_per_s_per_chip,"
    "measured_step_time_s,software,origin,notes\n";

// A Llama 3 8B row on 8 H100s (or on 8 Trainium1 chips, 16 NeuronCores); fields can be replaced
// by name.
std::string row(const std::string& software = "Megatron-Bridge", const std::string& micro_batch = "1",
                const std::string& recompute = "", const std::string& measured = "9000",
                bool trainium = false) {
  const std::string chips = trainium ? "trainium1,8,8,2,,bf16,1,1,16" : "h100-sxm,8,8,1,,bf16,1,1,8";
  return "R1,test source,Llama3-8B,32,4096,14336,32,8,8192,128256,,," + chips + ",1,1,1,"
         "no,1," + micro_batch + ",128," + recompute + "," + measured + ",," + software + ",published,\n";
}

using tc_test::lib;

bool has_note(const PublishedRun& r, const std::string& text) {
  for (const auto& n : r.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

TEST(Validation, SoftwarePicksTheProfile) {
  EXPECT_EQ(read_published_runs(std::string(kHeader) + row("Megatron-LM (2021)"))[0].framework, "megatron-2021");
  EXPECT_EQ(read_published_runs(std::string(kHeader) + row("torchtitan (FSDP2)"))[0].framework, "fsdp");
  // Aliases and case do not matter.
  EXPECT_EQ(read_published_runs(std::string(kHeader) + row("megatron-core"))[0].framework, "megatron");
}

// A release entry keeps its profile and its fitted constants and changes only what it names:
// Megatron-Bridge 25.11 launches local experts one by one, so a mixture of experts runs slower
// than under today's Megatron-Bridge, and a dense model exactly as fast.
TEST(Validation, AReleaseEntryChangesOnlyWhatItNames) {
  auto predicted = [&](const std::string& software, const std::string& model) {
    std::string r = row(software);
    r.replace(r.find("Llama3-8B,32,4096,14336,32,8,8192,128256,,"), std::string("Llama3-8B,32,4096,14336,32,8,8192,128256,,").size(),
              model);
    const RunCheck c = check_run(read_published_runs(std::string(kHeader) + r)[0], lib());
    EXPECT_TRUE(c.problem.empty()) << c.problem;
    EXPECT_EQ(c.run.framework, "megatron");
    EXPECT_EQ(c.model_class, model.find("Qwen3") == 0 ? "moe" : "dense");  // the class its band is kept for
    return c.predicted_tokens_per_s_per_chip;
  };
  const std::string moe = "Qwen3-30B-A3B,48,2048,768,32,4,4096,151936,128,8";
  const std::string dense = "Llama3-8B,32,4096,14336,32,8,8192,128256,,";
  EXPECT_LT(predicted("Megatron-Bridge 25.11", moe), 0.99 * predicted("Megatron-Bridge", moe));
  EXPECT_DOUBLE_EQ(predicted("Megatron-Bridge 25.11", dense), predicted("Megatron-Bridge", dense));
}

// torchtitan's runs with asynchronous tensor parallelism name it in their software: the same fsdp
// profile with the scenario's async_tp on, faster than the same row without it at tp 8.
TEST(Validation, AsyncTensorParallelRowsTurnItOn) {
  auto check = [&](const std::string& software) {
    std::string r = row(software);
    r.replace(r.find("bf16,1,1,8,1,1,1,no"), std::string("bf16,1,1,8,1,1,1,no").size(), "bf16,8,1,1,1,1,1,yes");
    const PublishedRun run = read_published_runs(std::string(kHeader) + r)[0];
    EXPECT_EQ(run.framework, "fsdp");
    const RunCheck c = check_run(run, lib());
    EXPECT_TRUE(c.problem.empty()) << c.problem;
    EXPECT_EQ(scenario_for_run(run, lib()).value("async_tp", false), software.find("async") != std::string::npos);
    return c.predicted_tokens_per_s_per_chip;
  };
  EXPECT_GT(check("torchtitan (FSDP2 + async TP)"), 1.01 * check("torchtitan (FSDP2)"));
}

TEST(Validation, UnknownOrEmptySoftwareTakesTheDefaultAndSaysSo) {
  const auto unknown = read_published_runs(std::string(kHeader) + row("MyFork 0.1"))[0];
  EXPECT_EQ(unknown.framework, "megatron");
  EXPECT_TRUE(has_note(unknown, "no profile for 'MyFork 0.1'")) << unknown.notes.size();
  const auto empty = read_published_runs(std::string(kHeader) + row(""))[0];
  EXPECT_TRUE(has_note(empty, "software: empty")) << empty.notes.size();
}

// An FP8 recipe the model does not tell apart (MXFP8's block scales) is timed as per-tensor FP8, and
// the row says so; per-tensor recipes, rowwise (modelled) and other precisions say nothing.
TEST(Validation, AnFp8RecipeTheModelDoesNotTellApartIsNamed) {
  auto notes_of = [&](const std::string& precision, const std::string& notes) {
    std::string r = row();
    r.replace(r.find(",bf16,"), 6, "," + precision + ",");
    r.replace(r.rfind("published,"), std::string("published,").size(), "published,\"" + notes + "\"");
    const RunCheck c = check_run(read_published_runs(std::string(kHeader) + r)[0], lib());
    EXPECT_TRUE(c.problem.empty()) << c.problem;
    return c;
  };
  const RunCheck mx = notes_of("fp8", "precision detail: mxfp8; NVIDIA-NeMo/Megatron-Bridge docs");
  EXPECT_TRUE(has_note(mx.run, "precision: mxfp8 timed as per-tensor FP8")) << mx.run.notes.size();
  // The label changes only what the row says: the same layout, the same prediction.
  EXPECT_DOUBLE_EQ(mx.predicted_tokens_per_s_per_chip, notes_of("fp8", "").predicted_tokens_per_s_per_chip);
  // torchao's rowwise scaling is modelled (fp8_scaling): the row runs with it, slower, and says nothing.
  const RunCheck rw = notes_of("fp8", "recompute detail: selective (per-op SAC); precision detail: fp8 (torchao rowwise) | x");
  EXPECT_FALSE(has_note(rw.run, "precision:")) << rw.run.notes.size();
  EXPECT_LT(rw.predicted_tokens_per_s_per_chip, 0.99 * notes_of("fp8", "").predicted_tokens_per_s_per_chip);
  EXPECT_EQ(scenario_for_run(rw.run, lib()).value("fp8_scaling", ""), "rowwise");
  // A label naming block scales is timed as per-tensor FP8, whatever else it says.
  const RunCheck both = notes_of("fp8", "precision detail: mxfp8 rowwise; x");
  EXPECT_TRUE(has_note(both.run, "precision: mxfp8 rowwise timed as")) << both.run.notes.size();
  EXPECT_FALSE(scenario_for_run(both.run, lib()).contains("fp8_scaling"));
  EXPECT_FALSE(has_note(notes_of("fp8", "precision detail: fp8 (torchao tensorwise); x").run, "precision:"));
  EXPECT_FALSE(has_note(notes_of("bf16", "precision detail: mxfp8; x").run, "precision:"));
  EXPECT_FALSE(has_note(notes_of("fp8", "no label here").run, "precision:"));
  EXPECT_FALSE(has_note(notes_of("fp8", "precision detail: FP8 (current scaling)").run, "precision:"));
  // The label is quoted trimmed, at its end of text, and only as far as it is printable and short:
  // the scenario's description refuses control characters and long text, and the row stays a row.
  EXPECT_TRUE(has_note(notes_of("fp8", "precision detail:   MXFP8").run, "precision: MXFP8 timed as"));
  const RunCheck tab = notes_of("fp8", "precision detail: mxfp8\t(rceil); x");
  EXPECT_TRUE(has_note(tab.run, "precision: mxfp8 timed as")) << tab.run.notes.size();
  const RunCheck longer = notes_of("fp8", "precision detail: mxfp8 " + std::string(5000, 'x'));
  EXPECT_TRUE(has_note(longer.run, "precision: mxfp8 xxx")) << longer.run.notes.size();
  EXPECT_GT(longer.predicted_tokens_per_s_per_chip, 0);
}

// A row whose software runs only on the other platform is a problem row that says so.
TEST(Validation, SoftwareOfTheOtherPlatformIsAProblemNamingTheField) {
  const RunCheck c = check_run(read_published_runs(std::string(kHeader) + row("NeuronX Distributed"))[0], lib());
  EXPECT_EQ(c.problem.rfind("framework: neuronx-distributed runs on Neuron devices (Trainium, Inferentia), not on h100-sxm", 0), 0u)
      << c.problem;
}

TEST(Validation, EmptyMicroBatchIsSearchedAndEmptyRecomputeIsTheStacksDefault) {
  const auto runs = read_published_runs(std::string(kHeader) + row("NeuronX Distributed", "", "", "900", true));
  const Json doc = scenario_for_run(runs[0], lib());
  EXPECT_EQ(doc["micro_batch"], "auto");
  // NxD's default is selective recompute, not "none".
  EXPECT_EQ(doc["recompute"], "selective");
  const RunCheck c = check_run(runs[0], lib());
  EXPECT_TRUE(c.problem.empty()) << c.problem;
  EXPECT_TRUE(has_note(c.run, "micro_batch: empty")) << c.run.notes.size();
  EXPECT_TRUE(has_note(c.run, "recompute: empty"));
}

// A published architecture the columns cannot hold (DeepSeek-V3's latent attention, shared
// expert and dense first layers) comes from its preset; the row's columns and a note's
// "dense_layers=N" (SimuMax cut DeepSeek-V3 to 4 layers, 1 of them dense) win over it.
TEST(Validation, NamedArchitectureTakesItsPresetAndTheRowWins) {
  const std::string deepseek =
      "D1,test source,DeepSeek-V3,4,7168,2048,128,128,4096,129280,256,8,b200,8,8,1,,bf16,1,1,8,1,8,1,"
      "no,1,1,32,none,30000,,Megatron-LM,measured,SimuMax rows use dense_layers=1 (release notes)\n";
  const auto runs = read_published_runs(std::string(kHeader) + deepseek);
  const Json doc = scenario_for_run(runs[0], lib());
  EXPECT_EQ(doc["model"]["base"], "deepseek-v3");
  EXPECT_EQ(doc["model"]["layers"], 4);
  EXPECT_EQ(doc["model"]["dense_layers"], 1);
  const RunCheck c = check_run(runs[0], lib());
  EXPECT_TRUE(c.problem.empty()) << c.problem;
  // A name no preset carries keeps the columns alone.
  EXPECT_FALSE(scenario_for_run(read_published_runs(std::string(kHeader) + row())[0], lib())["model"].contains("base"));
}

TEST(Validation, BomAndCrlfAreRead) {
  std::string text = std::string("\xEF\xBB\xBF") + kHeader + row();
  for (size_t i = 0; (i = text.find('\n', i)) != std::string::npos; i += 2) text.replace(i, 1, "\r\n");
  const auto runs = read_published_runs(text);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, "R1");
  const RunCheck c = check_run(runs[0], lib());
  EXPECT_TRUE(c.problem.empty()) << c.problem;
  EXPECT_TRUE(std::isfinite(c.error));
}

TEST(Validation, NonPositiveOrMissingMeasurementNamesTheField) {
  for (const std::string bad : {"0", "-5", "nan", "inf", "abc", ""}) {
    const auto runs = read_published_runs(std::string(kHeader) + row("Megatron-Bridge", "1", "", bad));
    const RunCheck c = check_run(runs[0], lib());
    EXPECT_NE(c.problem.find("measured_tokens_per_s_per_chip"), std::string::npos) << bad << ": " << c.problem;
    const ValidationSummary s = summarize({c});
    EXPECT_EQ(s.rows, 0);
    EXPECT_EQ(s.failed, 1);
    EXPECT_NE(s.failures.find("R1"), std::string::npos);
  }
}

TEST(Validation, MissingColumnIsAnError) {
  EXPECT_THROW(read_published_runs("id,accelerator\nR1,h100-sxm\n"), InputError);
}

TEST(Validation, BandHoldsThePrediction) {
  const RunCheck c = check_run(read_published_runs(std::string(kHeader) + row())[0], lib());
  ASSERT_TRUE(c.problem.empty()) << c.problem;
  EXPECT_GT(c.band_low_tokens_per_s_per_chip, 0);
  EXPECT_LE(c.band_low_tokens_per_s_per_chip, c.predicted_tokens_per_s_per_chip);
  EXPECT_GE(c.band_high_tokens_per_s_per_chip, c.predicted_tokens_per_s_per_chip);
}

// The optional columns: a power cap the row ran at, memory other than its accelerator preset's, and
// a figure flagged as not to be counted (its source's regression, a likely typo).
std::string with_columns(std::initializer_list<std::pair<const char*, std::string>> cells) {
  std::string header = kHeader, r = row();
  for (const auto& [name, value] : cells) {
    header.insert(header.size() - 1, std::string(",") + name);
    r.insert(r.size() - 1, "," + value);
  }
  return header + r;
}

TEST(Validation, PowerLimitColumnSlowsTheRowByTheCubeRootOfItsShare) {
  const RunCheck full = check_run(read_published_runs(with_columns({}))[0], lib());
  // 700 W / 8 is below a quarter of the H100's power: refused, naming the field.
  const RunCheck refused = check_run(read_published_runs(with_columns({{"power_limit_w", "87.5"}}))[0], lib());
  EXPECT_NE(refused.problem.find("power_limit_w"), std::string::npos);
  const RunCheck capped = check_run(read_published_runs(with_columns({{"power_limit_w", "350"}}))[0], lib());
  ASSERT_TRUE(full.problem.empty() && capped.problem.empty()) << full.problem << capped.problem;
  // Half the power: the clock at cbrt(0.5) = 0.794; communication and memory traffic keep their
  // speed, so the whole row slows by less than the clock.
  const double ratio = capped.predicted_tokens_per_s_per_chip / full.predicted_tokens_per_s_per_chip;
  EXPECT_LT(ratio, 0.95);
  EXPECT_GT(ratio, std::cbrt(0.5) - 1e-9);
}

// A row run on a part with slower memory than its preset's (HBM2e H100s) is slower where memory
// traffic sets the pace; its memory size sets what fits. Bad cells name their column.
TEST(Validation, MemoryColumnsReplaceThePresetsMemory) {
  const RunCheck preset = check_run(read_published_runs(with_columns({}))[0], lib());
  const RunCheck slow =
      check_run(read_published_runs(with_columns({{"hbm_gib", "96"}, {"hbm_tb_per_s", "1.0"}}))[0], lib());
  ASSERT_TRUE(preset.problem.empty() && slow.problem.empty()) << preset.problem << slow.problem;
  EXPECT_LT(slow.predicted_tokens_per_s_per_chip, preset.predicted_tokens_per_s_per_chip);
  // The preset's own memory in the columns: the same part, calibration included, the same figure.
  const RunCheck same =
      check_run(read_published_runs(with_columns({{"hbm_gib", "80"}, {"hbm_tb_per_s", "3.35"}}))[0], lib());
  EXPECT_DOUBLE_EQ(same.predicted_tokens_per_s_per_chip, preset.predicted_tokens_per_s_per_chip);
  const RunCheck small = check_run(read_published_runs(with_columns({{"hbm_gib", "6"}}))[0], lib());
  ASSERT_TRUE(small.problem.empty()) << small.problem;
  EXPECT_TRUE(preset.fits);
  EXPECT_FALSE(small.fits);
  for (const char* column : {"hbm_gib", "hbm_tb_per_s"}) {
    for (const char* bad : {"-1", "0", "nan", "1e300", "fast"}) {
      const RunCheck c = check_run(read_published_runs(with_columns({{column, bad}}))[0], lib());
      EXPECT_NE(c.problem.find(column), std::string::npos) << column << "=" << bad << ": " << c.problem;
    }
  }
}

TEST(Validation, KnownIssueRowsAreEstimatedButNotAveraged) {
  const auto runs = read_published_runs(with_columns({{"known_issue", "a regression the source names"}}));
  ASSERT_EQ(runs[0].known_issue, "a regression the source names");
  const RunCheck c = check_run(runs[0], lib());
  EXPECT_TRUE(c.problem.empty()) << c.problem;
  EXPECT_GT(c.predicted_tokens_per_s_per_chip, 0);
  const ValidationSummary s = summarize({c});
  EXPECT_EQ(s.rows, 0);
  EXPECT_EQ(s.known_issues, 1);
  EXPECT_NE(s.known.find("a regression the source names"), std::string::npos);
}

// A summary with nothing to average names that instead of printing a mean of no rows; counts agree in
// number with their noun whatever the mix of estimated, failed and flagged rows.
TEST(Validation, SummaryLineNeverShowsAMeanOfNoRows) {
  EXPECT_EQ(summary_line(summarize({})), "no row estimated, so no mean absolute error");
  const RunCheck good = check_run(read_published_runs(std::string(kHeader) + row())[0], lib());
  const RunCheck failed = check_run(read_published_runs(std::string(kHeader) + row("Megatron-Bridge", "1", "", "0"))[0], lib());
  const RunCheck flagged =
      check_run(read_published_runs(with_columns({{"known_issue", "a regression the source names"}}))[0], lib());
  for (int good_n = 0; good_n <= 2; ++good_n)
    for (int failed_n = 0; failed_n <= 2; ++failed_n)
      for (int flagged_n = 0; flagged_n <= 2; ++flagged_n) {
        std::vector<RunCheck> checks;
        checks.insert(checks.end(), good_n, good);
        checks.insert(checks.end(), failed_n, failed);
        checks.insert(checks.end(), flagged_n, flagged);
        const std::string line = summary_line(summarize(checks));
        EXPECT_EQ(line.find('%') != std::string::npos, good_n > 0) << line;
        EXPECT_EQ(line.find("mean absolute error ") == 0, good_n > 0) << line;
        const std::string over = good_n == 1 ? " over 1 row" : " over 2 rows";
        EXPECT_EQ(line.find(over) != std::string::npos, good_n > 0) << line;
        EXPECT_EQ(line.find("1 rows"), std::string::npos) << line;
        const std::string failures = failed_n == 1 ? "; 1 row failed: R1" : "; 2 rows failed: R1";
        EXPECT_EQ(line.find(failures) != std::string::npos, failed_n > 0) << line;
        EXPECT_EQ(line.find("known_issue") != std::string::npos, flagged_n > 0) << line;
      }
}

// Every control character a cell can carry (an id with an ANSI escape, a CR) is shown escaped in
// every table format: none reaches the terminal or the file raw.
TEST(Validation, TablesNeverPrintControlCharacters) {
  for (int ch = 0; ch < 0x20; ++ch) {
    Table t;
    t.header = {"id", "x"};
    t.rows = {{std::string("a") + static_cast<char>(ch) + "[31mb", "1"}, {std::string(1, '\x7f'), "2"}};
    for (const std::string& out : {table_text(t), table_csv(t), table_markdown(t)}) {
      size_t lines = 0;
      for (char c : out) {
        if (c == '\n') {
          ++lines;
          continue;
        }
        EXPECT_FALSE((c >= 0 && c < 0x20) || c == 0x7f) << "control character " << ch << " printed raw";
      }
      EXPECT_GE(lines, 3u) << ch;  // header, (rule,) two rows: no row split by a raw newline
    }
  }
}

}  // namespace
}  // namespace tc::io
