// Regression tests for what fuzzing and the property tests found (docs/reliability.md lists them).
// Each input is the smallest form of the one that failed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/cost_json.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "io/scenario.hpp"
#include "io/url_state.hpp"
#include "io/validation.hpp"
#include "support.hpp"

namespace {

using tc_test::lib;

// The InputError of a scenario text, or "" when it is accepted (and then estimated and costed).
tc::io::InputError error_of(const std::string& text) {
  try {
    (void)tc::io::cost_of(tc::io::evaluate(tc::io::parse_job_text(text, lib(), "regression.json"), lib()));
  } catch (const tc::io::InputError& err) {
    return err;
  }
  return tc::io::InputError("", "");
}

tc::Estimate estimate_of(const std::string& text) {
  const auto spec = tc::io::parse_scenario_text(text, lib(), "regression.json");
  return tc::io::run_estimate(spec);
}

// property tests: 9,570 one-year Savings Plan terms (a 7.3e12-token LoRA run on a trn1.2xlarge) left
// 80 instance-hours ($61) of the commitment idle, under the millionth of it that counted as rounding:
// the idle line vanished and the commitment no longer equalled what was used plus what was idle.
TEST(Regressions, AnIdleCommitmentOfDollarsIsBilledHoweverLargeTheCommitment) {
  const auto job = tc::io::parse_job_text(R"({"framework":"fsdp","global_batch":8,"instance":"trn1.2xlarge",
      "micro_batch":2,"model":"llama3.1-405b","nodes":1,"precision":"fp16","recompute":"selective",
      "parallel":{"cp":1,"dp":1,"ep":1,"pp":2,"sequence_parallel":false,"tp":1,"vpp":1,"zero":1},
      "pricing":{"discount":0.43172222593724585,"region":"us-east-1","tier":"savings_plan_instance_1y"},
      "training":{"lora_rank":16,"mode":"lora","tokens":7303604397686.485}})",
                                          lib(), "regression.json");
  const auto result = tc::io::evaluate(job, lib());
  const tc::Bill& b = tc::io::cost_of(result).result.bill;
  ASSERT_EQ(b.tiers.size(), 1u);
  const tc::TierLine& t = b.tiers.front();
  ASSERT_GT(t.committed_usd, 1e7);
  EXPECT_GT(t.idle_usd, 1);
  EXPECT_NEAR(t.committed_usd, t.usd + t.idle_usd, 1e-9 * t.committed_usd);
}

// fuzz_scenario: a fixed tp that does not divide the cluster's devices (6 of 16) made the plan
// search skip every plan before checking one, and the CLI printed "error: " and nothing else.
TEST(Regressions, FixedTpThatDoesNotDivideTheDevicesNamesTheField) {
  const auto err = error_of(R"({"instance":"p5.48xlarge","model":"llama2-70b","nodes":2,
      "parallel":{"cp":1,"dp":2,"ep":1,"pp":2,"sequence_parallel":true,"tp":6,"vpp":1,"zero":3},
      "micro_batch":1,"recompute":"full","training":{"tokens":1e11}})");
  EXPECT_EQ(err.field(), "parallel.tp");
  EXPECT_NE(err.reason().find("16 devices"), std::string::npos) << err.what();
  // A fixed cp the same way.
  const auto err2 = error_of(R"({"instance":"p5.48xlarge","model":"llama3.1-8b","nodes":1,
      "parallel":{"cp":3},"training":{"tokens":1e9}})");
  EXPECT_FALSE(err2.field().empty()) << err2.what();
  EXPECT_FALSE(err2.reason().empty());
}

// Property test: pipeline stages on the two NeuronCores of trn1.2xlarge (one chip, no chip-to-chip
// link) sent activations over a link of 0 GB/s; the step time was infinite and the cost model
// rejected the scenario. Expert all-to-all inside one chip had the same fault.
TEST(Regressions, PipelineAndExpertParallelismInsideOneChipAreFinite) {
  const tc::Estimate pp = estimate_of(R"({"instance":"trn1.2xlarge","model":"bert-large","nodes":1,
      "parallel":{"tp":1,"pp":2,"dp":1,"zero":0},"micro_batch":4,"global_batch":40,
      "training":{"tokens":1e9}})");
  EXPECT_TRUE(std::isfinite(pp.step_time_s));
  EXPECT_GT(pp.step_time_s, 0);
  const tc::Estimate ep = estimate_of(R"({"instance":"trn1.2xlarge","nodes":1,
      "model":{"layers":2,"hidden":512,"ffn_hidden":1024,"heads":8,"kv_heads":8,"seq_len":512,
               "vocab":1000,"moe_experts":4,"moe_top_k":2},
      "parallel":{"tp":1,"pp":1,"dp":2,"ep":2,"zero":0},"micro_batch":1,"global_batch":8,
      "training":{"tokens":1e9}})");
  EXPECT_TRUE(std::isfinite(ep.step_time_s));
  for (const auto& t : ep.breakdown_s) EXPECT_TRUE(std::isfinite(t.value)) << t.name;
  EXPECT_TRUE(error_of(R"({"instance":"trn1.2xlarge","model":"bert-large","nodes":1,
      "parallel":{"tp":1,"pp":2,"dp":1,"zero":0},"micro_batch":4,"global_batch":40,
      "training":{"tokens":1e9}})").reason().empty());
}

}  // namespace

namespace {

// Property test: an unknown baseline_instance was reported as "instance: unknown instance ...",
// naming a field the user had not got wrong.
TEST(Regressions, UnknownBaselineInstanceNamesBaselineInstance) {
  const auto err = error_of(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","nodes":1,
      "baseline_instance":"p5.48xlarg","training":{"tokens":1e9}})");
  EXPECT_EQ(err.field(), "baseline_instance") << err.what();
  EXPECT_NE(err.reason().find("p5.48xlarge"), std::string::npos) << "suggests the nearest id";
}

}  // namespace

namespace {

// fuzz_scenario: an unknown key made of a NUL character ("\u0000") put the NUL into the message,
// whose C string then ended before the field: "error: " and nothing else. Control characters in
// echoed keys are now shown escaped, and a long key is cut on a whole UTF-8 character.
TEST(Regressions, ControlCharactersInAnUnknownKeyAreShownEscaped) {
  const auto err = error_of(R"({"instance":"p5.48xlarge","model":"llama3.1-8b","nodes":1,"\u0000":1})");
  EXPECT_EQ(err.field(), "\\u0000");
  EXPECT_EQ(std::string(err.what()).find('\0'), std::string::npos);
  EXPECT_NE(std::string(err.what()).find("unknown key"), std::string::npos) << err.what();
  // 70 two-byte characters: the cut keeps whole characters.
  std::string key;
  for (int i = 0; i < 70; ++i) key += "\xC3\xA9";
  const auto long_err = error_of(R"({"instance":"p5.48xlarge","model":"llama3.1-8b","nodes":1,")" + key + R"(":1})");
  const std::string field = long_err.field();
  EXPECT_EQ(field.rfind("... (140 bytes)"), field.size() - 15) << field;
  EXPECT_EQ(field.size(), 60u + 15);  // 30 whole characters and the suffix
}

}  // namespace

// fuzz_validate: a published-runs row on a node of one two-core Trainium1 chip (chips_per_node 1)
// predicted 0 tokens/s with no problem: data- and tensor-parallel groups across nodes ran their
// node-local stage over the chip-to-chip link, which such a node does not have (0 GB/s), instead
// of the chip's memory. The class: every multi-core accelerator, one chip per node, collectives
// of every group size across nodes.
TEST(Regressions, NodesOfOneMultiCoreChipRunCollectivesAcrossNodes) {
  int checked = 0;
  for (const auto& a : lib().accelerators) {
    if (a.devices_per_chip < 2) continue;
    for (int tp : {1, 2, 4, 8}) {
      const std::string text = R"({"model":"llama3.1-8b","chips":8,"global_batch":64,"micro_batch":1,
          "instance":{"accelerator":")" + a.id + R"(","chips_per_node":1,"devices_per_chip":)" +
                               std::to_string(a.devices_per_chip) + R"(,"inter_node_gbps":800},
          "parallel":{"tp":)" + std::to_string(tp) + R"(,"pp":1,"zero":1},"training":{"tokens":1e9}})";
      const tc::Estimate e = estimate_of(text);
      EXPECT_TRUE(std::isfinite(e.step_time_s) && e.step_time_s > 0) << a.id << " tp " << tp;
      for (const auto& t : e.breakdown_s) EXPECT_TRUE(std::isfinite(t.value)) << a.id << " tp " << tp << " " << t.name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 8);  // Trainium1, 2 and 3
}

// fuzz_validate: a CSV cell "1", NUL bytes, "6" was read as 1 (strtod stops at the NUL, and the
// check looked for the C string's end). A cell is a number only when every byte of it is.
TEST(Regressions, CsvCellWithANulByteIsNoNumber) {
  const std::string header =
      "id,model,layers,hidden,ffn_hidden,heads,kv_heads,seq_len,vocab,accelerator,chips,chips_per_node,"
      "devices_per_chip,inter_node_gbps,precision,tp,pp,dp,micro_batch,global_batch,"
      "measured_tokens_per_s_per_chip\n";
  std::string row = "R1,Llama-2-7B,32,4096,11008,32,32,4096,32000,trainium1,32,1";
  row += std::string(3, '\0') + "6,2,800,bf16,8,1,8,1,64,1000\n";
  const auto runs = tc::io::read_published_runs(header + row);
  ASSERT_EQ(runs.size(), 1u);
  const auto check = tc::io::check_run(runs[0], lib());
  EXPECT_NE(check.problem.find("chips_per_node"), std::string::npos) << check.problem;
  EXPECT_EQ(check.predicted_tokens_per_s_per_chip, 0);
}

// fuzz_url_hash: a link value with a byte that is not UTF-8 (0xB0 in an incident's note) became a
// JSON string that threw on serialization. Link values and CSV files are checked as UTF-8 where
// they are read, naming the key; every well-formed sequence still passes.
TEST(Regressions, TextThatIsNotUtf8IsRefusedWhereItIsRead) {
  const tc::io::Json base = tc::io::seed_document("default");
  for (const std::string bad : {"%B0", "a\xB0" "b", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%E2%82"}) {
    try {
      tc::io::parse_url_hash("#v1&in=1&in.0.note=" + bad, base);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const tc::io::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("in.0.note"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
    }
  }
  const auto ok = tc::io::parse_url_hash("#v1&in=1&in.0.note=%C3%A9%E2%82%AC%F0%9F%9A%80", base);
  EXPECT_EQ(ok.scenario.dump().find("\\u"), std::string::npos);
  EXPECT_THROW(tc::io::read_published_runs("id,accelerator,measured_tokens_per_s_per_chip\nR\xB0,a100-80gb,1\n"),
               tc::io::InputError);
  // Every one- to three-byte string is either refused or serializes.
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; b += 5)
      for (int c : {0x80, 0xBF, 0x41}) {
        const std::string t{static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)};
        if (tc::io::invalid_utf8_at(t) == std::string::npos) {
          EXPECT_NO_THROW((void)tc::io::Json(t).dump()) << a << " " << b << " " << c;
        } else {
          EXPECT_THROW((void)tc::io::Json(t).dump(), tc::io::Json::exception) << a << " " << b << " " << c;
        }
      }
}
