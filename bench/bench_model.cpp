// Speed targets (docs/performance.md): one estimate under 50 us, a full "auto" plan search for
// 1,024 chips under 50 ms, natively.
#include <benchmark/benchmark.h>

#include "io/presets.hpp"
#include "io/scenario.hpp"

namespace {

tc::io::ScenarioSpec spec_for(const char* json) {
  static const tc::io::PresetLibrary lib = tc::io::load_builtin_presets();
  return tc::io::parse_scenario_text(json, lib, "bench");
}

void BM_OneEstimate(benchmark::State& state) {
  const auto spec = spec_for(R"({"model":"llama3.1-70b","instance":"p5.48xlarge","nodes":16,
    "parallel":{"tp":8,"pp":2,"dp":8,"vpp":1,"zero":1,"sequence_parallel":true},
    "micro_batch":1,"global_batch":1024,"recompute":"selective","training":{"tokens":1e12}})");
  tc::Scenario s = spec.scenario;
  s.plan = {8, 2, 8, 1, 1, 1, true, 1, 1, tc::Recompute::selective};
  for (auto _ : state) benchmark::DoNotOptimize(tc::estimate(s, false));
}
BENCHMARK(BM_OneEstimate)->Unit(benchmark::kMicrosecond);

void BM_EstimateWithMaxMicroBatch(benchmark::State& state) {
  const auto spec = spec_for(R"({"model":"llama3.1-70b","instance":"p5.48xlarge","nodes":16,
    "parallel":{"tp":8,"pp":2,"dp":8,"vpp":1,"zero":1,"sequence_parallel":true},
    "micro_batch":1,"global_batch":1024,"recompute":"selective","training":{"tokens":1e12}})");
  for (auto _ : state) benchmark::DoNotOptimize(tc::io::run_estimate(spec));
}
BENCHMARK(BM_EstimateWithMaxMicroBatch)->Unit(benchmark::kMicrosecond);

void BM_AutoSearch1024Chips(benchmark::State& state) {
  const auto spec = spec_for(R"({"model":"llama3.1-405b","instance":"p5.48xlarge","chips":1024,
    "global_batch":2048,"training":{"tokens":1e12}})");
  for (auto _ : state) benchmark::DoNotOptimize(tc::io::run_estimate(spec));
}
BENCHMARK(BM_AutoSearch1024Chips)->Unit(benchmark::kMillisecond);

void BM_AutoSearch1024TrainiumChips(benchmark::State& state) {
  const auto spec = spec_for(R"({"model":"llama3.1-70b","instance":"trn2.48xlarge","chips":1024,
    "global_batch":1024,"training":{"tokens":1e12}})");
  for (auto _ : state) benchmark::DoNotOptimize(tc::io::run_estimate(spec));
}
BENCHMARK(BM_AutoSearch1024TrainiumChips)->Unit(benchmark::kMillisecond);

}  // namespace
