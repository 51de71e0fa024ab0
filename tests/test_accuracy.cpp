// Accuracy against published training runs (tests/data/published_runs.csv): every row is
// estimated and the signed error on tokens/s per chip printed; the aggregate bars are enforced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "io/uncertainty.hpp"
#include "io/validation.hpp"

namespace tc::io {
namespace {

std::vector<RunCheck> check_all() {
  std::ifstream f(std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/published_runs.csv");
  std::stringstream text;
  text << f.rdbuf();
  const PresetLibrary lib = load_builtin_presets();
  std::vector<RunCheck> out;
  for (const auto& r : read_published_runs(text.str())) out.push_back(check_run(r, lib));
  return out;
}

double mean_abs(const std::vector<double>& e) {
  double s = 0;
  for (double x : e) s += std::fabs(x);
  return e.empty() ? 0 : s / e.size();
}

TEST(Accuracy, PublishedRuns) {
  const auto checks = check_all();
  ASSERT_GE(checks.size(), 330u);
  std::vector<double> all;
  std::map<std::string, std::vector<double>> by_acc, by_family;
  for (const auto& c : checks) {
    // Every published row runs: an empty field takes its documented default (published_runs.README.md).
    EXPECT_TRUE(c.problem.empty()) << c.run.id << ": " << c.problem;
    if (!c.problem.empty()) continue;
    ASSERT_TRUE(std::isfinite(c.error)) << c.run.id;
    if (!c.run.known_issue.empty()) continue;  // shown, never averaged (published_runs.README.md)
    all.push_back(c.error);
    by_acc[c.run.accelerator].push_back(c.error);
    by_family[c.run.family].push_back(c.error);
    std::printf("%-28s %-10s %+7.1f%%\n", c.run.id.c_str(), c.run.accelerator.c_str(), 100 * c.error);
  }
  std::vector<double> abs_sorted;
  for (double e : all) abs_sorted.push_back(std::fabs(e));
  std::sort(abs_sorted.begin(), abs_sorted.end());
  const double p90 = abs_sorted[static_cast<size_t>(0.9 * (abs_sorted.size() - 1))];
  std::printf("all: n=%zu MAE %.1f%% p90 %.1f%%\n", all.size(), 100 * mean_abs(all), 100 * p90);
  for (const auto& [k, v] : by_acc) std::printf("  %-12s n=%3zu MAE %.1f%%\n", k.c_str(), v.size(), 100 * mean_abs(v));
  for (const auto& [k, v] : by_family) std::printf("  %-22s n=%3zu MAE %.1f%%\n", k.c_str(), v.size(), 100 * mean_abs(v));
  // Bars over every counted row, held-out ones included, with the shipped calibration (the
  // out-of-sample ones are in tests/accuracy_loso.sh). They hold today's figures with a small
  // margin so that a change that loses accuracy fails (2026-12-05: MAE 5.6%, p90 13.1%, the worst
  // accelerator with five rows or more Trainium1's 8.3%, then A100 40 GB's 5.7%); issue 10's targets
  // (5% MAE, 12% p90, 8% per accelerator) are not met yet.
  EXPECT_LE(mean_abs(all), 0.065);
  EXPECT_LE(p90, 0.145);
  for (const auto& [acc, errs] : by_acc) {
    if (errs.size() >= 5) {
      EXPECT_LE(mean_abs(errs), 0.095) << acc;
    }
  }
}

// A layout that really ran fits in its chips' memory: every published one, those whose recompute
// the source leaves empty by recomputing the fewest layers that fit.
TEST(Accuracy, PublishedLayoutsFitInMemory) {
  const std::set<std::string> known = {};
  std::set<std::string> not_fitting;
  for (const auto& c : check_all())
    if (c.problem.empty() && !c.fits) not_fitting.insert(c.run.id);
  EXPECT_EQ(not_fitting, known);
}

// Where a source measured memory (SimuMax's B200 runs give each rank's peak allocation, "real peak
// alloc N GiB" in the notes), the model's allocation matches it: all but the runtime reserve,
// outside PyTorch's allocator, and the gradient buckets, views into the gradient buffer
// Megatron-Core already holds. This is what shows Megatron-LM's BF16 runs keeping FP32 gradients
// (0.70-0.91 of the measurement with BF16 ones) and DeepSeek-V3's dense first layer holding no
// experts, on the first pipeline stage (its one-stage layout came to 1.18 while every layer held
// them).
TEST(Accuracy, MemoryMatchesMeasuredPeakAllocation) {
  std::ifstream f(std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/published_runs.csv");
  std::stringstream text;
  text << f.rdbuf();
  const PresetLibrary lib = load_builtin_presets();
  const std::string tag = "real peak alloc ";
  int checked = 0;
  for (const auto& r : read_published_runs(text.str())) {
    const auto notes = std::find_if(r.fields.begin(), r.fields.end(), [](const auto& kv) { return kv.first == "notes"; });
    if (notes == r.fields.end()) continue;
    const auto at = notes->second.find(tag);
    if (at == std::string::npos) continue;
    std::size_t digits = 0;
    const std::string figure = notes->second.substr(at + tag.size());
    const double measured_gib = std::stod(figure, &digits);
    ASSERT_EQ(figure.compare(digits, 4, " GiB"), 0) << r.id << ": " << figure.substr(0, 20);
    const Memory m = run_estimate(parse_scenario(scenario_for_run(r, lib), lib, r.id)).memory;
    const double allocated_gib = m.weights_gib + m.gradients_gib + m.optimizer_gib + m.activations_gib;
    EXPECT_GE(allocated_gib, 0.88 * measured_gib) << r.id;
    EXPECT_LE(allocated_gib, 1.05 * measured_gib) << r.id;
    ++checked;
  }
  EXPECT_GE(checked, 36);
}

// Utilisation can never pass the hardware: 0 < MFU <= HFU <= 1 on every published layout.
TEST(Accuracy, UtilisationStaysUnderPeakOnEveryRow) {
  std::ifstream f(std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/published_runs.csv");
  std::stringstream text;
  text << f.rdbuf();
  const PresetLibrary lib = load_builtin_presets();
  for (const auto& r : read_published_runs(text.str())) {
    const ScenarioSpec spec = parse_scenario(scenario_for_run(r, lib), lib, r.id);
    const Estimate e = run_estimate(spec);
    EXPECT_GT(e.mfu, 0) << r.id;
    EXPECT_LE(e.mfu, e.hfu * (1 + 1e-12)) << r.id;
    EXPECT_LE(e.hfu, 1.0) << r.id;
  }
}

}  // namespace
}  // namespace tc::io

namespace tc::io {
namespace {

Scenario on(const char* accelerator, const char* framework) {
  const PresetLibrary lib = load_builtin_presets();
  Scenario s;
  s.accelerator = *lib.accelerator(accelerator);
  s.framework = *lib.framework(framework);
  s.model = *lib.model("llama3.1-8b");
  s.instance.chips_per_node = 8;
  s.nodes = 4;
  return s;
}

Uncertainty band_on(const char* accelerator, const char* framework) {
  return uncertainty_for(on(accelerator, framework), builtin_band_table());
}

TEST(Uncertainty, CoveredAcceleratorUsesItsOwnRuns) {
  const Uncertainty u = band_on("h100-sxm", "megatron");
  EXPECT_TRUE(u.covered);
  EXPECT_GE(u.runs, 5);
  EXPECT_LE(u.error_low, 0);
  EXPECT_GE(u.error_high, 0);
  EXPECT_TRUE(u.note.empty()) << u.note;
}

TEST(Uncertainty, FrameworkNeverMeasuredOnTheAcceleratorTakesTheAcceleratorsBand) {
  // Modern Megatron was measured on H100 and Blackwell only: on an A100 its efficiency is carried
  // over, the band says so, and it is the A100's, which already holds what a source never measured
  // there can expect (every family's offset, each predicted by a calibration that never saw it),
  // for its class of model (a dense decoder here).
  const Uncertainty fsdp = band_on("a100-80gb", "fsdp");
  const Uncertainty u = band_on("a100-80gb", "megatron");
  EXPECT_TRUE(fsdp.note.empty()) << fsdp.note;
  EXPECT_NE(u.note.find("no published megatron dense runs on a100-80gb"), std::string::npos) << u.note;
  EXPECT_EQ(u.basis.rfind("a100-80gb, dense models: ", 0), 0u) << u.basis;
  const Json& groups = builtin_band_table().doc["groups"];
  const auto g = std::find_if(groups.begin(), groups.end(), [](const Json& x) {
    return x["accelerator"] == "a100-80gb" && x["framework"] == "" && x.value("model_class", "") == "dense";
  });
  ASSERT_NE(g, groups.end());
  EXPECT_EQ(u.runs, (*g)["runs"].get<int>());
  EXPECT_DOUBLE_EQ(u.mean_abs_error, (*g)["mean_abs_error"].get<double>());
  EXPECT_DOUBLE_EQ(u.error_low, std::min(0.0, (*g)["error_p10"].get<double>()));
  EXPECT_DOUBLE_EQ(u.error_high, std::max(0.0, (*g)["error_p90"].get<double>()));
  EXPECT_EQ(fsdp.basis.rfind("a100-80gb with fsdp, dense models: ", 0), 0u) << fsdp.basis;
  // DeepSpeed ZeRO-3 has four runs on the A100 80 GB (Narayanan et al. 2021's baseline): too few
  // for a band of their own, and the note says how many.
  const Uncertainty zero3 = band_on("a100-80gb", "deepspeed-zero3");
  EXPECT_NE(zero3.note.find("too few published deepspeed-zero3 dense runs on a100-80gb for a band (4 predicted"),
            std::string::npos) << zero3.note;
  EXPECT_EQ(zero3.error_high, u.error_high);
}

// A mixture of experts on GB200 takes the band of its class there (its only accelerator with nine
// mixture-of-experts runs); a dense model, the dense band.
TEST(Uncertainty, AMixtureOfExpertsTakesTheBandOfItsClass) {
  const PresetLibrary lib = load_builtin_presets();
  Scenario s = on("gb200", "megatron");
  s.model = *lib.model("qwen3-30b-a3b");
  const Uncertainty moe = uncertainty_for(s, builtin_band_table());
  EXPECT_NE(moe.basis.find("mixture-of-experts models"), std::string::npos) << moe.basis;
  s.model = *lib.model("llama3.1-70b");
  EXPECT_EQ(uncertainty_for(s, builtin_band_table()).basis.find("mixture-of-experts"), std::string::npos);
}

TEST(Uncertainty, UncoveredAcceleratorSaysSoAndWidens) {
  // The relative's band plus the spread leave-one-source-out measured for an accelerator predicted
  // from its relative's fit (presets/accuracy/uncertainty.json, "unseen").
  for (const auto& [acc, relative, fw] : {std::tuple{"trainium2", "trainium1", "neuronx-distributed"},
                                          std::tuple{"h200", "h100-sxm", "megatron"}}) {
    const Uncertainty rel = band_on(relative, fw);
    const Uncertainty u = band_on(acc, fw);
    EXPECT_FALSE(u.covered);
    EXPECT_TRUE(rel.covered);
    EXPECT_NE(u.note.find(std::string("no published runs for ") + acc), std::string::npos) << u.note;
    EXPECT_NE(u.note.find("held-out runs"), std::string::npos) << u.note;
    EXPECT_LE(u.error_low, rel.error_low);
    EXPECT_GT(u.error_high, rel.error_high);
    EXPECT_GT(u.mean_abs_error, rel.mean_abs_error);
  }
}

}  // namespace
}  // namespace tc::io

namespace tc::io {
namespace {

TEST(Uncertainty, FarOutsideThePublishedShapesWidens) {
  const PresetLibrary lib = load_builtin_presets();
  Scenario s;
  s.accelerator = *lib.accelerator("h100-sxm");
  s.framework = *lib.framework("megatron");
  s.model = *lib.model("llama3.1-8b");
  s.instance = *lib.instance("p5.48xlarge");
  s.nodes = 4;
  const Uncertainty inside = uncertainty_for(s, builtin_band_table());
  EXPECT_TRUE(inside.note.empty()) << inside.note;
  s.nodes = 100000;  // 800,000 chips
  const Uncertainty outside = uncertainty_for(s, builtin_band_table());
  EXPECT_NE(outside.note.find("chips"), std::string::npos) << outside.note;
  EXPECT_GT(outside.error_high - outside.error_low, inside.error_high - inside.error_low);
}

// Split-conformal p10-p90 edges promise 80% only from 9 errors: a group with fewer published runs
// does not narrow the band, and the note says how many there are rather than "none".
TEST(Uncertainty, GroupsOfFewerThanNineRunsDoNotNarrowTheBand) {
  const Uncertainty b300 = band_on("b300", "megatron");
  EXPECT_FALSE(b300.covered);
  EXPECT_NE(b300.note.find("too few published runs for b300 for a band"), std::string::npos) << b300.note;
  EXPECT_GE(b300.runs, 9);
  for (const char* acc : {"h100-sxm", "b200", "gb200", "trainium1", "a100-80gb"})
    for (const char* fw : {"megatron", "fsdp", "megatron-lm", "neuronx-distributed", "deepspeed-zero3"})
      EXPECT_GE(band_on(acc, fw).runs, 9) << acc << " " << fw;
}

}  // namespace
}  // namespace tc::io
