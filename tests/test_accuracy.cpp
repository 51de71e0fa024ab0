// Accuracy against published training runs (tests/data/published_runs.csv): every row is
// estimated and the signed error on tokens/s per chip printed; the aggregate bars are enforced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
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
  ASSERT_GE(checks.size(), 200u);
  std::vector<double> all;
  std::map<std::string, std::vector<double>> by_acc, by_family;
  for (const auto& c : checks) {
    EXPECT_TRUE(c.problem.empty()) << c.run.id << ": " << c.problem;
    if (!c.problem.empty()) continue;
    ASSERT_TRUE(std::isfinite(c.error)) << c.run.id;
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
  // Targets (docs/accuracy.md): all rows within 10% on average, nine in ten within 20%, and every
  // accelerator with five rows or more within 10% on average. Trainium1 is held to 21%: four of
  // its nine rows come from Neuron SDK 2.13-2.17 and disagree with the later rows of the same
  // shapes by up to 2x in opposite directions (docs/accuracy.md, "Trainium1"); no constant that is
  // not per row fits both. The leave-one-source-out target is checked by tests/accuracy_loso.sh.
  EXPECT_LE(mean_abs(all), 0.10);
  EXPECT_LE(p90, 0.20);
  for (const auto& [acc, errs] : by_acc) {
    if (errs.size() >= 5) {
      EXPECT_LE(mean_abs(errs), acc == "trainium1" ? 0.21 : 0.10) << acc;
    }
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

TEST(Uncertainty, CoveredAcceleratorUsesItsOwnRuns) {
  const Uncertainty u = uncertainty_for(on("h100-sxm", "megatron"));
  EXPECT_TRUE(u.covered);
  EXPECT_GE(u.runs, 5);
  EXPECT_LE(u.error_low, 0);
  EXPECT_GE(u.error_high, 0);
  EXPECT_TRUE(u.note.empty()) << u.note;
}

TEST(Uncertainty, FrameworkNeverMeasuredOnTheAcceleratorSaysSoAndWidens) {
  // Modern Megatron was measured on H100 and Blackwell only: on an A100 its efficiency is carried
  // over, and the band says so.
  const Uncertainty fsdp = uncertainty_for(on("a100-80gb", "fsdp"));
  const Uncertainty u = uncertainty_for(on("a100-80gb", "megatron"));
  EXPECT_TRUE(fsdp.note.empty()) << fsdp.note;
  EXPECT_NE(u.note.find("no published megatron runs on a100-80gb"), std::string::npos) << u.note;
  EXPECT_GT(u.error_high - u.error_low, uncertainty_for(on("a100-80gb", "megatron-2021")).error_high -
                                            uncertainty_for(on("a100-80gb", "megatron-2021")).error_low);
  EXPECT_GT(u.mean_abs_error, fsdp.mean_abs_error);
}

TEST(Uncertainty, UncoveredAcceleratorSaysSoAndWidens) {
  // The relative's band plus the spread leave-one-source-out measured for an accelerator predicted
  // from its relative's fit (presets/accuracy/uncertainty.json, "unseen").
  for (const auto& [acc, relative, fw] : {std::tuple{"trainium2", "trainium1", "neuronx-distributed"},
                                          std::tuple{"h200", "h100-sxm", "megatron"}}) {
    const Uncertainty rel = uncertainty_for(on(relative, fw));
    const Uncertainty u = uncertainty_for(on(acc, fw));
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
  const Uncertainty inside = uncertainty_for(s);
  EXPECT_TRUE(inside.note.empty()) << inside.note;
  s.nodes = 100000;  // 800,000 chips
  const Uncertainty outside = uncertainty_for(s);
  EXPECT_NE(outside.note.find("chips"), std::string::npos) << outside.note;
  EXPECT_GT(outside.error_high - outside.error_low, inside.error_high - inside.error_low);
}

}  // namespace
}  // namespace tc::io
