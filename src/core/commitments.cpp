#include "core/commitments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tc {
namespace {

bool take_prefix(std::string& s, const std::string& p) {
  if (s.compare(0, p.size(), p) != 0) return false;
  s.erase(0, p.size());
  return true;
}

// "1y" or "3y" at the front of `s`.
bool take_term(std::string& s, int& years) {
  for (int y : {1, 3})
    if (take_prefix(s, std::to_string(y) + "y")) {
      years = y;
      return true;
    }
  return false;
}

}  // namespace

std::optional<TierName> parse_tier(const std::string& name) {
  TierName t;
  std::string s = name;
  if (s == "on_demand") return t;
  if (s == "capacity_block") return t.kind = TierKind::capacity_block, t;
  if (s == "spot") return t.kind = TierKind::spot, t;
  if (s == "sagemaker") return t.kind = TierKind::sagemaker, t;
  if (s == "custom") return t.kind = TierKind::custom, t;
  if (take_prefix(s, "savings_plan_")) {
    t.kind = TierKind::savings_plan;
    for (const char* p : {"compute", "instance"})
      if (take_prefix(s, std::string(p) + "_")) t.plan = p;
    if (t.plan.empty() || !take_term(s, t.term_years) || !s.empty()) return std::nullopt;
    return t;
  }
  if (!take_prefix(s, "reserved_") || !take_term(s, t.term_years)) return std::nullopt;
  t.kind = TierKind::reserved;
  t.convertible = take_prefix(s, "_convertible");
  if (take_prefix(s, "_partial_upfront")) t.payment = "partial_upfront";
  else if (take_prefix(s, "_all_upfront")) t.payment = "all_upfront";
  if (!s.empty()) return std::nullopt;
  return t;
}

std::vector<std::string> tier_names(bool list_price) {
  std::vector<std::string> v = {"on_demand", "capacity_block", "sagemaker"};
  for (const char* term : {"1y", "3y"}) {
    for (const char* cls : {"", "_convertible"})
      for (const char* pay : {"", "_partial_upfront", "_all_upfront"})
        v.push_back(std::string("reserved_") + term + cls + pay);
    if (!list_price)
      for (const char* plan : {"compute", "instance"}) v.push_back(std::string("savings_plan_") + plan + "_" + term);
  }
  if (!list_price) v.insert(v.end(), {"spot", "custom"});
  return v;
}

std::string describe_tier(const TierName& t) {
  const std::string term = std::to_string(t.term_years) + "-year ";
  switch (t.kind) {
    case TierKind::on_demand: return "On-Demand";
    case TierKind::capacity_block: return "Capacity Block";
    case TierKind::spot: return "Spot";
    case TierKind::sagemaker: return "SageMaker training (ml.* On-Demand)";
    case TierKind::custom: return "negotiated rate";
    case TierKind::savings_plan:
      return term + (t.plan == "compute" ? "Compute" : "EC2 Instance") + " Savings Plan";
    case TierKind::reserved: {
      std::string pay = t.payment == "all_upfront" ? "all upfront" : t.payment == "partial_upfront" ? "partial upfront" : "no upfront";
      return term + (t.convertible ? "Convertible" : "Standard") + " RI, " + pay;
    }
  }
  return "";
}

double savings_plan_max_discount(const std::string& plan) { return plan == "compute" ? 0.66 : 0.72; }

Commitment commit_terms(int instances, int term_years, double campaign_span_h) {
  Commitment c;
  c.instances = instances;
  const double term_h = term_years * kHoursPerTermYear;
  c.terms = std::max(1, static_cast<int>(std::ceil(campaign_span_h / term_h - 1e-9)));
  c.paid_instance_hours = static_cast<double>(instances) * c.terms * term_h;
  return c;
}

int capacity_block_days(double days) {
  if (!(days > 1)) return 1;
  if (days <= 14) return static_cast<int>(std::ceil(days - 1e-9));
  return std::min(kCapacityBlockMaxDays, 7 * static_cast<int>(std::ceil(days / 7 - 1e-9)));
}

CapacityBlockPlan plan_capacity_blocks(double hours, int instances, bool ultraserver) {
  CapacityBlockPlan p;
  p.instances = instances;
  p.side_by_side = (instances + kCapacityBlockMaxInstances - 1) / kCapacityBlockMaxInstances;
  const double margin_h = ultraserver ? 1.0 : 0.5;
  const double full_usable_h = kCapacityBlockMaxDays * 24.0 - margin_h;
  // Consecutive 182-day blocks while the run is longer than one; the last is the shortest duration
  // that covers what is left (a run shorter than a day still pays a day).
  p.full_blocks = hours > full_usable_h ? static_cast<int>(std::ceil(hours / full_usable_h - 1e-9)) - 1 : 0;
  const double rest_h = std::max(0.0, hours - p.full_blocks * full_usable_h);
  p.last_days = capacity_block_days((rest_h + margin_h) / 24.0);
  const double days = static_cast<double>(p.full_blocks) * kCapacityBlockMaxDays + p.last_days;
  p.usable_hours = days * 24.0 - (p.full_blocks + 1) * margin_h;
  p.paid_instance_hours = static_cast<double>(instances) * days * 24.0;
  return p;
}

std::string describe_blocks(const CapacityBlockPlan& p) {
  std::string s;
  if (p.side_by_side > 1) {
    const int last = p.instances - (p.side_by_side - 1) * kCapacityBlockMaxInstances;
    s = std::to_string(p.side_by_side) + " blocks side by side (" + std::to_string(p.side_by_side - 1) + " x 64 + " +
        std::to_string(last) + " instances)";
  } else {
    s = "1 block of " + std::to_string(p.instances) + (p.instances == 1 ? " instance" : " instances");
  }
  if (p.full_blocks > 0)
    s += ", " + std::to_string(p.full_blocks) + " consecutive x 182 days + " + std::to_string(p.last_days) + " days";
  else
    s += " x " + std::to_string(p.last_days) + (p.last_days == 1 ? " day" : " days");
  return s;
}

double spot_interruptions_per_hour(int band) {
  static const double kUpperEdge[] = {0.05, 0.10, 0.15, 0.20, 0.20};
  const int b = std::clamp(band, 0, 4);
  return -std::log(1 - kUpperEdge[b]) / 730.0;
}

const char* spot_band_name(int band) {
  static const char* const kNames[] = {"<5%", "5-10%", "10-15%", "15-20%", ">20%"};
  return kNames[std::clamp(band, 0, 4)];
}

const SpotBand* find_spot_band(const Instance& inst, const std::string& region) {
  for (const auto& b : inst.spot_advisor)
    if (b.region == region) return &b;
  return nullptr;
}

}  // namespace tc
