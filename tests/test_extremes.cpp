// Extreme inputs: 1e15 parameters, a million nodes, one token, zero prices, huge and deeply nested
// JSON, long strings. Each must give a result with finite numbers or an InputError with a short,
// clear message, in bounded time and memory, never a crash (the asan preset runs this file under
// ASan + UBSan, so an overflow or a stack exhaustion fails it).
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "io/cost_json.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "io/scenario.hpp"
#include "io/url_state.hpp"
#include "support.hpp"

namespace {

using tc::io::Json;

using tc_test::lib;

// Generous: the slowest build (ASan, -O1) on a 2-core machine. Real runs take milliseconds.
constexpr double kSecondsLimit = 20;

struct Outcome {
  bool ok = false;
  std::string error;        // InputError::what()
  std::string field;        // InputError::field()
  tc::Estimate estimate;
  Json json;                // what `traincalc estimate` prints
  double seconds = 0;
};

using tc_test::all_finite;

// The CLI's estimate path on a scenario text, timed.
Outcome run(const std::string& text) {
  Outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const auto job = tc::io::parse_job_text(text, lib(), "extreme.json");
    const auto res = tc::io::evaluate(job, lib());
    o.estimate = res.est;
    o.json = tc::io::result_json(job, res);
    (void)o.json.dump();
    (void)tc::io::result_text(job, res);
    o.ok = true;
  } catch (const tc::io::InputError& e) {
    o.error = e.what();
    o.field = e.field();
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

// Either outcome is acceptable; both must be clean.
void expect_clean(const Outcome& o, const std::string& what) {
  EXPECT_LT(o.seconds, kSecondsLimit) << what;
  if (o.ok) {
    EXPECT_TRUE(std::isfinite(o.estimate.step_time_s) && o.estimate.step_time_s > 0) << what;
    EXPECT_TRUE(all_finite(o.json)) << what;
  } else {
    EXPECT_FALSE(o.field.empty()) << what << ": " << o.error;
    EXPECT_LT(o.error.size(), 600u) << what << ": " << o.error.substr(0, 600);
    EXPECT_EQ(o.error.find('\n'), std::string::npos) << what;
  }
  std::printf("  %-44s %8.3f s  %s\n", what.c_str(), o.seconds,
              o.ok ? ("ok, " + std::to_string(o.estimate.plans_considered) + " plans").c_str()
                   : o.error.substr(0, 100).c_str());
}

Outcome expect_error(const std::string& text, const std::string& field, const std::string& what) {
  const Outcome o = run(text);
  expect_clean(o, what);
  EXPECT_FALSE(o.ok) << what;
  EXPECT_EQ(o.field.rfind(field, 0), 0u) << what << ": " << o.error.substr(0, 300);
  return o;
}

Outcome expect_result(const std::string& text, const std::string& what) {
  const Outcome o = run(text);
  expect_clean(o, what);
  EXPECT_TRUE(o.ok) << what << ": " << o.error;
  return o;
}

const char* kNoFailures = R"("overheads":{"failures":{"per_node_hour":0}})";

TEST(Extremes, AQuadrillionParameters) {
  // 12 h^2 L = 9.6e14 parameters: accepted, far too large for the memory, and finite.
  const Outcome big = expect_result(
      std::string(R"({"model":{"layers":2000,"hidden":200000,"ffn_hidden":800000,"heads":1000,"kv_heads":1000,
          "seq_len":8192,"vocab":100000},"instance":"p5.48xlarge","nodes":1000,"global_batch":8000,
          "training":{"tokens":1e9},)") + kNoFailures + "}",
      "9.6e14 parameters on 8,000 GPUs");
  EXPECT_GT(big.estimate.params, 9e14);
  EXPECT_FALSE(big.estimate.memory.fits);
  // Ten times more on one node: a result that says it does not fit, or a message naming the model.
  const Outcome bigger = run(R"({"model":{"layers":20000,"hidden":200000,"ffn_hidden":800000,"heads":1000,
      "kv_heads":1000,"seq_len":8192,"vocab":100000},"instance":"p5.48xlarge","training":{"tokens":1e9}})");
  expect_clean(bigger, "9.6e15 parameters on one node");
  if (bigger.ok) {
    EXPECT_FALSE(bigger.estimate.memory.fits);
  }
}

TEST(Extremes, AMillionNodes) {
  // 8 million GPUs, the plan searched: a clear answer either way, quickly.
  expect_clean(run(std::string(R"({"model":"llama3.1-405b","instance":"p5.48xlarge","nodes":1000000,
      "global_batch":16000000,"training":{"tokens":1e15},)") + kNoFailures + "}"),
               "llama3.1-405b on 1e6 p5 nodes");
  // The default batch cannot feed 72 million GPUs: asked for exactly, the error says why; else the
  // batch grows to one per data-parallel rank and the cost model finds the job never finishes.
  expect_error(R"({"model":"llama3.1-8b","instance":"gb200-nvl72","nodes":1000000,"global_batch_exact":true,
      "training":{"tokens":1e15}})", "global_batch", "llama3.1-8b on 1e6 GB200 racks, exact batch");
  expect_error(R"({"model":"llama3.1-8b","instance":"gb200-nvl72","nodes":1000000,"training":{"tokens":1e15}})",
               "overheads.failures", "llama3.1-8b on 1e6 GB200 racks");
  // 576 million NeuronCores are over the limit of 100 million devices.
  expect_error(R"({"model":"llama3.1-8b","instance":"trn3-ultraserver","nodes":1000000})", "nodes",
               "1e6 Trn3 UltraServers");
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","nodes":1000001})", "nodes",
               "1,000,001 nodes");
  // With the default failure rate a million nodes never finish: the cost model says so.
  expect_clean(run(R"({"model":"llama3.1-405b","instance":"trn2.48xlarge","nodes":1000000,
      "global_batch":1000000000,"training":{"tokens":1e15}})"),
               "failures on a million nodes");
}

TEST(Extremes, PlanSearchStaysBounded) {
  // 100,000 layers and a highly composite device count: millions of candidate plans. The search
  // stops at its cap and says so.
  const Outcome o = expect_result(
      std::string(R"({"model":{"layers":100000,"hidden":997920,"ffn_hidden":1000000,"heads":55440,
          "kv_heads":55440,"seq_len":8,"vocab":10},
          "instance":{"accelerator":"h100-sxm","chips_per_node":720,"inter_node_gbps":3200},
          "nodes":102102,"global_batch":1000000000,"training":{"tokens":1e9},)") + kNoFailures + "}",
      "1e5 layers on 73,513,440 GPUs, all auto");
  EXPECT_LE(o.estimate.plans_considered, 200000);
  bool capped = false;
  for (const auto& w : o.estimate.warnings) capped |= w.find("plan search stopped") != std::string::npos;
  EXPECT_TRUE(capped);
  // A hundred thousand experts (and as many shared ones) in every layer.
  expect_result(R"({"model":{"layers":4,"hidden":1024,"ffn_hidden":16,"heads":8,"kv_heads":8,"seq_len":8,
      "vocab":10,"moe_experts":100000,"moe_top_k":1,"moe_shared_experts":100000},
      "instance":"p5.48xlarge","nodes":64,"training":{"tokens":1e9}})",
                "1e5 experts, all auto");
}

TEST(Extremes, OneToken) {
  const Outcome o = expect_result(
      R"({"model":{"layers":1,"hidden":1,"ffn_hidden":1,"heads":1,"kv_heads":1,"seq_len":1,"vocab":1},
          "instance":"p5.48xlarge","chips":1,"global_batch":1,"training":{"tokens":1}})",
      "one token, one chip, the smallest model");
  EXPECT_GT(o.estimate.tokens_per_s, 0);
  EXPECT_LE(o.estimate.mfu, 1);
  expect_result(R"({"model":{"kind":"vit","layers":1,"hidden":8,"ffn_hidden":8,"heads":1,"image_size":1,
      "patch_size":1,"num_classes":1},"instance":"trn1.2xlarge","global_batch":2,"training":{"samples":1}})",
                "a one-pixel ViT");
  expect_result(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","training":{"tokens":1}})",
                "llama3.1-8b trained on one token");
  expect_result(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","training":{"tokens":0}})",
                "no tokens at all");
}

TEST(Extremes, ZeroPriceTiers) {
  const char* prices[] = {
      R"({"tier":"custom","usd_per_hour":0})",
      R"({"tier":"custom","discount":1})",
      R"({"tier":"spot","discount":1})",
      R"({"mix":[{"tier":"custom","fraction":0.5,"usd_per_hour":0},{"tier":"on_demand","fraction":0.5}]})",
      R"({"mix":[{"tier":"custom","instances":0,"usd_per_hour":5},{"tier":"custom","instances":4,"usd_per_hour":0}]})",
  };
  // A discount of 100% is refused (a clear message naming the field); a rate of $0 is a price.
  for (const char* p : prices) {
    const Outcome o = run(std::string(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","nodes":4,
        "training":{"tokens":1e10},"energy":{"usd_per_kwh":0},"pricing":)") + p + "}");
    expect_clean(o, std::string("zero price ") + p);
    if (std::string(p).find("discount") == std::string::npos) {
      EXPECT_TRUE(o.ok) << o.error;
    }
    if (o.ok) {
      EXPECT_TRUE(all_finite(o.json["cost_usd"]));
    }
  }
}

TEST(Extremes, HugeJson) {
  const std::string ten_mb(10 << 20, 'x');
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","description":")" + ten_mb + "\"}",
               "description", "a 10 MB description");
  // 10 MB of whitespace around a valid scenario.
  const std::string spaces(5 << 20, ' ');
  expect_result(spaces + R"({"model":"llama3.1-8b","instance":"p5.48xlarge","training":{"tokens":1e9}})" + spaces,
                "10 MB of whitespace");
  // A million ids, and a million claims.
  std::string ids = "[";
  for (int i = 0; i < 1000000; ++i) ids += i ? ",\"p5.48xlarge\"" : "\"p5.48xlarge\"";
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","compare_instances":)" + ids + "]}",
               "compare_instances", "a million compare_instances");
  std::string claims = "[";
  for (int i = 0; i < 1000000; ++i) claims += i ? ",{}" : "{}";
  expect_clean(run(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","claims":)" + claims + "]}"),
               "a million claims");
  // A wide object: 200,000 unknown keys.
  std::string wide = R"({"model":"llama3.1-8b","instance":"p5.48xlarge","overheads":{)";
  for (int i = 0; i < 200000; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
  expect_error(wide + "}}", "overheads.", "200,000 keys in one object");
}

TEST(Extremes, DeepNesting) {
  const int n = 100000;
  expect_error(std::string(n, '[') + std::string(n, ']'), "extreme.json", "100k nested arrays");
  std::string objects;
  for (int i = 0; i < n; ++i) objects += "{\"a\":";
  expect_error(objects + "1" + std::string(n, '}'), "extreme.json", "100k nested objects");
  expect_error(std::string(n, '['), "extreme.json", "100k unclosed brackets");
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","claims":[{"text":)" +
                   std::string(n, '[') + std::string(n, ']') + "}]}",
               "extreme.json", "deep nesting inside a claim");
  // Up to 64 levels parse; brackets inside strings do not count.
  EXPECT_NO_THROW(tc::io::parse_json(std::string(64, '[') + std::string(64, ']'), "x"));
  EXPECT_THROW(tc::io::parse_json(std::string(65, '[') + std::string(65, ']'), "x"), tc::io::InputError);
  EXPECT_NO_THROW(tc::io::parse_json("[\"" + std::string(1000, '[') + "\\\"\"]", "x"));
  // Presets and URL state go through the same parser.
  tc::io::PresetLibrary copy = lib();
  EXPECT_THROW(tc::io::merge_preset_json(copy, "deep.json", std::string(n, '[') + std::string(n, ']')),
               tc::io::InputError);
}

TEST(Extremes, LongStrings) {
  const std::string mb(1 << 20, 'k');
  const Outcome top = expect_error("{\"" + mb + "\":1}", mb.substr(0, 40), "a 1 MB unknown key");
  EXPECT_NE(top.error.find("1048576 bytes"), std::string::npos) << top.error.substr(0, 300);
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","parallel":{")" + mb + "\":1}}",
               "parallel.", "a 1 MB key in parallel");
  expect_error(R"({"model":")" + mb + "\"}", "model", "a 1 MB model id");
  expect_error(R"({"model":"llama3.1-8b","instance":")" + mb + "\"}", "instance", "a 1 MB instance id");
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","precision":")" + mb + "\"}",
               "precision", "a 1 MB precision");
  expect_error(R"({"name":"a","name":"b","model":"llama3.1-8b"})", "extreme.json: name", "duplicate key");
  expect_error("{\"" + mb + "\":1,\"" + mb + "\":2}", "extreme.json: " + mb.substr(0, 40),
               "a 1 MB duplicate key");
  expect_error(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","name":"tab	inside"})", "extreme.json",
               "a control character in a string");
  // URL hashes: capped in length, every key and value checked.
  EXPECT_THROW(tc::io::parse_url_hash("#v1&m=" + mb, Json::object()), tc::io::InputError);
  EXPECT_THROW(tc::io::parse_url_hash("#v1&" + std::string(2000, 'a') + "=1", Json::object()),
               tc::io::InputError);
}

TEST(Extremes, MemoryStaysBounded) {
  // Every case above ran in this process: the peak resident size stays far from the machine's.
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const double gib = ru.ru_maxrss / 1024.0 / 1024.0;
  std::printf("  peak resident memory %.2f GiB\n", gib);
  EXPECT_LT(gib, 4.0);
}

// The CLI on extreme input: exit status 2 and one line, never a crash.
TEST(Extremes, CliRejectsHostileFilesWithStatus2) {
  const std::string dir = testing::TempDir();
  struct File {
    std::string name, text, field;
  };
  const File files[] = {
      {"deep", std::string(100000, '[') + std::string(100000, ']'), "error: "},
      {"big", std::string(17 << 20, ' '), "error: "},
      {"key", "{\"" + std::string(1 << 20, 'k') + "\":1}", "error: "},
      {"array", "[1,2,3]", "error: "},
  };
  for (const auto& f : files) {
    const std::string in = dir + "tc_extreme_" + std::to_string(::getpid()) + "_" + f.name + ".json";
    const std::string err = in + ".err";
    std::ofstream(in, std::ios::binary) << f.text;
    const int st = std::system((std::string(TRAINCALC_CLI) + " estimate " + in + " > /dev/null 2> " + err).c_str());
    ASSERT_TRUE(WIFEXITED(st)) << f.name;
    EXPECT_EQ(WEXITSTATUS(st), 2) << f.name;
    std::stringstream text;
    text << std::ifstream(err).rdbuf();
    const std::string line = text.str();
    EXPECT_EQ(line.rfind(f.field, 0), 0u) << f.name << ": " << line.substr(0, 300);
    EXPECT_LT(line.size(), 600u) << f.name;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << f.name;
    std::remove(in.c_str());
    std::remove(err.c_str());
  }
}

}  // namespace
