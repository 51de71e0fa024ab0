// Issue 13, every figure explains itself: plain labels for the model's ids (core/labels), one
// way to write a duration and a plain decimal (core/cost, io/report), and the explanations the
// page shows on hover (io/explain), checked against hand-worked figures.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>
#include <string>
#include <tuple>

#include "core/cost.hpp"
#include "core/labels.hpp"
#include "io/compare.hpp"
#include "io/embedded.hpp"
#include "io/explain.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "support.hpp"

namespace {

using tc_test::lib;

bool has_id_punctuation(const std::string& s) { return s.find_first_of("_[]") != std::string::npos; }

// Every seed scenario, parsed and evaluated as the page does: fn(path, job, result).
template <class Fn>
void for_each_seed(Fn fn) {
  for (const auto& f : tc::io::embedded_presets()) {
    const std::string path = f.path;
    if (path.rfind("presets/scenarios/", 0) != 0) continue;
    SCOPED_TRACE(path);
    const tc::io::Job job = tc::io::parse_job_text(f.contents, lib(), path);
    fn(path, job, tc::io::evaluate(job, lib()));
  }
}

TEST(Labels, BillItemsTiersAndFieldsInPlainWords) {
  EXPECT_EQ(tc::plain_label("instance.capacity_block.idle"), "Capacity Block, unused tail");
  EXPECT_EQ(tc::plain_label("instance.capacity_block"), "Capacity Block");
  EXPECT_EQ(tc::plain_label("instance.reserved_3y_all_upfront"), "3-year Standard RI, all upfront");
  EXPECT_EQ(tc::plain_label("instance.reserved_1y.idle"), "1-year Standard RI, no upfront, paid and not used");
  EXPECT_EQ(tc::plain_label("instance.on_demand"), "On-Demand");
  EXPECT_EQ(tc::plain_label("pricing.mix[0]"), "pricing mix, entry 1");
  EXPECT_EQ(tc::plain_label("pricing.mix[2].tier"), "pricing mix, entry 3, tier");
  EXPECT_EQ(tc::plain_label("tp_comm"), "tensor-parallel collectives");
  EXPECT_EQ(tc::plain_label("spot_interruptions"), "spot interruptions");
  EXPECT_EQ(tc::plain_label("incidents.oom"), "incidents: out-of-memory restarts");
  // An id the table does not know is still shown without its punctuation.
  EXPECT_EQ(tc::plain_label("some_new.term[3]"), "some new term3");
  EXPECT_EQ(tc::mix_entries_label({0}), "pricing mix, entry 1");
  EXPECT_EQ(tc::mix_entries_label({0, 2}), "pricing mix, entries 1 and 3");
  EXPECT_EQ(tc::mix_entries_label({0, 1, 3}), "pricing mix, entries 1, 2 and 4");
}

// The class: no id of any term or item any seed scenario computes reaches a reader as an id.
TEST(Labels, EveryIdOfEverySeedHasPlainWords) {
  int checked = 0;
  for_each_seed([&](const std::string&, const tc::io::Job&, const tc::io::Result& r) {
    std::vector<std::string> ids;
    for (const auto& t : r.est.breakdown_s) ids.push_back(t.name);
    if (r.cost) {
      const tc::CostResult& c = r.cost->result;
      for (const auto& t : c.wall.terms) ids.push_back(t.name);
      for (const auto& t : c.bill.items_usd) ids.push_back(t.name);
      for (const auto& t : c.bill.instance_usd_by_term) ids.push_back(t.name);
      for (const auto& t : c.bill.tiers) ids.push_back("instance." + t.billed_tier);
      if (c.owned)
        for (const auto& t : c.owned->items_usd) ids.push_back(t.name);
      for (const auto& w : c.warnings) EXPECT_EQ(w.find("pricing.mix["), std::string::npos) << w;
    }
    for (const auto& id : ids) {
      const std::string label = tc::plain_label(id);
      EXPECT_FALSE(label.empty()) << id;
      EXPECT_FALSE(has_id_punctuation(label)) << id << " -> " << label;
      ++checked;
    }
  });
  EXPECT_GT(checked, 100);
}

TEST(Format, DurationsOneWay) {
  EXPECT_EQ(tc::format_duration(4 * 86400.0), "4.0 days");
  EXPECT_EQ(tc::format_duration(68.6 * 86400), "68.6 days");
  EXPECT_EQ(tc::format_duration(19 * 3600.0), "19 h");
  EXPECT_EQ(tc::format_duration(1.5 * 3600), "90 min");
  EXPECT_EQ(tc::format_duration(3 * 3600.0), "3.0 h");
  EXPECT_EQ(tc::format_duration(45 * 60.0), "45 min");
  EXPECT_EQ(tc::format_duration(1.5), "1.50 s");
  EXPECT_EQ(tc::format_duration(37.6), "37.60 s");
  EXPECT_EQ(tc::format_duration(0.0415), "41.5 ms");
  EXPECT_EQ(tc::format_duration(-19 * 3600.0), "-19 h");
  EXPECT_EQ(tc::format_duration(NAN), "-");
  EXPECT_EQ(tc::format_duration(INFINITY), "-");
  // Money: the same formatter everywhere.
  EXPECT_EQ(tc::format_usd(21100), "$21.1 k");
  EXPECT_EQ(tc::format_usd(1.48e6), "$1.48 M");
}

TEST(Format, PlainDecimalsForExports) {
  EXPECT_EQ(tc::io::format_decimal(0.000023), "0.000023");
  EXPECT_EQ(tc::io::format_decimal(1e12), "1000000000000");
  EXPECT_EQ(tc::io::format_decimal(55.04), "55.04");
  EXPECT_EQ(tc::io::format_decimal(-2.5), "-2.5");
  EXPECT_EQ(tc::io::format_decimal(0), "0");
  EXPECT_EQ(tc::io::format_decimal(NAN), "-");
}

// The class: a CSV cell never carries an exponent, and reads back as the number to ten
// significant digits, at every magnitude a bill line can have (rates of $2e-5 to totals of $1e13).
TEST(Format, PlainDecimalsAtEveryMagnitudeReadBack) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> exponent(-9, 15), mantissa(1, 10);
  for (int i = 0; i < 2000; ++i) {
    const double v = (i % 2 ? -1 : 1) * mantissa(rng) * std::pow(10.0, std::floor(exponent(rng)));
    const std::string s = tc::io::format_decimal(v);
    ASSERT_EQ(s.find_first_of("eE"), std::string::npos) << s;
    char* end = nullptr;
    const double back = std::strtod(s.c_str(), &end);
    ASSERT_EQ(*end, '\0') << s;
    ASSERT_NEAR(back, v, std::fabs(v) * 1e-9 + 1e-12) << s;
  }
}

// Every explanation of every seed names a formula, and each input its source.
void expect_complete(const tc::io::Explanation& x) {
  SCOPED_TRACE(x.title);
  EXPECT_FALSE(x.title.empty());
  EXPECT_FALSE(x.value.empty());
  EXPECT_FALSE(x.formula.empty());
  EXPECT_FALSE(x.band.empty());
  EXPECT_FALSE(x.inputs.empty());
  for (const auto& in : x.inputs) {
    EXPECT_FALSE(in.name.empty());
    EXPECT_FALSE(in.source.empty()) << in.name;
  }
  static const std::regex non_finite(R"((^|[^A-Za-z])(nan|inf)([^A-Za-z]|$))", std::regex::icase);
  EXPECT_FALSE(std::regex_search(tc::io::explanation_text(x), non_finite)) << tc::io::explanation_text(x);
}

TEST(Explain, EverySeedsFiguresHaveFormulaInputsAndSources) {
  int seeds = 0;
  for_each_seed([&](const std::string& path, const tc::io::Job& job, const tc::io::Result& r) {
    ASSERT_TRUE(r.cost) << path;
    for (auto* make : {tc::io::explain_wall_time, tc::io::explain_bill, tc::io::explain_usd_per_million_tokens,
                       tc::io::explain_mfu, tc::io::explain_step_time, tc::io::explain_chips})
      expect_complete(make(r, job, lib()));
    expect_complete(tc::io::explain_plan(r));
    for (const auto& t : r.est.breakdown_s) expect_complete(tc::io::explain_step_term(r, job, lib(), t.name));
    for (const char* part : {"total", "weights", "gradients", "optimizer", "activations", "other", "max_micro_batch"})
      expect_complete(tc::io::explain_memory(r, job, lib(), part));
    const tc::Bill& b = r.cost->result.bill;
    for (const auto& it : b.items_usd) expect_complete(tc::io::explain_bill_item(b, it.name));
    for (const auto& t : b.tiers) expect_complete(tc::io::explain_price_tier(t));
    for (const auto& t : r.cost->result.wall.terms) expect_complete(tc::io::explain_wall_term(r, t.name));
    expect_complete(tc::io::explain_items_total(b));
    expect_complete(tc::io::explain_bill_rates(b));
    ++seeds;
  });
  EXPECT_GE(seeds, 6);
}

// The explanation's figures are the ones the model used: trn2.48xlarge's price line from the
// presets (Capacity Block $35.7608/h in us-east-2, AWS Capacity Blocks pricing page), the
// accelerator's dense BF16 peak, and MFU = model FLOPs / (step x chips x peak).
TEST(Explain, DefaultScenarioNamesItsPriceAndPeak) {
  const tc::io::Job job = tc::io::parse_job_text(tc::io::embedded_contents("presets/scenarios/default.json"), lib(), "d");
  const tc::io::Result r = tc::io::evaluate(job, lib());
  const tc::io::Explanation bill = tc::io::explain_bill(r, job, lib());
  bool price = false;
  for (const auto& in : bill.inputs)
    if (in.name == "Capacity Block, 100.0% of hours") {
      price = true;
      EXPECT_EQ(in.value, "$35.76/h");
      EXPECT_NE(in.source.find("us-east-2"), std::string::npos) << in.source;
      EXPECT_NE(in.source.find("2026-"), std::string::npos) << in.source;  // the price's date
    }
  EXPECT_TRUE(price) << tc::io::explanation_text(bill);
  // The rest of the 112-day block (16 x 2,688 h paid, 40,353 h used) is an input of the total too.
  bool tail = false;
  for (const auto& in : bill.inputs) tail = tail || in.name == "Capacity Block, unused tail";
  EXPECT_TRUE(tail) << tc::io::explanation_text(bill);
  const tc::io::Explanation mfu = tc::io::explain_mfu(r, job, lib());
  const tc::Accelerator& a = job.spec.scenario.accelerator;
  const double peak = a.peak_tflops[static_cast<int>(tc::Precision::bf16)];
  EXPECT_NEAR(r.est.model_flops_per_step / (r.est.step_time_s * r.est.chips * peak * 1e12), r.est.mfu, 1e-12);
  bool peak_named = false;
  for (const auto& in : mfu.inputs)
    if (in.name == "dense peak per chip") {
      peak_named = true;
      EXPECT_EQ(in.value, tc::io::format_fixed(peak, 0) + " TFLOP/s bf16");
      EXPECT_NE(in.source.find("confidence"), std::string::npos) << in.source;  // a source note, dated
    }
  EXPECT_TRUE(peak_named);
  // The bill item's lines are its quantity x rate: the Capacity Block hours at $35.76.
  const tc::Bill& b = r.cost->result.bill;
  const tc::io::Explanation cb = tc::io::explain_bill_item(b, "instance.capacity_block");
  EXPECT_EQ(cb.title, "Capacity Block");
  ASSERT_FALSE(cb.inputs.empty());
  EXPECT_NE(cb.inputs[0].name.find("instance-hours x $35.76"), std::string::npos) << cb.inputs[0].name;
}

// A chip capped below its power says so where the peak is explained: 27/64 of Trainium2's 500 W
// leaves cbrt(27/64) = 75% of its clock.
TEST(Explain, APowerCapIsNamedBesideThePeak) {
  tc::io::Json doc = tc::io::Json::parse(tc::io::embedded_contents("presets/scenarios/default.json"));
  doc["power_limit_w"] = 500.0 * 27 / 64;
  const tc::io::Job job = tc::io::parse_job(doc, lib(), "d");
  const tc::io::Result r = tc::io::evaluate(job, lib());
  std::string peak;
  for (const auto& in : tc::io::explain_mfu(r, job, lib()).inputs)
    if (in.name == "dense peak per chip") peak = in.value;
  EXPECT_NE(peak.find("at 75.0% of its clock on 211 W (power_limit_w)"), std::string::npos) << peak;
}

// A chip whose dense GEMMs would draw more than its power at the peak's clock says so beside the
// peak: at 0.8 pJ a BF16 FLOP, a GB200's 2,500 TFLOP/s would draw 2,000 W, and 1,200 W sustains 60%.
TEST(Explain, APowerBoundTensorClockIsNamedBesideThePeak) {
  tc::io::Json doc = tc::io::Json::parse(tc::io::embedded_contents("presets/scenarios/default.json"));
  doc["instance"] = "gb200-nvl72";
  doc.erase("chips");
  doc["nodes"] = 1;
  tc::io::Job job = tc::io::parse_job(doc, lib(), "d");
  job.spec.scenario.accelerator.cal.gemm_energy_pj_per_flop = 0.8;
  const tc::io::Result r = tc::io::evaluate(job, lib());
  std::string peak;
  for (const auto& in : tc::io::explain_mfu(r, job, lib()).inputs)
    if (in.name == "dense peak per chip") peak = in.value;
  EXPECT_NE(peak.find("at 60.0% of its clock on 1200 W"), std::string::npos) << peak;
  EXPECT_EQ(peak.find("power_limit_w"), std::string::npos) << peak;
}

namespace {

// The default scenario on p5.48xlarge nodes under Megatron.
tc::io::Json megatron_on_p5(int nodes) {
  tc::io::Json doc = tc::io::Json::parse(tc::io::embedded_contents("presets/scenarios/default.json"));
  doc["instance"] = "p5.48xlarge";
  doc.erase("chips");
  doc["nodes"] = nodes;
  doc["framework"] = "megatron";
  return doc;
}

// The input `name` of a step term's explanation as "value: source", or "(not named)".
std::string term_input(const tc::io::Json& doc, const std::string& term, const std::string& name) {
  const tc::io::Job job = tc::io::parse_job(doc, lib(), "d");
  const tc::io::Result r = tc::io::evaluate(job, lib());
  for (const auto& in : tc::io::explain_step_term(r, job, lib(), term).inputs)
    if (in.name == name) return in.value + ": " + in.source;
  return "(not named)";
}

}  // namespace

// A communication term names the framework's share of it that runs hidden, with that share's
// value and source: the preset's dated note, the scenario's own figure when an inline framework
// changes it, the model's default where the profile sets none.
TEST(Explain, CommunicationTermsNameTheirOverlap) {
  tc::io::Json doc = megatron_on_p5(4);
  doc["parallel"] = {{"tp", 8}, {"pp", 1}, {"dp", 4}, {"zero", 1}};
  const tc::FrameworkProfile& f = *lib().framework("megatron");
  for (const auto& [term, knob, share] : {std::tuple<std::string, std::string, double>{"dp_comm", "dp_overlap", f.dp_overlap},
                                          {"tp_comm", "tp_overlap", f.tp_overlap}}) {
    const std::string got = term_input(doc, term, knob);
    EXPECT_EQ(got.substr(0, got.find(':')), tc::io::format_fixed(share, 2) + " (megatron)") << got;
    EXPECT_NE(got.find("confidence"), std::string::npos) << got;
  }
  tc::io::Json inline_doc = doc;
  inline_doc["framework"] = {{"base", "megatron"}, {"dp_overlap", 0.2}};
  const std::string own = term_input(inline_doc, "dp_comm", "dp_overlap");
  EXPECT_NE(own.find("0.20 (megatron): as the scenario gives it"), std::string::npos) << own;
  tc::io::Json fsdp = doc;
  fsdp["framework"] = "fsdp";
  fsdp["model"] = "mixtral-8x7b";
  fsdp["parallel"] = {{"tp", 1}, {"pp", 1}, {"dp", 32}, {"ep", 8}, {"zero", 1}};
  const std::string dflt = term_input(fsdp, "ep_comm", "ep_overlap");
  EXPECT_NE(dflt.find("profile fsdp does not set it"), std::string::npos) << dflt;
}

// The all-to-all names the copies of a token its dispatcher sends at the chosen ep and whose choice
// that is: the megatron profile's DeepEP-style dispatch with its dated source, one copy per expert
// where a profile does not set it, the scenario's own where its inline framework changes it.
TEST(Explain, AllToAllNamesTheTokenCopiesAndTheirSource) {
  tc::io::Json doc = megatron_on_p5(4);
  doc["model"] = "qwen3-30b-a3b";
  doc["parallel"] = {{"tp", 1}, {"pp", 1}, {"dp", 32}, {"ep", 8}, {"zero", 1}};
  const tc::ModelShape& m = *lib().model("qwen3-30b-a3b");
  const std::string deep = term_input(doc, "ep_comm", "token copies");
  const std::string want = tc::io::format_fixed(tc::dispatch_copies(m, 8, true), 2) + " of top_k 8, one per rank (megatron)";
  EXPECT_EQ(deep.substr(0, want.size()), want) << deep;
  EXPECT_NE(deep.find("DeepEP"), std::string::npos) << deep;
  tc::io::Json own = doc;
  own["framework"] = {{"base", "megatron"}, {"dispatch_once_per_rank", false}};
  EXPECT_NE(term_input(own, "ep_comm", "token copies").find("8.00 of top_k 8, one per expert (megatron): as the scenario gives it"),
            std::string::npos);
  tc::io::Json fsdp = doc;
  fsdp["framework"] = "fsdp";
  EXPECT_NE(term_input(fsdp, "ep_comm", "token copies").find("profile fsdp does not set it: one copy per routed expert"),
            std::string::npos);
}

// Attention's rate is the 16-bit peak at the efficiency of the kernel class the stack runs, also
// in an FP8 job (FP8 recipes keep attention in BF16).
TEST(Explain, AttentionNamesTheRateItRunsAt) {
  tc::io::Json doc = megatron_on_p5(1);
  doc["precision"] = "fp8";
  const tc::Accelerator& a = *lib().accelerator("h100-sxm");
  const std::string want = tc::io::format_fixed(a.peak_tflops[static_cast<int>(tc::Precision::bf16)], 0) +
                           " TFLOP/s bf16 x " + tc::io::format_fixed(100 * a.cal.attention_v3_efficiency, 1) +
                           "% (FlashAttention-3 class)";
  const std::string rate = term_input(doc, "attention", "attention rate");
  EXPECT_EQ(rate.substr(0, want.size()), want) << rate;
}

// Unfused attention says where its scores go: on a Trainium2 rank (a logical core of two
// NeuronCore-v3, 56 MiB of SBUF) one head's 4,096 x 4,096 BF16 scores (32 MiB) stay on chip, citing
// the SRAM's source; 8,192 tokens' (128 MiB) go through HBM, unless the plan's context parallelism
// leaves a rank a quarter of the queries.
TEST(Explain, UnfusedAttentionSaysWhereItsScoresGo) {
  tc::io::Json doc = tc::io::Json::parse(tc::io::embedded_contents("presets/scenarios/default.json"));
  doc["flash_attention"] = false;
  doc["model"] = {{"base", "llama3.1-70b"}, {"seq_len", 4096}};
  const std::string kept = term_input(doc, "attention", "attention rate");
  EXPECT_TRUE(tc_test::contains(kept, "(unfused, scores on chip)")) << kept;
  EXPECT_TRUE(tc_test::contains(kept, "; SRAM: ") && tc_test::contains(kept, "SBUF")) << kept;
  doc["model"]["seq_len"] = 8192;
  const std::string spilled = term_input(doc, "attention", "attention rate");
  EXPECT_TRUE(tc_test::contains(spilled, "(unfused, scores via HBM)")) << spilled;
  // Context parallelism on Trainium: under PyTorch FSDP (NxD Training documents none).
  doc["framework"] = "fsdp";
  doc["parallel"] = {{"tp", 8}, {"pp", 4}, {"cp", 4}, {"dp", 8}, {"zero", 1}};
  const std::string split = term_input(doc, "attention", "attention rate");
  EXPECT_TRUE(tc_test::contains(split, "(unfused, scores on chip)")) << split;
}

// CSV and Markdown cells carry plain decimals and the price's tier, region, date and rate.
TEST(Explain, ComparisonExportsArePlainDecimalsWithThePrice) {
  const tc::io::Job job = tc::io::parse_job_text(tc::io::embedded_contents("presets/scenarios/default.json"), lib(), "d");
  const auto rows = tc::io::compare_instances(job, lib(), {"trn2.48xlarge", "p5.48xlarge"});
  const tc::io::Table t = tc::io::compare_table(rows, tc::io::TableStyle::plain);
  auto col = [&](const std::string& name) {
    for (std::size_t i = 0; i < t.header.size(); ++i)
      if (t.header[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return std::size_t{0};
  };
  ASSERT_EQ(t.rows.size(), 2u);
  for (const auto& r : t.rows) {
    for (const char* numeric : {"step_time_s", "wall_time_days", "total_usd", "usd_per_million_tokens", "usd_per_hour"}) {
      const std::string& cell = r[col(numeric)];
      char* end = nullptr;
      std::strtod(cell.c_str(), &end);
      EXPECT_TRUE(!cell.empty() && *end == '\0') << numeric << ": " << cell;
    }
    EXPECT_FALSE(r[col("region")].empty());
    EXPECT_FALSE(r[col("price_date")].empty());
    EXPECT_FALSE(has_id_punctuation(r[col("pricing")])) << r[col("pricing")];
  }
  // AWS Capacity Blocks pricing page: trn2.48xlarge $35.7608/h in us-east-2 (presets/instances.json).
  EXPECT_EQ(t.rows[0][col("usd_per_hour")], "35.7608");
  EXPECT_EQ(t.rows[0][col("pricing")], "Capacity Block");
  // Text keeps the reader's units, and money reads as on the page.
  const tc::io::Table text = tc::io::compare_table(rows, tc::io::TableStyle::human);
  EXPECT_NE(text.rows[0][7].find("days"), std::string::npos) << text.rows[0][7];
  EXPECT_EQ(text.header[8], "bill");
  EXPECT_EQ(text.rows[0][8], tc::format_usd(rows[0].result.cost->result.bill.total_usd));
  EXPECT_EQ(text.rows[0][8].front(), '$');
  EXPECT_EQ(text.rows[0][15], "$35.76/h");
}

}  // namespace
