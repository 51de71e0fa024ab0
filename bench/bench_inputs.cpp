// Bounds on hostile or large inputs (docs/reliability.md, "Resource bounds"): any scenario, link,
// CSV or preset input up to the 16 MiB cap ends in <= 2 s and <= 256 MB peak, and `compare` of
// 64 instances takes <= 100 ms, natively. Each benchmark reports the process's peak resident set
// (peak_rss_mb, from getrusage): run one at a time (--benchmark_filter) for a figure of its own.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>
#include <vector>

#include "io/compare.hpp"
#include "io/embedded.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/url_state.hpp"
#include "io/validation.hpp"

namespace {

using tc::io::Json;

const tc::io::PresetLibrary& builtin() {
  static const tc::io::PresetLibrary lib = tc::io::load_builtin_presets();
  return lib;
}

void report_peak(benchmark::State& state) {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  state.counters["peak_rss_mb"] = static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
}

// Runs `f`, which may throw InputError (the expected end of a hostile input).
template <class F>
void ends(F&& f) {
  try {
    f();
  } catch (const tc::io::InputError&) {
  }
}

// 16 MiB of empty objects: refused by the value count before a DOM is built.
void BM_EmptyObjects16MiB(benchmark::State& state) {
  std::string text = "[";
  while (text.size() < (16u << 20) - 4) text += "{},";
  text += "{}]";
  for (auto _ : state) ends([&] { benchmark::DoNotOptimize(tc::io::parse_json(text, "objects.json")); });
  report_peak(state);
}
BENCHMARK(BM_EmptyObjects16MiB)->Unit(benchmark::kMillisecond)->Iterations(3);

// A scenario with a 16 MiB array of claims (each {"text":"x"}): parsed, refused at 200 claims.
void BM_Scenario16MiBClaims(benchmark::State& state) {
  std::string claims = "[";
  while (claims.size() < (16u << 20) - 200) claims += R"({"text":"x"},)";
  const std::string text = R"({"model":"llama3.1-8b","instance":"p5.48xlarge","claims":)" + claims + "{}]}";
  for (auto _ : state) ends([&] { benchmark::DoNotOptimize(tc::io::parse_job_text(text, builtin(), "claims.json")); });
  report_peak(state);
}
BENCHMARK(BM_Scenario16MiBClaims)->Unit(benchmark::kMillisecond)->Iterations(3);

// Four operator preset files of 10,000 models each, merged over the built-in presets.
void BM_MergeFourFilesOf10000Models(benchmark::State& state) {
  const Json models = Json::parse(tc::io::embedded_contents("presets/models.json"));
  std::vector<std::string> files;
  for (int f = 0; f < 4; ++f) {
    Json doc = models;
    doc["models"] = Json::array();
    for (int i = 0; i < 10000; ++i) {
      Json m = models["models"][0];
      m["id"] = "m" + std::to_string(i * 4 + f % 2);  // files 0 and 2 (1 and 3) define the same ids
      doc["models"].push_back(m);
    }
    files.push_back(doc.dump());
  }
  for (auto _ : state) {
    tc::io::PresetLibrary lib = builtin();
    for (std::size_t f = 0; f < files.size(); ++f) tc::io::merge_preset_json(lib, "f" + std::to_string(f), files[f]);
    benchmark::DoNotOptimize(lib.models.size());
  }
  report_peak(state);
}
BENCHMARK(BM_MergeFourFilesOf10000Models)->Unit(benchmark::kMillisecond)->Iterations(3);

// `compare` of the default scenario on 64 instances (the built-in ones under new ids).
void BM_Compare64Instances(benchmark::State& state) {
  tc::io::PresetLibrary lib = builtin();
  Json doc = Json::parse(tc::io::embedded_contents("presets/instances.json"));
  Json all = Json::array();
  std::vector<std::string> ids;
  for (int i = 0; i < 64; ++i) {
    Json x = doc["instances"][static_cast<std::size_t>(i) % doc["instances"].size()];
    x["id"] = x["id"].get<std::string>() + "-" + std::to_string(i);
    ids.push_back(x["id"]);
    all.push_back(x);
  }
  doc["instances"] = all;
  tc::io::merge_preset_json(lib, "instances64.json", doc.dump());
  const tc::io::Job job = tc::io::parse_job(tc::io::seed_document("default"), lib, "default");
  for (auto _ : state) benchmark::DoNotOptimize(tc::io::compare_instances(job, lib, ids));
  report_peak(state);
}
BENCHMARK(BM_Compare64Instances)->Unit(benchmark::kMillisecond);

// A published-runs CSV of `rows` short rows: read, then one row estimated (each row is a plan
// search). 16 MiB of them (200,000 rows) is refused at the row cap (10,000) while being split.
std::string csv_of(std::size_t bytes, int rows) {
  std::string csv = "id,accelerator,model,layers,hidden,ffn_hidden,heads,kv_heads,seq_len,vocab,chips,"
                    "chips_per_node,tp,pp,dp,measured_tokens_per_s_per_chip\n";
  for (int i = 0; csv.size() < bytes - 200 && i < rows; ++i)
    csv += "r" + std::to_string(i) + ",h100-sxm,Llama,32,4096,14336,32,8,8192,128256,8,8,8,1,1,1000\n";
  return csv;
}

void BM_ValidateCsv16MiB(benchmark::State& state) {
  const std::string csv = csv_of(16u << 20, 1 << 30);
  for (auto _ : state) ends([&] { benchmark::DoNotOptimize(tc::io::read_published_runs(csv)); });
  report_peak(state);
}
BENCHMARK(BM_ValidateCsv16MiB)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ValidateCsv10000Rows(benchmark::State& state) {
  const std::string csv = csv_of(16u << 20, 10000);
  for (auto _ : state) {
    const auto runs = tc::io::read_published_runs(csv);
    benchmark::DoNotOptimize(tc::io::check_run(runs.front(), builtin()));
  }
  report_peak(state);
}
BENCHMARK(BM_ValidateCsv10000Rows)->Unit(benchmark::kMillisecond)->Iterations(3);

// The longest link (2,048 characters) decoded and estimated as `estimate --link` does.
void BM_LongestLink(benchmark::State& state) {
  std::string hash = "#v1&m=llama3.1-70b&i=p5.48xlarge&n=16&tt=1e12&c=p5.48xlarge";
  while (hash.size() < 2000) hash += ",p5.48xlarge";
  for (auto _ : state) ends([&] { benchmark::DoNotOptimize(tc::io::evaluate(tc::io::parse_job_link(hash, builtin()), builtin())); });
  report_peak(state);
}
BENCHMARK(BM_LongestLink)->Unit(benchmark::kMillisecond);

}  // namespace
