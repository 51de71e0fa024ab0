#include "core/plan_search.hpp"

#include <algorithm>
#include <string>

namespace tc {

namespace {

// The most plans one search evaluates: a few thousand for real clusters; a pathological input (a
// hundred thousand layers on a hundred million devices) would otherwise enumerate millions.
constexpr int kMaxPlans = 200000;

std::vector<int> divisors(int n, int limit) {
  std::vector<int> d;
  for (int i = 1; i <= n && i <= limit; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

std::vector<int> choices(int requested, std::vector<int> all) {
  if (requested != kAuto) return {requested};
  return all;
}

}  // namespace

namespace {

// Interleaving degrees that split the layers evenly, up to 8 chunks per stage.
std::vector<int> vpp_choices(const PlanRequest& rq, int pp, int layers) {
  if (rq.vpp != kAuto) return {rq.vpp};
  std::vector<int> vpps = {1};
  if (pp > 1)
    for (int v = 2; v <= 8 && count_product({pp, v}) <= layers; v *= 2)
      if (layers % (pp * v) == 0) vpps.push_back(v);
  return vpps;
}

// Powers of two up to 64 that divide the sequences per data-parallel rank.
std::vector<int> micro_batch_choices(const PlanRequest& rq, int dp, long long global_batch) {
  if (rq.micro_batch != kAuto) return {rq.micro_batch};
  std::vector<int> mbs;
  const long long per_dp = dp > 0 ? global_batch / dp : 0;
  for (int b = 1; b <= 64 && b <= per_dp; b *= 2)
    if (per_dp % b == 0) mbs.push_back(b);
  if (mbs.empty()) mbs = {1};
  return mbs;
}

// Why no plan was even checked: the degrees fixed by the request leave no split of the devices
// (e.g. pp 3 with dp 2 on 8 devices). Says which knobs to change.
InputProblem no_split(const PlanRequest& rq, int devices) {
  std::string fixed;
  const std::pair<const char*, int> knobs[] = {{"tp", rq.tp}, {"cp", rq.cp}, {"pp", rq.pp}, {"dp", rq.dp}};
  for (const auto& [name, value] : knobs)
    if (value != kAuto) fixed += (fixed.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(value);
  if (fixed.empty())
    return {"parallel", "no tp x cp x pp x dp splits the " + std::to_string(devices) + " devices of the cluster"};
  return {"parallel", "the fixed degrees (" + fixed + ") leave no tp x cp x pp x dp equal to the " +
                          std::to_string(devices) + " devices of the cluster: set some of them to \"auto\", "
                          "or change nodes or chips"};
}

}  // namespace

SearchResult search_plan(const Scenario& base, const PlanRequest& rq) {
  SearchResult res;
  const int devices = devices_of(base);
  const int per_node = base.instance.chips_per_node * base.accelerator.devices_per_chip;
  const ModelShape& m = base.model;
  if (auto p = check_model(m)) {
    res.why_none = *p;
    return res;
  }

  // Tensor parallelism stays inside the scale-up domain unless asked for explicitly.
  const auto tps = choices(rq.tp, divisors(devices, std::min(per_node, m.heads)));
  const auto cps = choices(rq.cp, {1});
  // Expert parallelism only means something for mixture-of-experts models.
  std::vector<int> moe_eps = {1};
  if (m.moe_experts > 0) moe_eps = divisors(m.moe_experts, devices);
  const auto eps = choices(rq.ep, moe_eps);
  const auto zeros = choices(rq.zero, {0, 1, 2, 3});
  const auto recomputes = choices(rq.recompute, {static_cast<int>(Recompute::none),
                                                 static_cast<int>(Recompute::selective),
                                                 static_cast<int>(Recompute::full)});

  Scenario s = base;
  std::optional<Estimate> best_fit, least_memory;
  bool have_problem = false, truncated = false;
  for (int tp : tps) {
    for (int cp : cps) {
      // In 64 bits: fixed degrees up to 2^20 each would wrap an int product (to 0: "tp x cp = 0").
      const long long tp_cp = count_product({tp, cp});
      const int rest = tp_cp > 0 && tp_cp <= devices ? static_cast<int>(devices / tp_cp) : 0;
      if (rest * tp_cp != devices) {
        if (!have_problem)
          res.why_none = {rq.tp != kAuto ? "parallel.tp" : "parallel.cp",
                          "tp x cp = " + std::to_string(tp_cp) + " does not divide the " +
                              std::to_string(devices) + " devices of the cluster"};
        have_problem = true;
        continue;
      }
      for (int pp : choices(rq.pp, divisors(rest, m.layers))) {
        const int dp = rq.dp != kAuto ? rq.dp : rest / pp;
        if (count_product({dp, pp}) != rest && rq.dp == kAuto) continue;
        const std::vector<int> vpps = vpp_choices(rq, pp, m.layers);
        const std::vector<int> mbs = micro_batch_choices(rq, dp, base.global_batch);
        const std::vector<int> sps =
            rq.sequence_parallel != kAuto ? std::vector<int>{rq.sequence_parallel}
                                          : std::vector<int>{tp > 1 ? 1 : 0};
        for (int vpp : vpps)
          for (int ep : eps)
            for (int zero : zeros) {
              if (rq.zero == kAuto && (zero > base.framework.max_zero || (zero > 0 && dp * cp == 1))) continue;
              for (int b : mbs)
                for (int sp : sps)
                  for (int rc : recomputes) {
                    if (res.considered >= kMaxPlans) {
                      truncated = true;
                      continue;
                    }
                    ++res.considered;
                    s.plan = {tp, pp, dp, cp, ep, vpp, sp != 0, zero, b, static_cast<Recompute>(rc)};
                    if (auto p = check_plan(s)) {
                      if (!have_problem) res.why_none = *p;
                      have_problem = true;
                      continue;
                    }
                    ++res.valid;
                    const Memory mem = memory_per_device(s);
                    if (!mem.fits) {
                      if (!best_fit && (!least_memory || mem.total_gib < least_memory->memory.total_gib)) {
                        least_memory = Estimate{};
                        least_memory->plan = s.plan;
                        least_memory->memory = mem;
                      }
                      continue;
                    }
                    ++res.fitting;
                    Estimate e = estimate(s, false);
                    if (!best_fit || e.step_time_s < best_fit->step_time_s ||
                        (e.step_time_s == best_fit->step_time_s &&
                         e.memory.total_gib < best_fit->memory.total_gib))
                      best_fit = std::move(e);
                  }
            }
      }
    }
  }
  if (best_fit) {
    s.plan = best_fit->plan;
    res.best = estimate(s);
  } else if (least_memory) {
    s.plan = least_memory->plan;
    res.best = estimate(s);
    res.best->warnings.push_back("no plan among " + std::to_string(res.valid) +
                                 " valid ones fits in memory; showing the one needing the least");
  }
  if (res.best) res.best->plans_considered = res.considered;
  if (res.best && truncated)
    res.best->warnings.push_back("the plan search stopped after " + std::to_string(kMaxPlans) +
                                 " plans; fix some of tp, pp, vpp, zero, micro_batch and recompute "
                                 "to search the others");
  // Every error names a field, even when the enumeration skipped all plans before checking one.
  if (!res.best && res.why_none.reason.empty()) res.why_none = no_split(rq, devices);
  return res;
}

}  // namespace tc
