// Cost model: wall time of a run and the campaign's cloud bill by pricing tier. Storage, transfer
// and engineering are in bill_extras.cpp, the owned-cluster alternative in owned_cluster.cpp, and
// what every bill shares in bill_common.cpp.
#include "core/cost.hpp"

#include "core/bill_common.hpp"
#include "core/bill_extras.hpp"
#include "core/commitments.hpp"
#include "core/labels.hpp"
#include "core/owned_cluster.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <type_traits>

namespace tc {

using namespace bill;

namespace {

bool finite_nonneg(double v) { return std::isfinite(v) && v >= 0; }

const char* const kTierList =
    "on_demand, reserved_1y/3y[_convertible][_partial_upfront|_all_upfront], savings_plan_compute_1y/3y, "
    "savings_plan_instance_1y/3y, capacity_block, spot, sagemaker, custom";

bool known_tier(const std::string& t) { return parse_tier(t).has_value(); }

std::string public_tiers(const Instance& inst) {
  std::string s;
  for (const auto& p : inst.prices) {
    if (!(p.price_usd_per_hour > 0)) continue;
    if (!s.empty()) s += "; ";
    s += p.tier + " " + usd(p.price_usd_per_hour) + "/h (";
    for (size_t i = 0; i < p.regions.size(); ++i) s += (i ? " " : "") + p.regions[i];
    s += (p.regions.empty() ? "" : ", ") + p.date + ")";
  }
  return s.empty() ? "none" : s;
}

struct Rate {
  bool priced = false;
  double usd_per_hour = 0;
  std::string billed_tier;
  TierName name;
  std::string region, date, source;
  std::string problem;  // why it is not priced
};

// "trn2.48xlarge has no public on_demand price in us-east-1 (it has: capacity_block $35.76/h in
// us-east-2)": where else the tier is sold, so the user can pick the region.
std::string missing_price(const Instance& inst, const std::string& who, const std::string& tier,
                          const std::string& region) {
  std::string m = who + " has no public " + tier + " price in " + region;
  std::string elsewhere;
  for (const auto& p : inst.prices)
    if (p.tier == tier && p.price_usd_per_hour > 0)
      for (const auto& r : p.regions) append_item(elsewhere, r);
  if (!elsewhere.empty()) m += " (it has one in " + elsewhere + "; set pricing.region or pricing.instance_regions)";
  return m;
}

// A rate taken as a discount off the public on-demand price (a custom discount, spot, a Savings Plan).
Rate off_on_demand(const Instance& inst, const std::string& who, const std::string& region,
                   const std::string& label, const std::string& qualifier, double discount, Rate r) {
  const PriceTier* od = find_price(inst, "on_demand", region);
  if (!od) {
    r.problem = missing_price(inst, who, "on_demand", region) + " to take the " + label + " discount from";
    return r;
  }
  r.priced = true;
  r.usd_per_hour = od->price_usd_per_hour * (1 - discount);
  r.region = region;
  r.date = od->date;
  r.source = label + ": " + qualifier + fmt("%.4g", discount * 100) + "% off on_demand " +
             usd(od->price_usd_per_hour) + "/h (" + od->source + ")";
  return r;
}

// Spot: the Advisor's average saving in the region, else the scenario's or the preset's typical one.
Rate spot_rate(const Instance& inst, const std::string& who, const std::string& region, const TierShare& share,
               const CostInputs& in, Rate r) {
  const SpotBand* band = find_spot_band(inst, region);
  if (share.discount || in.pricing.spot_discount || !band || !(band->saving > 0)) {
    const double d = share.discount ? *share.discount
                                    : (in.pricing.spot_discount ? *in.pricing.spot_discount : inst.spot_discount);
    if (!(d > 0)) {
      r.problem = who + " is not offered as spot (no spot discount in its preset)";
      return r;
    }
    return off_on_demand(inst, who, region, "spot", "typical ", d, r);
  }
  return off_on_demand(inst, who, region, "spot",
                       "Spot Instance Advisor average saving in " + region + " (" + band->date + ") ", band->saving, r);
}

Rate resolve_tier(const Instance& inst, const std::string& tier, const TierShare& share,
                  const CostInputs& in, const std::string& region) {
  Rate r;
  r.billed_tier = tier;
  r.name = parse_tier(tier).value_or(TierName{});
  const std::string who = inst.id.empty() ? std::string("the instance") : inst.id;
  switch (r.name.kind) {
    case TierKind::custom:
      if (share.usd_per_hour) {
        r.priced = true;
        r.usd_per_hour = *share.usd_per_hour;
        r.source = "custom negotiated rate (scenario)";
        return r;
      }
      return off_on_demand(inst, who, region, "custom", "", share.discount.value_or(0), r);
    case TierKind::savings_plan:
      // validate() made sure the discount is given and within the published maximum.
      return off_on_demand(inst, who, region, describe_tier(r.name),
                           "your discount (AWS publishes only the maximum, " +
                               fmt("%.0f", savings_plan_max_discount(r.name.plan) * 100) + "%): ",
                           share.discount.value_or(0), r);
    default:
      break;
  }
  if (const PriceTier* p = find_price(inst, tier, region)) {
    r.priced = true;
    r.usd_per_hour = p->price_usd_per_hour;
    r.region = region;
    r.date = p->date;
    r.source = p->source;
    return r;
  }
  if (r.name.kind == TierKind::spot) return spot_rate(inst, who, region, share, in, r);
  r.problem = missing_price(inst, who, tier, region);
  return r;
}

// Time overheads a run's progress is exposed to, per second of running.
struct EventRates {
  double failures_per_s = 0;
  double spot_per_s = 0;
};

EventRates event_rates(const CostInputs& in, const JobPerf& job, double spot_share) {
  EventRates e;
  e.failures_per_s = in.failures.per_node_hour * job.nodes / 3600.0;
  e.spot_per_s = in.spot.interruptions_per_hour.value_or(0) * spot_share * job.nodes / 3600.0;
  return e;
}

// Runs of a campaign, each with its weight: the first run compiles in full, later runs reuse the
// compile cache; full runs train to the end, the others a fraction.
struct RunKind {
  double fraction;
  bool cached;
  double weight;
};

std::vector<RunKind> campaign_runs(const CampaignInputs& c) {
  const double full = c.full_runs.value_or(c.runs);
  const double part = std::max(0.0, c.runs - full);
  const double f = c.truncated_fraction;
  // The first run compiles without a cache; the rest may find it warm.
  std::vector<RunKind> v =
      full >= 1   ? std::vector<RunKind>{{1.0, false, 1.0}, {1.0, true, full - 1}, {f, true, part}}
      : part >= 1 ? std::vector<RunKind>{{f, false, 1.0}, {f, true, part - 1}, {1.0, true, full}}
                  : std::vector<RunKind>{{1.0, false, full}, {f, false, part}};
  v.erase(std::remove_if(v.begin(), v.end(), [](const RunKind& r) { return !(r.weight > 0); }),
          v.end());
  return v;
}

}  // namespace

namespace bill {

CampaignTime campaign_time(const CostInputs& in, const JobPerf& job, const Accelerator& acc,
                           double spot_share) {
  CampaignTime ct;
  for (const RunKind& rk : campaign_runs(in.campaign)) {
    WallTime w = wall_time(in, job, acc, spot_share, rk.fraction, rk.cached);
    for (const auto& t : w.terms) add_term(ct.terms, t.name, t.value * rk.weight);
    ct.wall_s += w.total_s * rk.weight;
    ct.billed_s += w.billed_s * rk.weight;
    ct.runs.push_back({w.billed_s, rk.weight});
  }
  return ct;
}

}  // namespace bill

// ---------------------------------------------------------------------------------------------

// Money one way everywhere (issue 13): $0.023, $55.04, $466.26, $21.1 k, $466 k, $1.48 M, $2.31 B.
std::string format_usd(double v) {
  if (!std::isfinite(v)) return "-";
  const double a = std::abs(v);
  const std::string sign = v < 0 && a >= 5e-5 ? "-" : "";
  if (a < 5e-5) return "$0";
  if (a < 0.01) return sign + fmt("$%.4f", a);
  if (a < 100) return sign + fmt("$%.4g", a);
  if (a < 1000) return sign + fmt("$%.2f", a);
  static const char* const kUnits[] = {" k", " M", " B", " T"};
  double x = a / 1000;
  int u = 0;
  while (x >= 999.5 && u < 3) {
    x /= 1000;
    ++u;
  }
  return sign + fmt(x < 9.995 ? "$%.2f" : x < 99.95 ? "$%.1f" : "$%.0f", x) + kUnits[u];
}
std::string format_duration(double s) {
  if (!std::isfinite(s)) return "-";
  if (s < 0) return "-" + format_duration(-s);
  const double min = s / 60, h = s / 3600, d = s / 86400;
  if (s < 1e-3) return fmt("%.1f us", s * 1e6);
  if (s < 1) return fmt("%.1f ms", s * 1e3);
  if (s < 120) return fmt("%.2f s", s);
  if (s < 7200) return fmt(min < 10 ? "%.1f min" : "%.0f min", min);
  if (s < 3 * 86400) return fmt(h < 10 ? "%.1f h" : "%.0f h", h);
  return fmt(d < 1000 ? "%.1f days" : "%.0f days", d);
}

bool price_in_region(const PriceTier& p, const std::string& region) {
  if (region.empty() || p.regions.empty()) return true;
  return std::any_of(p.regions.begin(), p.regions.end(), [&](const std::string& r) {
    return r == region || (r.size() > region.size() && r.compare(0, region.size(), region) == 0 && r[region.size()] == '-');
  });
}

const PriceTier* find_price(const Instance& inst, const std::string& tier, const std::string& region) {
  for (const auto& p : inst.prices)
    if (p.tier == tier && p.price_usd_per_hour > 0 && std::isfinite(p.price_usd_per_hour) && price_in_region(p, region))
      return &p;
  return nullptr;
}

const std::string& pricing_region(const PricingInputs& p, const std::string& instance_id) {
  for (const auto& [id, region] : p.instance_regions)
    if (id == instance_id) return region;
  return p.region;
}

std::string resolve_region(const PricingInputs& p, const Instance& inst) {
  const std::string& given = pricing_region(p, inst.id);
  const bool explicit_region =
      p.region_given || std::any_of(p.instance_regions.begin(), p.instance_regions.end(),
                                    [&](const auto& e) { return e.first == inst.id; });
  if (explicit_region) return given;
  for (const auto& pr : inst.prices)
    if (pr.price_usd_per_hour > 0 && price_in_region(pr, given)) return given;
  for (const auto& pr : inst.prices)
    if (pr.price_usd_per_hour > 0 && !pr.regions.empty()) return pr.regions.front();
  return given;
}

std::string describe_price(const Instance& inst, const PriceTier& p) {
  std::string s = inst.id + " " + p.tier + " " + usd(p.price_usd_per_hour) + "/h";
  if (!p.region.empty() || !p.date.empty())
    s += " (" + p.region + (p.region.empty() || p.date.empty() ? "" : ", ") + p.date + ")";
  return s;
}

double peak_tflops(const Accelerator& acc, Precision p) {
  const int i = static_cast<int>(p);
  return (i >= 0 && i < kPrecisionCount) ? acc.peak_tflops[i] : 0;
}

bool is_neuron(const Accelerator& acc) {
  return acc.id.rfind("trainium", 0) == 0 || acc.id.rfind("inferentia", 0) == 0;
}

bool runs_on(const FrameworkProfile& fw, const Accelerator& acc) {
  return is_neuron(acc) ? fw.runs_on_neuron : fw.runs_on_gpu;
}

CompileDefaults compile_defaults(const Accelerator& acc) {
  if (is_neuron(acc))
    // Neuron compiles the whole graph ahead of time: field reports of 374-380 s for the first
    // compile and 42-118 s per new sequence-length bucket; 8-12 min warm-up at 62-68% throughput
    // (seed cases A and C, ../shared/reference/seed-cases.md).
    return {380.0, 80.0, 10.0, 0.65,
            "Neuron field reports: first compile 374-380 s, 42-118 s per shape bucket, "
            "8-12 min warm-up at 62-68% throughput"};
  // GPUs: eager PyTorch needs no graph compile; torch.compile / CUDA graph capture and NCCL
  // communicator set-up take tens of seconds; warm-up (cuDNN/cuBLAS autotuning, data loader) lasts
  // seconds.
  return {60.0, 20.0, 0.5, 0.5,
          "GPU: torch.compile and NCCL set-up ~1 min, new shapes ~20 s, ~30 s warm-up at half speed"};
}

namespace {

// Range checks that collect every problem, each naming its field.
struct Checks {
  std::vector<InputProblem> p;
  // The reason is a text or a function that builds it: a bill is checked on every frame of a
  // drag, and a reason is only worth its formatting when the check fails.
  template <class Reason>
  void need(bool ok, std::string_view field, const Reason& reason) {
    if (ok) return;
    if constexpr (std::is_invocable_v<Reason>) p.push_back({std::string(field), reason()});
    else p.push_back({std::string(field), std::string(reason)});
  }
  void nonneg(double v, std::string_view field) {
    if (std::isnan(v)) need(false, field, "NaN is not a number");
    else need(finite_nonneg(v), field, [&] { return fmt("%g", v) + " must be a finite number >= 0"; });
  }
  void fraction(double v, std::string_view field) {
    need(std::isfinite(v) && v >= 0 && v <= 1, field, [&] { return fmt("%g", v) + " must be in [0, 1]"; });
  }
  void positive(double v, std::string_view field) {
    need(std::isfinite(v) && v > 0, field, [&] { return fmt("%g", v) + " must be a finite number > 0"; });
  }
  // A figure with a plausible ceiling: above it is a typo (a rate in cents, a size in bytes).
  void at_most(double v, double hi, std::string_view field, const char* unit) {
    nonneg(v, field);
    need(!(v > hi), field, [&] { return fmt("%g", v) + " " + unit + " is absurd (at most " + fmt("%g", hi) + ")"; });
  }
  void one_of(const std::string& v, const std::vector<std::string>& allowed, std::string_view field) {
    std::string list;
    for (const auto& a : allowed) {
      if (a == v) return;
      append_item(list, a);
    }
    need(false, field, "'" + v + "' is not one of " + list);
  }
};

// Compile, warm-up, checkpoints, failures, spot, queueing.
void check_run_overheads(Checks& k, const CostInputs& in) {
  if (in.compile.first_s) k.nonneg(*in.compile.first_s, "overheads.compile.first_s");
  if (in.compile.recompile_s) k.nonneg(*in.compile.recompile_s, "overheads.compile.recompile_s");
  k.need(in.compile.shapes >= 1, "overheads.compile.shapes",
         [&] { return std::to_string(in.compile.shapes) + " must be >= 1"; });
  k.fraction(in.compile.cache_hit, "overheads.compile.cache_hit");
  if (in.warmup.minutes) k.nonneg(*in.warmup.minutes, "overheads.warmup.minutes");
  if (in.warmup.throughput) k.fraction(*in.warmup.throughput, "overheads.warmup.throughput");
  if (in.checkpoint.interval_min) k.positive(*in.checkpoint.interval_min, "overheads.checkpoint.interval_min");
  if (in.checkpoint.write_gb_per_s) k.positive(*in.checkpoint.write_gb_per_s, "overheads.checkpoint.write_gb_per_s");
  k.nonneg(in.checkpoint.bytes_override, "overheads.checkpoint.bytes");
  k.need(in.checkpoint.kept >= 0, "overheads.checkpoint.kept",
         [&] { return std::to_string(in.checkpoint.kept) + " must be >= 0"; });
  k.nonneg(in.failures.per_node_hour, "overheads.failures.per_node_hour");
  k.nonneg(in.failures.restart_min, "overheads.failures.restart_min");
  if (in.spot.interruptions_per_hour)
    k.nonneg(*in.spot.interruptions_per_hour, "overheads.spot.interruptions_per_hour");
  k.nonneg(in.spot.restart_min, "overheads.spot.restart_min");
  if (in.pricing.spot_discount)
    k.need(std::isfinite(*in.pricing.spot_discount) && *in.pricing.spot_discount >= 0 && *in.pricing.spot_discount < 1,
           "pricing.spot_discount", [&] { return fmt("%g", *in.pricing.spot_discount) + " must be in [0, 1)"; });
  k.nonneg(in.queue_hours, "overheads.queue_hours");
}

// The tiers of the pricing mix: known names, fractions summing to 1 or instance counts above 0.
// AWS publishes no Savings Plan rate for these instances, only maximum discounts: the user's
// discount is required and capped there (AWS Savings Plans FAQ).
void check_savings_plan(Checks& k, const TierShare& t, const std::string& f) {
  const auto name = parse_tier(t.tier);
  if (!name || name->kind != TierKind::savings_plan) return;
  const double max = savings_plan_max_discount(name->plan);
  k.need(t.discount.has_value(), f + ".discount", [&] {
    return "missing: a " + describe_tier(*name) + " needs your discount off on_demand (AWS publishes only the maximum, " +
           fmt("%.0f", max * 100) + "%)";
  });
  if (t.discount)
    k.need(*t.discount <= max, f + ".discount", [&] {
      return fmt("%g", *t.discount) + " is above the published maximum for a " + describe_tier(*name) + " (" +
             fmt("%.0f", max * 100) + "%)";
    });
}

void check_pricing_mix(Checks& k, const CostInputs& in) {
  k.need(!in.pricing.region.empty(), "pricing.region", "must name a region (like us-east-1)");
  const auto& mix = in.pricing.mix;
  k.need(!mix.empty(), "pricing.mix", "needs at least one tier");
  double fsum = 0;
  long long isum = 0;
  for (size_t i = 0; i < mix.size(); ++i) {
    const std::string f = "pricing.mix[" + std::to_string(i) + "]";
    const TierShare& t = mix[i];
    k.need(known_tier(t.tier), f + ".tier", [&] { return "'" + t.tier + "' is not a tier (" + kTierList + ")"; });
    if (!t.fallback.empty())
      k.need(known_tier(t.fallback) && t.fallback != "custom", f + ".fallback",
             [&] { return "'" + t.fallback + "' is not a public tier (" + kTierList + ", not custom)"; });
    check_savings_plan(k, t, f);
    if (in.pricing.mix_by == MixBy::fraction) {
      k.fraction(t.fraction, f + ".fraction");
      fsum += t.fraction;
    } else {
      k.need(t.instances >= 0, f + ".instances", [&] { return std::to_string(t.instances) + " must be >= 0"; });
      isum += t.instances;
    }
    if (t.usd_per_hour) k.nonneg(*t.usd_per_hour, f + ".usd_per_hour");
    if (t.discount)
      k.need(std::isfinite(*t.discount) && *t.discount >= 0 && *t.discount < 1, f + ".discount",
             [&] { return fmt("%g", *t.discount) + " must be in [0, 1)"; });
    if (t.tier == "custom") k.need(t.usd_per_hour || t.discount, f, "custom tier needs usd_per_hour or discount");
  }
  if (!mix.empty() && in.pricing.mix_by == MixBy::fraction && std::isfinite(fsum))
    k.need(std::abs(fsum - 1) <= 1e-6, "pricing.mix",
           [&] { return "fractions sum to " + fmt("%.6g", fsum) + ", not 1"; });
  if (!mix.empty() && in.pricing.mix_by == MixBy::instances)
    k.need(isum > 0, "pricing.mix", "instance counts sum to 0");
}

// Storage, transfer, engineering. Ceilings: $100 per GB-month or per GB (S3 Standard is $0.023),
// an exabyte (1e9 GB), a century of retention, 100,000 TiB of FSx.
void check_other_costs(Checks& k, const CostInputs& in) {
  const StorageInputs& st = in.storage;
  if (st.usd_per_gb_month) k.at_most(*st.usd_per_gb_month, 100, "overheads.storage.usd_per_gb_month", "$/GB-month");
  k.at_most(st.dataset_gb, 1e9, "overheads.storage.dataset_gb", "GB");
  k.at_most(st.retention_days, 36500, "overheads.storage.retention_days", "days");
  const std::vector<std::string> services = {"s3_standard", "s3_express_one_zone", "fsx_lustre"};
  k.one_of(st.checkpoints_service, services, "overheads.storage.checkpoints_service");
  k.one_of(st.dataset_service, services, "overheads.storage.dataset_service");
  k.one_of(st.fsx_tier, {"persistent_2_125", "persistent_2_250", "persistent_2_500", "persistent_2_1000", "scratch_2"},
           "overheads.storage.fsx_tier");
  if (st.fsx_capacity_tib) {
    k.at_most(*st.fsx_capacity_tib, 1e5, "overheads.storage.fsx_capacity_tib", "TiB");
    k.need(*st.fsx_capacity_tib > 0, "overheads.storage.fsx_capacity_tib", "must be > 0");
  }
  const TransferInputs& t = in.transfer;
  k.at_most(t.cross_region_copies, 1e6, "overheads.transfer.cross_region_copies", "copies");
  if (t.copy_gb) k.at_most(*t.copy_gb, 1e9, "overheads.transfer.copy_gb", "GB");
  if (t.cross_region_usd_per_gb) k.at_most(*t.cross_region_usd_per_gb, 100, "overheads.transfer.cross_region_usd_per_gb", "$/GB");
  k.at_most(t.egress_gb, 1e9, "overheads.transfer.egress_gb", "GB");
  k.at_most(t.egress_gb_per_month, 1e9, "overheads.transfer.egress_gb_per_month", "GB");
  if (t.egress_usd_per_gb) k.at_most(*t.egress_usd_per_gb, 100, "overheads.transfer.egress_usd_per_gb", "$/GB");
  k.nonneg(in.engineering.person_weeks, "overheads.engineering.person_weeks");
  k.nonneg(in.engineering.usd_per_week, "overheads.engineering.usd_per_week");
  k.nonneg(in.engineering.spread_runs, "overheads.engineering.spread_runs");
}

// Incidents: a lost day or an OOM of at most ten years, a regression's lost share in (0, 1).
void check_incidents(Checks& k, const CostInputs& in) {
  for (size_t i = 0; i < in.incidents.size(); ++i) {
    const Incident& x = in.incidents[i];
    const std::string f = "incidents[" + std::to_string(i) + "]";
    switch (x.kind) {
      case IncidentKind::lost_day:
        k.at_most(x.days, 3650, f + ".days", "days");
        break;
      case IncidentKind::oom:
        k.at_most(x.hours, 87600, f + ".hours", "hours");
        break;
      case IncidentKind::throughput_regression:
        k.at_most(x.days, 3650, f + ".days", "days");
        k.need(std::isfinite(x.fraction) && x.fraction > 0 && x.fraction < 1, f + ".fraction",
               [&] { return fmt("%g", x.fraction) + " must be in (0, 1): the share of throughput lost"; });
        break;
      case IncidentKind::failed_runs:
        k.fraction(x.fraction, f + ".fraction");
        k.need(std::isfinite(x.progress) && x.progress > 0 && x.progress <= 1, f + ".progress",
               [&] { return fmt("%g", x.progress) + " must be in (0, 1]: how far a failed run got"; });
        break;
    }
  }
}

// Campaign, owned cluster, energy, deadline.
void check_campaign_and_energy(Checks& k, const CostInputs& in) {
  k.positive(in.campaign.runs, "campaign.runs");
  if (in.campaign.full_runs) {
    k.nonneg(*in.campaign.full_runs, "campaign.full_runs");
    k.need(!(*in.campaign.full_runs > in.campaign.runs), "campaign.full_runs",
           [&] { return fmt("%g", *in.campaign.full_runs) + " exceeds campaign.runs (" + fmt("%g", in.campaign.runs) + ")"; });
  }
  k.need(std::isfinite(in.campaign.truncated_fraction) && in.campaign.truncated_fraction > 0 &&
             in.campaign.truncated_fraction <= 1,
         "campaign.truncated_fraction", [&] { return fmt("%g", in.campaign.truncated_fraction) + " must be in (0, 1]"; });
  k.nonneg(in.campaign.runs_per_month, "campaign.runs_per_month");
  if (in.owned.enabled) {
    k.need(in.owned.nodes >= 0, "owned_cluster.nodes",
           [&] { return std::to_string(in.owned.nodes) + " must be >= 0"; });
    k.nonneg(in.owned.capex_usd_per_node, "owned_cluster.capex_usd_per_node");
    k.positive(in.owned.depreciation_years, "owned_cluster.depreciation_years");
    k.need(std::isfinite(in.owned.residual_fraction) && in.owned.residual_fraction >= 0 && in.owned.residual_fraction < 1,
           "owned_cluster.residual_fraction", [&] { return fmt("%g", in.owned.residual_fraction) + " must be in [0, 1)"; });
    k.at_most(in.owned.financing_rate, 1, "owned_cluster.financing_rate", "a year");
    if (in.owned.financing_years) {
      k.positive(*in.owned.financing_years, "owned_cluster.financing_years");
      k.at_most(*in.owned.financing_years, 100, "owned_cluster.financing_years", "years");
    }
    k.nonneg(in.owned.maintenance_usd_per_year, "owned_cluster.maintenance_usd_per_year");
    k.at_most(in.owned.maintenance_fraction_per_year, 1, "owned_cluster.maintenance_fraction_per_year", "of capex a year");
    k.at_most(in.owned.colocation_usd_per_kw_month, 10000, "owned_cluster.colocation_usd_per_kw_month", "$/kW-month");
    k.need(std::isfinite(in.owned.utilization) && in.owned.utilization > 0 && in.owned.utilization <= 1,
           "owned_cluster.utilization", [&] { return fmt("%g", in.owned.utilization) + " must be in (0, 1]"; });
    if (in.owned.node_power_w) k.nonneg(*in.owned.node_power_w, "owned_cluster.node_power_w");
    k.fraction(in.owned.idle_power_fraction, "owned_cluster.idle_power_fraction");
    k.need(std::isfinite(in.owned.pue) && in.owned.pue >= 1, "owned_cluster.pue",
           [&] { return fmt("%g", in.owned.pue) + " must be >= 1"; });
    if (in.owned.usd_per_kwh) k.nonneg(*in.owned.usd_per_kwh, "owned_cluster.usd_per_kwh");
    k.nonneg(in.owned.facility_usd_per_year, "owned_cluster.facility_usd_per_year");
    k.nonneg(in.owned.staff_usd_per_year, "owned_cluster.staff_usd_per_year");
    k.positive(in.owned.horizon_years, "owned_cluster.horizon_years");
  }
  k.nonneg(in.energy.usd_per_kwh, "energy.usd_per_kwh");
  k.nonneg(in.energy.grid_kg_co2e_per_kwh, "energy.grid_kg_co2e_per_kwh");
  k.need(std::isfinite(in.energy.cloud_pue) && in.energy.cloud_pue >= 1, "energy.cloud_pue",
         [&] { return fmt("%g", in.energy.cloud_pue) + " must be >= 1"; });
  if (in.energy.node_power_w) k.nonneg(*in.energy.node_power_w, "energy.node_power_w");
  if (in.deadline_days) k.positive(*in.deadline_days, "deadline_days");
}

}  // namespace

std::vector<InputProblem> validate(const CostInputs& in) {
  Checks k;
  check_run_overheads(k, in);
  check_pricing_mix(k, in);
  check_other_costs(k, in);
  check_incidents(k, in);
  check_campaign_and_energy(k, in);
  return k.p;
}

JobPerf job_perf(const Scenario& sc, const Estimate& est) {
  JobPerf j;
  j.instance_id = sc.instance.id;
  j.accelerator_id = !sc.accelerator.id.empty() ? sc.accelerator.id : sc.instance.accelerator_id;
  j.nodes = sc.nodes;
  j.chips_per_node = sc.instance.chips_per_node;
  j.chips = est.chips > 0 ? est.chips : sc.nodes * sc.instance.chips_per_node;
  j.step_time_s = est.step_time_s;
  j.steps = est.steps;
  j.tokens_per_step = est.tokens_per_s > 0 && est.step_time_s > 0
                          ? est.tokens_per_s * est.step_time_s
                          : static_cast<double>(sc.global_batch) * sc.model.seq_len;
  j.model_flops_per_step = est.model_flops_per_step;
  j.checkpoint_bytes = est.checkpoint_bytes;
  j.frozen_weights_bytes = est.frozen_weights_bytes;
  j.peak_tflops_per_chip = peak_tflops(sc.accelerator, matmul_precision(sc));
  j.mfu = est.mfu;
  j.chip_power_w = chip_power_w(sc);
  j.host_power_w_per_node = sc.instance.host_power_w;
  return j;
}

WallTime wall_time(const CostInputs& in, const JobPerf& job, const Accelerator& acc,
                   double spot_share, double run_fraction, bool cached) {
  const CompileDefaults d = compile_defaults(acc);
  WallTime w;
  const double train = job.steps * job.step_time_s * run_fraction;

  // Compile: the first graph, then one recompile per further shape; a reused compile cache
  // spares cache_hit of that work on later runs.
  double compile = in.compile.first_s.value_or(d.first_s) +
                   (in.compile.shapes - 1) * in.compile.recompile_s.value_or(d.recompile_s);
  if (cached) compile *= 1 - in.compile.cache_hit;

  // Warm-up: W seconds at throughput f make W*f seconds of progress, so cost W*(1-f) extra;
  // a run shorter than that finishes inside the warm-up at train/f.
  const double wu = in.warmup.minutes.value_or(d.warmup_min) * 60.0;
  const double f = in.warmup.throughput.value_or(d.warmup_throughput);
  double warmup = 0;
  if (train > 0 && wu > 0) {
    if (f > 0 && train <= wu * f) warmup = train / f - train;
    else warmup = wu * (1 - f);
  }

  // Checkpoints: blocking writes of the whole checkpoint at the storage's aggregate bandwidth.
  w.checkpoint_write_s = checkpoint_bytes(in, job) / 1e9 / checkpoint_write_gb_per_s(in, job);
  const EventRates er = event_rates(in, job, spot_share);
  const double rate = er.failures_per_s + er.spot_per_s;
  if (in.checkpoint.interval_min) {
    w.checkpoint_interval_s = *in.checkpoint.interval_min * 60.0;
  } else if (rate > 0 && w.checkpoint_write_s > 0) {
    // Young (1974), "A first order approximation to the optimum checkpoint interval":
    // tau = sqrt(2 * delta * M), delta = checkpoint write time, M = mean time between
    // interruptions of the job (Daly 2006 refines it; the first order is within a few percent
    // while delta << M). At least one minute, and at least one checkpoint per run.
    w.checkpoint_interval_s = std::max(60.0, std::sqrt(2.0 * w.checkpoint_write_s / rate));
    if (train > 0) w.checkpoint_interval_s = std::min(w.checkpoint_interval_s, train);
  } else {
    // Nothing to protect against: one checkpoint at the end of the run.
    w.checkpoint_interval_s = train > 0 ? train : 3600.0;
  }
  const double checkpoints = train / w.checkpoint_interval_s * w.checkpoint_write_s;

  // Failures and spot interruptions: each costs its restart plus, on average, half a checkpoint
  // interval of lost work. They happen while the job runs, including during the time they cost,
  // so running time T = base + rate * cost * T, i.e. T = base / (1 - rate * cost).
  const double lost_f = in.failures.restart_min * 60.0 + w.checkpoint_interval_s / 2;
  const double lost_s = in.spot.restart_min * 60.0 + w.checkpoint_interval_s / 2;
  const double phi = er.failures_per_s * lost_f + er.spot_per_s * lost_s;
  if (!(phi < 1))
    throw CostError("overheads.failures",
                    "expected failures and spot interruptions cost " + fmt("%.3g", phi) +
                        " s of restart and lost work per second of running: the job never finishes");
  const double base = train + compile + warmup + checkpoints;
  const double run = base / (1 - phi);
  const double failures = er.failures_per_s * lost_f * run;
  const double spot = er.spot_per_s * lost_s * run;
  w.expected_failures = er.failures_per_s * run;
  w.expected_spot_interruptions = er.spot_per_s * run;

  const double queue = in.queue_hours * 3600.0;
  w.terms = {{"training", train},     {"compile", compile},
             {"warmup", warmup},       {"checkpoints", checkpoints},
             {"failures", failures},   {"spot_interruptions", spot},
             {"queue", queue}};
  // Incidents delay the run; their instance-hours are billed on lines of their own (reruns.*,
  // incidents.*), not at the tier mix. The named ones happen once, in the campaign's first run.
  double unplanned = 0;
  if (!in.incidents.empty()) {
    const double reruns = rerun_s(in, run);
    const double incidents = cached ? 0 : incident_delay_s(in);
    w.terms.push_back({"reruns", reruns});
    w.terms.push_back({"incidents", incidents});
    unplanned = reruns + incidents;
  }
  w.total_s = sum_terms(w.terms);
  w.billed_s = w.total_s - queue - unplanned;
  check_sum("wall_time", w.terms, w.total_s);
  return w;
}

namespace {

// Shares of instance-hours per mix entry; instance counts that do not match the job's nodes bill
// in the same proportions, with a warning on the bill.
std::vector<double> mix_shares(const CostInputs& in, const JobPerf& job, Bill& b) {
  const auto& mix = in.pricing.mix;
  std::vector<double> shares(mix.size(), 0);
  if (in.pricing.mix_by == MixBy::fraction) {
    for (size_t i = 0; i < mix.size(); ++i) shares[i] = mix[i].fraction;
  } else {
    long long n = 0;
    for (const auto& t : mix) n += t.instances;
    for (size_t i = 0; i < mix.size(); ++i) shares[i] = static_cast<double>(mix[i].instances) / n;
    // Counts that do not match the job's nodes (a report's own inconsistency, or the same scenario
    // compared on another instance) bill in the same proportions, and say so.
    if (n != job.nodes) {
      std::string split;
      for (size_t i = 0; i < mix.size(); ++i)
        split += (i ? ", " : "") + mix[i].tier + " " + fmt("%.4g", shares[i] * 100) + "%";
      b.warnings.push_back("pricing.mix: instance counts sum to " + std::to_string(n) + ", not the job's " +
                           std::to_string(job.nodes) + " nodes; billed as shares of instance-hours (" +
                           split + ")");
    }
  }
  return shares;
}

// The rate of each mix entry, with fallbacks for tiers the instance has no public price for;
// adds the share of instance-hours billed at spot to `spot_share`.
std::vector<Rate> mix_rates(const CostInputs& in, const Instance& inst, const std::vector<double>& shares, Bill& b,
                            double& spot_share) {
  const auto& mix = in.pricing.mix;
  const std::string& region = pricing_region(in.pricing, inst.id);
  std::vector<Rate> rates;
  for (size_t i = 0; i < mix.size(); ++i) {
    const std::string f = mix_entries_label({i});  // said to people: the page and the report show it
    Rate rt = resolve_tier(inst, mix[i].tier, mix[i], in, region);
    if (!rt.priced && !mix[i].fallback.empty()) {
      TierShare fb = mix[i];
      fb.tier = mix[i].fallback;
      Rate alt = resolve_tier(inst, fb.tier, fb, in, region);
      if (alt.priced) {
        b.warnings.push_back(f + ": " + rt.problem + "; billed " + fmt("%.4g", shares[i] * 100) +
                             "% of instance-hours at " + plain_label("instance." + alt.billed_tier) + " " + usd(alt.usd_per_hour) +
                             "/h (" + alt.region + (alt.region.empty() ? "" : ", ") + alt.date + ") instead");
        rt = alt;
      } else {
        rt.problem += "; fallback: " + alt.problem;
      }
    }
    if (!rt.priced) {
      b.priced = false;
      b.unpriced.push_back(f + " (" + mix[i].tier + ", " + fmt("%.4g", shares[i] * 100) +
                           "% of instance-hours): " + rt.problem + ". Public prices: " + public_tiers(inst));
    }
    if (rt.priced && rt.billed_tier == "spot") spot_share += shares[i];
    rates.push_back(rt);
  }
  for (const auto& u : b.unpriced) b.warnings.push_back("cost: no price, left out of the total: " + u);
  return rates;
}

std::string price_detail(const TierLine& t) {
  // Read by people (the bill's detail column): the tiers in plain words.
  const std::string billed = plain_label("instance." + t.billed_tier);
  std::string d = t.billed_tier == t.tier ? billed : billed + " (asked: " + plain_label("instance." + t.tier) + ")";
  if (!t.region.empty()) d += ", " + t.region;
  if (!t.date.empty()) d += ", " + t.date;
  return d;
}

// What the campaign holds capacity for: the span of a commitment and the runs a Capacity Block covers.
struct Holding {
  int nodes = 0;
  double span_h = 0;                      // calendar hours from the first run to the last one's end
  bool back_to_back = true;               // runs follow each other (one reservation for them all)
  const CampaignTime* ct = nullptr;
  bool ultraserver = false;
};

// Instances a commitment holds for the mix entries `group` billed at one tier: their counts when
// the mix is by instances and the counts add up to the nodes, else their share of the nodes
// rounded up.
int held_instances(const CostInputs& in, const std::vector<size_t>& group, double share, int nodes) {
  const auto& mix = in.pricing.mix;
  long long n = 0, held = 0;
  for (const auto& t : mix) n += t.instances;
  for (size_t i : group) held += mix[i].instances;
  if (in.pricing.mix_by == MixBy::instances && n == nodes) return static_cast<int>(held);
  return std::max(1, static_cast<int>(std::ceil(nodes * share - 1e-9)));
}

// Paid instance-hours of a commitment or of Capacity Blocks, and what it is (nullopt: hourly).
std::optional<std::pair<double, std::string>> held_hours(const TierName& t, int instances, const Holding& h,
                                                         std::string& renewed) {
  if (t.kind == TierKind::reserved || t.kind == TierKind::savings_plan) {
    const Commitment c = commit_terms(instances, t.term_years, h.span_h);
    if (c.terms > 1)
      renewed = "the campaign spans " + qty(h.span_h / 24) + " days, longer than a " + std::to_string(t.term_years) +
                "-year term: " + std::to_string(c.terms) + " consecutive terms are bought";
    return std::make_pair(c.paid_instance_hours,
                          std::to_string(instances) + " instances x " + std::to_string(c.terms) + " x " +
                              std::to_string(t.term_years) + "-year term (" +
                              fmt("%.0f", t.term_years * kHoursPerTermYear) + " h each), " + describe_tier(t));
  }
  if (t.kind != TierKind::capacity_block) return std::nullopt;
  // Back to back, the campaign is one reservation; runs apart each buy their own blocks.
  double paid = 0;
  CapacityBlockPlan first;
  if (h.back_to_back) {
    first = plan_capacity_blocks(h.ct->billed_s / 3600.0, instances, h.ultraserver);
    paid = first.paid_instance_hours;
    if (first.full_blocks > 0)
      renewed = "the campaign runs longer than 182 days, the longest Capacity Block: " +
                std::to_string(first.full_blocks + 1) + " consecutive blocks are bought";
  } else {
    for (const auto& [billed_s, weight] : h.ct->runs) {
      const CapacityBlockPlan p = plan_capacity_blocks(billed_s / 3600.0, instances, h.ultraserver);
      if (first.instances == 0) first = p;
      paid += p.paid_instance_hours * weight;
    }
  }
  return std::make_pair(paid, describe_blocks(first) + (h.back_to_back ? "" : " per run") + ", paid up front");
}

// The commitment behind the mix entries `group`, all billed at one tier: its idle part as a line
// (or a warning when other work is to fill it), and what it takes to fill it. Kept on the group's
// first tier line.
void bill_commitment(Bill& b, const CostInputs& in, const std::vector<size_t>& group, const Holding& h) {
  TierLine& line = b.tiers[group.front()];
  const auto name = parse_tier(line.billed_tier);
  double share = 0, used_usd = 0, used_h = 0;
  for (size_t i : group) {
    share += b.tiers[i].share;
    used_usd += b.tiers[i].usd;
    used_h += b.tiers[i].instance_hours;
  }
  std::string renewed;
  const int instances = held_instances(in, group, share, h.nodes);
  const auto held = name ? held_hours(*name, instances, h, renewed) : std::nullopt;
  if (!held) return;
  const std::string f = mix_entries_label(group);
  if (!renewed.empty()) b.warnings.push_back(f + ": " + renewed);
  if (name->kind == TierKind::capacity_block && instances > kCapacityBlockMaxInstancesPerAccount)
    b.warnings.push_back(f + ": " + std::to_string(instances) + " instances in Capacity Blocks at once is over the "
                         "limit of 256 per account and date (EC2 User Guide, Capacity Blocks)");
  line.paid_instance_hours = held->first;
  line.commitment = held->second;
  line.committed_usd = line.paid_instance_hours * line.usd_per_hour;
  line.idle_usd = std::max(0.0, line.committed_usd - used_usd);
  // Under half a cent the bill rounds to $0.00; a share of the commitment would drop real dollars
  // from a large one (1e-6 of a $64M commitment is $64).
  constexpr double kBillRoundingUsd = 0.005;
  if (!(line.idle_usd >= kBillRoundingUsd)) {
    line.idle_usd = 0;
    return;
  }
  std::string what = f + ": " + line.commitment + " commits " + usd(line.committed_usd) + "; this campaign uses " +
                     usd(used_usd) + " of it (" + fmt("%.3g", used_usd / line.committed_usd * 100) + "%)";
  if (name->kind != TierKind::capacity_block && in.campaign.runs > 0 && used_h > 0)
    what += "; " + fmt("%.3g", line.paid_instance_hours / name->term_years / (used_h / in.campaign.runs)) +
            " runs a year like this one fill it";
  if (in.pricing.idle_commitment == IdleCommitment::bill) {
    add_line(b, {"instance." + line.billed_tier + ".idle", line.idle_usd / line.usd_per_hour, "instance-hours",
                 line.usd_per_hour, line.idle_usd, "paid, not used: " + line.commitment});
    b.warnings.push_back(what + "; the idle " + usd(line.idle_usd) + " is on this bill");
  } else {
    b.warnings.push_back(what + "; the idle " + usd(line.idle_usd) +
                         " is NOT on this bill (pricing.idle_commitment: share): other work must fill it");
  }
}

// One line per mix entry on the bill; returns the blended $ per instance-hour over the priced share.
double bill_tiers(Bill& b, const CostInputs& in, const std::vector<double>& shares, const std::vector<Rate>& rates,
                  const Holding& h) {
  const auto& mix = in.pricing.mix;
  double blended = 0;  // $ per instance-hour over the priced share
  for (size_t i = 0; i < mix.size(); ++i) {
    TierLine line;
    line.tier = mix[i].tier;
    line.billed_tier = rates[i].billed_tier;
    line.share = shares[i];
    line.instance_hours = b.instance_hours * shares[i];
    line.priced = rates[i].priced;
    line.usd_per_hour = rates[i].usd_per_hour;
    line.usd = line.priced ? line.instance_hours * line.usd_per_hour : 0;
    line.region = rates[i].region;
    line.date = rates[i].date;
    line.source = rates[i].source;
    if (line.priced) {
      blended += shares[i] * line.usd_per_hour;
      add_line(b, {"instance." + line.billed_tier, line.instance_hours, "instance-hours", line.usd_per_hour,
                   line.usd, price_detail(line)});
    }
    b.tiers.push_back(line);
  }
  // Entries billed at one tier share one commitment (several fall back to one Capacity Block).
  std::vector<bool> done(mix.size(), false);
  for (size_t i = 0; i < mix.size(); ++i) {
    if (done[i] || !b.tiers[i].priced) continue;
    std::vector<size_t> group;
    for (size_t k = i; k < mix.size(); ++k)
      if (!done[k] && b.tiers[k].priced && b.tiers[k].billed_tier == b.tiers[i].billed_tier &&
          b.tiers[k].usd_per_hour == b.tiers[i].usd_per_hour) {
        group.push_back(k);
        done[k] = true;
      }
    bill_commitment(b, in, group, h);
  }
  return blended;
}

// The spot interruption rate: the scenario's, else the instance's Advisor band in the region, else
// the highest band (said so).
void resolve_spot_hazard(CostInputs& in, const Instance& inst, const std::string& region, double spot_share,
                         Bill& b) {
  if (in.spot.interruptions_per_hour || !(spot_share > 0)) return;
  const SpotBand* band = find_spot_band(inst, region);
  in.spot.interruptions_per_hour = spot_interruptions_per_hour(band ? band->band : 4);
  if (!band)
    b.warnings.push_back("spot: the Spot Instance Advisor publishes no interruption band for " + inst.id + " in " +
                         region + "; taken as the highest (>20% a month, at least " +
                         fmt("%.2g", *in.spot.interruptions_per_hour) + " per instance-hour)");
}

// The interruption rate at which a spot run costs what an on-demand run does. Interruptions
// stretch the run (restart and lost work, see wall_time), so the cost rises with the rate;
// bisection on the wall-time model itself. 0: spot is not cheaper even without interruptions.
double spot_break_even(CostInputs in, const JobPerf& job, const Accelerator& acc, double spot_usd_h,
                       double od_usd_h) {
  const double od = od_usd_h * wall_time(in, job, acc, 0.0).billed_s;
  auto dearer = [&](double rate) {
    in.spot.interruptions_per_hour = rate;
    try {
      return spot_usd_h * wall_time(in, job, acc, 1.0).billed_s >= od;
    } catch (const CostError&) {
      return true;  // so many interruptions that the run never finishes
    }
  };
  if (dearer(0)) return 0;
  double lo = 0, hi = 1e-6;
  while (!dearer(hi) && hi < 1e3) lo = hi, hi *= 2;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (dearer(mid) ? hi : lo) = mid;
  }
  return lo;
}

void check_spot(Bill& b, const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                const std::string& region) {
  const PriceTier* od = find_price(inst, "on_demand", region);
  for (auto& line : b.tiers) {
    if (line.billed_tier != "spot" || !line.priced || !od) continue;
    const double rate = in.spot.interruptions_per_hour.value_or(0);
    line.break_even_interruptions_per_hour = spot_break_even(in, job, acc, line.usd_per_hour, od->price_usd_per_hour);
    if (rate >= line.break_even_interruptions_per_hour)
      b.warnings.push_back("spot: at " + fmt("%.2g", rate) + " interruptions per instance-hour spot costs more than "
                           "on demand (" + usd(od->price_usd_per_hour) + "/h) for this job; it breaks even at " +
                           fmt("%.2g", line.break_even_interruptions_per_hour) + " per instance-hour");
  }
}

void check_region(const Instance& inst, const std::string& region, Bill& b) {
  if (inst.regions_offered.empty() ||
      std::find(inst.regions_offered.begin(), inst.regions_offered.end(), region) != inst.regions_offered.end())
    return;
  std::string where;
  for (const auto& r : inst.regions_offered) append_item(where, r);
  b.warnings.push_back(inst.id + " is not offered in " + region + " (offered in " + where +
                       "; set pricing.region or pricing.instance_regions)");
}

}  // namespace

CostResult evaluate_cost(const CostInputs& in_, const JobPerf& job, const Instance& inst,
                         const Accelerator& acc) {
  for (const auto& p : validate(in_)) throw CostError(p.field, p.reason);
  CostInputs in = in_;
  // Every part of the bill reads the one resolved region.
  const std::string region = resolve_region(in.pricing, inst);
  const std::string asked = pricing_region(in.pricing, inst.id);
  in.pricing.region = region;
  in.pricing.instance_regions.clear();
  if (job.nodes < 1) throw CostError("nodes", std::to_string(job.nodes) + " must be >= 1");
  if (!(job.step_time_s >= 0 && std::isfinite(job.step_time_s)) || !(job.steps >= 0 && std::isfinite(job.steps)))
    throw CostError("step_time_s", "the estimate has no finite step time or step count");

  CostResult r;
  Bill& b = r.bill;
  b.kind = "cloud";
  b.instance_id = inst.id;
  b.region = region;
  if (region != asked)
    b.warnings.push_back("pricing.region: " + inst.id + " has no price in " + asked + " (the default region); "
                         "priced in " + region + ", where it is sold (set pricing.region to choose)");

  const std::vector<double> shares = mix_shares(in, job, b);
  double spot_share = 0;
  check_region(inst, region, b);
  const std::vector<Rate> rates = mix_rates(in, inst, shares, b, spot_share);
  resolve_spot_hazard(in, inst, region, spot_share, b);

  r.wall = wall_time(in, job, acc, spot_share, 1.0, false);
  const CampaignTime ct = campaign_time(in, job, acc, spot_share);
  b.instance_hours = job.nodes * ct.billed_s / 3600.0;

  Holding h;
  h.nodes = job.nodes;
  h.ct = &ct;
  h.ultraserver = inst.ultraserver;
  h.back_to_back = !(in.campaign.runs_per_month > 0);
  h.span_h = std::max(ct.wall_s / 3600.0,
                      h.back_to_back ? 0.0 : in.campaign.runs / in.campaign.runs_per_month * kHoursPerMonth);
  const double blended = bill_tiers(b, in, shares, rates, h);
  check_spot(b, in, job, inst, acc, region);
  double instance_usd = 0;
  for (const auto& t : b.items_usd) instance_usd += t.value;
  finish_bill(b, in, job, ct, blended, blended, "cost_usd");
  double idle_usd = 0;
  for (const auto& t : b.tiers) idle_usd += t.idle_usd;
  if (in.pricing.idle_commitment == IdleCommitment::bill && idle_usd > 0)
    add_term(b.instance_usd_by_term, "idle_commitment", idle_usd);
  derive(b, in, job, instance_usd);

  bool known = false;
  const double pw = node_power_w(job, in.energy.node_power_w, &known);
  fill_energy(b, job, pw, known, in.energy.cloud_pue, in.energy, ct);

  if (in.owned.enabled && (in.owned.instance_id.empty() || in.owned.instance_id == inst.id))
    r.owned = owned_bill(in, job, inst, acc, r);

  if (in.deadline_days) {
    DeadlineCheck dc;
    dc.deadline_s = *in.deadline_days * 86400.0;
    dc.wall_s = r.wall.total_s;
    dc.meets = dc.wall_s <= dc.deadline_s;
    dc.margin_s = dc.deadline_s - dc.wall_s;
    r.deadline = dc;
  }

  r.warnings = b.warnings;
  if (r.owned)
    for (const auto& w : r.owned->warnings) r.warnings.push_back(w);
  return r;
}

CostInputs baseline_inputs(const CostInputs& in) {
  CostInputs b = in;
  b.engineering = EngineeringInputs{};
  b.owned.enabled = false;
  return b;
}

BaselineComparison compare_with_baseline(const CostInputs& in, const Bill& mine, const Bill& base) {
  BaselineComparison c;
  c.baseline_instance = base.instance_id;
  c.priced = mine.priced && base.priced;
  const double runs = std::max(in.campaign.runs, 1e-300);
  c.usd_per_run = (mine.total_usd - mine.engineering_usd) / runs;
  c.baseline_usd_per_run = (base.total_usd - base.engineering_usd) / runs;
  c.saving_usd_per_run = c.baseline_usd_per_run - c.usd_per_run;
  c.saving_fraction = c.baseline_usd_per_run > 0 ? c.saving_usd_per_run / c.baseline_usd_per_run : 0;
  // Runs per month: as given, else back to back on the new platform (a campaign shorter than a
  // month counts as one a month, as in Bill::usd_per_month).
  const double per_month = in.campaign.runs_per_month > 0
                               ? in.campaign.runs_per_month
                               : in.campaign.runs / std::max(1.0, mine.campaign_months);
  c.saving_usd_per_month = c.saving_usd_per_run * per_month;
  c.engineering_usd = in.engineering.person_weeks * in.engineering.usd_per_week;
  // Payback: the one-off migration over the monthly saving.
  if (c.saving_usd_per_month > 0) c.payback_months = c.engineering_usd / c.saving_usd_per_month;
  return c;
}

}  // namespace tc
