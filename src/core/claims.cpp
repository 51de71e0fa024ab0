// Claim check: implied utilization and $/hour of a claim, and its verdict with reasons.
#include "core/claims.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tc {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::implausible: return "implausible";
    case Verdict::impossible: return "impossible";
    case Verdict::unchecked: return "unchecked";
  }
  return "unchecked";
}

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::string usd(double v) { return format_usd(v); }
std::string pct(double v) { return fmt("%.3g", v * 100) + "%"; }
std::string days(double s) { return format_duration(s); }
std::string count(double v) { return v >= 100 ? fmt("%.0f", v) : fmt("%.3g", v); }

const char* const kNothingChecked = "nothing in this claim that the model checks";
const char* kPrecisionNames[] = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4"};

// Worst verdict wins; unchecked only when nothing was checked.
void raise(ClaimCheck& c, Verdict v) {
  auto rank = [](Verdict x) {
    switch (x) {
      case Verdict::unchecked: return 0;
      case Verdict::ok: return 1;
      case Verdict::implausible: return 2;
      case Verdict::impossible: return 3;
    }
    return 0;
  };
  if (rank(v) > rank(c.verdict)) c.verdict = v;
}

// What a claim is about: the platform it names and what the scenario and estimate tell of it.
struct Platform {
  const Scenario* scenario = nullptr;
  bool same_instance = false;       // about the scenario's own instance and workload: the estimate applies
  const Instance* inst = nullptr;
  const Accelerator* acc = nullptr;
  int nodes = 0;
  int chips = 0;
  double peak = 0;  // dense TFLOPS per chip at the scenario's precision
  std::string precision, chip;      // names, for the reasons
  std::optional<double> run_flops;  // model FLOPs of one run
  double flops_per_token = 0;       // 0: no estimate
};

// Price lines an instance can be billed at, spot derived from its typical discount.
struct PublicRate {
  std::string tier;
  double usd_per_hour;
  std::string what;
};
// The region the claim's instance is priced in (empty: any).
std::string region_of(const Instance& inst, const ClaimContext& ctx) {
  return ctx.pricing ? resolve_region(*ctx.pricing, inst) : std::string();
}

std::vector<PublicRate> public_rates(const Instance& inst, const std::string& region) {
  std::vector<PublicRate> v;
  for (const auto& p : inst.prices)
    if (p.price_usd_per_hour > 0 && std::isfinite(p.price_usd_per_hour) && price_in_region(p, region))
      v.push_back({p.tier, p.price_usd_per_hour, describe_price(inst, p)});
  if (!find_price(inst, "spot", region) && inst.spot_discount > 0)
    if (const PriceTier* od = find_price(inst, "on_demand", region))
      v.push_back({"spot", od->price_usd_per_hour * (1 - inst.spot_discount),
                   inst.id + " spot ~" + usd(od->price_usd_per_hour * (1 - inst.spot_discount)) +
                       "/h (typical " + pct(inst.spot_discount) + " off on_demand)"});
  return v;
}

// Other list prices within 2% of a claimed price, where the figure probably came from: another
// tier of the same instance, or the same tier of another instance (a mislabelled instance).
// Other tiers of other instances would be coincidences.
std::string price_matches(double claimed, const Instance& self, const std::string& tier,
                          const ClaimContext& ctx) {
  std::vector<std::string> hits;
  // Another instance's price counts only in the region being priced: the same tier in another
  // region of another instance would be a coincidence.
  const std::string region = region_of(self, ctx);
  auto scan = [&](const Instance& inst) {
    for (const auto& p : inst.prices) {
      if (!(p.price_usd_per_hour > 0)) continue;
      if (inst.id == self.id && p.tier == tier) continue;
      if (inst.id != self.id && (p.tier != tier || !price_in_region(p, region))) continue;
      if (std::abs(claimed / p.price_usd_per_hour - 1) <= 0.02) hits.push_back(describe_price(inst, p));
    }
    // An earlier list price of the same tier: figures outlive price changes in blogs and decks.
    for (const auto& p : inst.price_history) {
      if (p.tier != tier || !(p.price_usd_per_hour > 0)) continue;
      if (std::abs(claimed / p.price_usd_per_hour - 1) <= 0.02)
        hits.push_back(inst.id + " " + p.tier + " " + usd(p.price_usd_per_hour) + "/h, the list price until " +
                       p.date + " (" + p.region + ")");
    }
  };
  bool self_scanned = false;
  if (ctx.instances)
    for (const auto& i : *ctx.instances) {
      scan(i);
      self_scanned = self_scanned || i.id == self.id;
    }
  if (!self_scanned) scan(self);
  if (hits.empty()) return "";
  std::string s = "; it matches ";
  for (size_t i = 0; i < hits.size(); ++i) s += (i ? ", " : "") + hits[i];
  return s;
}

const Instance* find_instance(const ClaimContext& ctx, const std::string& id) {
  if (id.empty() || id == ctx.scenario->instance.id) return &ctx.scenario->instance;
  if (ctx.instances)
    for (const auto& i : *ctx.instances)
      if (i.id == id) return &i;
  return nullptr;
}

const Accelerator* find_accelerator(const ClaimContext& ctx, const std::string& id) {
  if (id == ctx.scenario->accelerator.id || id.empty()) return &ctx.scenario->accelerator;
  if (ctx.accelerators)
    for (const auto& a : *ctx.accelerators)
      if (a.id == id) return &a;
  return nullptr;
}

// Judges a utilization figure against the dense peak and the published ceiling.
void judge_mfu(ClaimCheck& c, double mfu, const std::string& what, const ClaimContext& ctx) {
  if (mfu > 1) {
    raise(c, Verdict::impossible);
    c.reasons.push_back(what + " implies " + pct(mfu) + " of dense peak: above 100% is impossible");
  } else if (mfu > ctx.mfu_ceiling) {
    raise(c, Verdict::implausible);
    c.reasons.push_back(what + " implies " + pct(mfu) + " MFU, above the " + pct(ctx.mfu_ceiling) +
                        " that published large runs stay under (best reported: 55.2%, MegaScale 2024)");
  } else {
    raise(c, Verdict::ok);
    c.reasons.push_back(what + " implies " + pct(mfu) + " MFU: possible");
  }
}

// A claimed hourly price against the list price of its tier (a derived spot price is a range).
void check_price(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  if (cl.usd_per_hour) {
    const double claimed = *cl.usd_per_hour;
    c.implied.push_back({"claimed_usd_per_hour", claimed});
    const std::string region = region_of(*pf.inst, ctx);
    const PriceTier* list = find_price(*pf.inst, cl.tier, region);
    double list_usd = list ? list->price_usd_per_hour : 0;
    std::string list_what = list ? describe_price(*pf.inst, *list) : "";
    if (!list && cl.tier == "spot" && pf.inst->spot_discount > 0)
      if (const PriceTier* od = find_price(*pf.inst, "on_demand", region)) {
        list_usd = od->price_usd_per_hour * (1 - pf.inst->spot_discount);
        list_what = pf.inst->id + " spot ~" + usd(list_usd) + "/h (typical " + pct(pf.inst->spot_discount) +
                    " off on_demand " + usd(od->price_usd_per_hour) + ", " + od->date + ")";
      }
    const std::string matches = price_matches(claimed, *pf.inst, cl.tier, ctx);
    // Spot prices float with demand: a derived typical spot price is a range, not a list price.
    const bool derived_spot = !list && cl.tier == "spot";
    const double tol = derived_spot ? std::max(ctx.price_tolerance, kSpotTolerance) : ctx.price_tolerance;
    if (list_usd > 0) {
      c.implied.push_back({"list_usd_per_hour", list_usd});
      const double d = claimed / list_usd - 1;
      if (std::abs(d) <= tol) {
        raise(c, Verdict::ok);
        c.reasons.push_back(usd(claimed) + "/h " + (derived_spot ? "is within " + pct(tol) + " of the typical spot price: "
                                                                  : std::string("matches the list price: ")) + list_what);
      } else {
        raise(c, Verdict::implausible);
        c.reasons.push_back(usd(claimed) + "/h is not the list price (" + fmt("%+.1f", d * 100) +
                            "%): " + list_what +
                            (matches.empty() ? "; no other tier of " + pf.inst->id + ", no earlier list price and no " +
                                                   cl.tier + " price of another instance is within 2% of it"
                                             : matches));
      }
    } else {
      raise(c, Verdict::implausible);
      std::string pub;
      for (const auto& r : public_rates(*pf.inst, region)) append_item(pub, r.what, "; ");
      c.reasons.push_back(usd(claimed) + "/h cannot be a list price: " + pf.inst->id + " has no public " +
                          cl.tier + " price" + (region.empty() ? "" : " in " + region) + " (public: " + (pub.empty() ? "none" : pub) + ")" + matches);
    }
  }
}

// A claimed peak against the chip's dense peak at the scenario's precision, naming the figure it
// probably is when it is not.
void check_peak(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  const Scenario& sc = *pf.scenario;
  const std::string& prec = pf.precision;
  const std::string& chip = pf.chip;
  if (cl.peak_tflops) {
    const double cp = *cl.peak_tflops;
    if (pf.peak > 0 && std::abs(cp / pf.peak - 1) <= ctx.price_tolerance) {
      raise(c, Verdict::ok);
      c.reasons.push_back("claimed peak " + fmt("%g", cp) + " TFLOPS is " + chip + "'s dense " + prec + " peak");
    } else {
      raise(c, Verdict::implausible);
      std::string r = "claimed peak " + fmt("%g", cp) + " TFLOPS is not " + chip + "'s dense " + prec +
                      " peak (" + fmt("%g", pf.peak) + ")";
      if (pf.peak > 0 && std::abs(cp / (2 * pf.peak) - 1) <= kPeakMatchTolerance)
        r += "; it is the 2:4-sparse datasheet figure, twice the dense peak";
      if (ctx.accelerators)
        for (const auto& a : *ctx.accelerators) {
          if (pf.acc && a.id == pf.acc->id) continue;
          // The scenario's precision first: "190 is trainium1's bf16 peak" rather than its tf32.
          const int first = static_cast<int>(sc.precision);
          for (int k = 0; k < kPrecisionCount; ++k) {
            const int p = k == 0 ? first : (k <= first ? k - 1 : k);
            if (a.peak_tflops[p] > 0 && std::abs(cp / a.peak_tflops[p] - 1) <= kPeakMatchTolerance) {
              r += "; it is " + a.id + "'s dense " + kPrecisionNames[p] + " peak (" + fmt("%g", a.peak_tflops[p]) + ")";
              break;
            }
          }
        }
      c.reasons.push_back(r);
    }
  }
}

// Achieved TFLOPS per chip and a stated MFU: the utilization they imply, and whether they agree.
void check_utilization(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  const std::string& prec = pf.precision;
  const std::string& chip = pf.chip;
  if (cl.tflops_per_chip && pf.peak > 0) {
    const double mfu = *cl.tflops_per_chip / pf.peak;
    c.implied.push_back({"implied_mfu", mfu});
    judge_mfu(c, mfu, fmt("%g", *cl.tflops_per_chip) + " TFLOPS per chip on " + chip + " (" +
                          fmt("%g", pf.peak) + " dense " + prec + ")", ctx);
  }
  if (cl.mfu) {
    const double m = *cl.mfu;
    if (cl.tflops_per_chip) {
      const double basis = cl.peak_tflops ? *cl.peak_tflops : pf.peak;
      if (basis > 0) {
        const double stated = *cl.tflops_per_chip / basis;
        if (std::abs(stated - m) > 0.05) {
          raise(c, Verdict::implausible);
          c.reasons.push_back("inconsistent: " + pct(m) + " of " + fmt("%g", basis) + " TFLOPS is " +
                              fmt("%.4g", m * basis) + " TFLOPS, not " + fmt("%g", *cl.tflops_per_chip));
        } else if (cl.peak_tflops && pf.peak > 0 && std::abs(*cl.peak_tflops / pf.peak - 1) > ctx.price_tolerance) {
          c.reasons.push_back("the stated " + pct(m) + " is of the wrong peak; against " + chip + "'s " +
                              fmt("%g", pf.peak) + " TFLOPS it is " + pct(*cl.tflops_per_chip / pf.peak));
        }
      }
    } else {
      c.implied.push_back({"claimed_mfu", m});
      judge_mfu(c, m, "the claimed utilization", ctx);
    }
  }
}

// A claimed wall time: the utilization the run's FLOPs would need, and the estimate beside it.
void check_wall_time(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  const Scenario& sc = *pf.scenario;
  const bool same_instance = pf.same_instance;
  const std::string& chip = pf.chip;
  const std::optional<double>& run_flops = pf.run_flops;
  if (cl.wall_time_s) {
    const double t = *cl.wall_time_s;
    if (run_flops && pf.peak > 0 && pf.chips > 0 && t > 0) {
      const double mfu = *run_flops / (t * pf.chips * pf.peak * 1e12);
      c.implied.push_back({"implied_mfu", mfu});
      judge_mfu(c, mfu, days(t) + " on " + std::to_string(pf.nodes) + " x " + pf.inst->id + " (" +
                            std::to_string(pf.chips) + " " + chip + ") for " + fmt("%.3g", *run_flops) +
                            " model FLOPs", ctx);
    } else {
      c.reasons.push_back("wall time not checked: no FLOP count for the run (no estimate, no training_flops)");
    }
    if (same_instance && ctx.cost && ctx.cost->wall.total_s > 0 && pf.nodes == sc.nodes) {
      c.implied.push_back({"estimated_wall_time_s", ctx.cost->wall.total_s});
      c.reasons.push_back("the estimate for this scenario is " + days(ctx.cost->wall.total_s) +
                          " (claim / estimate = " + fmt("%.2f", t / ctx.cost->wall.total_s) + ")");
    }
  }
}

// A claimed throughput: the utilization it implies.
void check_throughput(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  const std::string& chip = pf.chip;
  const double flops_per_token = pf.flops_per_token;
  if (cl.tokens_per_s) {
    if (flops_per_token > 0 && pf.peak > 0 && pf.chips > 0) {
      const double mfu = *cl.tokens_per_s * flops_per_token / (pf.chips * pf.peak * 1e12);
      c.implied.push_back({"implied_mfu", mfu});
      judge_mfu(c, mfu, fmt("%.4g", *cl.tokens_per_s) + " tokens/s on " + std::to_string(pf.chips) + " " + chip, ctx);
    } else {
      c.reasons.push_back("throughput not checked: no FLOPs per token (no estimate)");
    }
  }
}

// A claimed bill: the price per instance-hour it implies against the public rates, the cheapest
// the FLOPs can be, and the estimated bill beside it.
void check_bill(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  const Scenario& sc = *pf.scenario;
  const bool same_instance = pf.same_instance;
  const std::optional<double>& run_flops = pf.run_flops;
  if (cl.bill_usd) {
    std::optional<double> t = cl.wall_time_s;
    std::string basis = "the claimed time";
    if (!t && same_instance && ctx.cost && pf.nodes == sc.nodes) {
      t = ctx.cost->wall.billed_s;
      basis = "the estimated time (" + days(*t) + ")";
    }
    const double compute = *cl.bill_usd - cl.bill_other_usd;
    const auto rates = public_rates(*pf.inst, region_of(*pf.inst, ctx));
    if (t && *t > 0) {
      const double ih = pf.nodes * *t / 3600.0 * cl.runs;
      const double implied = compute / ih;
      c.implied.push_back({"implied_usd_per_instance_hour", implied});
      if (rates.empty()) {
        c.reasons.push_back("bill implies " + usd(implied) + " per instance-hour over " + basis + "; " +
                            pf.inst->id + " has no public price to compare it with");
      } else {
        const auto lo = *std::min_element(rates.begin(), rates.end(),
                                          [](auto& a, auto& b) { return a.usd_per_hour < b.usd_per_hour; });
        const auto hi = *std::max_element(rates.begin(), rates.end(),
                                          [](auto& a, auto& b) { return a.usd_per_hour < b.usd_per_hour; });
        const std::string head = usd(*cl.bill_usd) +
                                 (cl.bill_other_usd > 0 ? " (" + usd(compute) + " for instances)" : std::string()) +
                                 " over " + count(ih) + " instance-hours (" + basis + ", " +
                                 std::to_string(pf.nodes) + " x " + pf.inst->id + ") is " + usd(implied) +
                                 " per instance-hour";
        // Every rate it was compared with, so that a reader can see none is near.
        std::string all;
        for (const auto& r : rates) append_item(all, r.tier + " " + usd(r.usd_per_hour));
        if (implied < lo.usd_per_hour * (1 - ctx.price_tolerance)) {
          raise(c, Verdict::implausible);
          c.reasons.push_back(head + ": implausibly cheap, below every public rate (lowest: " + lo.what +
                              "; compared with " + all + ")");
        } else if (implied > hi.usd_per_hour * (1 + ctx.price_tolerance)) {
          raise(c, Verdict::implausible);
          c.reasons.push_back(head + ": above every public rate (highest: " + hi.what + "; compared with " + all + ")");
        } else {
          raise(c, Verdict::ok);
          c.reasons.push_back(head + ": within the public rates (" + usd(lo.usd_per_hour) + " to " +
                              usd(hi.usd_per_hour) + ")");
        }
      }
    } else {
      c.reasons.push_back("bill not checked against prices: no wall time (claimed or estimated)");
    }
    // The cheapest the FLOPs can be: every chip at dense peak, at the lowest public rate.
    if (run_flops && pf.peak > 0 && pf.inst->chips_per_node > 0 && !rates.empty()) {
      double lo = rates.front().usd_per_hour;
      for (const auto& r : rates) lo = std::min(lo, r.usd_per_hour);
      const double floor_usd = *run_flops * cl.runs / (pf.peak * 1e12 * pf.inst->chips_per_node) / 3600.0 * lo;
      c.implied.push_back({"compute_floor_usd", floor_usd});
      if (compute < floor_usd) {
        raise(c, Verdict::implausible);
        c.reasons.push_back(usd(compute) + " of instance time cannot buy " + fmt("%.3g", *run_flops) +
                            " FLOPs on " + pf.inst->id + ": even at 100% of peak and " + usd(lo) +
                            "/h that costs " + usd(floor_usd) + " (" + usd(floor_usd / ctx.mfu_ceiling) +
                            " at " + pct(ctx.mfu_ceiling) + " MFU), short of a negotiated discount");
      }
    }
    if (same_instance && ctx.cost && ctx.cost->bill.priced && pf.nodes == sc.nodes && ctx.cost->bill.runs > 0) {
      const double est_run = ctx.cost->bill.usd_per_run * cl.runs;
      c.implied.push_back({"estimated_usd_per_run", est_run});
      c.reasons.push_back("the estimated bill is " + usd(est_run) + " for " + count(cl.runs) +
                          (cl.runs == 1 ? " run" : " runs") + " (claim / estimate = " +
                          fmt("%.2f", *cl.bill_usd / est_run) + ")");
    }
  }
}

// A bill with its own rate and hours, recomputed two ways: from the author's stated $/h (does the
// author's arithmetic give the bill?) and from today's list price of the same tier (what the same
// hours cost now). A bill off its own arithmetic by more than the price tolerance is implausible.
void check_bill_arithmetic(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext& ctx) {
  if (!cl.bill_usd || !cl.wall_time_s || !(*cl.wall_time_s > 0)) return;
  const double ih = pf.nodes * *cl.wall_time_s / 3600.0 * cl.runs;
  const std::string hours = std::to_string(pf.nodes) + " x " + days(*cl.wall_time_s) +
                            (cl.runs == 1 ? std::string() : " x " + count(cl.runs) + " runs") + " = " +
                            count(ih) + " instance-hours";
  const std::string other = cl.bill_other_usd > 0 ? " + " + usd(cl.bill_other_usd) + " other" : std::string();
  if (cl.usd_per_hour) {
    const double own = ih * *cl.usd_per_hour + cl.bill_other_usd;
    c.implied.push_back({"bill_at_claimed_rate_usd", own});
    const double r = *cl.bill_usd / own;
    const bool agrees = std::abs(r - 1) <= ctx.price_tolerance;
    raise(c, agrees ? Verdict::ok : Verdict::implausible);
    c.reasons.push_back("at the author's own " + usd(*cl.usd_per_hour) + "/h: " + hours + other + " = " +
                        usd(own) + (agrees ? ", as claimed" : ", not the claimed " + usd(*cl.bill_usd)) +
                        " (claim / that = " + fmt("%.2f", r) + ")");
  }
  // Today's rate of the claim's tier, else on demand, else the first public rate (for trn2 its
  // Capacity Block price, the only one it has).
  const std::string region = region_of(*pf.inst, ctx);
  const auto rates = public_rates(*pf.inst, region);
  const PublicRate* now_rate = nullptr;
  for (const char* tier : {cl.tier.c_str(), "on_demand"})
    for (const auto& r : rates)
      if (!now_rate && r.tier == tier) now_rate = &r;
  if (!now_rate && !rates.empty()) now_rate = &rates.front();
  if (now_rate) {
    const double now = ih * now_rate->usd_per_hour + cl.bill_other_usd;
    c.implied.push_back({"bill_at_list_price_usd", now});
    c.reasons.push_back("at today's list price (" + now_rate->what + "): " + hours + other + " = " + usd(now) +
                        " (claim / that = " + fmt("%.2f", *cl.bill_usd / now) + ")");
  } else {
    c.reasons.push_back("no public price of " + pf.inst->id + (region.empty() ? "" : " in " + region) +
                        " to recompute the bill at");
  }
}

// One datasheet figure against the preset's, in any of the units it may have been written in
// (GB or GiB of HBM; a link's one direction or both).
void judge_spec(ClaimCheck& c, const std::string& what, double claimed,
                const std::vector<std::pair<double, std::string>>& preset) {
  std::string known;
  for (const auto& [v, how] : preset) {
    if (!(v > 0)) continue;
    if (std::abs(claimed / v - 1) <= kSpecTolerance) {
      raise(c, Verdict::ok);
      c.reasons.push_back(what + " " + fmt("%g", claimed) + " matches the preset's " + fmt("%g", v) + " " + how);
      return;
    }
    append_item(known, fmt("%g", v) + " " + how);
  }
  if (known.empty()) {
    c.reasons.push_back(what + " not checked: the preset has no figure for it");
    return;
  }
  raise(c, Verdict::implausible);
  c.reasons.push_back(what + " " + fmt("%g", claimed) + " is not the preset's (" + known + ")");
}

// Chips, HBM, links and network against the presets of the instance and its chip.
void check_specs(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext&) {
  const Instance& in = *pf.inst;
  const double gib = pf.acc ? pf.acc->hbm_gib : 0, gb = gib * 1.073741824;
  const std::string chip = pf.chip + " (" + in.id + ")";
  if (cl.chips_per_node) judge_spec(c, in.id + " chips per node", *cl.chips_per_node, {{static_cast<double>(in.chips_per_node), "chips"}});
  if (cl.hbm_gb_per_chip)
    judge_spec(c, "HBM per chip of " + chip, *cl.hbm_gb_per_chip, {{gib, "GiB"}, {gb, "GB"}});
  if (cl.hbm_gb_per_node)
    judge_spec(c, "HBM per node of " + in.id, *cl.hbm_gb_per_node,
               {{gib * in.chips_per_node, "GiB"}, {gb * in.chips_per_node, "GB"}});
  if (cl.hbm_tb_per_s)
    judge_spec(c, "HBM bandwidth (TB/s) of " + chip, *cl.hbm_tb_per_s, {{pf.acc ? pf.acc->hbm_tb_per_s : 0, "TB/s"}});
  if (cl.link_gb_per_s)
    judge_spec(c, "chip-to-chip link (GB/s) of " + chip, *cl.link_gb_per_s,
               {{in.intra.gb_per_s_per_chip, "GB/s one direction"}, {2 * in.intra.gb_per_s_per_chip, "GB/s both directions"}});
  if (cl.network_gbps)
    judge_spec(c, in.id + " network (Gbit/s per node)", *cl.network_gbps, {{in.inter_node_gbps, "Gbit/s"}});
}

// A claimed collective: the bandwidth per rank it needs against the instance's fastest link.
void check_collective(ClaimCheck& c, const Claim& cl, const Platform& pf, const ClaimContext&) {
  if (cl.collective_bytes && cl.collective_time_s && *cl.collective_time_s > 0) {
    // A bandwidth-optimal all-reduce moves 2 (n-1)/n of the buffer through every rank
    // (Patarasuk and Yuan 2009); n = 2 gives the loosest bound, S / t.
    const int n = std::max(2, cl.collective_ranks);
    const double need_gb_per_s = 2.0 * (n - 1) / n * *cl.collective_bytes / *cl.collective_time_s / 1e9;
    c.implied.push_back({"implied_gb_per_s_per_rank", need_gb_per_s});
    const double link = pf.inst->intra.gb_per_s_per_chip;
    const double net = pf.inst->inter_node_gbps / 8.0;
    const double best = std::max(link, net);
    if (best <= 0) {
      c.reasons.push_back("collective not checked: " + pf.inst->id + " has no link bandwidth in its preset");
    } else if (need_gb_per_s > best) {
      raise(c, Verdict::impossible);
      c.reasons.push_back(fmt("%.3g", *cl.collective_bytes / 1e9) + " GB all-reduced in " +
                          fmt("%.3g", *cl.collective_time_s * 1e3) + " ms needs " + fmt("%.4g", need_gb_per_s) +
                          " GB/s per rank, above " + pf.inst->id + "'s fastest link (" + fmt("%g", best) +
                          " GB/s per chip)");
    } else {
      raise(c, Verdict::ok);
      c.reasons.push_back("the collective needs " + fmt("%.4g", need_gb_per_s) + " GB/s per rank, within " +
                          fmt("%g", best) + " GB/s");
    }
  }
}

}  // namespace

namespace {
ClaimCheck check_figures(const Claim& cl, const ClaimContext& ctx);
}  // namespace

ClaimCheck check_claim(const Claim& cl, const ClaimContext& ctx) {
  if (!ctx.scenario) throw std::invalid_argument("check_claim: ClaimContext.scenario is required");
  ClaimCheck c = check_figures(cl, ctx);
  for (const auto& part : cl.parts) {
    const ClaimCheck pc = check_figures(part, ctx);
    raise(c, pc.verdict);
    const std::string head = part.text.empty() ? std::string() : part.text + ": ";
    for (const auto& r : pc.reasons) c.reasons.push_back(head + r);
    c.implied.insert(c.implied.end(), pc.implied.begin(), pc.implied.end());
  }
  // The fallback line only when neither the claim nor its parts said anything.
  if (!cl.parts.empty() && c.reasons.size() > 1 && c.reasons.front() == kNothingChecked)
    c.reasons.erase(c.reasons.begin());
  return c;
}

namespace {
ClaimCheck check_figures(const Claim& cl, const ClaimContext& ctx) {
  const Scenario& sc = *ctx.scenario;
  ClaimCheck c;
  c.id = cl.id;
  c.text = cl.text;
  // What cannot be checked is said first, then what can.
  if (!cl.reason.empty()) c.reasons.push_back("not checked: " + cl.reason);
  const bool same_instance = cl.instance_id.empty() || cl.instance_id == sc.instance.id;
  c.instance_id = same_instance ? sc.instance.id : cl.instance_id;

  Platform pf;
  pf.scenario = &sc;
  pf.same_instance = same_instance;
  pf.inst = find_instance(ctx, cl.instance_id);
  if (!pf.inst) {
    c.reasons.push_back("unknown instance '" + cl.instance_id + "': not checked");
    return c;
  }
  pf.acc = find_accelerator(ctx, pf.inst->accelerator_id);
  if (same_instance) pf.acc = &sc.accelerator;
  pf.nodes = cl.nodes.value_or(sc.nodes);
  pf.chips = pf.nodes * pf.inst->chips_per_node;
  pf.peak = pf.acc ? peak_tflops(*pf.acc, matmul_precision(sc)) : 0;
  pf.precision = kPrecisionNames[static_cast<int>(sc.precision)];
  pf.chip = pf.acc ? pf.acc->id : pf.inst->accelerator_id;

  // Model FLOPs of one run: the author's count, else the estimate's.
  const Estimate* est = cl.other_workload ? nullptr : ctx.estimate;
  pf.same_instance = same_instance && !cl.other_workload;
  pf.run_flops = cl.training_flops;
  if (!pf.run_flops && est && est->model_flops_per_step > 0 && est->steps > 0)
    pf.run_flops = est->model_flops_per_step * est->steps;
  if (est && est->tokens_per_s > 0 && est->step_time_s > 0)
    pf.flops_per_token = est->model_flops_per_step / (est->tokens_per_s * est->step_time_s);

  for (auto check : {check_price, check_peak, check_utilization, check_wall_time, check_throughput, check_bill,
                     check_bill_arithmetic, check_collective, check_specs})
    check(c, cl, pf, ctx);
  if (c.reasons.empty()) c.reasons.push_back(kNothingChecked);
  return c;
}
}  // namespace

VerdictCounts count_verdicts(const std::vector<ClaimCheck>& checks) {
  VerdictCounts n;
  for (const auto& c : checks) {
    switch (c.verdict) {
      case Verdict::ok: ++n.ok; break;
      case Verdict::implausible: ++n.implausible; break;
      case Verdict::impossible: ++n.impossible; break;
      case Verdict::unchecked: ++n.unchecked; break;
    }
  }
  return n;
}

std::string describe(const VerdictCounts& n) {
  return std::to_string(n.total()) + (n.total() == 1 ? " claim: " : " claims: ") + std::to_string(n.ok) +
         " ok, " + std::to_string(n.implausible) + " implausible, " + std::to_string(n.impossible) +
         " impossible, " + std::to_string(n.unchecked) + " unchecked";
}

std::vector<ClaimCheck> check_claims(const std::vector<Claim>& claims, const ClaimContext& ctx) {
  std::vector<ClaimCheck> v;
  v.reserve(claims.size());
  for (const auto& c : claims) v.push_back(check_claim(c, ctx));
  return v;
}

}  // namespace tc
