// Cost model (issue 3): hand-worked wall times and bills, invariants, input validation, and the
// claim verdicts of the seed cases.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "core/claims.hpp"
#include "core/commitments.hpp"
#include "core/cost.hpp"
#include "io/cost_json.hpp"
#include "io/job.hpp"
#include "io/embedded.hpp"
#include "io/error.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "io/scenario.hpp"
#include "service_prices.hpp"
#include "support.hpp"

namespace {

using tc::Accelerator;
using tc::CostInputs;
using tc::Instance;
using tc::JobPerf;
using tc::io::Json;

using tc_test::contains;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

double item(const tc::Bill& b, const std::string& name) {
  for (const auto& t : b.items_usd)
    if (t.name == name) return t.value;
  return -1;
}
double term(const tc::WallTime& w, const std::string& name) {
  for (const auto& t : w.terms)
    if (t.name == name) return t.value;
  return -1;
}
double sum(const std::vector<tc::NamedTerm>& v) {
  double s = 0;
  for (const auto& t : v) s += t.value;
  return s;
}

// Hand-made presets, so that these tests do not move with presets/*.json.
Accelerator gpu() {
  Accelerator a;
  a.id = "h100-sxm";
  a.peak_tflops = {66.9, 494.7, 989.4, 989.4, 1978.9};
  a.power_w = 700;
  return a;
}
Accelerator trainium1() {
  Accelerator a;
  a.id = "trainium1";
  a.peak_tflops = {47.5, 190, 190, 190, 190};
  return a;
}
Accelerator trainium2() {
  Accelerator a;
  a.id = "trainium2";
  a.peak_tflops = {181, 667, 667, 667, 1299};
  a.power_w = 500;
  return a;
}
tc::PriceTier price(const std::string& tier, double usd, const std::string& region = "us-east-1",
                    const std::string& date = "2025-11-30") {
  return {tier, usd, region, {region}, date, "test"};
}
Instance p5() {
  Instance i;
  i.id = "p5.48xlarge";
  i.accelerator_id = "h100-sxm";
  i.chips_per_node = 8;
  i.intra.gb_per_s_per_chip = 900;
  i.inter_node_gbps = 3200;
  i.host_power_w = 1600;
  i.prices = {price("on_demand", 55.04), price("reserved_3y", 23.77728), price("capacity_block", 41.528, "us-east-1", "2026-07-22")};
  i.price_history = {price("on_demand", 98.32, "us-east-1", "2025-05-31")};
  i.spot_discount = 0.55;
  return i;
}
Instance trn2() {
  Instance i;
  i.id = "trn2.48xlarge";
  i.accelerator_id = "trainium2";
  i.chips_per_node = 16;
  i.intra.gb_per_s_per_chip = 1024;
  i.inter_node_gbps = 3200;
  i.host_power_w = 2000;
  i.prices = {price("capacity_block", 35.7608, "us-east-2", "2026-01..07")};
  return i;
}
Instance trn1(const std::string& id, double od) {
  Instance i;
  i.id = id;
  i.accelerator_id = "trainium1";
  i.chips_per_node = 16;
  i.intra.gb_per_s_per_chip = 384;
  i.inter_node_gbps = 800;
  i.prices = {price("on_demand", od), price("reserved_1y", 13.22895)};
  i.spot_discount = 0.8;
  return i;
}
// A simple instance: $10/h on demand, $4/h reserved for 3 years, spot 60% off.
Instance simple() {
  Instance i;
  i.id = "test.node";
  i.accelerator_id = "h100-sxm";
  i.chips_per_node = 8;
  i.prices = {price("on_demand", 10), price("reserved_3y", 4)};
  i.spot_discount = 0.6;
  return i;
}

JobPerf job(int nodes, double steps, double step_s) {
  JobPerf j;
  j.instance_id = "test.node";
  j.accelerator_id = "h100-sxm";
  j.nodes = nodes;
  j.chips_per_node = 8;
  j.chips = nodes * 8;
  j.steps = steps;
  j.step_time_s = step_s;
  j.tokens_per_step = 1e6;
  j.model_flops_per_step = 1e18;
  j.peak_tflops_per_chip = 989.4;
  j.chip_power_w = 700;
  j.host_power_w_per_node = 1600;
  return j;
}

// No overheads at all: the wall time is the training time.
using tc_test::bare;

TEST(CostWallTime, HandWorkedTerms) {
  CostInputs in;
  in.compile.first_s = 100;
  in.compile.recompile_s = 10;
  in.compile.shapes = 3;
  in.warmup.minutes = 10;
  in.warmup.throughput = 0.5;
  in.checkpoint.interval_min = 30;
  in.checkpoint.write_gb_per_s = 10;
  in.failures.per_node_hour = 0.01;
  in.failures.restart_min = 10;
  in.queue_hours = 1;
  JobPerf j = job(2, 1000, 2.0);
  j.checkpoint_bytes = 100e9;
  const tc::WallTime w = tc::wall_time(in, j, gpu(), 0.0);
  // training 1000 x 2 s; compile 100 + 2 x 10; warm-up 600 s x (1 - 0.5);
  // checkpoints 2000 s / 1800 s x (100 GB / 10 GB/s)
  EXPECT_DOUBLE_EQ(term(w, "training"), 2000);
  EXPECT_DOUBLE_EQ(term(w, "compile"), 120);
  EXPECT_DOUBLE_EQ(term(w, "warmup"), 300);
  EXPECT_NEAR(term(w, "checkpoints"), 2000.0 / 1800.0 * 10.0, 1e-9);
  // failures: rate 0.01 x 2 nodes per hour, each costs 600 s restart + 900 s (half an interval);
  // T = base / (1 - phi), phi = 0.02 / 3600 x 1500
  const double base = 2000 + 120 + 300 + 2000.0 / 1800.0 * 10.0;
  const double phi = 0.02 / 3600.0 * 1500.0;
  EXPECT_NEAR(term(w, "failures"), base / (1 - phi) - base, 1e-6);
  EXPECT_NEAR(w.expected_failures, 0.02 / 3600.0 * base / (1 - phi), 1e-12);
  EXPECT_DOUBLE_EQ(term(w, "spot_interruptions"), 0);
  EXPECT_DOUBLE_EQ(term(w, "queue"), 3600);
  EXPECT_NEAR(w.total_s, sum(w.terms), 1e-9);
  EXPECT_NEAR(w.billed_s, w.total_s - 3600, 1e-9);
}

TEST(CostWallTime, CompileCacheAndShortRunWarmup) {
  CostInputs in = bare();
  in.compile.first_s = 400;
  in.compile.recompile_s = 100;
  in.compile.shapes = 4;
  in.compile.cache_hit = 0.75;
  EXPECT_DOUBLE_EQ(term(tc::wall_time(in, job(1, 10, 1), gpu(), 0, 1, false), "compile"), 700);
  EXPECT_DOUBLE_EQ(term(tc::wall_time(in, job(1, 10, 1), gpu(), 0, 1, true), "compile"), 175);
  // A 10 s run inside a 60 s warm-up at 25%: 40 s instead of 10.
  in.warmup.minutes = 1;
  in.warmup.throughput = 0.25;
  EXPECT_DOUBLE_EQ(term(tc::wall_time(in, job(1, 10, 1), gpu(), 0), "warmup"), 30);
}

TEST(CostWallTime, YoungDalyInterval) {
  CostInputs in = bare();
  in.failures.per_node_hour = 0.001;
  in.checkpoint.write_gb_per_s = 1;
  JobPerf j = job(10, 1000, 10);
  j.checkpoint_bytes = 50e9;  // 50 s per write
  const tc::WallTime w = tc::wall_time(in, j, gpu(), 0);
  // tau = sqrt(2 delta M), M = 3600 / (0.001 x 10) s
  EXPECT_NEAR(w.checkpoint_interval_s, std::sqrt(2 * 50.0 * 3600.0 / 0.01), 1e-6);
}

TEST(CostWallTime, MoreFailuresLongerWallTime) {
  CostInputs in;
  JobPerf j = job(16, 10000, 5);
  j.checkpoint_bytes = 1e12;
  double last = 0;
  for (double rate : {0.0, 1e-4, 1e-3, 5e-3}) {
    in.failures.per_node_hour = rate;
    const double t = tc::wall_time(in, j, gpu(), 0).total_s;
    EXPECT_GT(t, last);
    last = t;
  }
  in.failures.per_node_hour = 10;  // more restarts than progress
  EXPECT_THROW(tc::wall_time(in, j, gpu(), 0), tc::CostError);
}

// A LoRA job's checkpoints hold its adapters; the frozen base they adapt is stored once beside
// them, for the campaign and its retention.
TEST(CostBill, ALoraJobStoresItsFrozenBaseOnce) {
  CostInputs in = bare();
  in.storage.dataset_gb = 1000;
  in.storage.retention_days = 730.0 / 24;  // one 730-hour month
  JobPerf j = job(2, 3600, 1);
  const double without = item(tc::evaluate_cost(in, j, simple(), gpu()).bill, "storage.s3_standard");
  j.frozen_weights_bytes = 16e9;
  const double with = item(tc::evaluate_cost(in, j, simple(), gpu()).bill, "storage.s3_standard");
  EXPECT_NEAR(with - without, 16 * 0.023 * (1.0 / 730 + 1), 1e-9);
}

TEST(CostBill, HandWorkedComponents) {
  CostInputs in = bare();
  in.pricing.mix = {tc::TierShare{"on_demand", 0.5, 0, "", {}, {}},
                    tc::TierShare{"reserved_3y", 0.5, 0, "", {}, {}}};
  in.storage.dataset_gb = 1000;
  in.storage.retention_days = 730.0 / 24;  // one 730-hour month
  in.transfer.cross_region_copies = 2;
  in.transfer.egress_gb = 600;             // 100 GB free, 500 GB at $0.09
  in.engineering.person_weeks = 2;
  in.engineering.usd_per_week = 5000;
  in.engineering.spread_runs = 10;
  const JobPerf j = job(2, 3600, 1);  // one hour on 2 nodes: 2 instance-hours
  const tc::CostResult r = tc::evaluate_cost(in, j, simple(), gpu());
  const tc::Bill& b = r.bill;
  EXPECT_TRUE(b.priced);
  EXPECT_NEAR(b.instance_hours, 2, 1e-12);
  EXPECT_NEAR(item(b, "instance.on_demand"), 1 * 10, 1e-9);
  EXPECT_NEAR(item(b, "instance.reserved_3y"), 1 * 4, 1e-9);
  // 1000 GB x $0.023 x (1 h / 730 h + 1 month retained)
  EXPECT_NEAR(item(b, "storage.s3_standard"), 1000 * 0.023 * (1.0 / 730 + 1), 1e-9);
  EXPECT_NEAR(item(b, "transfer.cross_region"), 2 * 1000 * 0.02, 1e-9);
  EXPECT_NEAR(item(b, "transfer.egress"), 500 * 0.09, 1e-9);
  EXPECT_NEAR(item(b, "engineering"), 10000.0 / 10, 1e-9);
  // The 3-year reservation holds ceil(2 x 0.5) = 1 instance for 26,280 h at $4/h whatever the job
  // uses: its 1 h is $4 of $105,120; the rest is on the bill as idle.
  EXPECT_NEAR(item(b, "instance.reserved_3y.idle"), 26280 * 4 - 4, 1e-6);
  EXPECT_NEAR(b.total_usd, sum(b.items_usd), 1e-9);
  const double idle = 26280 * 4 - 4;
  EXPECT_NEAR(b.total_usd, 14 + idle + 1000 * 0.023 * (1.0 / 730 + 1) + 40 + 45 + 1000, 1e-6);
  EXPECT_TRUE(contains(joined(b.warnings), "commits $105 k; this campaign uses $4 of it")) << joined(b.warnings);
  EXPECT_NEAR(sum(b.instance_usd_by_term), 14 + idle, 1e-6);
  EXPECT_NEAR(b.usd_per_million_tokens, b.total_usd / (3600 * 1e6 / 1e6), 1e-9);
  EXPECT_NEAR(b.compute_usd_per_million_tokens, (14.0 + idle) / 3600, 1e-9);
  // Shared with other work, the job pays only its hours, and the bill says who pays the rest.
  in.pricing.idle_commitment = tc::IdleCommitment::share;
  const tc::Bill s = tc::evaluate_cost(in, j, simple(), gpu()).bill;
  EXPECT_EQ(item(s, "instance.reserved_3y.idle"), -1);
  EXPECT_NEAR(s.total_usd, 14 + 1000 * 0.023 * (1.0 / 730 + 1) + 40 + 45 + 1000, 1e-9);
  EXPECT_TRUE(contains(joined(s.warnings), "is NOT on this bill")) << joined(s.warnings);
  // Energy: 2 nodes x (8 x 700 + 1600) W x 1 h x PUE 1.15
  EXPECT_TRUE(b.energy_known);
  EXPECT_NEAR(b.energy_kwh, 2 * 7.2 * 1.15, 1e-9);
  EXPECT_NEAR(b.co2e_kg, b.energy_kwh * 0.37, 1e-9);
}

TEST(CostBill, SpotCheaperThanOnDemandDespiteInterruptions) {
  CostInputs od;
  od.services = tc_test::hand_services();
  CostInputs spot = od;
  spot.pricing.mix = {tc::TierShare{"spot", 1.0, 0, "", {}, {}}};
  spot.spot.interruptions_per_hour = 0.01;
  JobPerf j = job(8, 20000, 3);
  j.checkpoint_bytes = 2e12;
  const auto a = tc::evaluate_cost(od, j, simple(), gpu());
  const auto b = tc::evaluate_cost(spot, j, simple(), gpu());
  EXPECT_GT(b.wall.total_s, a.wall.total_s);  // interruptions cost time ...
  EXPECT_GT(b.wall.expected_spot_interruptions, 0);
  EXPECT_LT(b.bill.total_usd, a.bill.total_usd);  // ... but 60% off pays for it
  EXPECT_NEAR(b.bill.tiers[0].usd_per_hour, 4.0, 1e-12);
}

TEST(CostBill, InstanceCountMix) {
  CostInputs in = bare();
  in.pricing.mix_by = tc::MixBy::instances;
  in.pricing.mix = {tc::TierShare{"reserved_3y", 0, 48, "", {}, {}}, tc::TierShare{"spot", 0, 16, "", {}, {}}};
  const auto r = tc::evaluate_cost(in, job(64, 3600, 1), simple(), gpu());
  EXPECT_NEAR(item(r.bill, "instance.reserved_3y"), 48 * 4.0, 1e-9);
  EXPECT_NEAR(item(r.bill, "instance.spot"), 16 * 4.0, 1e-9);
  // Counts that do not add up to the nodes bill in proportion, with a warning.
  in.pricing.mix[1].instances = 16;
  const auto w = tc::evaluate_cost(in, job(48, 3600, 1), simple(), gpu());
  EXPECT_NEAR(item(w.bill, "instance.reserved_3y"), 48 * 0.75 * 4.0, 1e-9);
  EXPECT_NEAR(item(w.bill, "instance.spot"), 48 * 0.25 * 4.0, 1e-9);
  EXPECT_TRUE(contains(joined(w.warnings), "instance counts sum to 64, not the job's 48 nodes")) << joined(w.warnings);
}

TEST(CostBill, NoPublicPriceIsNeverInvented) {
  CostInputs in = bare();
  in.pricing.region_given = true;  // us-east-1, where trn2.48xlarge is not sold
  const auto r = tc::evaluate_cost(in, job(4, 3600, 1), trn2(), trainium2());
  EXPECT_FALSE(r.bill.priced);
  ASSERT_EQ(r.bill.unpriced.size(), 1u);
  EXPECT_TRUE(contains(r.bill.unpriced[0], "no public on_demand price in us-east-1")) << r.bill.unpriced[0];
  EXPECT_TRUE(contains(r.bill.unpriced[0], "capacity_block $35.76")) << r.bill.unpriced[0];
  EXPECT_EQ(item(r.bill, "instance.on_demand"), -1);
  const Json j = [&] {
    Json x = Json::object();
    tc::io::CostReport rep;
    rep.result = r;
    tc::io::add_cost_json(x, rep);
    return x;
  }();
  EXPECT_TRUE(j["cost_usd"]["total"].is_null());
  EXPECT_TRUE(j["usd_per_million_tokens"].is_null());

  // In us-east-1 trn2 has no price at all, and the bill says where it has one.
  CostInputs def;
  def.failures.per_node_hour = 0;
  def.pricing.region_given = true;
  const auto e1 = tc::evaluate_cost(def, job(4, 3600, 1), trn2(), trainium2());
  EXPECT_FALSE(e1.bill.priced);
  EXPECT_TRUE(contains(joined(e1.bill.unpriced), "capacity_block price in us-east-1 (it has one in us-east-2"))
      << joined(e1.bill.unpriced);
  // Left at the default region, trn2 is priced where it is sold, and the bill says so.
  def.pricing.region_given = false;
  const auto moved = tc::evaluate_cost(def, job(4, 3600, 1), trn2(), trainium2());
  EXPECT_TRUE(moved.bill.priced);
  EXPECT_EQ(moved.bill.region, "us-east-2");
  EXPECT_TRUE(contains(joined(moved.warnings), "has no price in us-east-1 (the default region); priced in us-east-2"))
      << joined(moved.warnings);
  // In us-east-2 the default pricing falls back to the Capacity Block rate and says so.
  def.pricing.region_given = true;
  def.pricing.instance_regions = {{"trn2.48xlarge", "us-east-2"}};
  const auto d = tc::evaluate_cost(def, job(4, 3600, 1), trn2(), trainium2());
  EXPECT_TRUE(d.bill.priced);
  EXPECT_GT(item(d.bill, "instance.capacity_block"), 0);
  EXPECT_TRUE(contains(joined(d.warnings), "no public on_demand price")) << joined(d.warnings);
  EXPECT_TRUE(contains(joined(d.warnings), "pricing mix, entry 1: ")) << joined(d.warnings);
  EXPECT_TRUE(contains(joined(d.warnings), "at Capacity Block $35.76")) << joined(d.warnings);

  // Spot on an instance with no spot offering and no on-demand price.
  in.pricing.mix = {tc::TierShare{"spot", 1.0, 0, "", {}, {}}};
  const auto s = tc::evaluate_cost(in, job(4, 3600, 1), trn2(), trainium2());
  EXPECT_FALSE(s.bill.priced);
  EXPECT_TRUE(contains(joined(s.bill.unpriced), "not offered as spot")) << joined(s.bill.unpriced);
}

TEST(CostBill, CampaignOfTruncatedRuns) {
  CostInputs in = bare();
  in.compile.first_s = 600;
  in.compile.cache_hit = 0.5;
  in.campaign.runs = 10;
  in.campaign.full_runs = 2;
  in.campaign.truncated_fraction = 1.0 / 3;
  in.campaign.runs_per_month = 5;
  const auto r = tc::evaluate_cost(in, job(1, 3000, 1), simple(), gpu());
  // training: 2 full runs + 8 at a third; compile: 600 once, then 300 for 9 runs
  const double seconds = 2 * 3000 + 8 * 1000 + 600 + 9 * 300;
  EXPECT_NEAR(r.bill.instance_hours, seconds / 3600, 1e-9);
  EXPECT_NEAR(r.bill.run_equivalents, 2 + 8.0 / 3, 1e-12);
  EXPECT_NEAR(r.bill.usd_per_run, r.bill.total_usd / 10, 1e-9);
  EXPECT_NEAR(r.bill.usd_per_month, r.bill.total_usd / 10 * 5, 1e-9);
  EXPECT_NEAR(r.bill.campaign_months, 2, 1e-12);  // 10 runs at 5 a month
  EXPECT_NEAR(r.wall.total_s, 3000 + 600, 1e-9);  // one full run, compiling in full
}

TEST(CostBill, MoreNodesNeverBelowComputeOnlyBound) {
  // A fixed job (1e21 model FLOPs) on 1 to 64 nodes whose efficiency falls with scale.
  CostInputs in = bare();
  const double flops = 1e21;
  for (int nodes : {1, 2, 4, 8, 16, 32, 64}) {
    JobPerf j = job(nodes, 1000, 0);
    j.model_flops_per_step = flops / 1000;
    const double eff = 0.5 / (1 + 0.05 * nodes);
    j.step_time_s = j.model_flops_per_step / (j.chips * 989.4e12 * eff);
    const auto r = tc::evaluate_cost(in, j, simple(), gpu());
    const double bound = flops / (8 * 989.4e12) / 3600 * 10;  // instance-hours at 100% x $10
    EXPECT_NEAR(r.bill.compute_only_bound_usd, bound, 1e-9 * bound);
    EXPECT_GE(item(r.bill, "instance.on_demand"), bound);
  }
}

TEST(CostBill, OwnedClusterHandWorked) {
  CostInputs in = bare();
  in.owned.enabled = true;
  in.owned.nodes = 2;
  in.owned.capex_usd_per_node = 100000;
  in.owned.depreciation_years = 4;
  in.owned.utilization = 0.5;
  in.owned.node_power_w = 1000;
  in.owned.idle_power_fraction = 0;
  in.owned.pue = 1.5;
  in.owned.usd_per_kwh = 0.1;
  in.owned.staff_usd_per_year = 10000;
  in.owned.horizon_years = 3;
  const auto r = tc::evaluate_cost(in, job(2, 8760 * 0.5 * 3600 / 10, 1), simple(), gpu());  // 1/10 of a busy year
  ASSERT_TRUE(r.owned);
  const tc::Bill& o = *r.owned;
  const double energy_y = 2 * 1.0 * 1.5 * 8760 * 0.5 * 0.1;
  EXPECT_NEAR(o.usd_per_year, 50000 + energy_y + 10000, 1e-6);
  EXPECT_NEAR(o.tco_usd_horizon, 3 * o.usd_per_year, 1e-6);
  EXPECT_NEAR(item(o, "owned.depreciation"), 5000, 1e-6);
  EXPECT_NEAR(item(o, "owned.energy"), energy_y / 10, 1e-6);
  EXPECT_NEAR(item(o, "owned.staff"), 1000, 1e-6);
  EXPECT_NEAR(o.total_usd, sum(o.items_usd), 1e-9);
  EXPECT_NEAR(o.energy_kwh, 2 * 1.0 * 8760 * 0.5 / 10 * 1.5, 1e-6);
  // Not for another instance.
  in.owned.instance_id = "other";
  EXPECT_FALSE(tc::evaluate_cost(in, job(2, 100, 1), simple(), gpu()).owned);
}

TEST(CostBill, BaselineSavingAndPayback) {
  CostInputs in = bare();
  in.engineering.person_weeks = 4;
  in.engineering.usd_per_week = 5000;
  in.campaign.runs = 2;
  in.campaign.runs_per_month = 2;
  Instance cheap = simple();
  cheap.prices = {price("on_demand", 6)};
  const auto mine = tc::evaluate_cost(in, job(1, 36000, 1), cheap, gpu());           // $60 a run
  const auto base = tc::evaluate_cost(tc::baseline_inputs(in), job(1, 36000, 1), simple(), gpu());  // $100
  EXPECT_EQ(base.bill.engineering_usd, 0);
  const auto c = tc::compare_with_baseline(in, mine.bill, base.bill);
  EXPECT_NEAR(c.saving_usd_per_run, 40, 1e-9);
  EXPECT_NEAR(c.saving_fraction, 0.4, 1e-12);
  EXPECT_NEAR(c.saving_usd_per_month, 80, 1e-9);
  ASSERT_TRUE(c.payback_months);
  EXPECT_NEAR(*c.payback_months, 20000.0 / 80, 1e-9);
}

TEST(CostBill, Deadline) {
  CostInputs in = bare();
  in.deadline_days = 1;
  EXPECT_TRUE(tc::evaluate_cost(in, job(1, 3600, 20), simple(), gpu()).deadline->meets);
  EXPECT_FALSE(tc::evaluate_cost(in, job(1, 3600, 30), simple(), gpu()).deadline->meets);
}

// ---- scenario JSON --------------------------------------------------------------------------

std::string parse_error(const std::string& text) {
  try {
    tc::io::parse_cost_inputs(Json::parse(text));
    tc::io::parse_claims(Json::parse(text));
  } catch (const tc::io::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CostJson, RejectsBadInputNamingTheField) {
  EXPECT_EQ(parse_error(R"({"pricing": {"mix": [{"tier": "on_demand", "fraction": 0.1},
                                                  {"tier": "spot", "fraction": 0.8}]}})"),
            "pricing.mix: fractions sum to 0.9, not 1");
  EXPECT_TRUE(contains(parse_error(R"({"pricing": {"tier": "custom", "usd_per_hour": -1}})"),
                       "pricing.usd_per_hour: must be >= 0"));
  EXPECT_TRUE(contains(parse_error(R"({"overheads": {"failures": {"per_node_hour": -0.1}}})"),
                       "overheads.failures.per_node_hour"));
  EXPECT_TRUE(contains(parse_error(R"({"overheads": {"spot": {"interruptions_per_hour": "nan"}}})"),
                       "overheads.spot.interruptions_per_hour: must be a number"));
  EXPECT_TRUE(contains(parse_error(R"({"pricing": {"tier": "ondemand"}})"), "pricing.tier"));
  EXPECT_TRUE(contains(parse_error(R"({"campaign": {"runs": 2, "full_runs": 3}})"), "campaign.full_runs"));
  EXPECT_TRUE(contains(parse_error(R"({"overheads": {"storag": {}}})"), "overheads.storag: unknown key"));
  EXPECT_TRUE(contains(parse_error(R"({"pricing": {"mix": [{"tier": "spot", "fraction": 0.5},
                                                           {"tier": "on_demand", "instances": 3}]}})"),
                       "pricing.mix[1]"));
  EXPECT_TRUE(contains(parse_error(R"({"claims": [{"usd_per_hour": 0}]})"), "claims[0].usd_per_hour"));
  EXPECT_EQ(parse_error(R"({"pricing": {"mix": [{"tier": "reserved_3y", "instances": 48, "fallback": "capacity_block"},
                                               {"tier": "spot", "instances": 16}]},
                           "overheads": {"checkpoint": {"interval_min": "auto"}}})"),
            "");
}

// Issue 12: each claimed figure has a plausible bound (the schema table's claims[] rows): a typo
// of 1e15 is an error naming the field and its maximum; an overstated but possible-looking figure
// still reads, for the checker to judge.
TEST(CostJson, ClaimFiguresHavePlausibleBounds) {
  const std::pair<const char*, double> bounds[] = {
      {"wall_time_days", 3650}, {"wall_time_hours", 3650 * 24}, {"wall_time_s", 3650 * 86400.0},
      {"bill_usd", 1e11},       {"usd_per_hour", 1e5},          {"tflops_per_chip", 1e5},
      {"peak_tflops", 1e5},     {"mfu", 10},                    {"tokens_per_s", 1e10},
      {"training_flops", 1e30}, {"hbm_gb_per_chip", 1e4},       {"hbm_gb_per_node", 1e6},
      {"hbm_tb_per_s", 1e3},    {"link_gb_per_s", 1e5},         {"network_gbps", 1e6},
      {"runs", 1e6}};
  for (const auto& [field, max] : bounds) {
    SCOPED_TRACE(field);
    const Json at_max = {{"claims", {{{field, max}}}}};
    EXPECT_EQ(parse_error(at_max.dump()), "");
    const Json typo = {{"claims", {{{field, 1e15 * max}}}}};
    const std::string msg = parse_error(typo.dump());
    EXPECT_EQ(msg.rfind(std::string("claims[0].") + field + ": must be", 0), 0u) << msg;
    EXPECT_TRUE(contains(msg, tc::io::format_number(max))) << msg;
  }
  // The same bounds hold in a claim's parts and its collective.
  EXPECT_TRUE(contains(parse_error(R"({"claims": [{"parts": [{"tflops_per_chip": 1e15}]}]})"),
                       "claims[0].parts[0].tflops_per_chip"));
  EXPECT_TRUE(contains(parse_error(R"({"claims": [{"collective": {"bytes": 1e20, "time_s": 1}}]})"),
                       "claims[0].collective.bytes"));
  EXPECT_TRUE(contains(parse_error(R"({"claims": [{"chips_per_node": 100000}]})"), "claims[0].chips_per_node"));
  // A floor under what the checker divides by: a wall time of 1e-300 s would imply 1e303 MFU.
  EXPECT_TRUE(contains(parse_error(R"({"claims": [{"wall_time_s": 1e-300}]})"), "claims[0].wall_time_s: must be"));
  EXPECT_TRUE(contains(parse_error(R"({"claims": [{"collective": {"bytes": 1e9, "time_s": 1e-300}}]})"),
                       "claims[0].collective.time_s: must be"));
  // An impossible but well-formed figure reads: 200% MFU is the checker's to call impossible.
  EXPECT_EQ(parse_error(R"({"claims": [{"mfu": 2, "tflops_per_chip": 5000}]})"), "");
}

TEST(CostJson, ResultJsonSumsAndNames) {
  CostInputs in;
  in.services = tc_test::hand_services();
  in.storage.dataset_gb = 500;
  JobPerf j = job(4, 10000, 2);
  j.checkpoint_bytes = 5e11;
  tc::io::CostReport rep;
  rep.result = tc::evaluate_cost(in, j, p5(), gpu());
  Json out = {{"warnings", Json::array()}};
  tc::io::add_cost_json(out, rep);
  double s = 0;
  for (auto it = out["cost_usd"].begin(); it != out["cost_usd"].end(); ++it)
    if (it.key() != "total") s += it.value().get<double>();
  EXPECT_NEAR(out["cost_usd"]["total"].get<double>(), s, 1e-9 * s);
  double w = 0;
  for (auto it = out["wall_time_s"].begin(); it != out["wall_time_s"].end(); ++it)
    if (it.key() != "total") w += it.value().get<double>();
  EXPECT_NEAR(out["wall_time_s"]["total"].get<double>(), w, 1e-9 * w);
  for (const char* k : {"training", "compile", "warmup", "checkpoints", "failures", "spot_interruptions", "queue"})
    EXPECT_TRUE(out["wall_time_s"].contains(k)) << k;
  EXPECT_TRUE(out["usd_per_million_tokens"].is_number());
  EXPECT_TRUE(out["energy_kwh"].is_number());
  EXPECT_TRUE(out["co2e_kg"].is_number());
  EXPECT_EQ(out["bill"]["tiers"][0]["date"], "2025-11-30");
}

// ---- claims ---------------------------------------------------------------------------------

struct ClaimFixture : ::testing::Test {
  std::vector<Instance> instances{p5(), trn2(), trn1("trn1.32xlarge", 21.50), trn1("trn1n.32xlarge", 24.78)};
  std::vector<Accelerator> accelerators{gpu(), trainium1(), trainium2()};
  tc::Scenario sc;
  tc::Estimate est;
  void SetUp() override {
    sc.instance = trn2();
    sc.accelerator = trainium2();
    sc.nodes = 64;
    sc.precision = tc::Precision::bf16;
  }
  tc::ClaimCheck check(const tc::Claim& c, const tc::CostResult* cost = nullptr) {
    tc::ClaimContext ctx;
    ctx.scenario = &sc;
    ctx.estimate = est.steps > 0 ? &est : nullptr;
    ctx.cost = cost;
    ctx.instances = &instances;
    ctx.accelerators = &accelerators;
    return tc::check_claim(c, ctx);
  }
};

TEST_F(ClaimFixture, CaseA_Trn2PeakIsTrainium1s) {
  tc::Claim c;
  c.text = "Trn2 148 TFLOPS/chip, 78% of 190 peak";
  c.tflops_per_chip = 148;
  c.peak_tflops = 190;
  c.mfu = 0.78;
  const auto r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);
  EXPECT_TRUE(contains(joined(r.reasons), "trainium1's dense bf16 peak (190)")) << joined(r.reasons);
  EXPECT_TRUE(contains(joined(r.reasons), "not trainium2's dense bf16 peak (667)")) << joined(r.reasons);
}

TEST_F(ClaimFixture, CaseA_H100UtilizationInconsistent) {
  tc::Claim c;
  c.instance_id = "p5.48xlarge";
  c.tflops_per_chip = 250;
  c.mfu = 0.71;
  const auto r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);
  EXPECT_TRUE(contains(joined(r.reasons), "inconsistent")) << joined(r.reasons);
}

TEST_F(ClaimFixture, PriceClaims) {
  tc::Claim c;
  c.instance_id = "p5.48xlarge";
  c.usd_per_hour = 98.32;
  auto r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);
  EXPECT_TRUE(contains(joined(r.reasons), "$55.04/h (us-east-1, 2025-11-30)")) << joined(r.reasons);
  // ...and names where $98.32 comes from: the list price before AWS's June 2025 cut.
  EXPECT_TRUE(contains(joined(r.reasons), "p5.48xlarge on_demand $98.32/h, the list price until 2025-05-31"))
      << joined(r.reasons);

  c.usd_per_hour = 55.04;
  EXPECT_EQ(check(c).verdict, tc::Verdict::ok);

  c.instance_id = "";  // the scenario's trn2.48xlarge
  c.usd_per_hour = 24.48;
  r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);
  EXPECT_TRUE(contains(joined(r.reasons), "no public on_demand price")) << joined(r.reasons);
  EXPECT_TRUE(contains(joined(r.reasons), "matches trn1n.32xlarge on_demand $24.78")) << joined(r.reasons);
}

TEST_F(ClaimFixture, CaseE_BillImplausiblyCheap) {
  tc::Claim c;
  c.text = "500K steps in 11 days 18 hours for $32,147.88";
  c.wall_time_s = (11 * 24 + 18) * 3600.0;
  c.bill_usd = 32147.88;
  // The estimate: 500K steps of 4M tokens x 6 x 33e9 active parameters.
  est.steps = 500000;
  est.model_flops_per_step = 4.194304e6 * 6 * 33e9;
  est.tokens_per_s = 1;
  est.step_time_s = 4.194304e6;
  const auto r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);
  EXPECT_TRUE(contains(joined(r.reasons), "implausibly cheap")) << joined(r.reasons);
  EXPECT_TRUE(contains(joined(r.reasons), "capacity_block $35.76")) << joined(r.reasons);
}

TEST_F(ClaimFixture, WallTimeAboveDensePeakIsImpossible) {
  tc::Claim c;
  c.wall_time_s = 86400;
  c.training_flops = 2 * 86400.0 * 64 * 16 * 667e12;  // twice what the cluster can do in a day
  EXPECT_EQ(check(c).verdict, tc::Verdict::impossible);
  c.training_flops = 0.7 * 86400.0 * 64 * 16 * 667e12;
  EXPECT_EQ(check(c).verdict, tc::Verdict::implausible);
  c.training_flops = 0.4 * 86400.0 * 64 * 16 * 667e12;
  EXPECT_EQ(check(c).verdict, tc::Verdict::ok);
}

TEST_F(ClaimFixture, CaseE_AllReduceFasterThanAnyLink) {
  tc::Claim c;
  c.collective_bytes = 4.35e9;
  c.collective_time_s = 1.2e-3;
  EXPECT_EQ(check(c).verdict, tc::Verdict::impossible);
  c.collective_time_s = 1.2;
  EXPECT_EQ(check(c).verdict, tc::Verdict::ok);
}

TEST_F(ClaimFixture, TextOnlyIsUnchecked) {
  tc::Claim c;
  c.text = "models under 10B parameters are better kept on GPUs";
  EXPECT_EQ(check(c).verdict, tc::Verdict::unchecked);
}

TEST_F(ClaimFixture, ReasonIsSaidFirstAndLeavesItUnchecked) {
  tc::Claim c;
  c.id = "A15";
  c.reason = "used as the input overheads.compile.first_s 380";
  const auto r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::unchecked);
  EXPECT_EQ(r.id, "A15");
  ASSERT_EQ(r.reasons.size(), 1u);
  EXPECT_EQ(r.reasons[0], "not checked: used as the input overheads.compile.first_s 380");
}

double implied(const tc::ClaimCheck& r, const std::string& name) {
  for (const auto& t : r.implied)
    if (t.name == name) return t.value;
  return std::nan("");
}

// Case A's H100 plan: $3.4M for 64 x p5.48xlarge x 42 days at the author's $98.32/h.
TEST_F(ClaimFixture, BillIsRecomputedFromTheAuthorsRateAndTodaysListPrice) {
  tc::Claim c;
  c.instance_id = "p5.48xlarge";
  c.nodes = 64;
  c.wall_time_s = 42 * 86400.0;
  c.bill_usd = 3.4e6;
  c.usd_per_hour = 98.32;
  const auto r = check(c);
  // 64 x 1,008 h = 64,512 instance-hours: x $98.32 = $6,342,819.84; x $55.04 (today) = $3,550,740.48.
  EXPECT_NEAR(implied(r, "bill_at_claimed_rate_usd"), 64512 * 98.32, 1e-6);
  EXPECT_NEAR(implied(r, "bill_at_list_price_usd"), 64512 * 55.04, 1e-6);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);  // the author's own arithmetic does not give $3.4M
  const std::string why = joined(r.reasons);
  EXPECT_TRUE(contains(why, "at the author's own $98.32/h: 64 x 42.0 days = 64512 instance-hours = $6.34 M, not the claimed $3.40 M")) << why;
  EXPECT_TRUE(contains(why, "at today's list price (p5.48xlarge on_demand $55.04/h")) << why;
  EXPECT_TRUE(contains(why, "the list price until 2025-05-31")) << why;  // $98.32 is the old price

  // Case B's ledger on trn2: 19 h x $24.54 + $39.10 = $505.36, as claimed; trn2.48xlarge has no
  // on-demand price, so today's figure is at its Capacity Block rate: 19 x $35.7608 + $39.10.
  tc::Claim b;
  b.nodes = 1;
  b.wall_time_s = 19 * 3600.0;
  b.bill_usd = 505.36;
  b.bill_other_usd = 39.10;
  b.usd_per_hour = 24.54;
  const auto rb = check(b);
  EXPECT_NEAR(implied(rb, "bill_at_claimed_rate_usd"), 505.36, 1e-9);
  EXPECT_NEAR(implied(rb, "bill_at_list_price_usd"), 19 * 35.7608 + 39.10, 1e-9);
  EXPECT_TRUE(contains(joined(rb.reasons), "= $505.36, as claimed")) << joined(rb.reasons);
  EXPECT_TRUE(contains(joined(rb.reasons), "capacity_block $35.76/h")) << joined(rb.reasons);
}

// A bill of several runs: case B's month, 8 runs of 22 h on p5 at $55.04/h is 176 instance-hours.
TEST_F(ClaimFixture, BillOfSeveralRuns) {
  tc::Claim c;
  c.instance_id = "p5.48xlarge";
  c.nodes = 1;
  c.wall_time_s = 22 * 3600.0;
  c.runs = 8;
  c.bill_usd = 176 * 55.04;
  const auto r = check(c);
  EXPECT_NEAR(implied(r, "implied_usd_per_instance_hour"), 55.04, 1e-9);
  EXPECT_EQ(r.verdict, tc::Verdict::ok);
  EXPECT_TRUE(contains(joined(r.reasons), "1 x 22 h x 8 runs = 176 instance-hours")) << joined(r.reasons);
}

TEST_F(ClaimFixture, DatasheetFiguresAgainstThePresets) {
  accelerators[2].hbm_gib = 96;
  sc.accelerator.hbm_gib = 96;
  sc.accelerator.hbm_tb_per_s = 2.9;
  tc::Claim ok;  // case B: 96 GB per Trainium2, 16 chips, 1.5 TB (= 16 x 96 GiB) per node
  ok.chips_per_node = 16;
  ok.hbm_gb_per_chip = 96;
  ok.hbm_gb_per_node = 1536;
  ok.network_gbps = 3200;
  ok.link_gb_per_s = 2048;  // both directions of the fixture's 1,024 GB/s
  const auto r = check(ok);
  EXPECT_EQ(r.verdict, tc::Verdict::ok) << joined(r.reasons);
  EXPECT_EQ(r.reasons.size(), 5u);
  tc::Claim bad;  // case A: 512 GB shared by the node; case C: 8 chips; 1 TB/s
  bad.hbm_gb_per_node = 512;
  bad.chips_per_node = 8;
  bad.hbm_tb_per_s = 1.0;
  const auto rb = check(bad);
  EXPECT_EQ(rb.verdict, tc::Verdict::implausible);
  const std::string why = joined(rb.reasons);
  EXPECT_TRUE(contains(why, "HBM per node of trn2.48xlarge 512 is not the preset's (1536 GiB")) << why;
  EXPECT_TRUE(contains(why, "chips per node 8 is not the preset's (16 chips)")) << why;
  EXPECT_TRUE(contains(why, "HBM bandwidth (TB/s) of trainium2 (trn2.48xlarge) 1 is not the preset's (2.9 TB/s)")) << why;
}

TEST_F(ClaimFixture, AnotherWorkloadDoesNotUseTheEstimate) {
  est.steps = 1000;
  est.model_flops_per_step = 1e18;  // 1e21 FLOPs a run
  tc::Claim c;
  c.wall_time_s = 3600;
  EXPECT_FALSE(std::isnan(implied(check(c), "implied_mfu")));
  c.other_workload = true;  // ViT-B beside a ViT-L scenario: the estimate's FLOPs are not its own
  const auto r = check(c);
  EXPECT_TRUE(std::isnan(implied(r, "implied_mfu")));
  EXPECT_TRUE(contains(joined(r.reasons), "no FLOP count for the run")) << joined(r.reasons);
}

TEST_F(ClaimFixture, PartsAreCheckedEachAndTheWorstVerdictIsTheClaims) {
  tc::Claim c;
  c.text = "two prices";
  tc::Claim a;
  a.text = "p5 today";
  a.instance_id = "p5.48xlarge";
  a.usd_per_hour = 55.04;
  tc::Claim b = a;
  b.text = "p5 before";
  b.usd_per_hour = 98.32;
  c.parts = {a, b};
  const auto r = check(c);
  EXPECT_EQ(r.verdict, tc::Verdict::implausible);
  ASSERT_EQ(r.reasons.size(), 2u);  // no "nothing in this claim" line for the parent
  EXPECT_TRUE(contains(r.reasons[0], "p5 today: $55.04/h matches the list price")) << r.reasons[0];
  EXPECT_TRUE(contains(r.reasons[1], "p5 before: $98.32/h is not the list price")) << r.reasons[1];
}

TEST(ClaimCounts, CountedAndDescribed) {
  std::vector<tc::ClaimCheck> v(4);
  v[0].verdict = tc::Verdict::ok;
  v[1].verdict = tc::Verdict::implausible;
  v[2].verdict = tc::Verdict::implausible;
  const tc::VerdictCounts n = tc::count_verdicts(v);
  EXPECT_EQ(n.ok, 1);
  EXPECT_EQ(n.implausible, 2);
  EXPECT_EQ(n.impossible, 0);
  EXPECT_EQ(n.unchecked, 1);
  EXPECT_EQ(tc::describe(n), "4 claims: 1 ok, 2 implausible, 0 impossible, 1 unchecked");
}

TEST(CostJson, ClaimIdsAreValidatedAndUnique) {
  auto claims = [](const std::string& arr) { return parse_error(R"({"claims": )" + arr + "}"); };
  EXPECT_EQ(claims(R"([{"id": "A1"}, {"id": "A12"}, {"id": "ABC9999"}, {}])"), "");
  EXPECT_EQ(claims(R"([{"id": ""}])"), "claims[0].id: must not be empty");
  for (const std::string bad : {"a12", "A012", "A", "12", "A1b", "ABCD1", "A 1", "A-1"}) {
    const std::string e = claims(R"([{"id": ")" + bad + R"("}])");
    EXPECT_TRUE(contains(e, "claims[0].id: '" + bad + "' is not a claim id")) << bad << ": " << e;
  }
  EXPECT_EQ(claims(R"([{"id": "B3"}, {"id": "B4"}, {"id": "B3"}])"),
            "claims[2].id: duplicate claim id 'B3' (also claims[0].id)");
  EXPECT_TRUE(contains(claims(R"([{"id": 12}])"), "claims[0].id"));
  EXPECT_TRUE(contains(claims(R"([{"runs": 0}])"), "claims[0].runs"));
}

TEST(CostJson, ClaimPartsTakeTheClaimsInstanceNodesAndTime) {
  const auto v = tc::io::parse_claims(Json::parse(R"({"claims": [{"id": "E18", "instance": "trn2.48xlarge",
      "nodes": 64, "wall_time_hours": 282, "parts": [{"bill_usd": 28400}, {"bill_usd": 35000, "nodes": 48},
      {"wall_time_days": 2, "instance": "p5.48xlarge"}]}]})"));
  ASSERT_EQ(v.size(), 1u);
  const tc::Claim& c = v[0];
  EXPECT_EQ(c.id, "E18");
  EXPECT_FALSE(c.wall_time_s);  // the claim's own figures are its parts'
  ASSERT_EQ(c.parts.size(), 3u);
  EXPECT_EQ(c.parts[0].instance_id, "trn2.48xlarge");
  EXPECT_EQ(*c.parts[0].nodes, 64);
  EXPECT_DOUBLE_EQ(*c.parts[0].wall_time_s, 282 * 3600.0);
  EXPECT_EQ(*c.parts[1].nodes, 48);
  EXPECT_DOUBLE_EQ(*c.parts[2].wall_time_s, 2 * 86400.0);  // its own time replaces the claim's
  EXPECT_EQ(c.parts[2].instance_id, "p5.48xlarge");
  auto err = [](const std::string& claim) { return parse_error(R"({"claims": [)" + claim + "]}"); };
  EXPECT_EQ(err(R"({"bill_usd": 1, "parts": [{"bill_usd": 2}]})"),
            "claims[0].bill_usd: a claim with parts gives its figures in the parts");
  EXPECT_TRUE(contains(err(R"({"parts": [{"id": "A1"}]})"), "claims[0].parts[0]"));
  EXPECT_TRUE(contains(err(R"({"parts": [{"nodes": 0}]})"), "claims[0].parts[0].nodes"));
  EXPECT_TRUE(contains(err(R"({"nodes": -1, "parts": [{}]})"), "claims[0].nodes"));
  EXPECT_TRUE(contains(err(R"({"parts": [{"hbm_gb_per_chip": -96}]})"), "claims[0].parts[0].hbm_gb_per_chip"));
}

// ---- seed scenarios -------------------------------------------------------------------------

TEST(SeedScenarios, CostSectionsAndClaimsParse) {
  int n = 0;
  for (const auto& f : tc::io::embedded_presets()) {
    const std::string path = f.path;
    if (!contains(path, "presets/scenarios/case-")) continue;
    ++n;
    SCOPED_TRACE(path);
    const Json doc = Json::parse(f.contents);
    EXPECT_NO_THROW(tc::io::parse_cost_inputs(doc));
    EXPECT_FALSE(tc::io::parse_claims(doc).empty());
    EXPECT_TRUE(contains(doc.value("source", ""), "seed-cases.md"));
  }
  EXPECT_EQ(n, 5);
}


using tc_test::all_finite;

// Every bill item is the sum of its quantity x rate lines, and every line is quantity x rate.
void expect_lines_add_up(const tc::Bill& b) {
  for (const auto& item : b.items_usd) {
    double s = 0;
    for (const auto& l : b.lines)
      if (l.item == item.name) s += l.usd;
    EXPECT_NEAR(s, item.value, 1e-9 * std::max(1.0, std::abs(item.value))) << item.name;
  }
  for (const auto& l : b.lines) {
    EXPECT_NEAR(l.usd, l.quantity * l.usd_per_unit, 1e-9 * std::max(1.0, std::abs(l.usd))) << l.item;
    EXPECT_FALSE(l.unit.empty()) << l.item;
  }
}

TEST(CostFormat, MoneyIsWrittenOneWay) {
  EXPECT_EQ(tc::format_usd(0.023), "$0.023");
  EXPECT_EQ(tc::format_usd(55.04), "$55.04");
  EXPECT_EQ(tc::format_usd(466.264), "$466.26");
  EXPECT_EQ(tc::format_usd(21100), "$21.1 k");
  EXPECT_EQ(tc::format_usd(466000), "$466 k");
  EXPECT_EQ(tc::format_usd(999600), "$1.00 M");
  EXPECT_EQ(tc::format_usd(1.48e6), "$1.48 M");
  EXPECT_EQ(tc::format_usd(-2.5e9), "-$2.50 B");
  EXPECT_EQ(tc::format_usd(-0.0), "$0");
  EXPECT_EQ(tc::format_usd(std::nan("")), "-");
}

// The claims of the five field reports, numbered as ../shared/reference/seed-cases.md numbers them
// (issue 12): A1-A46, B1-B36, C1-C88, D1-D4, E1-E35, 209 in all. Each case file lists exactly these.
const std::vector<std::pair<std::string, int>> kSeedClaimCounts = {
    {"presets/scenarios/case-a-dense-100b.json", 46}, {"presets/scenarios/case-b-vit-l16.json", 36},
    {"presets/scenarios/case-c-llama3.1-8b-sweep.json", 88}, {"presets/scenarios/case-d-platform-guide.json", 4},
    {"presets/scenarios/case-e-moe-176b.json", 35}};

TEST(SeedScenarios, EachCaseListsExactlyTheReportsClaimIds) {
  int seen = 0, total = 0;
  for (const auto& f : tc::io::embedded_presets()) {
    const std::string path = f.path;
    for (const auto& [file, count] : kSeedClaimCounts) {
      if (file != path) continue;
      ++seen;
      total += count;
      SCOPED_TRACE(path);
      const auto claims = tc::io::parse_claims(Json::parse(f.contents));
      const char letter = static_cast<char>('A' + (file[file.find("case-") + 5] - 'a'));
      ASSERT_EQ(claims.size(), static_cast<size_t>(count));
      for (int i = 0; i < count; ++i) {
        EXPECT_EQ(claims[i].id, std::string(1, letter) + std::to_string(i + 1));
        // A claim the model cannot check says why.
        const tc::Claim& c = claims[i];
        const bool figures = c.wall_time_s || c.bill_usd || c.usd_per_hour || c.tflops_per_chip || c.peak_tflops ||
                             c.mfu || c.tokens_per_s || c.collective_bytes || c.chips_per_node || c.hbm_gb_per_chip ||
                             c.hbm_gb_per_node || c.hbm_tb_per_s || c.link_gb_per_s || c.network_gbps || !c.parts.empty();
        EXPECT_TRUE(figures || !c.reason.empty()) << c.id << " has neither a figure to check nor a reason";
      }
    }
  }
  EXPECT_EQ(seen, 5);
  EXPECT_EQ(total, 209);
}

// Each seed case runs through the whole pipeline with the built-in presets, and every claim's
// verdict is pinned by its id: o ok, i implausible, x impossible, u unchecked (a reason says why).
// Prices are judged against presets/instances.json (the authors' $98.32, $40.96 and $32.77 are the
// list prices before June 2025), peaks and HBM against presets/accelerators.json, times against
// the 60% MFU ceiling of published runs (kPublishedMfuCeiling).
TEST(SeedScenarios, RunAndVerdictsAreStable) {
  const std::map<std::string, char> expected = {
      {"A1", 'u'}, {"A2", 'o'}, {"A3", 'u'}, {"A4", 'x'}, {"A5", 'u'}, {"A6", 'u'}, {"A7", 'u'}, {"A8", 'i'},
      {"A9", 'i'}, {"A10", 'i'}, {"A11", 'i'}, {"A12", 'u'}, {"A13", 'i'}, {"A14", 'u'}, {"A15", 'u'}, {"A16", 'i'},
      {"A17", 'o'}, {"A18", 'u'}, {"A19", 'i'}, {"A20", 'i'}, {"A21", 'u'}, {"A22", 'u'}, {"A23", 'i'}, {"A24", 'u'},
      {"A25", 'i'}, {"A26", 'u'}, {"A27", 'u'}, {"A28", 'o'}, {"A29", 'i'}, {"A30", 'i'}, {"A31", 'i'}, {"A32", 'u'},
      {"A33", 'i'}, {"A34", 'u'}, {"A35", 'u'}, {"A36", 'u'}, {"A37", 'u'}, {"A38", 'u'}, {"A39", 'u'}, {"A40", 'u'},
      {"A41", 'u'}, {"A42", 'u'}, {"A43", 'u'}, {"A44", 'u'}, {"A45", 'u'}, {"A46", 'u'},
      {"B1", 'u'}, {"B2", 'u'}, {"B3", 'u'}, {"B4", 'u'}, {"B5", 'u'}, {"B6", 'o'}, {"B7", 'u'}, {"B8", 'u'},
      {"B9", 'i'}, {"B10", 'i'}, {"B11", 'u'}, {"B12", 'u'}, {"B13", 'u'}, {"B14", 'u'}, {"B15", 'i'}, {"B16", 'i'},
      {"B17", 'i'}, {"B18", 'u'}, {"B19", 'i'}, {"B20", 'u'}, {"B21", 'i'}, {"B22", 'i'}, {"B23", 'u'}, {"B24", 'u'},
      {"B25", 'u'}, {"B26", 'o'}, {"B27", 'o'}, {"B28", 'u'}, {"B29", 'o'}, {"B30", 'u'}, {"B31", 'u'}, {"B32", 'u'},
      {"B33", 'u'}, {"B34", 'u'}, {"B35", 'u'}, {"B36", 'u'},
      {"C1", 'u'}, {"C2", 'u'}, {"C3", 'u'}, {"C4", 'u'}, {"C5", 'u'}, {"C6", 'u'}, {"C7", 'u'}, {"C8", 'i'},
      {"C9", 'o'}, {"C10", 'i'}, {"C11", 'u'}, {"C12", 'u'}, {"C13", 'i'}, {"C14", 'i'}, {"C15", 'i'}, {"C16", 'i'},
      {"C17", 'i'}, {"C18", 'o'}, {"C19", 'i'}, {"C20", 'i'}, {"C21", 'o'}, {"C22", 'x'}, {"C23", 'u'}, {"C24", 'o'},
      {"C25", 'o'}, {"C26", 'o'}, {"C27", 'u'}, {"C28", 'u'}, {"C29", 'u'}, {"C30", 'u'}, {"C31", 'i'}, {"C32", 'i'},
      {"C33", 'u'}, {"C34", 'u'}, {"C35", 'u'}, {"C36", 'u'}, {"C37", 'u'}, {"C38", 'u'}, {"C39", 'u'}, {"C40", 'u'},
      {"C41", 'u'}, {"C42", 'u'}, {"C43", 'u'}, {"C44", 'i'}, {"C45", 'u'}, {"C46", 'u'}, {"C47", 'u'}, {"C48", 'u'},
      {"C49", 'u'}, {"C50", 'o'}, {"C51", 'i'}, {"C52", 'u'}, {"C53", 'u'}, {"C54", 'i'}, {"C55", 'o'}, {"C56", 'u'},
      {"C57", 'u'}, {"C58", 'u'}, {"C59", 'u'}, {"C60", 'u'}, {"C61", 'u'}, {"C62", 'u'}, {"C63", 'u'}, {"C64", 'u'},
      {"C65", 'u'}, {"C66", 'u'}, {"C67", 'u'}, {"C68", 'u'}, {"C69", 'u'}, {"C70", 'u'}, {"C71", 'u'}, {"C72", 'u'},
      {"C73", 'u'}, {"C74", 'u'}, {"C75", 'u'}, {"C76", 'u'}, {"C77", 'u'}, {"C78", 'u'}, {"C79", 'u'}, {"C80", 'u'},
      {"C81", 'u'}, {"C82", 'u'}, {"C83", 'u'}, {"C84", 'u'}, {"C85", 'u'}, {"C86", 'u'}, {"C87", 'u'}, {"C88", 'u'},
      {"D1", 'o'}, {"D2", 'u'}, {"D3", 'u'}, {"D4", 'u'},
      {"E1", 'u'}, {"E2", 'i'}, {"E3", 'x'}, {"E4", 'u'}, {"E5", 'u'}, {"E6", 'u'}, {"E7", 'u'}, {"E8", 'u'},
      {"E9", 'u'}, {"E10", 'u'}, {"E11", 'x'}, {"E12", 'u'}, {"E13", 'u'}, {"E14", 'u'}, {"E15", 'u'}, {"E16", 'u'},
      {"E17", 'i'}, {"E18", 'i'}, {"E19", 'u'}, {"E20", 'u'}, {"E21", 'u'}, {"E22", 'i'}, {"E23", 'i'}, {"E24", 'i'},
      {"E25", 'o'}, {"E26", 'u'}, {"E27", 'x'}, {"E28", 'u'}, {"E29", 'u'}, {"E30", 'u'}, {"E31", 'u'}, {"E32", 'u'},
      {"E33", 'u'}, {"E34", 'u'}, {"E35", 'u'},
  };
  ASSERT_EQ(expected.size(), 209u);
  const tc::io::PresetLibrary lib = tc::io::load_builtin_presets();
  int seen = 0;
  size_t checked = 0;
  for (const auto& f : tc::io::embedded_presets()) {
    const std::string path = f.path;
    if (!contains(path, "presets/scenarios/case-")) continue;
    ++seen;
    SCOPED_TRACE(path);
    const tc::io::Job job = tc::io::parse_job_text(f.contents, lib, path);
    const tc::io::Result res = tc::io::evaluate(job, lib);
    const tc::io::CostReport& rep = tc::io::cost_of(res);
    const Json out = tc::io::result_json(job, res);
    EXPECT_TRUE(all_finite(out));
    EXPECT_GT(out["wall_time_s"]["total"].get<double>(), 0);
    EXPECT_NEAR(out["wall_time_s"]["total"].get<double>(), sum(rep.result.wall.terms), 1e-6);
    ASSERT_TRUE(out["cost_usd"]["total"].is_number()) << "every seed case has a public price";
    EXPECT_NEAR(out["cost_usd"]["total"].get<double>(), sum(rep.result.bill.items_usd), 1e-6);
    expect_lines_add_up(rep.result.bill);
    if (rep.result.owned) expect_lines_add_up(*rep.result.owned);
    EXPECT_GT(out["usd_per_million_tokens"].get<double>(), 0);
    EXPECT_GT(out["energy_kwh"].get<double>(), 0);
    ASSERT_TRUE(out.contains("claims"));
    ASSERT_EQ(out["claims"].size(), rep.claims.size());
    const tc::VerdictCounts n = tc::count_verdicts(rep.claims);
    EXPECT_EQ(out["claim_verdicts"]["ok"].get<int>(), n.ok);
    EXPECT_EQ(out["claim_verdicts"]["unchecked"].get<int>(), n.unchecked);
    for (size_t i = 0; i < rep.claims.size(); ++i) {
      const tc::ClaimCheck& c = rep.claims[i];
      EXPECT_EQ(out["claims"][i]["id"].get<std::string>(), c.id);
      const auto want = expected.find(c.id);
      ASSERT_NE(want, expected.end()) << c.id;
      ++checked;
      const tc::Verdict v = c.verdict;
      const std::string why = c.id + " " + c.text + ": " + tc::to_string(v) + "\n" + joined(c.reasons);
      switch (want->second) {
        case 'o': EXPECT_EQ(v, tc::Verdict::ok) << why; break;
        case 'i': EXPECT_EQ(v, tc::Verdict::implausible) << why; break;
        case 'x': EXPECT_EQ(v, tc::Verdict::impossible) << why; break;
        default: EXPECT_EQ(v, tc::Verdict::unchecked) << why; break;
      }
      if (v == tc::Verdict::unchecked) {
        EXPECT_TRUE(contains(c.reasons.front(), "not checked: ")) << why;
      }
    }
    // The text report names each claim by its id and counts the verdicts.
    const std::string text = tc::io::cost_text(rep);
    EXPECT_TRUE(contains(text, "\n" + tc::describe(n) + "\n")) << path;
    EXPECT_TRUE(contains(text, "\nclaim " + rep.claims.back().id + ": ")) << path;
  }
  EXPECT_EQ(seen, 5);
  EXPECT_EQ(checked, 209u);
}

TEST(SeedScenarios, KeyClaimReasons) {
  const tc::io::PresetLibrary lib = tc::io::load_builtin_presets();
  auto report = [&](const std::string& path) {
    for (const auto& f : tc::io::embedded_presets())
      if (path == f.path) {
        return tc::io::cost_of(tc::io::evaluate(tc::io::parse_job_text(f.contents, lib, path), lib));
      }
    throw std::runtime_error("missing " + path);
  };
  const auto a = report("presets/scenarios/case-a-dense-100b.json");
  std::string all_a;
  for (const auto& c : a.claims) all_a += joined(c.reasons);
  EXPECT_TRUE(contains(all_a, "$98.32/h is not the list price")) << all_a;
  EXPECT_TRUE(contains(all_a, "p5.48xlarge on_demand $55.04/h (us-east-1, 2025-11-30)")) << all_a;
  EXPECT_TRUE(contains(all_a, "it is trainium1's dense bf16 peak (190)")) << all_a;
  // trn2.48xlarge has no public on-demand or spot price: the author's mix falls back, and says so.
  EXPECT_TRUE(contains(joined(a.result.warnings), "no public on_demand price")) << joined(a.result.warnings);
  auto reasons = [](const tc::io::CostReport& r, const std::string& id) {
    for (const auto& c : r.claims)
      if (c.id == id) return joined(c.reasons);
    return std::string("no claim ") + id;
  };
  // A23: the author's own rate does not give the bill: 64 x 42 days x $98.32 = $6.34 M, not $3.4M.
  EXPECT_TRUE(contains(reasons(a, "A23"), "= $6.34 M, not the claimed $3.40 M")) << reasons(a, "A23");
  const auto e = report("presets/scenarios/case-e-moe-176b.json");
  EXPECT_TRUE(contains(reasons(e, "E17"), "implausibly cheap")) << reasons(e, "E17");
  EXPECT_TRUE(contains(reasons(e, "E27"), "GB/s per rank")) << reasons(e, "E27");
  // C22: 10,320 tokens/s per A100 is 495 TFLOPS of an 8B model's ~48 GFLOPs a token: above the
  // A100's 312 TFLOPS dense BF16 peak.
  const auto cc = report("presets/scenarios/case-c-llama3.1-8b-sweep.json");
  EXPECT_TRUE(contains(reasons(cc, "C22"), "above 100% is impossible")) << reasons(cc, "C22");
  // C20: 3 x 14.2 min at $32.77/h = $23.27, the author's $23.3; $32.77 was the list price until 2025-05-31.
  EXPECT_TRUE(contains(reasons(cc, "C20"), "= $23.27, as claimed")) << reasons(cc, "C20");
  EXPECT_TRUE(contains(reasons(cc, "C20"), "the list price until 2025-05-31")) << reasons(cc, "C20");
  // A price or bill matching no public rate says what it was compared with: p4d's 1-year reserved
  // rate is $13.92/h (presets/instances.json), nothing lists $18.62.
  EXPECT_TRUE(contains(reasons(cc, "C16"), "no other tier of p4d.24xlarge, no earlier list price and no reserved_1y "
                                           "price of another instance is within 2% of it")) << reasons(cc, "C16");
  EXPECT_TRUE(contains(reasons(cc, "C20"), "compared with on_demand $21.96, reserved_1y $13.92")) << reasons(cc, "C20");
  // Case B names a baseline: the saving against p4d.24xlarge and the payback are computed.
  const auto b = report("presets/scenarios/case-b-vit-l16.json");
  ASSERT_TRUE(b.baseline);
  EXPECT_EQ(b.baseline->baseline_instance, "p4d.24xlarge");
  ASSERT_TRUE(b.result.deadline);
  EXPECT_TRUE(b.result.deadline->meets);
}

}  // namespace

// ---- commitments as AWS sells them (issue 12; shared/reference/hardware.md 2.4.1-2.4.4) ----------

TEST(Commitments, CapacityBlockDurations) {
  // 1-day steps to 14 days, then 7-day steps to 182 (EC2 API CapacityDurationHours).
  EXPECT_EQ(tc::capacity_block_days(0.1), 1);
  EXPECT_EQ(tc::capacity_block_days(3), 3);
  EXPECT_EQ(tc::capacity_block_days(14), 14);
  EXPECT_EQ(tc::capacity_block_days(14.01), 21);
  EXPECT_EQ(tc::capacity_block_days(176), 182);
  // 3 days of running do not fit a 3-day block: it ends 30 min early (11:00 UTC termination).
  EXPECT_EQ(tc::plan_capacity_blocks(72, 10, false).last_days, 4);
  EXPECT_EQ(tc::plan_capacity_blocks(71.5, 10, false).last_days, 3);
  EXPECT_EQ(tc::plan_capacity_blocks(71.5, 10, true).last_days, 4);  // UltraServers: 60 min
}

TEST(Commitments, ThreeDayJobOnTenP5InCapacityBlocks) {
  CostInputs in = bare();
  in.pricing.mix = {tc::TierShare{"capacity_block", 1.0, 0, "", {}, {}}};
  // 70 h of training on 10 nodes: one 3-day block of 10 instances, paid in full up front.
  const auto r = tc::evaluate_cost(in, job(10, 70, 3600), p5(), gpu());
  const tc::TierLine& t = r.bill.tiers[0];
  EXPECT_NEAR(t.paid_instance_hours, 10 * 3 * 24, 1e-9);
  EXPECT_NEAR(t.committed_usd, 10 * 72 * 41.528, 1e-6);  // $29,900.16
  EXPECT_NEAR(t.usd, 10 * 70 * 41.528, 1e-6);
  EXPECT_NEAR(item(r.bill, "instance.capacity_block.idle"), 10 * 2 * 41.528, 1e-6);
  EXPECT_NEAR(r.bill.total_usd, 29900.16, 1e-6);
  EXPECT_TRUE(contains(t.commitment, "1 block of 10 instances x 3 days")) << t.commitment;
  // A job shorter than a day still pays a day.
  const auto s = tc::evaluate_cost(in, job(10, 1, 3600), p5(), gpu());
  EXPECT_NEAR(s.bill.total_usd, 10 * 24 * 41.528, 1e-6);
}

TEST(Commitments, TwoHundredDayJobOnEightyTrn2Blocks) {
  CostInputs in = bare();
  in.pricing.mix = {tc::TierShare{"capacity_block", 1.0, 0, "", {}, {}}};
  in.pricing.region = "us-east-2";
  in.pricing.region_given = true;
  // 200 days = 4,800 h: a 182-day block holds 4,367.5 h, the 432.5 h left need 433 h = 18.04 days
  // -> 21 days. 80 instances: 2 blocks side by side (64 + 16).
  const auto r = tc::evaluate_cost(in, job(80, 4800, 3600), trn2(), trainium2());
  const tc::TierLine& t = r.bill.tiers[0];
  EXPECT_NEAR(t.paid_instance_hours, 80.0 * (182 + 21) * 24, 1e-6);
  EXPECT_NEAR(t.committed_usd, 80.0 * 203 * 24 * 35.7608, 1e-3);
  EXPECT_TRUE(contains(t.commitment, "2 blocks side by side (1 x 64 + 16 instances)")) << t.commitment;
  EXPECT_TRUE(contains(t.commitment, "1 consecutive x 182 days + 21 days")) << t.commitment;
  EXPECT_NEAR(r.bill.total_usd, t.committed_usd, 1e-6);
}

TEST(Commitments, SevenDayJobOnAOneYearReservedInstance) {
  CostInputs in = bare();
  Instance p = p5();
  p.prices.push_back(price("reserved_1y_convertible", 43.344));
  in.pricing.mix = {tc::TierShare{"reserved_1y_convertible", 1.0, 0, "", {}, {}}};
  // 128 p5 for 7 days: the job uses 128 x 168 h x $43.344 = $932 k of a commitment of
  // 128 x 8,760 h x $43.344 = $48.6 M, which is paid whether used or not.
  const auto r = tc::evaluate_cost(in, job(128, 168, 3600), p, gpu());
  const tc::TierLine& t = r.bill.tiers[0];
  EXPECT_NEAR(t.usd, 128 * 168 * 43.344, 1e-6);
  EXPECT_NEAR(t.committed_usd, 128 * 8760 * 43.344, 1e-3);
  EXPECT_NEAR(r.bill.total_usd, 128 * 8760 * 43.344, 1e-3);
  const std::string w = joined(r.bill.warnings);
  EXPECT_TRUE(contains(w, "commits $48.6 M; this campaign uses $932 k of it (1.92%)")) << w;
  EXPECT_TRUE(contains(w, "52.1 runs a year like this one fill it")) << w;  // 8,760 / 168
  // A campaign longer than the term renews it: 400 days of runs need two 1-year terms.
  in.campaign.runs = 2;
  in.campaign.runs_per_month = 2.0 / (400 * 24 / 730.0);
  const auto two = tc::evaluate_cost(in, job(128, 168, 3600), p, gpu());
  EXPECT_NEAR(two.bill.tiers[0].paid_instance_hours, 128.0 * 2 * 8760, 1e-6);
}

// The idle part of a commitment is on the bill down to half a cent, however large the commitment:
// $10 idle of $48.6 M is billed (a millionth of it, $48.6, had counted as rounding), $0.004 rounds
// to $0.00 and is dropped, $0.006 is billed.
TEST(Commitments, IdleDownToHalfACentIsBilled) {
  CostInputs in = bare();
  Instance p = p5();
  p.prices.push_back(price("reserved_1y_convertible", 43.344));
  in.pricing.mix = {tc::TierShare{"reserved_1y_convertible", 1.0, 0, "", {}, {}}};
  const double nodes = 128, rate_usd = nodes * 43.344;
  for (const double idle_usd : {10.0, 0.004, 0.006}) {
    const auto r = tc::evaluate_cost(in, job(128, 8760 - idle_usd / rate_usd, 3600), p, gpu());
    const tc::TierLine& t = r.bill.tiers[0];
    ASSERT_NEAR(t.committed_usd, 8760 * rate_usd, 1e-6);
    const double billed = idle_usd >= 0.005 ? idle_usd : 0.0;
    EXPECT_NEAR(t.idle_usd, billed, 1e-6) << idle_usd;
    EXPECT_NEAR(item(r.bill, "instance.reserved_1y_convertible.idle"), billed > 0 ? billed : -1, 1e-6) << idle_usd;
    EXPECT_NEAR(r.bill.total_usd, t.usd + billed, 1e-6) << idle_usd;
  }
}

TEST(Commitments, SavingsPlanDiscountIsTheUsersAndCapped) {
  CostInputs in = bare();
  in.pricing.mix = {tc::TierShare{"savings_plan_compute_3y", 1.0, 0, "", {}, 0.5}};
  const auto r = tc::evaluate_cost(in, job(2, 1, 3600), p5(), gpu());
  EXPECT_NEAR(r.bill.tiers[0].usd_per_hour, 55.04 * 0.5, 1e-9);
  EXPECT_NEAR(r.bill.tiers[0].paid_instance_hours, 2 * 3 * 8760.0, 1e-9);
  EXPECT_TRUE(contains(r.bill.tiers[0].source, "AWS publishes only the maximum, 66%")) << r.bill.tiers[0].source;
  in.pricing.mix[0].discount = 0.7;  // above the Compute plan's 66%
  try {
    tc::evaluate_cost(in, job(2, 1, 3600), p5(), gpu());
    FAIL() << "a discount above the published maximum must be rejected";
  } catch (const tc::CostError& e) {
    EXPECT_EQ(std::string(e.field()), "pricing.mix[0].discount");
    EXPECT_TRUE(contains(e.what(), "above the published maximum")) << e.what();
  }
  in.pricing.mix[0].discount.reset();
  EXPECT_THROW(tc::evaluate_cost(in, job(2, 1, 3600), p5(), gpu()), tc::CostError);
  in.pricing.mix = {tc::TierShare{"savings_plan_instance_1y", 1.0, 0, "", {}, 0.72}};
  EXPECT_NO_THROW(tc::evaluate_cost(in, job(2, 1, 3600), p5(), gpu()));
}

TEST(Commitments, SpotRateFromTheAdvisorBandAndItsBreakEven) {
  CostInputs in = bare();
  in.spot.interruptions_per_hour.reset();
  in.checkpoint.interval_min = 60;
  in.spot.restart_min = 30;
  in.pricing.mix = {tc::TierShare{"spot", 1.0, 0, "", {}, {}}};
  Instance p = p5();
  p.spot_advisor = {tc::SpotBand{"us-east-1", 0, 0.57, "2026-09-20", "test"},
                    tc::SpotBand{"sa-east-1", 4, 0, "2025-11-30", "test"}};
  const auto r = tc::evaluate_cost(in, job(8, 100, 3600), p, gpu());
  // <5% a month: -ln(0.95) / 730 per instance-hour; the band's saving sets the price.
  EXPECT_NEAR(r.wall.expected_spot_interruptions / (8 * r.wall.total_s / 3600), -std::log(0.95) / 730, 1e-12);
  EXPECT_NEAR(r.bill.tiers[0].usd_per_hour, 55.04 * 0.43, 1e-9);
  // Break-even: with a fixed interval every interruption costs L = 30 min + 30 min = 3,600 s, so
  // T = base / (1 - rate x 8 x L / 3600); spot at 43% of the price costs what on demand does when
  // 1 - 8 rate = 0.43, rate = 0.57 / 8.
  EXPECT_NEAR(r.bill.tiers[0].break_even_interruptions_per_hour, 0.57 / 8, 1e-6);
  EXPECT_FALSE(contains(joined(r.bill.warnings), "spot costs more")) << joined(r.bill.warnings);
  in.spot.interruptions_per_hour = 0.08;  // above the break-even: the bill says so
  EXPECT_TRUE(contains(joined(tc::evaluate_cost(in, job(8, 100, 3600), p, gpu()).bill.warnings),
                       "spot costs more than on demand"));
  // No band where it is priced: the highest band, said so.
  in.spot.interruptions_per_hour.reset();
  in.pricing.region = "eu-west-2";
  in.pricing.region_given = true;
  p.prices.push_back(price("on_demand", 71.552, "eu-west-2"));
  const auto w = tc::evaluate_cost(in, job(8, 100, 3600), p, gpu());
  EXPECT_TRUE(contains(joined(w.bill.warnings), "publishes no interruption band for p5.48xlarge in eu-west-2"));
  EXPECT_NEAR(w.bill.tiers[0].usd_per_hour, 71.552 * (1 - 0.55), 1e-9);  // the preset's typical discount
}

TEST(Commitments, RegionsPriceAndNeverMixSilently) {
  CostInputs in = bare();
  Instance p = p5();
  p.prices.push_back(price("on_demand", 92.4672, "sa-east-1"));
  in.pricing.region = "sa-east-1";
  in.pricing.region_given = true;
  EXPECT_NEAR(tc::evaluate_cost(in, job(1, 1, 3600), p, gpu()).bill.total_usd, 92.4672, 1e-9);
  in.pricing.region = "eu-central-1";
  in.pricing.region_given = true;
  const auto none = tc::evaluate_cost(in, job(1, 1, 3600), p, gpu());
  EXPECT_FALSE(none.bill.priced);
  EXPECT_TRUE(contains(joined(none.bill.unpriced), "no public on_demand price in eu-central-1 (it has one in "
                                                    "us-east-1, sa-east-1"))
      << joined(none.bill.unpriced);
  // A Local Zone's price belongs to its parent region.
  p.prices = {price("capacity_block", 761.904, "us-east-1-dfw-2a")};
  in.pricing.region = "us-east-1";
  in.pricing.mix = {tc::TierShare{"capacity_block", 1.0, 0, "", {}, {}}};
  EXPECT_TRUE(tc::evaluate_cost(in, job(1, 23, 3600), p, gpu()).bill.priced);
}
