// Issue 12, storage, data and people: storage by service, tiered transfer, incidents as bill lines,
// the owned cluster (residual, financing, break-even) and the text report, with hand-worked
// figures from ../shared/reference/hardware.md sections 2.4.6 and 2.4.7.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "core/cost.hpp"
#include "core/owned_cluster.hpp"
#include "io/cost_json.hpp"
#include "io/embedded.hpp"
#include "io/error.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "service_prices.hpp"
#include "support.hpp"

namespace {

using tc::CostInputs;
using tc::JobPerf;
using tc::io::Json;

using tc_test::contains;

double item(const tc::Bill& b, const std::string& name) {
  for (const auto& t : b.items_usd)
    if (t.name == name) return t.value;
  return 0;
}
double term(const tc::WallTime& w, const std::string& name) {
  for (const auto& t : w.terms)
    if (t.name == name) return t.value;
  return 0;
}

std::string joined_notes(const tc::Bill& b) {
  std::string s;
  for (const auto& n : b.notes) s += n + "\n";
  return s;
}

tc::Accelerator h100() {
  tc::Accelerator a;
  a.id = "h100-sxm";
  a.peak_tflops = {66.9, 494.7, 989.4, 989.4, 1978.9};
  a.power_w = 700;
  return a;
}

tc::PriceTier on_demand(double usd_per_hour, const char* date) {
  tc::PriceTier p;
  p.tier = "on_demand";
  p.price_usd_per_hour = usd_per_hour;
  p.region = "us-east-1";
  p.regions = {"us-east-1"};
  p.date = date;
  p.source = "hand";
  return p;
}

// p5.48xlarge at its us-east-1 on-demand rate, $55.04 per instance-hour (hardware.md 2.5).
tc::Instance p5() {
  tc::Instance i;
  i.id = "p5.48xlarge";
  i.accelerator_id = "h100-sxm";
  i.chips_per_node = 8;
  i.prices = {on_demand(55.04, "2025-11-30")};
  return i;
}

tc::Instance at_rate(double usd_per_hour) {
  tc::Instance i = p5();
  i.id = "test.node";
  i.prices = {on_demand(usd_per_hour, "2026-01-01")};
  return i;
}

// `hours` of training on `nodes`, nothing else: no compile, warm-up, failures, checkpoints.
JobPerf job(int nodes, double hours) {
  JobPerf j;
  j.instance_id = "p5.48xlarge";
  j.accelerator_id = "h100-sxm";
  j.nodes = nodes;
  j.chips_per_node = 8;
  j.chips = nodes * 8;
  j.steps = hours;
  j.step_time_s = 3600;
  j.tokens_per_step = 1e6;
  return j;
}

using tc_test::bare;

// The field a cost section's error names, or "no error".
std::string field_of(const char* text) {
  try {
    tc::io::parse_cost_inputs(Json::parse(text));
  } catch (const tc::io::InputError& e) {
    return e.field();
  }
  return "no error";
}

tc::CostResult run(const CostInputs& in, const JobPerf& j, const tc::Instance& inst = p5()) {
  return tc::evaluate_cost(in, j, inst, h100());
}

// --- storage -------------------------------------------------------------------------------

TEST(Storage, S3StandardTiersByTheGbStoredInAMonth) {
  CostInputs in = bare();
  in.storage.dataset_gb = 600000;
  // Two 730-hour months of running: 600,000 GB a month = 51,200 x $0.023 + 460,800 x $0.022 +
  // 88,000 x $0.021 = $1,177.60 + $10,137.60 + $1,848 = $13,163.20 a month.
  const tc::Bill b = run(in, job(1, 1460)).bill;
  EXPECT_NEAR(item(b, "storage.s3_standard"), 2 * 13163.2, 1e-6);
  int tiers = 0;
  for (const auto& l : b.lines)
    if (l.item == "storage.s3_standard") {
      ++tiers;
      EXPECT_EQ(l.unit, "GB-months");
      EXPECT_NEAR(l.usd, l.quantity * l.usd_per_unit, 1e-9);
    }
  EXPECT_EQ(tiers, 3);
  // Same-region S3 traffic is free: a note, no line.
  ASSERT_FALSE(b.notes.empty());
  EXPECT_TRUE(contains(b.notes[0], "free"));
}

TEST(Storage, PricesOfAnotherRegionThanTheInstancesAreSaid) {
  CostInputs in = bare();
  in.storage.dataset_gb = 100;
  EXPECT_EQ(joined_notes(run(in, job(1, 10)).bill).find("region:"), std::string::npos);
  in.pricing.region = "us-east-2";
  in.pricing.region_given = true;
  in.pricing.mix = {tc::TierShare{"custom", 1.0, 0, "", 10.0, {}}};
  EXPECT_TRUE(contains(joined_notes(run(in, job(1, 10)).bill),
                       "region: storage and transfer are priced at us-east-1 rates (the reference has no others), "
                       "the instances in us-east-2"));
}

TEST(Storage, RetentionInDaysAndTheOlderMonthsFieldAgree) {
  const Json days = Json::parse(R"({"overheads": {"storage": {"dataset_gb": 100, "retention_days": 365}}})");
  const Json months = Json::parse(R"({"overheads": {"storage": {"dataset_gb": 100, "retention_months": 12}}})");
  // 12 months of 730 h = 8,760 h = 365 days.
  EXPECT_NEAR(tc::io::parse_cost_inputs(days).storage.retention_days,
              tc::io::parse_cost_inputs(months).storage.retention_days, 1e-9);
  CostInputs in = bare();
  in.storage.dataset_gb = 100;
  in.storage.retention_days = 365;
  // 100 GB x $0.023 x (1 h / 730 h + 12 months)
  EXPECT_NEAR(item(run(in, job(1, 1)).bill, "storage.s3_standard"), 100 * 0.023 * (1.0 / 730 + 12), 1e-9);
}

TEST(Storage, ExpressOneZoneAtItsOwnRate) {
  CostInputs in = bare();
  in.storage.dataset_gb = 1000;
  in.storage.dataset_service = "s3_express_one_zone";
  // 1,000 GB x $0.11 x 1 month
  EXPECT_NEAR(item(run(in, job(1, 730)).bill, "storage.s3_express_one_zone"), 110, 1e-9);
}

TEST(Storage, ExpressOneZoneBillsTheCheckpointsUploaded) {
  CostInputs in = bare();
  in.checkpoint.kept = 2;
  in.checkpoint.interval_min = 60;
  in.checkpoint.bytes_override = 1e12;  // 1 TB, written at the default 10 GB/s in 100 s
  in.storage.checkpoints_service = "s3_express_one_zone";
  const tc::CostResult r = run(in, job(1, 10));
  // 10 h of training, one checkpoint an hour: 10 x 1,000 GB uploaded at $0.0032 = $32, plus
  // 2 TB stored at $0.11 per GB-month for the campaign's months.
  const double months = r.wall.total_s / 3600 / 730;
  EXPECT_NEAR(item(r.bill, "storage.s3_express_one_zone"), 10000 * 0.0032 + 2000 * 0.11 * months, 1e-6);
}

TEST(Storage, FsxCapacitySetsTheCheckpointBandwidthAndTheBill) {
  CostInputs in = bare();
  in.checkpoint.kept = 2;
  in.checkpoint.interval_min = 60;
  in.checkpoint.bytes_override = 1e12;  // 1 TB
  in.storage.checkpoints_service = "fsx_lustre";
  in.storage.fsx_tier = "persistent_2_1000";
  in.storage.fsx_capacity_tib = 10;
  const tc::CostResult r = run(in, job(1, 730));
  // 10 TiB x 1,000 MB/s per TiB = 10 GB/s: 1 TB in 100 s.
  EXPECT_NEAR(r.wall.checkpoint_write_s, 100, 1e-9);
  // 10 TiB = 10,240 GB provisioned for (730 h + checkpoints) / 730 h months at $0.53.
  const double months = r.wall.total_s / 3600 / 730;
  EXPECT_NEAR(item(r.bill, "storage.fsx_lustre"), 10240 * 0.53 * months, 1e-6);
  // A given bandwidth wins over the file system's.
  in.checkpoint.write_gb_per_s = 1;
  EXPECT_NEAR(run(in, job(1, 730)).wall.checkpoint_write_s, 1000, 1e-9);
}

TEST(Storage, FsxTooSmallNamesTheFieldAndBothFigures) {
  CostInputs in = bare();
  in.checkpoint.kept = 2;
  in.checkpoint.bytes_override = 1e12;
  in.storage.checkpoints_service = "fsx_lustre";
  in.storage.fsx_capacity_tib = 1;  // holds 2 TB = 1.82 TiB
  try {
    run(in, job(1, 10));
    FAIL() << "no error";
  } catch (const tc::CostError& e) {
    EXPECT_EQ(e.field(), "overheads.storage.fsx_capacity_tib");
    EXPECT_TRUE(contains(e.what(), "1 TiB")) << e.what();
    EXPECT_TRUE(contains(e.what(), "1.819 TiB")) << e.what();
  }
}

// --- transfer ------------------------------------------------------------------------------

TEST(Transfer, EgressAcrossTiersAfterTheFree100Gb) {
  CostInputs in = bare();
  in.transfer.egress_gb = 60000;
  // 100 GB free; 10,240 x $0.09 = $921.60; 40,960 x $0.085 = $3,481.60; the last
  // 60,000 - 100 - 10,240 - 40,960 = 8,700 GB x $0.07 = $609: $5,012.20.
  EXPECT_NEAR(item(run(in, job(1, 1)).bill, "transfer.egress"), 5012.2, 1e-6);
  // 200 GB every month for 3 months: 100 GB a month billed at $0.09.
  CostInputs m = bare();
  m.transfer.egress_gb_per_month = 200;
  EXPECT_NEAR(item(run(m, job(1, 3 * 730)).bill, "transfer.egress"), 3 * 100 * 0.09, 1e-9);
  // A flat rate of the scenario bills every GB.
  m.transfer.egress_usd_per_gb = 0.05;
  EXPECT_NEAR(item(run(m, job(1, 3 * 730)).bill, "transfer.egress"), 600 * 0.05, 1e-9);
}

TEST(Transfer, TheSeedsFifteenTerabyteCopy) {
  CostInputs in = bare();
  in.storage.dataset_gb = 15360;
  in.transfer.cross_region_copies = 1;
  // hardware.md 2.4.7: 15,360 GB x $0.02 = $307.20.
  EXPECT_NEAR(item(run(in, job(1, 1)).bill, "transfer.cross_region"), 307.2, 1e-9);
  in.transfer.copy_to_region = "us-east-2";  // $0.01 between us-east-1 and us-east-2
  EXPECT_NEAR(item(run(in, job(1, 1)).bill, "transfer.cross_region"), 153.6, 1e-9);
  in.transfer.cross_region_usd_per_gb = 0.08;  // the rate the seed's $1,200 implies
  EXPECT_NEAR(item(run(in, job(1, 1)).bill, "transfer.cross_region"), 1228.8, 1e-9);
  in.transfer.copy_to_region = "us-east-1";  // not inter-region at all
  const tc::Bill b = run(in, job(1, 1)).bill;
  EXPECT_EQ(item(b, "transfer.cross_region"), 0);
  EXPECT_TRUE(contains(b.notes.back(), "not inter-region"));
}

// --- incidents -----------------------------------------------------------------------------

TEST(Incidents, AnOomOfFourHoursOn64P5AtOnDemand) {
  CostInputs in = bare();
  tc::Incident oom;
  oom.kind = tc::IncidentKind::oom;
  oom.hours = 4;
  in.incidents = {oom};
  const tc::CostResult r = run(in, job(64, 100));
  // 64 nodes x 4 h x $55.04 = $14,090.24, on its own line; the run is 4 h later.
  EXPECT_NEAR(item(r.bill, "incidents.oom"), 14090.24, 1e-6);
  EXPECT_NEAR(item(r.bill, "instance.on_demand"), 64 * 100 * 55.04, 1e-6);
  EXPECT_NEAR(term(r.wall, "incidents"), 4 * 3600, 1e-9);
  EXPECT_NEAR(r.wall.total_s, 104 * 3600, 1e-6);
}

TEST(Incidents, LostDayRegressionAndFailedRuns) {
  CostInputs in = bare();
  tc::Incident day, slow, failed;
  day.kind = tc::IncidentKind::lost_day;  // 24 h of 2 nodes
  slow.kind = tc::IncidentKind::throughput_regression;
  slow.fraction = 0.3;
  slow.days = 10;  // 10 calendar days at 70%: 0.3 x 10 days of work made up
  failed.kind = tc::IncidentKind::failed_runs;
  failed.fraction = 0.1;
  failed.progress = 0.5;  // 10% of runs fail half way: 5% of a run again
  in.incidents = {day, slow, failed};
  in.campaign.runs = 3;
  const tc::CostResult r = run(in, job(2, 100), at_rate(10));
  EXPECT_NEAR(item(r.bill, "incidents.lost_day"), 2 * 24 * 10, 1e-9);
  EXPECT_NEAR(item(r.bill, "incidents.throughput_regression"), 2 * 0.3 * 240 * 10, 1e-9);
  // Three runs of 100 h, each with 5 h of expected reruns, on 2 nodes at $10.
  EXPECT_NEAR(item(r.bill, "reruns.failed_runs"), 3 * 5 * 2 * 10, 1e-9);
  // The named incidents happen once; the instance-hours at the tier mix are the planned ones.
  EXPECT_NEAR(item(r.bill, "instance.on_demand"), 3 * 100 * 2 * 10, 1e-9);
  EXPECT_NEAR(term(r.wall, "incidents"), (24 + 72) * 3600.0, 1e-6);
  EXPECT_NEAR(term(r.wall, "reruns"), 5 * 3600.0, 1e-6);
}

TEST(Incidents, TheirHoursDrawPowerToo) {
  CostInputs in = bare();
  tc::Incident day, slow, failed;
  day.kind = tc::IncidentKind::lost_day;
  slow.kind = tc::IncidentKind::throughput_regression;
  slow.fraction = 0.3;
  slow.days = 10;
  failed.kind = tc::IncidentKind::failed_runs;
  failed.fraction = 0.1;
  failed.progress = 0.5;
  in.incidents = {day, slow, failed};
  in.campaign.runs = 3;
  in.energy.node_power_w = 10000;
  in.energy.cloud_pue = 1.2;
  in.energy.grid_kg_co2e_per_kwh = 0.5;
  const tc::Bill b = run(in, job(2, 100), at_rate(10)).bill;
  // Powered hours: 3 runs x 100 h + 3 x 5 h of reruns + 24 h lost + 0.3 x 240 h made up = 411 h;
  // 2 nodes x 10 kW x 411 h x PUE 1.2 = 9,864 kWh (the planned 300 h alone would be 7,200 kWh).
  ASSERT_TRUE(b.energy_known);
  EXPECT_NEAR(b.energy_kwh, 9864, 1e-6);
  EXPECT_NEAR(b.co2e_kg, 9864 * 0.5, 1e-6);
  // Queueing holds no nodes: it adds wall time, not energy.
  in.queue_hours = 50;
  EXPECT_NEAR(run(in, job(2, 100), at_rate(10)).bill.energy_kwh, 9864, 1e-6);
}

TEST(Incidents, ReadFromTheScenarioAndBadOnesNameTheField) {
  const Json doc = Json::parse(R"({"incidents": [{"kind": "oom", "hours": 4, "note": "A39"},
      {"kind": "throughput_regression", "fraction": 0.3, "days": 5}]})");
  const CostInputs in = tc::io::parse_cost_inputs(doc);
  ASSERT_EQ(in.incidents.size(), 2u);
  EXPECT_EQ(in.incidents[0].note, "A39");
  EXPECT_EQ(field_of(R"({"incidents": [{"kind": "meteor"}]})"), "incidents[0].kind");
  EXPECT_EQ(field_of(R"({"incidents": [{"kind": "oom"}]})"), "incidents[0].hours");
  EXPECT_EQ(field_of(R"({"incidents": [{"kind": "oom", "hours": -4}]})"), "incidents[0].hours");
  EXPECT_EQ(field_of(R"({"incidents": [{"kind": "oom", "hours": 1e9}]})"), "incidents[0].hours");
  EXPECT_EQ(field_of(R"({"incidents": [{"kind": "throughput_regression", "fraction": 1, "days": 2}]})"),
            "incidents[0].fraction");
  EXPECT_EQ(field_of(R"({"incidents": [{"kind": "lost_day", "hours": 2}]})"), "incidents[0].hours");
}

// --- bad input -----------------------------------------------------------------------------

TEST(StorageInput, NegativeOrAbsurdFiguresNameTheField) {
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"retention_days": -1}}})"), "overheads.storage.retention_days");
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"retention_days": 1e6}}})"), "overheads.storage.retention_days");
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"usd_per_gb_month": 230}}})"), "overheads.storage.usd_per_gb_month");
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"dataset_gb": 1e13}}})"), "overheads.storage.dataset_gb");
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"fsx_capacity_tib": 0}}})"), "overheads.storage.fsx_capacity_tib");
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"checkpoints_service": "glacier"}}})"),
            "overheads.storage.checkpoints_service");
  EXPECT_EQ(field_of(R"({"overheads": {"storage": {"retention_days": 1, "retention_months": 1}}})"),
            "overheads.storage.retention_months");
  EXPECT_EQ(field_of(R"({"overheads": {"transfer": {"egress_usd_per_gb": 9000}}})"), "overheads.transfer.egress_usd_per_gb");
  EXPECT_EQ(field_of(R"({"overheads": {"transfer": {"cross_region_usd_per_gb": -0.02}}})"),
            "overheads.transfer.cross_region_usd_per_gb");
  EXPECT_EQ(field_of(R"({"owned_cluster": {"capex_usd_per_node": 1, "residual_fraction": 1}})"),
            "owned_cluster.residual_fraction");
  EXPECT_EQ(field_of(R"({"owned_cluster": {"capex_usd_per_node": 1, "financing_rate": 2}})"),
            "owned_cluster.financing_rate");
}

// --- owned cluster -------------------------------------------------------------------------

TEST(Owned, ResidualAndFinancingOverThreeYears) {
  // $1M of capex, 3-year life to a 20% residual: $800 k of depreciation over 3 years.
  EXPECT_NEAR(tc::depreciation_usd(1e6, 0.2, 3, 3), 800000, 1e-6);
  EXPECT_NEAR(tc::depreciation_usd(1e6, 0.2, 3, 1), 800000.0 / 3, 1e-6);
  EXPECT_NEAR(tc::depreciation_usd(1e6, 0.2, 3, 10), 800000, 1e-6);  // nothing after the life
  // 8% a year over 3 years: payment = 1e6 x 0.08 / (1 - 1.08^-3) = $388,033.51 a year (1.08^3 = 1.259712);
  // interest = 3 x 388,033.514 - 1e6 = $164,100.54.
  EXPECT_NEAR(tc::financing_usd(1e6, 0.08, 3, 3), 164100.54, 0.01);
  EXPECT_NEAR(tc::financing_usd(1e6, 0.08, 3, 6), 164100.54, 0.01);
  EXPECT_EQ(tc::financing_usd(1e6, 0, 3, 3), 0);
  // A rate of 1e-300 is no interest, not C r / 0 (found by Hardening.EveryNumericFieldIsBoundedAtParseTime).
  EXPECT_NEAR(tc::financing_usd(1e6, 1e-300, 3, 3), 0, 1e-6);
  EXPECT_NEAR(tc::financing_usd(1e6, 1e-9, 3, 3), 1e6 * 1e-9 * 2, 1e-6);  // C r (T + 1) / 2 for small r

  CostInputs in = bare();
  in.owned.enabled = true;
  in.owned.capex_usd_per_node = 1e6;
  in.owned.depreciation_years = 3;
  in.owned.residual_fraction = 0.2;
  in.owned.financing_rate = 0.08;
  in.owned.horizon_years = 3;
  in.owned.node_power_w = 0;
  const tc::Bill o = *run(in, job(1, 100)).owned;
  double dep = 0, fin = 0;
  for (const auto& t : o.tco_usd_by_item) {
    if (t.name == "owned.depreciation") dep = t.value;
    if (t.name == "owned.financing") fin = t.value;
  }
  EXPECT_NEAR(dep, 800000, 1e-6);
  EXPECT_NEAR(fin, 164100.54, 0.01);
  EXPECT_NEAR(o.usd_per_year, (800000 + 164100.54) / 3, 0.01);
}

TEST(Owned, DepreciationNeverExceedsTheHardwareOverAnyHorizon) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> years(0.01, 40), frac(0, 0.99), capex(1, 1e9);
  for (int i = 0; i < 2000; ++i) {
    const double c = capex(rng), r = frac(rng), life = years(rng), h = years(rng);
    const double d = tc::depreciation_usd(c, r, life, h);
    EXPECT_LE(d, c * (1 - r) * (1 + 1e-12)) << "life " << life << " horizon " << h;
    EXPECT_GE(d, 0);
    // Through the bill as well: the horizon's depreciation item.
    if (i % 100 != 0) continue;
    CostInputs in = bare();
    in.owned.enabled = true;
    in.owned.capex_usd_per_node = c;
    in.owned.residual_fraction = r;
    in.owned.depreciation_years = life;
    in.owned.horizon_years = h;
    in.owned.node_power_w = 0;
    const tc::CostResult res = run(in, job(1, 10));
    for (const auto& t : res.owned->tco_usd_by_item)
      if (t.name == "owned.depreciation") {
        EXPECT_LE(t.value, c * (1 + 1e-12));
      }
  }
}

TEST(Owned, BreakEvenUtilizationAgainstTheCloud) {
  // One node, $87,600 a year of depreciation (capex $350,400 over 4 years), no energy: at
  // utilization u a node-hour costs 87,600 / (8,760 u). Against $20 an instance-hour for the same
  // hours: u = 87,600 / (20 x 8,760) = 50%.
  CostInputs in = bare();
  in.owned.enabled = true;
  in.owned.capex_usd_per_node = 350400;
  in.owned.depreciation_years = 4;
  in.owned.horizon_years = 3;
  in.owned.node_power_w = 0;
  const tc::Bill o = *run(in, job(1, 100), at_rate(20)).owned;
  ASSERT_TRUE(o.break_even_utilization.has_value()) << o.break_even_note;
  EXPECT_NEAR(*o.break_even_utilization, 0.5, 1e-9);
  // At $5 an hour even a fully used node costs more ($10 an hour): no break-even, said so.
  const tc::Bill none = *run(in, job(1, 100), at_rate(5)).owned;
  EXPECT_FALSE(none.break_even_utilization.has_value());
  EXPECT_TRUE(contains(none.break_even_note, "no break-even")) << none.break_even_note;
  EXPECT_TRUE(contains(none.break_even_note, "$10")) << none.break_even_note;
}

TEST(Owned, MaintenanceAndColocationAreYearlyLines) {
  CostInputs in = bare();
  in.owned.enabled = true;
  in.owned.capex_usd_per_node = 100000;
  in.owned.maintenance_fraction_per_year = 0.1;  // $10 k a year
  in.owned.maintenance_usd_per_year = 5000;
  in.owned.colocation_usd_per_kw_month = 100;    // 10 kW x $100 x 12 = $12 k a year
  in.owned.node_power_w = 10000;
  in.owned.pue = 1;
  in.owned.usd_per_kwh = 0;
  in.owned.utilization = 1;
  const tc::Bill o = *run(in, job(1, 876)).owned;  // a tenth of a fully used year
  EXPECT_NEAR(item(o, "owned.maintenance"), 15000 * 0.1, 1e-6);
  EXPECT_NEAR(item(o, "owned.colocation"), 12000 * 0.1, 1e-6);
}

// --- the seeds and the report --------------------------------------------------------------

using tc_test::lib;

tc::io::Result seed(const std::string& path, tc::io::Job* out = nullptr) {
  const char* text = tc::io::embedded_contents(path);
  if (!text) throw std::runtime_error("missing " + path);
  const tc::io::Job job = tc::io::parse_job_text(text, lib(), path);
  if (out) *out = job;
  return tc::io::evaluate(job, lib());
}

TEST(SeedBills, CaseEEstimateShowsItsOwnedH100Cluster) {
  const tc::io::Result r = seed("presets/scenarios/case-e-moe-176b.json");
  const tc::CostResult& c = tc::io::cost_of(r).result;
  ASSERT_TRUE(c.owned.has_value());
  EXPECT_EQ(c.owned->instance_id, "p5.48xlarge");
  EXPECT_EQ(c.bill.instance_id, "trn2.48xlarge");
  // 16 nodes x 8 H100 = the report's 128 GPUs (E6), 62% utilization (E15).
  EXPECT_GT(c.owned->instance_hours, 0);
  EXPECT_NEAR(c.owned->usd_per_node_hour * 16 * 8760 * 0.62, c.owned->usd_per_year, 1e-6 * c.owned->usd_per_year);
}

TEST(SeedBills, CaseACopyEgressAndIncidents) {
  const tc::io::Result r = seed("presets/scenarios/case-a-dense-100b.json");
  const tc::Bill& b = tc::io::cost_of(r).result.bill;
  EXPECT_NEAR(item(b, "transfer.cross_region"), 307.2, 1e-9);  // A36
  // A39: 4 h of 64 nodes; A40: 2 days of 64 nodes, at the blended rate.
  double blended = 0;
  for (const auto& t : b.tiers) blended += t.share * t.usd_per_hour;
  EXPECT_NEAR(item(b, "incidents.oom"), 64 * 4 * blended, 1e-6);
  EXPECT_NEAR(item(b, "incidents.lost_day"), 64 * 48 * blended, 1e-6);
  // A37: 131,255 GB a month is $10,000 a month at the tiers.
  EXPECT_NEAR(item(b, "transfer.egress") / b.campaign_months, 10000, 1);
}

TEST(SeedBills, TextReportHasPerTierRatesMonthOwnedBreakdownAndPayback) {
  tc::io::Job job;
  const tc::io::Result e = seed("presets/scenarios/case-e-moe-176b.json", &job);
  const std::string te = tc::io::result_text(job, e);
  // Items and tiers in plain words (core/labels), not their ids.
  for (const char* part : {"tier 3-year Standard RI, no upfront", "per month", "per run", "bill (owned, p5.48xlarge",
                           "owned cluster: depreciation", "depreciation $",
                           "cost of ownership over the horizon", "break-even: "})
    EXPECT_TRUE(contains(te, part)) << part;
  const tc::io::Result a = seed("presets/scenarios/case-a-dense-100b.json", &job);
  const std::string ta = tc::io::result_text(job, a);
  EXPECT_TRUE(contains(ta, "against p5.48xlarge")) << ta;
  const auto& base = tc::io::cost_of(a).baseline;
  ASSERT_TRUE(base.has_value());
  EXPECT_TRUE(contains(ta, base->payback_months ? "migration pays back in " + tc::io::format_fixed(*base->payback_months, 1)
                                                : std::string("migration never pays back (no monthly saving)")))
      << ta;
  EXPECT_TRUE(contains(ta, "incidents: out-of-memory restarts")) << ta;
  for (const char* id : {"incidents.oom", "instance.", "owned.", "pricing.mix["}) EXPECT_FALSE(contains(ta + te, id)) << id;
}

TEST(SeedBills, DeadlineInTheText) {
  Json doc = Json::parse(tc::io::embedded_contents("presets/scenarios/case-a-dense-100b.json"));
  doc["deadline_days"] = 30;
  const tc::io::Job job = tc::io::parse_job(doc, lib(), "case-a");
  const tc::io::Result r = tc::io::evaluate(job, lib());
  const tc::CostResult& c = tc::io::cost_of(r).result;
  ASSERT_TRUE(c.deadline.has_value());
  // A37-A40: the run with its incidents takes longer than 30 days (the report's own 38 days).
  EXPECT_FALSE(c.deadline->meets);
  EXPECT_NEAR(c.deadline->margin_s, 30 * 86400.0 - c.wall.total_s, 1e-6);
  const std::string t = tc::io::result_text(job, r);
  const std::string expected = "deadline " + tc::format_duration(30 * 86400.0) + ": a run takes " +
                               tc::format_duration(c.wall.total_s) + ", late by " +
                               tc::format_duration(c.wall.total_s - 30 * 86400.0);
  EXPECT_TRUE(contains(t, expected))
      << t;
}

TEST(ServicePresets, EveryServiceTheModelNamesIsPricedWithASource) {
  for (const char* id : {"s3_standard", "s3_express_one_zone", "fsx_lustre_persistent_2_125",
                         "fsx_lustre_persistent_2_250", "fsx_lustre_persistent_2_500", "fsx_lustre_persistent_2_1000",
                         "fsx_lustre_scratch_2", "internet_egress", "inter_region"}) {
    const tc::ServicePrice* p = tc::find_service(lib().services, id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_FALSE(p->source.empty()) << id;
    EXPECT_EQ(p->date.size(), 10u) << id;
    EXPECT_FALSE(lib().sources_for("service", id).empty()) << id;
  }
  // hardware.md 2.4.6: FSx prices come from secondary sources only; the bill line says so.
  EXPECT_TRUE(tc::find_service(lib().services, "fsx_lustre_persistent_2_125")->secondary);
  EXPECT_FALSE(tc::find_service(lib().services, "s3_standard")->secondary);
}

}  // namespace

namespace {

// Sets a dotted path ("overheads.storage.dataset_gb") in a document.
void set_path(Json& doc, const std::string& path, const Json& v) {
  Json* at = &doc;
  std::size_t start = 0;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
    at = &(*at)[path.substr(start, dot - start)];
    start = dot + 1;
  }
  (*at)[path.substr(start)] = v;
}

// The class of defect: a storage, transfer or owned-cluster figure that is negative, absurd, zero
// where it must be positive, or not a number reaches the bill. Every such value must be an
// InputError naming its field, whatever the field and the value.
TEST(StorageInput, PropertyEveryBadFigureNamesItsField) {
  struct Case {
    const char* path;
    std::vector<double> bad;
  };
  const std::vector<Case> cases = {
      {"overheads.storage.dataset_gb", {-1, 1e13, 1e300}},
      {"overheads.storage.retention_days", {-1, 1e6}},
      {"overheads.storage.retention_months", {-1, 1e300}},
      {"overheads.storage.usd_per_gb_month", {-0.1, 1e4}},
      {"overheads.storage.fsx_capacity_tib", {0, -1, 1e7}},
      {"overheads.transfer.copy_gb", {-1, 1e13}},
      {"overheads.transfer.cross_region_copies", {-1, 1e9}},
      {"overheads.transfer.cross_region_usd_per_gb", {-1, 1e4}},
      {"overheads.transfer.egress_gb", {-1, 1e13}},
      {"overheads.transfer.egress_gb_per_month", {-1, 1e13}},
      {"overheads.transfer.egress_usd_per_gb", {-1, 1e4}},
      {"owned_cluster.residual_fraction", {-0.1, 1, 2}},
      {"owned_cluster.financing_rate", {-0.1, 5}},
      {"owned_cluster.financing_years", {0, -2, 1000}},
      {"owned_cluster.maintenance_usd_per_year", {-1, 1e300}},
      {"owned_cluster.maintenance_fraction_per_year", {-1, 2}},
      {"owned_cluster.colocation_usd_per_kw_month", {-1, 1e6}},
  };
  std::mt19937 rng(2026);
  int checked = 0;
  for (int i = 0; i < 600; ++i) {
    const Case& c = cases[rng() % cases.size()];
    Json doc = Json::parse(R"({"owned_cluster": {"capex_usd_per_node": 300000}})");
    const int kind = static_cast<int>(rng() % 4);
    Json v = kind == 0 ? Json("12") : kind == 1 ? Json::array({1}) : Json(c.bad[rng() % c.bad.size()]);
    if (kind == 3) v = Json(c.bad[rng() % c.bad.size()]);
    set_path(doc, c.path, v);
    try {
      tc::io::parse_cost_inputs(doc);
      ADD_FAILURE() << c.path << " = " << v.dump() << " was accepted";
    } catch (const tc::io::InputError& e) {
      EXPECT_EQ(e.field(), c.path) << v.dump() << ": " << e.what();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 600);
}

}  // namespace

namespace {

TEST(SeedBills, OwnedHardwareTooSmallOrUnknownIsSaid) {
  Json doc = Json::parse(tc::io::embedded_contents("presets/scenarios/case-e-moe-176b.json"));
  doc["owned_cluster"]["nodes"] = 1;  // 8 H100 for a 176B MoE: the weights alone exceed 640 GB of HBM
  const tc::io::Result r = tc::io::evaluate(tc::io::parse_job(doc, lib(), "case-e"), lib());
  const tc::CostResult& c = tc::io::cost_of(r).result;
  EXPECT_GT(c.bill.total_usd, 0);
  bool said = false;
  for (const auto& w : c.warnings) said = said || contains(w, "owned_cluster: the job does not fit in the memory of 1 x p5");
  EXPECT_TRUE(said);
  doc["owned_cluster"]["instance"] = "p9.nonexistent";
  try {
    tc::io::cost_of(tc::io::evaluate(tc::io::parse_job(doc, lib(), "case-e"), lib()));
    ADD_FAILURE() << "an unknown owned instance was accepted";
  } catch (const tc::io::InputError& e) {
    EXPECT_EQ(e.field(), "owned_cluster.instance");
  }
}

}  // namespace
