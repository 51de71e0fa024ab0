// Built-in presets and the preset loader: contract ids, sources for every figure, and error
// messages for broken input files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include <unistd.h>

#include "core/cost.hpp"
#include "core/estimate.hpp"
#include "core/params.hpp"
#include "io/cost_json.hpp"
#include "io/job.hpp"
#include "io/embedded.hpp"
#include "io/presets.hpp"
#include "io/scenario.hpp"
#include "support.hpp"

namespace {

using tc::io::InputError;
using tc::io::Json;
using tc::io::PresetLibrary;

const PresetLibrary& builtin() {
  static const PresetLibrary lib = tc::io::load_builtin_presets();
  return lib;
}

std::string builtin_text(const std::string& path) {
  for (const auto& f : tc::io::embedded_presets()) {
    if (f.path == path) return f.contents;
  }
  ADD_FAILURE() << "no embedded file " << path;
  return {};
}

Json builtin_json(const std::string& path) { return Json::parse(builtin_text(path)); }

// Runs `fn`, expecting an InputError; returns its full message.
std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return {};
}

std::string merge_error(const std::string& label, const Json& doc) {
  PresetLibrary lib = builtin();
  return error_of([&] { tc::io::merge_preset_json(lib, label, doc.dump()); });
}

using tc_test::contains;

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

// --- the built-in presets ------------------------------------------------------------------

TEST(PresetBuiltin, LoadsEveryFile) {
  const PresetLibrary& lib = builtin();
  EXPECT_EQ(lib.files.size(), 5u);
  EXPECT_FALSE(lib.accelerators.empty());
  EXPECT_FALSE(lib.services.empty());
  EXPECT_FALSE(lib.instances.empty());
  EXPECT_FALSE(lib.models.empty());
  EXPECT_FALSE(lib.frameworks.empty());
  for (const auto& f : lib.files) EXPECT_EQ(f.find("presets/scenarios/"), std::string::npos) << f;
}

// The published runs' software table, which only `validate` reads, sits in a table of its own, so
// that the page, which never validates, does not link it; the page's table holds everything else.
TEST(PresetBuiltin, TheSoftwareTableIsEmbeddedApartFromThePagesPresets) {
  const std::string software = "presets/accuracy/software.json";
  EXPECT_EQ(tc::io::embedded_contents(software), nullptr);
  const char* text = tc::io::embedded_contents(software, tc::io::embedded_validation_presets());
  ASSERT_NE(text, nullptr);
  EXPECT_TRUE(contains(text, "\"default_profile\""));
  EXPECT_NE(tc::io::embedded_contents("presets/accuracy/uncertainty.json"), nullptr);
  EXPECT_EQ(tc::io::embedded_validation_presets().size(), 1u);
}

TEST(PresetBuiltin, IdsAreTheContract) {
  const PresetLibrary& lib = builtin();
  EXPECT_EQ(as_set(lib.accelerator_ids()),
            (std::set<std::string>{"trainium1", "trainium2", "trainium3", "a100-40gb", "a100-80gb",
                                   "h100-sxm", "h200", "b200", "gb200", "b300", "gb300"}));
  EXPECT_EQ(as_set(lib.instance_ids()),
            (std::set<std::string>{"trn1.2xlarge", "trn1.32xlarge", "trn1n.32xlarge",
                                   "trn2.48xlarge", "trn2u-ultraserver", "trn3-ultraserver",
                                   "p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge", "p5e.48xlarge",
                                   "p5en.48xlarge", "p6-b200.48xlarge", "gb200-nvl72",
                                   "p6-b300.48xlarge", "gb300-nvl72"}));
  EXPECT_EQ(as_set(lib.model_ids()),
            (std::set<std::string>{"llama3.1-8b", "llama3.1-70b", "llama3.1-405b", "llama2-7b",
                                   "llama2-13b", "llama2-70b", "gpt3-175b", "dense-100b",
                                   "mixtral-8x7b", "moe-176b", "bert-large", "vit-b16", "vit-l16",
                                   "vit-h14", "deepseek-v3", "gpt-oss-120b", "qwen3-30b-a3b",
                                   "qwen3-235b-a22b"}));
  for (const char* id : {"megatron", "fsdp", "neuronx-distributed"})
    EXPECT_NE(lib.framework(id), nullptr) << id;
  for (const auto& x : lib.instances) {
    EXPECT_NE(lib.accelerator(x.accelerator_id), nullptr) << x.id;
    EXPECT_NE(lib.instance_info(x.id), nullptr) << x.id;
  }
  for (const auto& m : lib.models) EXPECT_NE(lib.model_info(m.id), nullptr) << m.id;
}

// Every number and flag of every entry must be backed by a dated source; prices carry their own.
TEST(PresetBuiltin, EveryFigureHasADatedSource) {
  const PresetLibrary& lib = builtin();
  const std::vector<std::pair<std::string, std::string>> files = {
      {"presets/accelerators.json", "accelerator"},
      {"presets/instances.json", "instance"},
      {"presets/models.json", "model"},
      {"presets/frameworks.json", "framework"}};
  int checked = 0;
  for (const auto& file : files) {
    // Named copies: C++17 lambdas cannot capture structured bindings (clang rejects it).
    const std::string& path = file.first;
    const std::string& kind = file.second;
    const Json doc = builtin_json(path);
    const std::string array_key = kind + "s";
    for (const auto& entry : doc.at(array_key)) {
      const std::string id = entry.at("id");
      std::function<void(const Json&, const std::string&)> walk = [&](const Json& v,
                                                                     const std::string& field) {
        if (v.is_object()) {
          for (auto it = v.begin(); it != v.end(); ++it) {
            walk(*it, field.empty() ? it.key() : field + "." + it.key());
          }
          return;
        }
        if (!(v.is_number() || v.is_boolean() || v.is_null())) return;
        const auto notes = lib.sources_for(kind, id, field);
        EXPECT_FALSE(notes.empty()) << path << ": " << id << "." << field << " has no source";
        for (const auto* n : notes) {
          EXPECT_TRUE(tc::io::is_valid_date(n->date)) << id << "." << field << ": " << n->date;
          EXPECT_FALSE(n->cite.empty());
          EXPECT_TRUE(n->confidence == "H" || n->confidence == "M" || n->confidence == "L");
        }
        ++checked;
      };
      for (auto it = entry.begin(); it != entry.end(); ++it) {
        if (it.key() == "sources" || it.key() == "prices" || it.key() == "price_history") continue;
        walk(*it, it.key());
      }
      for (const char* key : {"prices", "price_history"}) {
        if (!entry.contains(key)) continue;
        for (const auto& p : entry.at(key)) {
          EXPECT_TRUE(tc::io::is_valid_date(p.at("date").get<std::string>())) << id;
          EXPECT_FALSE(p.at("source").get<std::string>().empty()) << id;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(PresetBuiltin, KeyFiguresAsSourced) {
  const PresetLibrary& lib = builtin();
  const auto bf16 = static_cast<int>(tc::Precision::bf16);
  const auto fp8 = static_cast<int>(tc::Precision::fp8);
  EXPECT_DOUBLE_EQ(lib.accelerator("h100-sxm")->peak_tflops[bf16], 989.4);  // dense, not sparse
  EXPECT_DOUBLE_EQ(lib.accelerator("trainium1")->peak_tflops[bf16], 190);
  EXPECT_DOUBLE_EQ(lib.accelerator("trainium2")->peak_tflops[bf16], 667);
  EXPECT_DOUBLE_EQ(lib.accelerator("a100-40gb")->peak_tflops[fp8], 0);  // null: unsupported
  EXPECT_EQ(lib.accelerator("trainium1")->devices_per_chip, 2);
  EXPECT_EQ(lib.accelerator("trainium2")->devices_per_chip, 4);
  EXPECT_TRUE(lib.accelerator("trainium2")->stochastic_rounding);
  EXPECT_FALSE(lib.accelerator("h100-sxm")->stochastic_rounding);
  EXPECT_TRUE(lib.accelerator("b200")->stochastic_rounding);
  EXPECT_DOUBLE_EQ(lib.accelerator("trainium1")->power_w, 175);

  EXPECT_DOUBLE_EQ(lib.instance("p5.48xlarge")->intra.gb_per_s_per_chip, 450);  // 900 bidirectional
  EXPECT_EQ(lib.instance("trn2u-ultraserver")->chips_per_node, 64);
  EXPECT_EQ(lib.instance("gb200-nvl72")->chips_per_node, 72);

  auto price = [&](const std::string& id, const std::string& tier) {
    for (const auto& p : lib.instance(id)->prices) {
      if (p.tier == tier) return p.price_usd_per_hour;
    }
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(price("p5.48xlarge", "on_demand"), 55.04);  // after the June 2025 cut
  EXPECT_DOUBLE_EQ(price("trn1.32xlarge", "on_demand"), 21.50);
  EXPECT_DOUBLE_EQ(price("trn2.48xlarge", "capacity_block"), 35.7608);
  EXPECT_DOUBLE_EQ(price("p6-b300.48xlarge", "on_demand"), 142.416);
  // No public On-Demand rate: no entry, and a note saying so.
  for (const char* id : {"trn2.48xlarge", "trn2u-ultraserver", "trn3-ultraserver", "p5e.48xlarge",
                         "gb200-nvl72", "gb300-nvl72"}) {
    EXPECT_LT(price(id, "on_demand"), 0) << id;
    EXPECT_FALSE(lib.instance_info(id)->price_note.empty()) << id;
    EXPECT_EQ(lib.instance(id)->spot_discount, 0) << id;
  }

  EXPECT_EQ(lib.model("vit-b16")->seq_len, 197);
  EXPECT_EQ(lib.model("vit-h14")->seq_len, 257);
  EXPECT_EQ(lib.model("llama3.1-70b")->kv_heads, 8);
  EXPECT_EQ(lib.model("mixtral-8x7b")->moe_experts, 8);
}

// Blackwell Ultra and FP4 (shared/reference/hardware.md 1.2.1-1.2.2, 2.3): the figures as sourced.
TEST(PresetBuiltin, BlackwellUltraAndFp4AsSourced) {
  const PresetLibrary& lib = builtin();
  const auto fp4 = static_cast<int>(tc::Precision::fp4);
  const auto fp8 = static_cast<int>(tc::Precision::fp8);
  const auto bf16 = static_cast<int>(tc::Precision::bf16);
  const tc::Accelerator& b300 = *lib.accelerator("b300");
  const tc::Accelerator& gb300 = *lib.accelerator("gb300");
  EXPECT_DOUBLE_EQ(b300.peak_tflops[bf16], 2250);
  EXPECT_DOUBLE_EQ(b300.peak_tflops[fp8], 4500);
  EXPECT_DOUBLE_EQ(b300.peak_tflops[fp4], 13500);  // NVIDIA prints it dense: never halved
  EXPECT_DOUBLE_EQ(gb300.peak_tflops[fp4], 15000);
  EXPECT_DOUBLE_EQ(gb300.peak_tflops[fp8], 5000);
  EXPECT_DOUBLE_EQ(b300.hbm_gib, 268.6);   // usable, from nvidia-smi in MLPerf system files
  EXPECT_DOUBLE_EQ(gb300.hbm_gib, 277.5);
  EXPECT_DOUBLE_EQ(lib.accelerator("b200")->peak_tflops[fp4], 9000);
  EXPECT_DOUBLE_EQ(lib.accelerator("gb200")->peak_tflops[fp4], 10000);
  // Trainium3's MXFP4 runs at its MXFP8 rate; no FP4 before Blackwell and Trainium3.
  EXPECT_DOUBLE_EQ(lib.accelerator("trainium3")->peak_tflops[fp4], lib.accelerator("trainium3")->peak_tflops[fp8]);
  for (const char* id : {"trainium1", "trainium2", "a100-40gb", "a100-80gb", "h100-sxm", "h200"})
    EXPECT_DOUBLE_EQ(lib.accelerator(id)->peak_tflops[fp4], 0) << id;
  EXPECT_EQ(lib.instance("p6-b300.48xlarge")->accelerator_id, "b300");
  EXPECT_DOUBLE_EQ(lib.instance("p6-b300.48xlarge")->inter_node_gbps, 6400);
  EXPECT_EQ(lib.instance("gb300-nvl72")->chips_per_node, 72);
  EXPECT_TRUE(lib.instance("gb300-nvl72")->prices.empty());
  EXPECT_TRUE(contains(lib.instance_info("gb300-nvl72")->price_note, "No public price"));
}

// A lower precision never runs slower on the same chip: fp32 <= tf32 <= bf16 <= fp8 <= fp4 where
// the chip has both.
TEST(PresetBuiltin, PeaksRiseAsPrecisionFalls) {
  using P = tc::Precision;
  const P order[] = {P::fp32, P::tf32, P::bf16, P::fp8, P::fp4};
  for (const auto& a : builtin().accelerators) {
    double prev = 0;
    const char* prev_name = "";
    for (const P p : order) {
      const double v = a.peak_tflops[static_cast<int>(p)];
      if (v <= 0) continue;
      EXPECT_GE(v, prev) << a.id << ": " << tc::to_string(p) << " below " << prev_name;
      prev = v;
      prev_name = tc::to_string(p);
    }
    EXPECT_DOUBLE_EQ(a.peak_tflops[static_cast<int>(P::fp16)], a.peak_tflops[static_cast<int>(P::bf16)]) << a.id;
  }
}

// Every fp4 peak (a rate or null) and every figure of the new Blackwell Ultra entries has a source
// of its own field with a date, not only a note for the whole entry.
TEST(PresetBuiltin, Fp4AndBlackwellUltraFiguresHaveTheirOwnDatedSource) {
  const PresetLibrary& lib = builtin();
  auto own_note = [&](const std::string& kind, const std::string& id, const std::string& field) {
    for (const auto* n : lib.sources_for(kind, id, field))
      if (std::find(n->fields.begin(), n->fields.end(), field) != n->fields.end())
        return tc::io::is_valid_date(n->date) && !n->cite.empty();
    return false;
  };
  for (const auto& a : lib.accelerators)
    EXPECT_TRUE(own_note("accelerator", a.id, "peak_tflops.fp4")) << a.id << ": peak_tflops.fp4";
  for (const char* id : {"b300", "gb300"})
    for (const char* field : {"peak_tflops.fp4", "hbm_gib", "hbm_tb_per_s", "power_w", "devices_per_chip",
                              "stochastic_rounding", "calibration"})
      EXPECT_TRUE(own_note("accelerator", id, field)) << id << "." << field;
  for (const char* id : {"p6-b300.48xlarge", "gb300-nvl72"}) {
    for (const char* field : {"chips_per_node", "inter_node_gbps", "intra.gb_per_s_per_chip", "host_power_w",
                              "spot_discount"})
      EXPECT_TRUE(own_note("instance", id, field)) << id << "." << field;
    for (const auto& p : lib.instance(id)->prices) {
      EXPECT_TRUE(tc::io::is_valid_date(p.date)) << id << " " << p.tier;
      EXPECT_FALSE(p.region.empty()) << id << " " << p.tier;
      EXPECT_FALSE(p.source.empty()) << id << " " << p.tier;
    }
  }
  // The new accelerators share the Blackwell fit (one die family), and say so.
  for (const char* id : {"b300", "gb300"})
    EXPECT_TRUE(contains(lib.accelerator(id)->cal.fitted_on, "b200, gb200, b300, gb300")) << id;
}

// A chip without FP4 refuses an fp4 job, naming precision; one with it estimates.
TEST(PresetBuiltin, Fp4IsRefusedWhereTheChipHasNone) {
  const PresetLibrary& lib = builtin();
  int refused = 0, run = 0;
  for (const auto& x : lib.instances) {
    const tc::Accelerator& a = *lib.accelerator(x.accelerator_id);
    const Json doc = {{"model", "llama3.1-8b"}, {"instance", x.id}, {"precision", "fp4"},
                      {"training", {{"tokens", 1e9}}}};
    if (a.peak_tflops[static_cast<int>(tc::Precision::fp4)] > 0) {
      const tc::Estimate e = tc::io::run_estimate(tc::io::parse_scenario(doc, lib, "fp4"));
      EXPECT_GT(e.tokens_per_s, 0) << x.id;
      ++run;
      continue;
    }
    try {
      tc::io::run_estimate(tc::io::parse_scenario(doc, lib, "fp4"));
      ADD_FAILURE() << x.id << ": fp4 accepted on " << a.id;
    } catch (const InputError& err) {
      EXPECT_EQ(err.field(), "precision") << err.what();
      EXPECT_EQ(std::string(err.what()), "precision: fp4 is not supported on " + a.id);
      ++refused;
    }
  }
  EXPECT_GT(refused, 5);
  EXPECT_GE(run, 5);  // trainium3, b200, gb200, b300, gb300
}

// A p6-b300 job: finite, positive time, throughput, memory and bill, at BF16 and FP4; FP4's GEMMs
// run faster than BF16's, so the step is no slower.
TEST(PresetBuiltin, P6B300ScenarioEstimates) {
  const PresetLibrary& lib = builtin();
  double step_s[2] = {0, 0};
  int k = 0;
  for (const char* prec : {"bf16", "fp4"}) {
    const Json doc = {{"model", "llama3.1-70b"}, {"instance", "p6-b300.48xlarge"}, {"nodes", 4},
                      {"precision", prec}, {"training", {{"tokens", 1e11}}}};
    const tc::io::Result r = tc::io::evaluate(tc::io::parse_job(doc, lib, prec), lib);
    const tc::Estimate& e = r.est;
    const tc::io::CostReport& cost = tc::io::cost_of(r);
    for (const double v : {e.step_time_s, e.tokens_per_s, e.tokens_per_s_per_chip, e.mfu, e.train_time_s,
                           e.memory.total_gib, cost.result.wall.total_s, cost.result.bill.total_usd}) {
      EXPECT_TRUE(std::isfinite(v)) << prec;
      EXPECT_GT(v, 0) << prec;
    }
    EXPECT_LE(e.mfu, 1) << prec;
    EXPECT_EQ(e.chips, 32) << prec;
    EXPECT_TRUE(cost.result.bill.priced) << prec;
    step_s[k++] = e.step_time_s;
  }
  EXPECT_LE(step_s[1], step_s[0]);
}

// Calibration is fitted (scripts/calibrate.py); whatever the fit gives must stay physical and say
// what it was fitted on.
TEST(PresetBuiltin, CalibrationIsPhysicalAndDocumented) {
  const PresetLibrary& lib = builtin();
  for (const auto& a : lib.accelerators) {
    const auto& c = a.cal;
    EXPECT_GT(c.matmul_efficiency_max, 0.2) << a.id;
    EXPECT_LE(c.matmul_efficiency_max, 1.0) << a.id;
    EXPECT_GT(c.attention_efficiency, 0.1) << a.id;
    EXPECT_LE(c.attention_efficiency, 1.0) << a.id;
    EXPECT_GE(c.fp8_matmul_efficiency_max, 0.0) << a.id;
    EXPECT_LE(c.fp8_matmul_efficiency_max, 1.0) << a.id;
    EXPECT_GE(c.attention_v3_efficiency, 0.0) << a.id;
    EXPECT_LE(c.attention_v3_efficiency, 1.0) << a.id;
    // A kernel call costs a few microseconds (launch and tail), not tens.
    EXPECT_GE(c.kernel_overhead_us, 1.0) << a.id;
    EXPECT_LE(c.kernel_overhead_us, 15.0) << a.id;
    EXPECT_GE(c.hbm_efficiency, 0.3) << a.id;  // Trainium1's fitted floor (scripts/calibrate.py)
    EXPECT_LE(c.hbm_efficiency, 1.0) << a.id;
    // A traced step's host work: tenths of a second at most (scripts/calibrate.py bounds it at 300 ms).
    EXPECT_GE(c.step_overhead_ms, 0.0) << a.id;
    EXPECT_LE(c.step_overhead_ms, 300.0) << a.id;
    // At most the chip's power halves its tensor clock.
    tc::Scenario alone;
    alone.accelerator = a;
    for (int p = 0; p < tc::kPrecisionCount; ++p) {
      if (a.peak_tflops[p] > 0) {
        EXPECT_GE(tc::tensor_clock_fraction(alone, tc::Precision(p)), 0.5) << a.id << " " << p;
      }
    }
    EXPECT_NE(c.fitted_on.find("published_runs.csv"), std::string::npos) << a.id << ": " << c.fitted_on;
    // A chip without published runs is calibrated from its own microbenchmarks, and says so.
    if (a.id == "trainium2" || a.id == "trainium3") {
      EXPECT_EQ(c.fitted_on.rfind("derived from microbenchmarks", 0), 0u) << a.id << ": " << c.fitted_on;
    }
  }
  // Overlaps are shares of communication hidden: never more than all of it.
  for (const auto& f : lib.frameworks) {
    for (double share : {f.dp_overlap, f.tp_overlap, f.ep_overlap}) {
      EXPECT_GE(share, 0.0) << f.id;
      EXPECT_LE(share, 1.0) << f.id;
    }
    EXPECT_GT(f.elementwise_kernels_per_layer, 0.0) << f.id;
  }
  // Trainium's stacks (PyTorch/XLA) pay the per-step host cost their runs were fitted with, and the
  // chips calibrated from Trainium1's software gap take it; GPU stacks launch asynchronously.
  for (const auto& a : lib.accelerators) {
    if (a.id.rfind("trainium", 0) == 0) {
      EXPECT_GT(a.cal.step_overhead_ms, 0) << a.id;
    } else {
      EXPECT_EQ(a.cal.step_overhead_ms, 0) << a.id;
    }
  }
}

// The shapes must reproduce the published counts (the count itself is the core's; a mismatch
// here means a wrong shape or a wrong published figure).
TEST(PresetBuiltin, ShapesMatchPublishedParameterCounts) {
  const PresetLibrary& lib = builtin();
  for (const auto& m : lib.models) {
    const auto* info = lib.model_info(m.id);
    ASSERT_NE(info, nullptr);
    const tc::ParamCounts pc = tc::count_params(m);
    EXPECT_NEAR(pc.total / info->published_params, 1.0, 0.02)
        << m.id << ": computed " << pc.total << ", published " << info->published_params;
    if (info->published_active_params > 0) {
      EXPECT_NEAR(pc.active / info->published_active_params, 1.0, 0.02) << m.id;
    }
  }
}

// --- errors in preset files ----------------------------------------------------------------

TEST(PresetErrors, MalformedJsonNamesTheFile) {
  PresetLibrary lib = builtin();
  const std::string msg =
      error_of([&] { tc::io::merge_preset_json(lib, "my/broken.json", "{\"schema\": "); });
  EXPECT_TRUE(contains(msg, "my/broken.json: malformed JSON")) << msg;
}

TEST(PresetErrors, NegativePriceNamesFileAndPath) {
  Json doc = builtin_json("presets/instances.json");
  doc["instances"][3]["prices"][0]["price_usd_per_hour"] = -1;
  EXPECT_EQ(merge_error("presets/instances.json", doc),
            "presets/instances.json: instances[3].prices[0].price_usd_per_hour: must be >= 0 (got -1)");
}

TEST(PresetErrors, MissingField) {
  Json doc = builtin_json("presets/accelerators.json");
  doc["accelerators"][1].erase("hbm_tb_per_s");
  EXPECT_EQ(merge_error("acc.json", doc), "acc.json: accelerators[1].hbm_tb_per_s: missing (required)");
  doc = builtin_json("presets/accelerators.json");
  doc["accelerators"][0]["peak_tflops"].erase("fp16");
  EXPECT_EQ(merge_error("acc.json", doc),
            "acc.json: accelerators[0].peak_tflops.fp16: missing (required)");
  doc = builtin_json("presets/instances.json");
  doc["instances"][0].erase("sources");
  EXPECT_EQ(merge_error("i.json", doc), "i.json: instances[0].sources: missing (required)");
}

TEST(PresetErrors, NanAndInfinityAreRejected) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][0]["hidden"] = "nan";
  EXPECT_EQ(merge_error("m.json", doc),
            "m.json: models[0].hidden: must be a number (got string \"nan\")");
  // 1e999 overflows a double; the JSON parser reports it rather than reading infinity.
  PresetLibrary lib = builtin();
  std::string text = builtin_text("presets/accelerators.json");
  const auto pos = text.find("\"hbm_tb_per_s\": 0.82");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, std::string("\"hbm_tb_per_s\": 0.82").size(), "\"hbm_tb_per_s\": 1e999");
  const std::string msg = error_of([&] { tc::io::merge_preset_json(lib, "a.json", text); });
  EXPECT_TRUE(contains(msg, "a.json: malformed JSON")) << msg;
  EXPECT_TRUE(contains(msg, "1e999")) << msg;
  // A non-finite value that reaches the getters another way is still refused.
  Json obj = {{"x", std::nan("")}};
  EXPECT_EQ(error_of([&] { tc::io::get_number(obj, "x", "p", 0, 1); }),
            "p.x: must be a finite number (got nan)");
}

TEST(PresetErrors, ZeroAndNegativeSizes) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][2]["layers"] = 0;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[2].layers: must be >= 1 (got 0)");
  doc = builtin_json("presets/accelerators.json");
  doc["accelerators"][4]["hbm_gib"] = 0;
  EXPECT_EQ(merge_error("a.json", doc), "a.json: accelerators[4].hbm_gib: must be >= 0.01 (got 0)");
  doc = builtin_json("presets/instances.json");
  doc["instances"][1]["chips_per_node"] = -8;
  EXPECT_EQ(merge_error("i.json", doc), "i.json: instances[1].chips_per_node: must be >= 1 (got -8)");
  doc = builtin_json("presets/frameworks.json");
  doc["frameworks"][0]["dp_overlap"] = 1.5;
  EXPECT_EQ(merge_error("f.json", doc), "f.json: frameworks[0].dp_overlap: must be <= 1 (got 1.5)");
  doc = builtin_json("presets/accelerators.json");
  doc["accelerators"][4]["calibration"]["gemm_energy_pj_per_flop"] = -1;
  EXPECT_EQ(merge_error("a.json", doc),
            "a.json: accelerators[4].calibration.gemm_energy_pj_per_flop: must be >= 0 (got -1)");
  doc["accelerators"][4]["calibration"]["gemm_energy_pj_per_flop"] = 1e-300;
  EXPECT_TRUE(contains(merge_error("a.json", doc), "gemm_energy_pj_per_flop: must be 0 or >= 0.01"));
  doc = builtin_json("presets/accelerators.json");
  doc["accelerators"][0]["sram_mib"] = -24;
  EXPECT_EQ(merge_error("a.json", doc), "a.json: accelerators[0].sram_mib: must be >= 0 (got -24)");
  doc["accelerators"][0]["sram_mib"] = "many";
  EXPECT_TRUE(contains(merge_error("a.json", doc), "accelerators[0].sram_mib"));
  doc = builtin_json("presets/frameworks.json");
  doc["frameworks"][0]["ep_overlap"] = -0.1;
  EXPECT_EQ(merge_error("f.json", doc), "f.json: frameworks[0].ep_overlap: must be >= 0 (got -0.1)");
  doc = builtin_json("presets/accelerators.json");
  doc["accelerators"][0]["calibration"]["step_overhead_ms"] = -5;
  EXPECT_EQ(merge_error("a.json", doc), "a.json: accelerators[0].calibration.step_overhead_ms: must be >= 0 (got -5)");
}

TEST(PresetErrors, AbsurdSizesAreRejected) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][0]["layers"] = 200000;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[0].layers: must be <= 100000 (got 200000)");
  doc = builtin_json("presets/models.json");
  doc["models"][0]["hidden"] = 1e9;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[0].hidden: must be <= 1000000 (got 1000000000)");
  doc = builtin_json("presets/instances.json");
  doc["instances"][1]["chips_per_node"] = 1000000;
  EXPECT_TRUE(contains(merge_error("i.json", doc), "chips_per_node: must be <= 100000"));
  doc = builtin_json("presets/models.json");
  doc["models"][0]["layers"] = 32.5;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[0].layers: must be an integer (got 32.5)");
}

TEST(PresetErrors, WrongTypes) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][0]["layers"] = "32";
  EXPECT_EQ(merge_error("m.json", doc),
            "m.json: models[0].layers: must be a number (got string \"32\")");
  doc = builtin_json("presets/models.json");
  doc["models"][0]["gated_ffn"] = 1;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[0].gated_ffn: must be true or false (got 1)");
  doc = builtin_json("presets/frameworks.json");
  doc["frameworks"][0]["dp_all_nics"] = "no";
  EXPECT_EQ(merge_error("f.json", doc),
            "f.json: frameworks[0].dp_all_nics: must be true or false (got string \"no\")");
  doc["frameworks"][0]["dp_all_nics"] = std::string("\0\x01", 2);
  EXPECT_EQ(merge_error("f.json", doc),
            "f.json: frameworks[0].dp_all_nics: must be true or false (got string \"\\u0000\\u0001\")");
  doc = builtin_json("presets/instances.json");
  doc["instances"][0]["intra"] = 5;
  EXPECT_EQ(merge_error("i.json", doc), "i.json: instances[0].intra: must be an object (got 5)");
  doc = builtin_json("presets/models.json");
  doc["models"] = Json::object();
  EXPECT_TRUE(contains(merge_error("m.json", doc), "m.json: models: must be an array"));
  EXPECT_TRUE(contains(merge_error("x.json", Json::array()), "x.json: must be an object"));
}

TEST(PresetErrors, UnknownKeysSuggestTheIntendedOne) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][1]["hiden"] = 4096;
  const std::string msg = merge_error("m.json", doc);
  EXPECT_TRUE(contains(msg, "m.json: models[1].hiden: unknown key (did you mean 'hidden'?)")) << msg;
  EXPECT_TRUE(contains(msg, "allowed keys: id, name, kind")) << msg;
}

TEST(PresetErrors, UnknownSchemaAndDuplicates) {
  EXPECT_TRUE(contains(merge_error("x.json", Json{{"schema", "traincalc.gpus/1"}, {"gpus", Json::array()}}),
                       "x.json: schema: unknown schema 'traincalc.gpus/1'; expected one of"));
  Json doc = builtin_json("presets/frameworks.json");
  doc["frameworks"].push_back(doc["frameworks"][0]);
  const std::string last = std::to_string(doc["frameworks"].size() - 1);
  EXPECT_EQ(merge_error("f.json", doc),
            "f.json: frameworks[" + last + "].id: duplicate id 'megatron' (also frameworks[0])");
  PresetLibrary lib = builtin();
  EXPECT_EQ(error_of([&] {
              tc::io::merge_preset_json(lib, "d.json",
                                        R"({"schema": "traincalc.frameworks/1", "frameworks": [{"id": "a", "id": "b"}]})");
            }),
            "d.json: frameworks[0].id: duplicate key");
}

TEST(PresetErrors, SourcesAreChecked) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][0]["sources"][0]["date"] = "2024-13-01";
  EXPECT_TRUE(contains(merge_error("m.json", doc),
                       "models[0].sources[0].date: must be a date YYYY-MM-DD (got \"2024-13-01\")"));
  doc = builtin_json("presets/models.json");
  doc["models"][0]["sources"][0]["fields"].push_back("layerz");
  EXPECT_TRUE(contains(merge_error("m.json", doc), "'layerz' names no data field of this entry"));
  doc = builtin_json("presets/models.json");
  doc["models"][0]["sources"][0]["confidence"] = "high";
  EXPECT_TRUE(contains(merge_error("m.json", doc), "sources[0].confidence: 'high' is not allowed"));
}

TEST(PresetErrors, InstanceRules) {
  // An unknown accelerator gets the nearest suggestions.
  Json doc = builtin_json("presets/instances.json");
  doc["instances"][8]["accelerator"] = "h100";
  const std::string msg = merge_error("i.json", doc);
  EXPECT_TRUE(contains(msg, "i.json: instances[8].accelerator: unknown accelerator 'h100'; nearest: "))
      << msg;
  EXPECT_TRUE(contains(msg, "h100-sxm")) << msg;
  // No On-Demand price needs a reason.
  doc = builtin_json("presets/instances.json");
  doc["instances"][3].erase("price_note");
  EXPECT_TRUE(contains(merge_error("i.json", doc), "instances[3].price_note: missing"));
  // An earlier price may repeat a tier, on another date only.
  {
    Json doc = builtin_json("presets/instances.json");
    Json& x = doc["instances"][6];
    x["price_history"] = Json::array({x["prices"][0], x["prices"][0]});
    x["price_history"][0]["date"] = "2024-06-30";
    x["price_history"][1]["date"] = "2024-01-31";
    PresetLibrary lib = builtin();
    EXPECT_NO_THROW(tc::io::merge_preset_json(lib, "i.json", doc.dump()));
    EXPECT_EQ(lib.instance(x["id"].get<std::string>())->price_history.size(), 2u);
    x["price_history"][1]["date"] = x["price_history"][0]["date"];
    EXPECT_TRUE(contains(merge_error("i.json", doc), "i.json: instances[6].price_history[1].tier: duplicate tier"))
        << merge_error("i.json", doc);
    // A "history" entry dated on or after the current price is not history.
    x["price_history"] = Json::array({x["prices"][0]});
    EXPECT_TRUE(contains(merge_error("i.json", doc), "i.json: instances[6].price_history[0].date: must be before"))
        << merge_error("i.json", doc);
  }
  // Two prices of one tier would make a lookup arbitrary.
  doc = builtin_json("presets/instances.json");
  doc["instances"][1]["prices"].push_back(doc["instances"][1]["prices"][0]);
  EXPECT_TRUE(contains(merge_error("i.json", doc), "duplicate tier 'on_demand'"));
  doc = builtin_json("presets/instances.json");
  doc["instances"][1]["prices"][0]["tier"] = "ondemand";
  EXPECT_TRUE(contains(merge_error("i.json", doc), "unknown list-price tier 'ondemand'; nearest: on_demand")) << merge_error("i.json", doc);
}

TEST(PresetErrors, ModelRules) {
  Json doc = builtin_json("presets/models.json");
  doc["models"][1]["kv_heads"] = 12;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[1].kv_heads: must divide heads (64) (got 12)");
  doc = builtin_json("presets/models.json");
  doc["models"][11]["seq_len"] = 196;
  EXPECT_TRUE(contains(merge_error("m.json", doc), "models[11].seq_len: must be (image_size / patch_size)^2 + 1 = 197"));
  doc = builtin_json("presets/models.json");
  doc["models"][8]["moe_top_k"] = 9;
  EXPECT_TRUE(contains(merge_error("m.json", doc), "moe_top_k: must be between 1 and moe_experts (8)"));
  doc = builtin_json("presets/models.json");
  doc["models"][0]["image_size"] = 224;
  EXPECT_EQ(merge_error("m.json", doc), "m.json: models[0].image_size: only for kind vit");
}

// --- lookups and suggestions ---------------------------------------------------------------

TEST(PresetLookup, UnknownIdSuggestsNearest) {
  const PresetLibrary& lib = builtin();
  EXPECT_EQ(error_of([&] { lib.require_model("llama3-8b", "model"); }),
            "model: unknown model 'llama3-8b'; nearest: llama3.1-8b, llama2-7b, llama2-13b");
  EXPECT_TRUE(contains(error_of([&] { lib.require_instance("p5.48xl", "instance"); }),
                       "instance: unknown instance 'p5.48xl'; nearest: p5.48xlarge"));
  EXPECT_EQ(tc::io::nearest_ids("H100", {"a100-40gb", "h200", "h100-sxm"}, 2),
            (std::vector<std::string>{"h100-sxm", "h200"}));
  EXPECT_EQ(tc::io::nearest_ids("trn2", {"p5.48xlarge", "trn1.32xlarge", "trn2.48xlarge"}, 1),
            std::vector<std::string>{"trn2.48xlarge"});
  EXPECT_EQ(tc::io::nearest_ids("x", {}, 3), std::vector<std::string>{});
  EXPECT_EQ(tc::io::unknown_id_message("model", "x", {}), "unknown model 'x'; none are defined");
  EXPECT_EQ(lib.model("nope"), nullptr);
}

TEST(PresetLookup, SourcesForAField) {
  const PresetLibrary& lib = builtin();
  const auto notes = lib.sources_for("instance", "trn1.32xlarge", "intra.gb_per_s_per_chip");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0]->confidence, "L");
  EXPECT_TRUE(contains(notes[0]->cite, "halved"));
  EXPECT_EQ(notes[0]->file, "presets/instances.json");
  EXPECT_FALSE(lib.sources_for("accelerator", "trainium2", "peak_tflops.fp8").empty());
  EXPECT_TRUE(lib.sources_for("accelerator", "trainium2", "peak_tflop").empty());
  EXPECT_FALSE(lib.accelerator("h100-sxm")->source.empty());
}

// --- merging -------------------------------------------------------------------------------

TEST(PresetMerge, ReplacesAndExtends) {
  PresetLibrary lib = builtin();
  Json doc = builtin_json("presets/models.json");
  Json changed = doc["models"][0];
  changed["seq_len"] = 2048;
  changed["sources"] = Json::array({{{"fields", {"seq_len"}},
                                     {"cite", "my fine-tuning set-up"},
                                     {"date", "2026-01-02"},
                                     {"confidence", "M"}}});
  Json added = doc["models"][0];
  added["id"] = "my-8b";
  added["name"] = "My 8B";
  tc::io::merge_preset_json(lib, "user/models.json",
                            Json{{"schema", "traincalc.models/1"}, {"models", {changed, added}}}.dump());
  EXPECT_EQ(lib.models.size(), builtin().models.size() + 1);
  EXPECT_EQ(lib.models.front().id, "llama3.1-8b");  // replaced in place
  EXPECT_EQ(lib.model("llama3.1-8b")->seq_len, 2048);
  EXPECT_EQ(lib.models.back().id, "my-8b");
  EXPECT_NE(lib.model_info("my-8b"), nullptr);
  const auto notes = lib.sources_for("model", "llama3.1-8b");
  ASSERT_EQ(notes.size(), 1u);  // the old notes went with the old entry
  EXPECT_EQ(notes[0]->file, "user/models.json");
  EXPECT_EQ(lib.files.back(), "user/models.json");
}

TEST(PresetMerge, BadMergeLeavesLibraryUnchanged) {
  PresetLibrary lib = builtin();
  Json doc = builtin_json("presets/models.json");
  doc["models"][0]["seq_len"] = 1024;  // a valid change before the error
  doc["models"][5]["heads"] = -1;
  EXPECT_THROW(tc::io::merge_preset_json(lib, "m.json", doc.dump()), InputError);
  EXPECT_EQ(lib.model("llama3.1-8b")->seq_len, 8192);
  EXPECT_EQ(lib.models.size(), builtin().models.size());
  EXPECT_EQ(lib.notes.size(), builtin().notes.size());
  EXPECT_EQ(lib.files, builtin().files);
}

TEST(PresetMerge, Directory) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("traincalc_presets_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  // The instance file sorts before the accelerator it needs: the loader orders by schema.
  Json acc = builtin_json("presets/accelerators.json");
  acc["accelerators"] = Json::array({acc["accelerators"][5]});
  acc["accelerators"][0]["id"] = "h100-custom";
  Json inst = builtin_json("presets/instances.json");
  inst["instances"] = Json::array({inst["instances"][8]});
  inst["instances"][0]["id"] = "p5-custom";
  inst["instances"][0]["accelerator"] = "h100-custom";
  write("a_instances.json", inst.dump());
  write("b_accelerators.json", acc.dump());
  write("notes.txt", "not json, ignored");
  PresetLibrary lib = builtin();
  tc::io::merge_preset_dir(lib, dir.string());
  ASSERT_NE(lib.instance("p5-custom"), nullptr);
  EXPECT_EQ(lib.instance("p5-custom")->accelerator_id, "h100-custom");

  // One bad file: nothing of the directory is merged.
  PresetLibrary before = builtin();
  PresetLibrary lib2 = before;
  write("c_bad.json", R"({"schema": "traincalc.models/1", "models": [{"id": "x"}]})");
  const std::string msg = error_of([&] { tc::io::merge_preset_dir(lib2, dir.string()); });
  EXPECT_TRUE(contains(msg, "c_bad.json: models[0].name: missing (required)")) << msg;
  EXPECT_EQ(lib2.instances.size(), before.instances.size());
  EXPECT_EQ(lib2.accelerators.size(), before.accelerators.size());
  EXPECT_TRUE(contains(error_of([&] { tc::io::merge_preset_dir(lib2, (dir / "missing").string()); }),
                       "not a directory"));
  fs::remove_all(dir);
}

// --- inline objects (scenario files) -------------------------------------------------------

TEST(PresetInline, InstanceBorrowsLinksFromAPresetOfItsAccelerator) {
  const PresetLibrary& lib = builtin();
  tc::Accelerator acc;
  const Json j = {{"accelerator", "h100-sxm"}, {"chips_per_node", 8}, {"inter_node_gbps", 3200},
                  {"devices_per_chip", 1}};
  const tc::Instance x = tc::io::parse_inline_instance(j, "instance", lib, acc);
  EXPECT_EQ(acc.id, "h100-sxm");
  EXPECT_EQ(x.accelerator_id, "h100-sxm");
  EXPECT_DOUBLE_EQ(x.intra.gb_per_s_per_chip, 450);
  EXPECT_DOUBLE_EQ(x.inter_node_gbps, 3200);
  EXPECT_TRUE(x.prices.empty());
  EXPECT_EQ(x.id, "custom");

  // Links come from a preset of the same size, never from a one-chip preset for a bigger node.
  const tc::Instance t16 = tc::io::parse_inline_instance(
      Json{{"accelerator", "trainium1"}, {"chips_per_node", 16}, {"inter_node_gbps", 800}}, "instance", lib, acc);
  EXPECT_DOUBLE_EQ(t16.intra.gb_per_s_per_chip, 206.2);
  const tc::Instance t4 = tc::io::parse_inline_instance(
      Json{{"accelerator", "trainium1"}, {"chips_per_node", 4}, {"inter_node_gbps", 0}}, "instance", lib, acc);
  EXPECT_GT(t4.intra.gb_per_s_per_chip, 0);
  const tc::Instance t64 = tc::io::parse_inline_instance(
      Json{{"accelerator", "trainium2"}, {"chips_per_node", 64}, {"inter_node_gbps", 12800}}, "instance", lib, acc);
  EXPECT_DOUBLE_EQ(t64.intra.gb_per_s_per_chip, 640);

  // trn1 with one rank per chip, starting from a preset.
  const Json k = {{"base", "trn1.32xlarge"}, {"inter_node_gbps", 1600}, {"devices_per_chip", 1}};
  const tc::Instance y = tc::io::parse_inline_instance(k, "instance", lib, acc);
  EXPECT_EQ(acc.id, "trainium1");
  EXPECT_EQ(acc.devices_per_chip, 1);
  EXPECT_EQ(y.chips_per_node, 16);
  EXPECT_DOUBLE_EQ(y.inter_node_gbps, 1600);
  EXPECT_FALSE(y.prices.empty());

  // An inline accelerator no preset instance uses: links must be given.
  const Json custom = {{"accelerator", {{"peak_tflops", {{"bf16", 500}}}, {"hbm_gib", 64}, {"hbm_tb_per_s", 2}}},
                       {"chips_per_node", 4},
                       {"inter_node_gbps", 400}};
  const std::string msg = error_of([&] { tc::io::parse_inline_instance(custom, "instance", lib, acc); });
  EXPECT_TRUE(contains(msg, "instance.intra.gb_per_s_per_chip: must be > 0 when chips_per_node > 1")) << msg;
  EXPECT_TRUE(contains(msg, "give intra")) << msg;
  Json fixed = custom;
  fixed["intra"] = {{"gb_per_s_per_chip", 100}};
  const tc::Instance z = tc::io::parse_inline_instance(fixed, "instance", lib, acc);
  EXPECT_DOUBLE_EQ(z.intra.gb_per_s_per_chip, 100);
  // The old key held GB/s under a Gbit/s name: an error that names the new one, never a value read.
  Json old_key = custom;
  old_key["intra"] = {{"gbps_per_chip", 100}};
  const std::string renamed = error_of([&] { tc::io::parse_inline_instance(old_key, "instance", lib, acc); });
  EXPECT_TRUE(contains(renamed, "instance.intra.gbps_per_chip: renamed gb_per_s_per_chip")) << renamed;
  // Likewise the HBM bandwidth, TB/s under a name that reads Tbit/s.
  Json old_hbm = custom;
  old_hbm["accelerator"]["hbm_tbps"] = 2;
  old_hbm["accelerator"].erase("hbm_tb_per_s");
  const std::string hbm = error_of([&] { tc::io::parse_inline_instance(old_hbm, "instance", lib, acc); });
  EXPECT_TRUE(contains(hbm, "instance.accelerator.hbm_tbps: renamed hbm_tb_per_s")) << hbm;
  EXPECT_EQ(acc.id, "custom");
  EXPECT_DOUBLE_EQ(acc.peak_tflops[static_cast<int>(tc::Precision::bf16)], 500);
  EXPECT_DOUBLE_EQ(acc.peak_tflops[static_cast<int>(tc::Precision::fp8)], 0);

  EXPECT_TRUE(contains(error_of([&] {
                         tc::io::parse_inline_instance(Json{{"accelerator", "h100"}, {"chips_per_node", 8}, {"inter_node_gbps", 0}},
                                                       "instance", lib, acc);
                       }),
                       "instance.accelerator: unknown accelerator 'h100'; nearest: h100-sxm"));
  EXPECT_TRUE(contains(error_of([&] {
                         tc::io::parse_inline_instance(Json{{"accelerator", "h100-sxm"}, {"inter_node_gbps", 0}},
                                                       "instance", lib, acc);
                       }),
                       "instance.chips_per_node: missing (required)"));
}

TEST(PresetInline, ModelDefaultsAndBase) {
  const PresetLibrary& lib = builtin();
  const Json j = {{"layers", 4}, {"hidden", 256}, {"ffn_hidden", 1024}, {"heads", 4}, {"seq_len", 128}, {"vocab", 1000}};
  const tc::ModelShape m = tc::io::parse_model(j, "model", true);
  EXPECT_EQ(m.kind, tc::ModelKind::decoder);
  EXPECT_EQ(m.kv_heads, 4);
  EXPECT_TRUE(m.gated_ffn);
  EXPECT_FALSE(m.biases);
  EXPECT_EQ(m.learned_positions, 0);
  EXPECT_EQ(m.moe_experts, 0);
  EXPECT_EQ(m.id, "custom");

  const Json v = {{"kind", "vit"}, {"layers", 2}, {"hidden", 64}, {"ffn_hidden", 256}, {"heads", 2},
                  {"image_size", 32}, {"patch_size", 8}, {"num_classes", 10}};
  const tc::ModelShape vit = tc::io::parse_inline_model(v, "model", lib);
  EXPECT_EQ(vit.seq_len, 17);
  EXPECT_EQ(vit.learned_positions, 17);
  EXPECT_TRUE(vit.biases);
  EXPECT_FALSE(vit.gated_ffn);

  const tc::ModelShape b = tc::io::parse_inline_model(Json{{"base", "llama3.1-8b"}, {"seq_len", 2048}}, "model", lib);
  EXPECT_EQ(b.seq_len, 2048);
  EXPECT_EQ(b.hidden, 4096);
  EXPECT_EQ(b.kv_heads, 8);
  const tc::ModelShape big = tc::io::parse_inline_model(Json{{"base", "vit-l16"}, {"image_size", 384}}, "model", lib);
  EXPECT_EQ(big.seq_len, 577);
  EXPECT_EQ(big.learned_positions, 577);

  // DeepSeek-V3's latent attention and dense first layers come with its base; cut to two layers it
  // keeps one expert layer; dense layers given outright are checked as given.
  const tc::ModelShape ds = tc::io::parse_inline_model(Json{{"base", "deepseek-v3"}, {"layers", 2}}, "model", lib);
  EXPECT_EQ(ds.kv_lora_rank, 512);
  EXPECT_EQ(ds.dense_layers, 1);
  EXPECT_EQ(tc::io::parse_inline_model(Json{{"base", "deepseek-v3"}, {"layers", 4}, {"dense_layers", 1}}, "model", lib)
                .dense_layers,
            1);
  const auto cut = tc::io::parse_inline_model(Json{{"base", "deepseek-v3"}, {"layers", 4}, {"dense_layers", 4}}, "model", lib);
  ASSERT_TRUE(tc::check_model(cut).has_value());
  EXPECT_EQ(tc::check_model(cut)->field, "model.dense_layers");

  // GPT-OSS's clamped SwiGLU comes with its base; a plain model may set one, not a negative one.
  EXPECT_DOUBLE_EQ(tc::io::parse_inline_model(Json{{"base", "gpt-oss-120b"}}, "model", lib).swiglu_limit, 7.0);
  EXPECT_DOUBLE_EQ(
      tc::io::parse_inline_model(Json{{"base", "llama3.1-8b"}, {"swiglu_limit", 10}}, "model", lib).swiglu_limit, 10.0);
  EXPECT_EQ(error_of([&] {
              tc::io::parse_inline_model(Json{{"base", "llama3.1-8b"}, {"swiglu_limit", -1}}, "model", lib);
            }).rfind("model.swiglu_limit: ", 0),
            0u);

  EXPECT_EQ(error_of([&] { tc::io::parse_inline_model(Json{{"base", "llama3-8b"}}, "model", lib); }),
            "model.base: unknown model 'llama3-8b'; nearest: llama3.1-8b, llama2-7b, llama2-13b");
  EXPECT_EQ(error_of([&] { tc::io::parse_model(Json{{"layers", 4}}, "model", true); }),
            "model.hidden: missing (required)");
  EXPECT_EQ(error_of([&] { tc::io::parse_model(Json{{"layers", 4}}, "model", false); }),
            "model.id: missing (required)");
}

TEST(PresetInline, AcceleratorAndFramework) {
  const PresetLibrary& lib = builtin();
  const tc::Accelerator a =
      tc::io::parse_inline_accelerator(Json{{"base", "h100-sxm"}, {"hbm_gib", 96}}, "acc", lib);
  EXPECT_DOUBLE_EQ(a.hbm_gib, 96);
  EXPECT_DOUBLE_EQ(a.peak_tflops[static_cast<int>(tc::Precision::bf16)], 989.4);
  EXPECT_EQ(error_of([&] { tc::io::parse_accelerator(Json{{"peak_tflops", {{"bf16", 0}}}, {"hbm_gib", 8}, {"hbm_tb_per_s", 1}}, "acc", true); }),
            "acc.peak_tflops: needs at least one precision above 0");
  // GEMM scheduling: inherited from the base, one side of the tile overridden, and a tile without
  // the units it runs on refused, naming the field.
  EXPECT_EQ(a.gemm_units, 132);
  const tc::Accelerator t = tc::io::parse_inline_accelerator(
      Json{{"base", "h100-sxm"}, {"gemm_tile", {{"m", 64}}}}, "acc", lib);
  EXPECT_EQ(t.gemm_tile_m, 64);
  EXPECT_EQ(t.gemm_tile_n, 256);
  EXPECT_EQ(error_of([&] { tc::io::parse_inline_accelerator(Json{{"base", "trainium1"}, {"gemm_tile", {{"m", 64}}}}, "acc", lib); }),
            "acc.gemm_tile: has no effect without gemm_units (the SMs its tiles run on)");
  EXPECT_EQ(error_of([&] { tc::io::parse_inline_accelerator(Json{{"base", "h100-sxm"}, {"gemm_tile", {{"m", 0}}}}, "acc", lib); }).rfind("acc.gemm_tile.m:", 0),
            0u);
  const tc::FrameworkProfile f =
      tc::io::parse_inline_framework(Json{{"base", "fsdp"}, {"dp_overlap", 0.5}}, "framework", lib);
  EXPECT_EQ(f.id, "fsdp");
  EXPECT_DOUBLE_EQ(f.dp_overlap, 0.5);
  EXPECT_DOUBLE_EQ(f.grad_bytes, 4);
}

// A stack runs on the platforms its preset names: Megatron on GPUs, the Neuron stacks on Trainium,
// PyTorch FSDP on both. A scenario that puts one on the other platform is refused naming the
// field and the stacks that do run there; a comparison row on the other platform takes that
// platform's default with a warning; every accelerator's default runs on it.
TEST(PresetFramework, RunsOnItsPlatformOnly) {
  const PresetLibrary& lib = builtin();
  for (const auto& f : lib.frameworks) EXPECT_TRUE(f.runs_on_gpu || f.runs_on_neuron) << f.id;
  EXPECT_TRUE(lib.framework("megatron")->runs_on_gpu);
  EXPECT_FALSE(lib.framework("megatron")->runs_on_neuron);
  EXPECT_FALSE(lib.framework("neuronx-distributed")->runs_on_gpu);
  EXPECT_TRUE(lib.framework("fsdp")->runs_on_gpu && lib.framework("fsdp")->runs_on_neuron);
  Json doc = {{"model", "llama3.1-8b"}, {"instance", "trn2.48xlarge"}, {"nodes", 1}, {"framework", "megatron"}};
  const std::string e = error_of([&] { tc::io::parse_scenario(doc, lib, "t"); });
  EXPECT_EQ(e.rfind("framework: megatron runs on NVIDIA GPUs, not on trainium2 (there: ", 0), 0u) << e;
  EXPECT_TRUE(contains(e, "neuronx-distributed")) << e;
  EXPECT_FALSE(contains(e, "megatron-lm")) << e;
  doc["instance"] = "p5.48xlarge";
  doc["framework"] = "neuronx-distributed";
  EXPECT_TRUE(contains(error_of([&] { tc::io::parse_scenario(doc, lib, "t"); }), "runs on Neuron devices"));
  // The same job on the other platform, as a comparison row: that platform's default, said.
  doc["framework"] = "megatron";
  const tc::io::ScenarioSpec gpu = tc::io::parse_scenario(doc, lib, "t");
  const tc::io::ScenarioSpec trn = tc::io::with_instance(gpu, lib, "trn2.48xlarge");
  EXPECT_EQ(trn.scenario.framework.id, "neuronx-distributed");
  EXPECT_EQ(trn.framework_warning.rfind("framework: megatron runs on NVIDIA GPUs, not on trainium2", 0), 0u);
  EXPECT_EQ(tc::io::with_instance(gpu, lib, "p4d.24xlarge").scenario.framework.id, "megatron");
  EXPECT_TRUE(tc::io::with_instance(gpu, lib, "p4d.24xlarge").framework_warning.empty());
  // Every stack on every instance: an estimate where it runs, else a refusal naming the field.
  for (const auto& in : lib.instances) {
    const tc::Accelerator* a = lib.accelerator(in.accelerator_id);
    if (!a) continue;
    for (const auto& f : lib.frameworks) {
      Json d = {{"model", "llama3.1-8b"}, {"instance", in.id}, {"nodes", 1}, {"framework", f.id}};
      try {
        tc::io::parse_scenario(d, lib, "t");
        EXPECT_TRUE(tc::runs_on(f, *a)) << f.id << " on " << in.id;
      } catch (const InputError& e) {
        EXPECT_FALSE(tc::runs_on(f, *a)) << f.id << " on " << in.id << ": " << e.what();
        EXPECT_EQ(e.field(), "framework") << e.what();
      }
    }
  }
  // Without a chosen framework each platform takes a default that runs on it.
  doc.erase("framework");
  for (const auto& in : lib.instances) {
    const tc::Accelerator* a = lib.accelerator(in.accelerator_id);
    if (!a) continue;
    const auto spec = tc::io::with_instance(tc::io::parse_scenario(doc, lib, "t"), lib, in.id);
    EXPECT_TRUE(tc::runs_on(spec.scenario.framework, *a)) << in.id;
  }
}

TEST(PresetFramework, RunsOnIsChecked) {
  auto with_runs_on = [](Json v) {
    Json fw = builtin_json("presets/frameworks.json");
    fw["frameworks"][0]["runs_on"] = v;
    return merge_error("f.json", fw);
  };
  EXPECT_EQ(with_runs_on(Json::array({"gpu", "tpu"})),
            "f.json: frameworks[0].runs_on[1]: 'tpu' is not allowed; one of: gpu, neuron");
  EXPECT_EQ(with_runs_on(Json::array()), "f.json: frameworks[0].runs_on: names no platform; give gpu, neuron or both");
  EXPECT_TRUE(contains(with_runs_on("gpu"), "frameworks[0].runs_on"));
  EXPECT_TRUE(contains(with_runs_on(Json::array({7})), "frameworks[0].runs_on[0]"));
}

// The per-expert quantizes' host time is a time: a negative, absurd or non-numeric value names the
// field; a valid one is taken, and a profile without it has none.
TEST(PresetFramework, ExpertQuantizeHostTimeIsChecked) {
  auto with = [](Json v) {
    Json fw = builtin_json("presets/frameworks.json");
    fw["frameworks"][0]["expert_quantize_us"] = v;
    return merge_error("f.json", fw);
  };
  for (const Json& bad : {Json(-1), Json(1e9), Json("fast")})
    EXPECT_TRUE(contains(with(bad), "frameworks[0].expert_quantize_us")) << bad.dump();
  Json fw = builtin_json("presets/frameworks.json");
  fw["frameworks"][0]["expert_quantize_us"] = 20;
  PresetLibrary lib = builtin();
  tc::io::merge_preset_json(lib, "f.json", fw.dump());
  EXPECT_EQ(lib.framework(fw["frameworks"][0]["id"].get<std::string>())->expert_quantize_us, 20.0);
  EXPECT_EQ(builtin().framework("fsdp")->expert_quantize_us, 0.0);
}

// What a stack implements: the 2021 stacks and the Hugging Face Trainer on Neuron lack what came
// later, a scenario that asks for it is refused naming the field, and a bad list names its item.
TEST(PresetFramework, ParallelismsAreWhatTheStackImplements) {
  const PresetLibrary& lib = builtin();
  const tc::FrameworkProfile& old = *lib.framework("megatron-2021");
  EXPECT_TRUE(old.parallelisms.tp && old.parallelisms.pp && old.parallelisms.vpp);
  EXPECT_FALSE(old.parallelisms.sp || old.parallelisms.cp || old.parallelisms.ep);
  EXPECT_EQ(old.selective, tc::FrameworkProfile::Selective::none);
  EXPECT_EQ(old.max_zero, 0);
  const tc::FrameworkProfile& hf = *lib.framework("pytorch-xla-neuron");
  EXPECT_FALSE(hf.parallelisms.tp || hf.parallelisms.pp);
  // Today's stacks keep everything, and their selective recompute.
  EXPECT_TRUE(lib.framework("megatron")->parallelisms.sp && lib.framework("megatron")->parallelisms.ep);
  EXPECT_EQ(lib.framework("fsdp")->selective, tc::FrameworkProfile::Selective::every_other_matmul);

  Json doc = {{"model", "llama3.1-8b"}, {"instance", "p4d.24xlarge"}, {"nodes", 2}, {"framework", "megatron-2021"},
              {"parallel", {{"tp", 8}, {"pp", 1}, {"dp", 2}, {"sequence_parallel", true}}}};
  EXPECT_EQ(error_of([&] { tc::io::run_estimate(tc::io::parse_scenario(doc, lib, "t")); }),
            "parallel.sequence_parallel: framework megatron-2021 does not implement sequence parallelism");

  auto with_parallelism = [](Json v) {
    Json fw = builtin_json("presets/frameworks.json");
    fw["frameworks"][0]["parallelism"] = v;
    return merge_error("f.json", fw);
  };
  EXPECT_EQ(with_parallelism(Json::array({"tp", "zz"})),
            "f.json: frameworks[0].parallelism[1]: 'zz' is not allowed; one of: tp, sp, pp, vpp, cp, ep");
  EXPECT_EQ(with_parallelism(Json::array({"sp"})), "f.json: frameworks[0].parallelism: sp (sequence parallelism) needs tp");
  EXPECT_EQ(with_parallelism(Json::array({"vpp"})), "f.json: frameworks[0].parallelism: vpp (interleaving) needs pp");
  EXPECT_TRUE(contains(with_parallelism("tp"), "frameworks[0].parallelism"));
}

// --- json_util -----------------------------------------------------------------------------

TEST(PresetJsonUtil, Getters) {
  const Json j = Json::parse(R"({"n": 3, "s": "abc", "b": true, "big": 18446744073709551615, "z": null})");
  EXPECT_EQ(tc::io::get_int(j, "n", "", 0, 10), 3);
  EXPECT_EQ(tc::io::get_int_or(j, "missing", "", 0, 10, 7), 7);
  EXPECT_EQ(tc::io::get_string(j, "s", ""), "abc");
  EXPECT_TRUE(tc::io::get_bool(j, "b", ""));
  EXPECT_DOUBLE_EQ(tc::io::get_number_nullable(j, "z", "", 0, 1, 0.25), 0.25);
  EXPECT_EQ(error_of([&] { tc::io::get_int64(j, "big", "root", 0, 1000); }),
            "root.big: must be <= 1000 (got 1.8446744073709552e+19)");
  EXPECT_EQ(error_of([&] { tc::io::get_string(j, "s", "root", 2); }),
            "root.s: must be at most 2 characters (got 3)");
  EXPECT_EQ(error_of([&] { tc::io::get_string(Json{{"s", "a\nb"}}, "s", ""); }),
            "s: must not contain control characters");
  EXPECT_EQ(error_of([&] { tc::io::get_number(j, "nope", "root", 0, 1); }), "root.nope: missing (required)");
  EXPECT_EQ(tc::io::path_index(tc::io::path_key("f.json: ", "models"), 2), "f.json: models[2]");
  EXPECT_TRUE(tc::io::is_valid_date("2024-02-29"));
  EXPECT_FALSE(tc::io::is_valid_date("2023-02-29"));
  EXPECT_FALSE(tc::io::is_valid_date("2023-2-28"));
  EXPECT_EQ(tc::io::edit_distance("kitten", "sitting"), 3u);
}

}  // namespace
