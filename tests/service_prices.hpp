// Storage and transfer prices written out by hand from ../shared/reference/hardware.md sections
// 2.4.6 and 2.4.7 (us-east-1), so that cost tests do not move with presets/services.json; and the
// cost inputs of a job with no overheads at all, which the cost tests start from.
#pragma once

#include <vector>

#include "core/cost.hpp"

namespace tc_test {

inline tc::ServicePrice flat_service(const char* id, const char* unit, double usd, double mb_s_per_tib = 0) {
  tc::ServicePrice p;
  p.id = id;
  p.name = id;
  p.unit = unit;
  p.steps = {{0, usd, "flat"}};
  p.throughput_mb_s_per_tib = mb_s_per_tib;
  p.region = "us-east-1";
  return p;
}

inline std::vector<tc::ServicePrice> hand_services() {
  tc::ServicePrice s3 = flat_service("s3_standard", "GB-months", 0);
  // $0.023 first 50 TB, $0.022 next 450 TB, $0.021 over 500 TB per GB-month (1 TB = 1,024 GB).
  s3.steps = {{51200, 0.023, "first 50 TB"}, {512000, 0.022, "next 450 TB"}, {0, 0.021, "over 500 TB"}};
  tc::ServicePrice egress = flat_service("internet_egress", "GB", 0);
  // 100 GB a month free, then $0.09 first 10 TB, $0.085 next 40 TB, $0.07 next 100 TB, $0.05 over.
  egress.free_units_per_month = 100;
  egress.steps = {{10240, 0.09, "first 10 TB"}, {51200, 0.085, "next 40 TB"}, {153600, 0.07, "next 100 TB"},
                  {0, 0.05, "over 150 TB"}};
  tc::ServicePrice inter = flat_service("inter_region", "GB", 0.02);
  inter.pairs = {{"us-east-1", "us-east-2", 0.01}, {"us-east-2", "us-east-1", 0.01}};
  return {s3,
          flat_service("s3_express_one_zone", "GB-months", 0.11),
          flat_service("s3_express_one_zone_upload", "GB", 0.0032),
          flat_service("fsx_lustre_persistent_2_125", "GB-months", 0.145, 125),
          flat_service("fsx_lustre_persistent_2_1000", "GB-months", 0.53, 1000),
          flat_service("fsx_lustre_scratch_2", "GB-months", 0.14, 200),
          egress,
          inter};
}

// No overheads at all (compile, warm-up, failures, spot, checkpoints): the wall time is the
// training time; all hours on demand; the hand-written service prices.
inline tc::CostInputs bare() {
  tc::CostInputs in;
  in.services = hand_services();
  in.compile.first_s = 0;
  in.compile.recompile_s = 0;
  in.warmup.minutes = 0;
  in.failures.per_node_hour = 0;
  in.spot.interruptions_per_hour = 0;
  in.checkpoint.kept = 0;
  in.pricing.mix = {tc::TierShare{"on_demand", 1.0, 0, "", {}, {}}};
  return in;
}

}  // namespace tc_test
