// The band table (io/uncertainty): a traincalc.uncertainty/1 file merged over the built-in one
// replaces it whole, and the estimate's band then comes from it. scripts/accuracy_report.py
// measures the band's coverage of sources it has never seen that way, through this code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/embedded.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/uncertainty.hpp"
#include "support.hpp"

namespace {

using tc::io::InputError;
using tc::io::Json;

Json one_group_table() {
  return {{"schema", "traincalc.uncertainty/1"},
          {"groups", Json::array({{{"accelerator", "h100-sxm"}, {"framework", ""}, {"model_class", ""}, {"runs", 12},
                                   {"mean_abs_error", 0.01}, {"error_p10", -0.02}, {"error_p90", 0.03}}})},
          {"relatives", {{"h200", "h100-sxm"}}},
          {"unseen", {{"from_relative", {{"runs", 4}, {"mean_abs_error", 0.1}, {"error_p10", -0.2},
                                         {"error_p90", 0.1}, {"accelerators", {"a100-40gb"}}}}}},
          {"coverage", {{"chips", {8, 1024}}}},
          {"layout_error", {{"sigma", 0.05}, {"jobs", 16}, {"layouts", 36}}}};
}

Json job_doc(const std::string& instance, int nodes, const std::string& model = "llama3.1-8b",
             const std::string& framework = "fsdp") {
  return {{"model", model}, {"instance", instance}, {"nodes", nodes},
          {"framework", framework}, {"training", {{"tokens", 1e12}}}};
}

tc::io::Job job_on(const std::string& instance, int nodes, const std::string& model = "llama3.1-8b",
                   const std::string& framework = "fsdp") {
  return tc::io::parse_job(job_doc(instance, nodes, model, framework), tc_test::lib(), "test");
}

// "/groups/0/runs" as an error names it: "groups[0].runs".
std::string field_of(const std::string& pointer) {
  std::string out;
  std::size_t at = 1;
  while (at <= pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    const std::string token = pointer.substr(at, end - at);
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + token + "]" : (out.empty() ? "" : ".") + token;
    at = end + 1;
  }
  return out;
}

TEST(BandTable, BuiltInTableIsTheShippedFile) {
  const tc::io::BandTable& t = tc::io::builtin_band_table();
  const Json doc = Json::parse(tc::io::embedded_contents("presets/accuracy/uncertainty.json"));
  EXPECT_EQ(t.doc, doc);
  EXPECT_EQ(tc_test::lib().bands.doc, doc);
}

TEST(BandTable, MergedTableSetsTheBandEvaluateShows) {
  tc::io::PresetLibrary lib = tc_test::lib();
  tc::io::merge_preset_json(lib, "bands.json", one_group_table().dump());
  const auto job = job_on("p5.48xlarge", 4);
  const auto own = tc::io::evaluate(job, lib).band;
  // fsdp has no group of its own here: the accelerator's band, as it is.
  EXPECT_EQ(own.runs, 12);
  EXPECT_DOUBLE_EQ(own.error_low, -0.02);
  EXPECT_DOUBLE_EQ(own.error_high, 0.03);
  EXPECT_NE(own.note.find("no published fsdp runs on h100-sxm"), std::string::npos) << own.note;
  EXPECT_NE(tc::io::evaluate(job, tc_test::lib()).band.error_high, own.error_high);
  // Beyond twice the table's span of chips (8 to 1,024): widened by half again.
  const auto far = tc::io::evaluate(job_on("p5.48xlarge", 300), lib).band;
  EXPECT_NE(far.note.find("chips 2400 is far outside"), std::string::npos) << far.note;
  EXPECT_DOUBLE_EQ(far.error_high, 0.03 * 1.5);
}

TEST(BandTable, AcceleratorWithoutRunsTakesItsRelativeWidenedByTheUnseen) {
  tc::io::PresetLibrary lib = tc_test::lib();
  tc::io::merge_preset_json(lib, "bands.json", one_group_table().dump());
  const auto band = tc::io::evaluate(job_on("p5en.48xlarge", 4), lib).band;  // H200
  EXPECT_FALSE(band.covered);
  EXPECT_EQ(band.basis, "h100-sxm: 12 published runs");
  // The relative's spread and the unseen one add in quadrature.
  EXPECT_DOUBLE_EQ(band.error_low, -std::hypot(0.02, 0.2));
  EXPECT_DOUBLE_EQ(band.error_high, std::hypot(0.03, 0.1));
  EXPECT_NE(band.note.find("(4 held-out runs)"), std::string::npos) << band.note;
  // Two steps down the chain: gb200 (no runs) to b200 (none either) to h100-sxm.
  Json chain = one_group_table();
  chain["relatives"] = {{"gb200", "b200"}, {"b200", "h100-sxm"}};
  tc::io::merge_preset_json(lib, "chain.json", chain.dump());
  tc::Scenario gb200 = job_on("p5.48xlarge", 4).spec.scenario;
  gb200.accelerator = *tc_test::lib().accelerator("gb200");
  EXPECT_EQ(tc::io::uncertainty_for(gb200, lib.bands).basis, "h100-sxm: 12 published runs");
  // Without the unseen measurement: an independent error as large as the relative's own.
  chain["unseen"] = Json::object();
  tc::io::merge_preset_json(lib, "chain.json", chain.dump());
  const auto bare = tc::io::uncertainty_for(gb200, lib.bands);
  EXPECT_DOUBLE_EQ(bare.error_high, 0.03 * std::sqrt(2.0));
  EXPECT_NE(bare.note.find("band from h100-sxm, widened by as much again"), std::string::npos) << bare.note;
  // A cycle of relatives without runs ends: a rough guess, said so.
  Json cycle = one_group_table();
  cycle["relatives"] = {{"h200", "b200"}, {"b200", "h200"}};
  tc::io::merge_preset_json(lib, "cycle.json", cycle.dump());
  const auto guess = tc::io::evaluate(job_on("p5en.48xlarge", 4), lib).band;
  EXPECT_EQ(guess.basis, "no published runs");
  EXPECT_DOUBLE_EQ(guess.error_high, 0.5);
}

// The closest group with nine runs or more: the framework with the class of model, the class, the
// framework, the accelerator; the basis names the group, the note what had too few runs. A job of
// any class but dense decoders whose band is mostly other classes' runs is widened by half.
TEST(BandTable, ClassOfModelComesBeforeFrameworkAlone) {
  auto group = [](const char* fw, const char* cls, int runs, double edge) {
    return Json{{"accelerator", "h100-sxm"}, {"framework", fw}, {"model_class", cls}, {"runs", runs},
                {"mean_abs_error", edge / 2}, {"error_p10", -edge}, {"error_p90", edge}};
  };
  Json doc = one_group_table();
  doc["groups"] = Json::array({group("fsdp", "moe", 10, 0.10), group("", "moe", 12, 0.20), group("fsdp", "", 30, 0.05),
                               group("", "", 40, 0.04), group("", "dense", 5, 0.30)});
  tc::io::PresetLibrary lib = tc_test::lib();
  tc::io::merge_preset_json(lib, "bands.json", doc.dump());
  const auto band = [&](const std::string& model, const std::string& fw) {
    return tc::io::evaluate(job_on("p5.48xlarge", 4, model, fw), lib).band;
  };
  const auto moe_fsdp = band("mixtral-8x7b", "fsdp");
  EXPECT_EQ(moe_fsdp.basis, "h100-sxm with fsdp, mixture-of-experts models: 10 published runs");
  EXPECT_DOUBLE_EQ(moe_fsdp.error_high, 0.10);
  EXPECT_TRUE(moe_fsdp.note.empty()) << moe_fsdp.note;
  const auto moe_megatron = band("mixtral-8x7b", "megatron");
  EXPECT_EQ(moe_megatron.basis, "h100-sxm, mixture-of-experts models: 12 published runs");
  EXPECT_DOUBLE_EQ(moe_megatron.error_high, 0.20);
  EXPECT_NE(moe_megatron.note.find("no published megatron mixture-of-experts runs on h100-sxm"), std::string::npos) << moe_megatron.note;
  const auto dense = band("llama3.1-8b", "fsdp");  // its class has five runs: the framework's band
  EXPECT_EQ(dense.basis, "h100-sxm with fsdp: 30 published runs");
  EXPECT_DOUBLE_EQ(dense.error_high, 0.05);
  EXPECT_NE(dense.note.find("too few published dense runs on h100-sxm for a band (5 predicted"), std::string::npos)
      << dense.note;
  const auto encoder = band("bert-large", "fsdp");
  EXPECT_DOUBLE_EQ(encoder.error_high, 0.05 * 1.5);
  EXPECT_NE(encoder.note.find("no published encoder runs on h100-sxm; 0 of the band's 30 runs are theirs: band widened "
                             "by half"),
            std::string::npos)
      << encoder.note;
  doc["groups"].push_back(group("", "encoder", 9, 0.07));
  tc::io::merge_preset_json(lib, "bands.json", doc.dump());
  const auto measured = band("bert-large", "fsdp");
  EXPECT_DOUBLE_EQ(measured.error_high, 0.07);  // its own class's band, not widened
  EXPECT_EQ(measured.basis, "h100-sxm, encoder models: 9 published runs");
  // A framework with a band of its own but few runs of the job's class: the note counts those.
  doc["groups"] = Json::array({group("", "moe", 12, 0.20), group("fsdp", "", 30, 0.05), group("fsdp", "moe", 3, 0.1)});
  tc::io::merge_preset_json(lib, "bands.json", doc.dump());
  const auto few = band("mixtral-8x7b", "fsdp");
  EXPECT_EQ(few.basis, "h100-sxm, mixture-of-experts models: 12 published runs");
  EXPECT_NE(few.note.find("too few published fsdp mixture-of-experts runs on h100-sxm for a band (3 predicted"),
            std::string::npos) << few.note;
  // Too few runs of its class for a band of its own: a mixture of experts takes the framework's band,
  // widened by half, and the note says why.
  doc["groups"] = Json::array({group("", "moe", 8, 0.20), group("fsdp", "", 30, 0.05), group("", "", 40, 0.04)});
  tc::io::merge_preset_json(lib, "bands.json", doc.dump());
  const auto widened = band("mixtral-8x7b", "fsdp");
  EXPECT_EQ(widened.basis, "h100-sxm with fsdp: 30 published runs");
  EXPECT_DOUBLE_EQ(widened.error_high, 0.05 * 1.5);
  EXPECT_NE(widened.note.find("too few published mixture-of-experts runs on h100-sxm for a band (8 predicted out of "
                              "sample); 0 of the band's 30 runs are theirs: band widened by half"),
            std::string::npos) << widened.note;
  EXPECT_DOUBLE_EQ(band("llama3.1-8b", "fsdp").error_high, 0.05);
  // A band mostly of the job's class's runs (8 of 14) is not widened, though the class alone has too
  // few for a band of its own.
  doc["groups"] = Json::array({group("", "moe", 8, 0.20), group("", "", 14, 0.04)});
  tc::io::merge_preset_json(lib, "bands.json", doc.dump());
  const auto mostly = band("mixtral-8x7b", "fsdp");
  EXPECT_DOUBLE_EQ(mostly.error_high, 0.04);
  EXPECT_NE(mostly.note.find("8 of the band's 14 runs are theirs"), std::string::npos) << mostly.note;
  EXPECT_EQ(mostly.note.find("widened"), std::string::npos) << mostly.note;
  // The share is counted in the band's own group (the framework's here), not on the accelerator.
  const auto in_framework = [&](int fw_runs, int fw_class_runs) {
    doc["groups"] = Json::array({group("", "moe", 8, 0.20), group("fsdp", "", fw_runs, 0.05),
                                 group("fsdp", "moe", fw_class_runs, 0.10), group("", "", 40, 0.04)});
    tc::io::merge_preset_json(lib, "bands.json", doc.dump());
    return band("mixtral-8x7b", "fsdp").error_high;
  };
  EXPECT_DOUBLE_EQ(in_framework(12, 2), 0.05 * 1.5);  // 2 of 12, though 8 of 40 on the accelerator
  EXPECT_DOUBLE_EQ(in_framework(10, 6), 0.05);        // 6 of 10
  EXPECT_DOUBLE_EQ(in_framework(14, 7), 0.05);        // exactly half: not widened
  // A table that keeps no class of model names no class; a dense decoder's band is its own, any
  // other class's is widened.
  doc["groups"] = Json::array({group("", "", 40, 0.04)});
  tc::io::merge_preset_json(lib, "bands.json", doc.dump());
  const auto classless = band("mixtral-8x7b", "fsdp");
  EXPECT_EQ(classless.note.find("mixture-of-experts"), std::string::npos);
  EXPECT_NE(classless.note.find("the band table keeps no class of model: band widened by half"), std::string::npos)
      << classless.note;
  EXPECT_DOUBLE_EQ(classless.error_high, 0.04 * 1.5);
  EXPECT_EQ(band("llama3.1-8b", "fsdp").note.find("class"), std::string::npos);
  // The class every row of `validate` reports is the one its band was looked up by.
  EXPECT_EQ(tc::io::model_class(*tc_test::lib().model("mixtral-8x7b")), "moe");
  EXPECT_EQ(tc::io::model_class(*tc_test::lib().model("vit-l16")), "vit");
}

// Class: every value of a band file, replaced by a hostile one, is refused with its field named
// (and the library left as it was) or read into a band that stays finite.
TEST(BandTable, EveryHostileValueIsNamedOrHarmless) {
  const Json good = one_group_table();
  const std::vector<Json> hostile = {Json(), Json(true), Json("x"), Json(-1), Json(0), Json(1e308),
                                     Json(-1e308), Json(4.9e-324), Json::array(), Json::object(),
                                     Json::array({1, 2, 3})};
  const auto job = job_on("p5.48xlarge", 4);
  int refused = 0;
  const Json leaves = good.flatten();
  for (const auto& leaf : leaves.items()) {
    const Json::json_pointer at(leaf.key());
    const std::string name = field_of(leaf.key());
    for (const Json& bad : hostile) {
      Json doc = good;
      doc[at] = bad;
      tc::io::PresetLibrary lib = tc_test::lib();
      try {
        tc::io::merge_preset_json(lib, "bands.json", doc.dump());
      } catch (const InputError& e) {
        ++refused;
        // A p90 below its p10 is named at the p10, the value the order is read against.
        const std::string p90 = ".error_p90", as_p10 = name.size() > p90.size() &&
                                                        name.compare(name.size() - p90.size(), p90.size(), p90) == 0
                                                    ? name.substr(0, name.size() - p90.size()) + ".error_p10"
                                                    : name;
        const std::string what = e.what();
        EXPECT_TRUE(what.find(name) != std::string::npos || what.find(as_p10) != std::string::npos)
            << what << " for " << leaf.key();
        EXPECT_EQ(lib.bands.doc, tc_test::lib().bands.doc);
        continue;
      }
      const auto band = tc::io::evaluate(job, lib).band;
      EXPECT_TRUE(std::isfinite(band.error_low) && std::isfinite(band.error_high) &&
                  std::isfinite(band.mean_abs_error))
          << leaf.key() << " = " << bad.dump();
      // A job read with the table searches its plan with the table's layout error.
      const auto searched = tc::io::evaluate(tc::io::parse_job(job_doc("p5.48xlarge", 4), lib, "test"), lib);
      EXPECT_TRUE(std::isfinite(searched.est.step_time_s) && searched.est.step_time_s > 0)
          << leaf.key() << " = " << bad.dump();
    }
  }
  EXPECT_GT(refused, 100);
}

TEST(BandTable, StructuralErrorsNameTheField) {
  auto error_of = [](const Json& doc) {
    tc::io::PresetLibrary lib = tc_test::lib();
    try {
      tc::io::merge_preset_json(lib, "bands.json", doc.dump());
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  Json doc = one_group_table();
  doc["groups"][0]["model_class"] = "MoE";
  EXPECT_NE(error_of(doc).find("groups[0].model_class"), std::string::npos) << error_of(doc);
  doc["groups"][0]["model_class"] = "";
  doc["groups"][0]["error_p10"] = 0.5;
  EXPECT_EQ(error_of(doc), "bands.json: groups[0].error_p10: must not exceed error_p90 (0.03)");
  doc = one_group_table();
  doc.erase("groups");
  EXPECT_NE(error_of(doc).find("groups"), std::string::npos);
  doc = one_group_table();
  doc["grups"] = Json::array();
  EXPECT_NE(error_of(doc).find("grups"), std::string::npos);
  doc = one_group_table();
  doc["coverage"]["chips"] = {1024, 8};
  EXPECT_EQ(error_of(doc), "bands.json: coverage.chips[0]: must not exceed 8");
  doc = one_group_table();
  doc["coverage"]["chip"] = {8, 1024};
  EXPECT_NE(error_of(doc).find("coverage.chip"), std::string::npos);
  doc = one_group_table();
  doc["layout_error"]["sigma"] = 0.3;
  EXPECT_EQ(error_of(doc), "bands.json: layout_error.sigma: must be <= 0.2 (got 0.3)");
  doc = one_group_table();
  doc["layout_error"]["sigmas"] = 0.05;
  EXPECT_NE(error_of(doc).find("layout_error.sigmas"), std::string::npos) << error_of(doc);
}

// The table's layout error is what the plan search corrects its pick by: a job read with a table
// of a wider one shows a larger expected shortfall, and a table without one none.
TEST(BandTable, LayoutErrorSetsThePicksCorrection) {
  auto shortfall = [](const Json& table) {
    tc::io::PresetLibrary lib = tc_test::lib();
    tc::io::merge_preset_json(lib, "bands.json", table.dump());
    const auto r = tc::io::evaluate(tc::io::parse_job(job_doc("p5.48xlarge", 16, "llama3.1-70b", "megatron"), lib, "t"), lib);
    double v = 0;
    for (const auto& t : r.est.breakdown_s)
      if (t.name == "pick_optimism") v = t.value / r.est.step_time_s;
    return v;
  };
  Json doc = one_group_table();
  const double narrow = shortfall(doc);
  doc["layout_error"]["sigma"] = 0.1;
  const double wide = shortfall(doc);
  doc.erase("layout_error");
  EXPECT_GT(narrow, 0.0);
  EXPECT_GT(wide, 1.5 * narrow);
  EXPECT_EQ(shortfall(doc), 0.0);

}

}  // namespace
