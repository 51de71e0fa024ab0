// How AWS sells capacity other than by the hour (issue 12): commitments over a term (Reserved
// Instances, Savings Plans), Capacity Blocks of whole days, and spot's interruption bands.
// Sources: shared/reference/hardware.md 2.4.1-2.4.4, copied into presets/instances.json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace tc {

enum class TierKind { on_demand, reserved, savings_plan, capacity_block, spot, sagemaker, custom };

// A pricing tier's name read into its parts: reserved_3y_convertible_all_upfront,
// savings_plan_compute_1y, capacity_block, ...
struct TierName {
  TierKind kind = TierKind::on_demand;
  int term_years = 0;                     // reserved and savings_plan: 1 or 3
  bool convertible = false;               // reserved
  std::string payment = "no_upfront";     // reserved: no_upfront, partial_upfront, all_upfront
  std::string plan;                       // savings_plan: compute or instance
};
std::optional<TierName> parse_tier(const std::string& name);
// Every tier name parse_tier() reads; `list_price`: only those an instance preset can list a price
// for (not spot, Savings Plans or custom, which derive from on demand or from the scenario).
std::vector<std::string> tier_names(bool list_price);
// "1-year Standard RI, no upfront", "3-year Compute Savings Plan", "Capacity Block".
std::string describe_tier(const TierName& t);

// A Reserved Instance term is 1 year (31,536,000 s) or 3 years (94,608,000 s) (EC2 User Guide,
// Reserved Instances): 8,760 h a year.
constexpr double kHoursPerTermYear = 8760.0;

// Savings Plans' published maximum discounts off On-Demand (AWS Savings Plans FAQ): Compute up to
// 66%, EC2 Instance up to 72%. AWS publishes no per-instance rate for p5, p4d, trn1 or trn2.
double savings_plan_max_discount(const std::string& plan);

// A commitment over whole terms, paid every hour of the term whether used or not (EC2 User Guide:
// "billed for every clock-hour during the term ... regardless of whether an instance is running").
struct Commitment {
  int instances = 0;                      // committed instances (or their hourly $ for a plan)
  int terms = 0;                          // consecutive terms that cover the campaign
  double paid_instance_hours = 0;         // instances x terms x term hours
};
Commitment commit_terms(int instances, int term_years, double campaign_span_h);

// Capacity Blocks for ML (EC2 API DescribeCapacityBlockOfferings, CapacityDurationHours: "1-day
// increments up 14 days, and in 7-day increments up to 182 days"; at most 64 instances per block;
// paid up front; a block ends at 11:30 UTC and instances are terminated 30 minutes before, 60 for
// UltraServers, EC2 User Guide "Capacity Blocks").
constexpr int kCapacityBlockMaxDays = 182;
constexpr int kCapacityBlockMaxInstances = 64;
constexpr int kCapacityBlockMaxInstancesPerAccount = 256;
// The shortest offered duration, in days, of at least `days` (1..182).
int capacity_block_days(double days);
struct CapacityBlockPlan {
  int instances = 0;
  int side_by_side = 0;                   // blocks bought for the same dates: ceil(instances / 64)
  int full_blocks = 0;                    // consecutive 182-day blocks before the last one
  int last_days = 0;                      // duration of the last block
  double usable_hours = 0;                // per instance, after each block's termination margin
  double paid_instance_hours = 0;         // instances x days x 24
};
// Blocks that hold `instances` for `hours` of running (consecutive blocks for longer than 182 days).
CapacityBlockPlan plan_capacity_blocks(double hours, int instances, bool ultraserver);
// "2 blocks side by side (64 + 16 instances) x 14 days"
std::string describe_blocks(const CapacityBlockPlan& p);

// Spot Instance Advisor bands (<5%, 5-10%, 10-15%, 15-20%, >20% of capacity reclaimed over the
// trailing month): the band's upper edge p as a monthly probability at a constant hazard over
// 730 h, -ln(1 - p) / 730 per instance-hour (hardware.md 2.4.4, derived; AWS defines no hourly
// rate). The open top band takes its lower edge, 20%: a floor, said so where it is used.
double spot_interruptions_per_hour(int band);
const char* spot_band_name(int band);
// The instance's band in a region (nullptr: none published there).
const SpotBand* find_spot_band(const Instance& inst, const std::string& region);

}  // namespace tc
