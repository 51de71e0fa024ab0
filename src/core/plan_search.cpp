#include "core/plan_search.hpp"
#include "core/selection.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace tc {

namespace {

// The most plans one search evaluates: a few thousand for real clusters; a pathological input (a
// hundred thousand layers on a hundred million devices) would otherwise enumerate millions.
constexpr int kMaxPlans = 200000;
constexpr long long kMaxGlobalBatch = 1000000000;  // the scenario field's range

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

// What the search may choose of a knob left "auto": a stack's plans use only what it implements.
const FrameworkProfile::Parallelisms& offered(const Scenario& base) { return base.framework.parallelisms; }

// Interleaving degrees that split the layers evenly, up to 16 chunks a stage (MLPerf's GPT-3 175B
// runs 12 chunks of one layer on each of 8 stages; NVIDIA's Llama 3 70B recipes 10 on 8).
std::vector<int> vpp_choices(const Scenario& base, const PlanRequest& rq, int pp) {
  if (rq.vpp != kAuto) return {rq.vpp};
  const int layers = base.model.layers;
  std::vector<int> vpps = {1};
  if (pp > 1 && offered(base).vpp)
    for (int v = 2; v <= 16 && count_product({pp, v}) <= layers; ++v)
      if (layers % (pp * v) == 0) vpps.push_back(v);
  return vpps;
}

// Powers of two up to 64 that divide the sequences per data-parallel rank, and the largest divisor
// up to 64, the fewest accumulation steps (56 sequences a rank run as one micro-batch, not 7 of 8).
std::vector<int> micro_batch_choices(const PlanRequest& rq, int dp, long long global_batch) {
  if (rq.micro_batch != kAuto) return {rq.micro_batch};
  std::vector<int> mbs;
  const long long per_dp = dp > 0 ? global_batch / dp : 0;
  for (int b = 1; b <= 64 && b <= per_dp; b *= 2)
    if (per_dp % b == 0) mbs.push_back(b);
  for (int b = static_cast<int>(std::min<long long>(64, per_dp)); b > 1; --b)
    if (per_dp % b == 0) {
      if (b != mbs.back()) mbs.push_back(b);
      break;
    }
  if (mbs.empty()) mbs = {1};
  return mbs;
}

// Sequence parallelism with tensor parallelism wherever the stack has it (Korthikanti et al. 2022:
// it divides the activations it touches by tp at the same communication volume).
int default_sp(const Scenario& base, int tp) { return tp > 1 && offered(base).sp ? 1 : 0; }

// No recompute, the stack's selective recompute where it has one, full recompute.
std::vector<int> recompute_choices(const FrameworkProfile& fw) {
  std::vector<int> out = {static_cast<int>(Recompute::none)};
  if (fw.selective != FrameworkProfile::Selective::none) out.push_back(static_cast<int>(Recompute::selective));
  out.push_back(static_cast<int>(Recompute::full));
  return out;
}

std::vector<int> expert_choices(const Scenario& base, const PlanRequest& rq) {
  // Expert parallelism only means something for mixture-of-experts models.
  std::vector<int> moe_eps = {1};
  if (base.model.moe_experts > 0 && offered(base).ep) moe_eps = divisors(base.model.moe_experts, devices_of(base));
  return choices(rq.ep, moe_eps);
}

// Why no plan was even checked: the degrees fixed by the request leave no split of the devices
// (e.g. pp 3 with dp 2 on 8 devices). Says which knobs to change.
InputProblem no_split(const PlanRequest& rq, int devices) {
  std::string fixed;
  const std::pair<const char*, int> knobs[] = {{"tp", rq.tp}, {"cp", rq.cp}, {"pp", rq.pp}, {"dp", rq.dp}};
  for (const auto& [name, value] : knobs)
    if (value != kAuto) append_item(fixed, std::string(name) + " " + std::to_string(value));
  if (fixed.empty())
    return {"parallel", "no tp x cp x pp x dp splits the " + std::to_string(devices) + " devices of the cluster"};
  return {"parallel", "the fixed degrees (" + fixed + ") leave no tp x cp x pp x dp equal to the " +
                          std::to_string(devices) + " devices of the cluster: set some of them to \"auto\", "
                          "or change nodes or chips"};
}

// tp x cp x pp x dp of the cluster; `divides` false: tp x cp does not divide the devices.
struct Layout {
  int tp = 1, cp = 1, pp = 1, dp = 1;
  bool divides = true;
};

// Every layout the request allows, in the order the search meets them. Tensor parallelism stays
// inside the scale-up domain unless asked for explicitly, its groups do not straddle two nodes
// (tp divides a node's devices: ranks are placed in order, so tp 6 of 8 would cross), and it splits
// the heads (a 72-GPU rack's tp 9 would spend the search's plan budget on refusals).
std::vector<int> tp_choices(const Scenario& base, const PlanRequest& rq, int devices, int per_node) {
  if (rq.tp != kAuto) return {rq.tp};
  std::vector<int> tps;
  for (int tp : divisors(devices, offered(base).tp ? std::min(per_node, base.model.heads) : 1))
    if ((devices <= per_node || per_node % tp == 0) && !check_tp_heads(base.model, tp)) tps.push_back(tp);
  return tps;
}

// Context-parallel degrees, powers of two, where each rank keeps 4,096 tokens of a sequence or more:
// cp saves the activations of long sequences (NVIDIA's Llama 3 70B recipe runs cp 2 at 8,192
// tokens; SimuMax's B200 runs cp 4 and 8 at 32,768), and the many short-sequence jobs, which tp
// and recompute serve, keep the search they had.
std::vector<int> cp_choices(const Scenario& base, const PlanRequest& rq, int rest) {
  if (rq.cp != kAuto) return {rq.cp};
  std::vector<int> cps = {1};
  const int tokens = tokens_per_sample(base.model);
  if (offered(base).cp)
    for (int c = 2; c <= rest && tokens / c >= 4096; c *= 2)
      if (rest % c == 0 && tokens % c == 0) cps.push_back(c);
  return cps;
}

std::vector<Layout> layouts(const Scenario& base, const PlanRequest& rq) {
  const int devices = devices_of(base);
  const int per_node = base.instance.chips_per_node * base.accelerator.devices_per_chip;
  const ModelShape& m = base.model;
  std::vector<Layout> out;
  for (int tp : tp_choices(base, rq, devices, per_node)) {
    for (int cp : cp_choices(base, rq, devices % tp == 0 ? devices / tp : 0)) {
      // In 64 bits: fixed degrees up to 2^20 each would wrap an int product (to 0: "tp x cp = 0").
      const long long tp_cp = count_product({tp, cp});
      const int rest = tp_cp > 0 && tp_cp <= devices ? static_cast<int>(devices / tp_cp) : 0;
      if (rest * tp_cp != devices) {
        out.push_back({tp, cp, 1, 1, false});
        continue;
      }
      for (int pp : choices(rq.pp, divisors(rest, offered(base).pp ? m.layers : 1))) {
        const int dp = rq.dp != kAuto ? rq.dp : rest / pp;
        if (count_product({dp, pp}) != rest && rq.dp == kAuto) continue;
        out.push_back({tp, cp, pp, dp, true});
      }
    }
  }
  return out;
}

// The data-parallel share of a global batch: dp, times the micro-batch when it is fixed.
long long batch_unit(const Layout& l, const PlanRequest& rq) {
  return 1LL * l.dp * (rq.micro_batch != kAuto ? rq.micro_batch : 1);
}

long long nearest_multiple(long long batch, long long unit) {
  return std::max(1LL, (batch + unit / 2) / unit) * unit;
}

// Faster per sequence; with the same batch, faster per step, then less memory.
bool better(const Estimate& e, const Estimate& best) {
  if (e.global_batch == best.global_batch)
    return e.step_time_s < best.step_time_s ||
           (e.step_time_s == best.step_time_s && e.memory.total_gib < best.memory.total_gib);
  return e.step_time_s * static_cast<double>(best.global_batch) <
         best.step_time_s * static_cast<double>(e.global_batch);
}

// One search: the plans of each layout at a batch, the best that fits and the least-memory one.
class Search {
 public:
  Search(const Scenario& base, const PlanRequest& rq)
      : base_(base), rq_(rq), s_(base), eps_(expert_choices(base, rq)),
        zeros_(choices(rq.zero, {0, 1, 2, 3})),
        recomputes_(choices(rq.recompute, recompute_choices(base.framework))) {
    s_.pick_optimism = 0;
  }

  void layout(const Layout& l, long long batch);
  bool batch_blocked() const { return res_.valid == 0 && batch_blocked_; }
  SearchResult finish();

 private:
  void plan(const ParallelPlan& p, long long batch);
  void note_split(const ParallelPlan& p, double per_sequence_s);

  const Scenario& base_;
  const PlanRequest& rq_;
  Scenario s_;
  std::vector<int> eps_, zeros_, recomputes_;
  SearchResult res_;
  std::optional<Estimate> best_fit_, least_memory_;
  // The fastest time per sequence of each way of splitting the model (tp, pp, cp, ep) that fits:
  // the options whose predictions err independently (their micro-batch, interleaving, ZeRO stage
  // and recompute variants share the split's error), among which the pick's optimism is reckoned.
  std::vector<std::pair<std::array<int, 4>, double>> splits_;
  std::size_t last_split_ = 0;
  bool have_problem_ = false, truncated_ = false, batch_blocked_ = false;
};

void Search::layout(const Layout& l, long long batch) {
  if (!l.divides) {
    if (!have_problem_)
      res_.why_none = {rq_.tp != kAuto ? "parallel.tp" : "parallel.cp",
                       "tp x cp = " + std::to_string(count_product({l.tp, l.cp})) + " does not divide the " +
                           std::to_string(devices_of(base_)) + " devices of the cluster"};
    have_problem_ = true;
    return;
  }
  const std::vector<int> sps = rq_.sequence_parallel != kAuto ? std::vector<int>{rq_.sequence_parallel}
                                                              : std::vector<int>{default_sp(base_, l.tp)};
  for (int vpp : vpp_choices(base_, rq_, l.pp))
    for (int ep : eps_)
      for (int zero : zeros_) {
        if (rq_.zero == kAuto && (zero > base_.framework.max_zero || (zero > 0 && l.dp * l.cp == 1))) continue;
        for (int b : micro_batch_choices(rq_, l.dp, batch))
          for (int sp : sps)
            for (int rc : recomputes_) {
              const Recompute r = static_cast<Recompute>(rc);
              plan({l.tp, l.pp, l.dp, l.cp, ep, vpp, sp != 0, zero, b, r,
                    r == Recompute::full ? rq_.recompute_layers : 0, rq_.first_stage_layers,
                    rq_.last_stage_layers},
                   batch);
            }
      }
}

void Search::plan(const ParallelPlan& p, long long batch) {
  if (res_.considered >= kMaxPlans) {
    truncated_ = true;
    return;
  }
  ++res_.considered;
  s_.plan = p;
  s_.global_batch = batch;
  if (auto problem = check_plan(s_)) {
    batch_blocked_ |= problem->field == "global_batch";
    if (!have_problem_) res_.why_none = *problem;
    have_problem_ = true;
    return;
  }
  ++res_.valid;
  const Memory mem = memory_per_device(s_);
  if (!mem.fits) {
    if (!best_fit_ && (!least_memory_ || mem.total_gib < least_memory_->memory.total_gib)) {
      least_memory_ = Estimate{};
      least_memory_->plan = p;
      least_memory_->memory = mem;
      least_memory_->global_batch = batch;
    }
    return;
  }
  ++res_.fitting;
  Estimate e = estimate(s_, false);
  note_split(p, e.step_time_s / static_cast<double>(e.global_batch));
  if (!best_fit_ || better(e, *best_fit_)) best_fit_ = std::move(e);
}

// Plans of one split mostly come one after another (Search::layout: a mixture's ep alternates
// inside its interleavings), so the last split seen is looked at first.
void Search::note_split(const ParallelPlan& p, double per_sequence_s) {
  const std::array<int, 4> key{p.tp, p.pp, p.cp, p.ep};
  if (last_split_ >= splits_.size() || splits_[last_split_].first != key) {
    last_split_ = 0;
    while (last_split_ < splits_.size() && splits_[last_split_].first != key) ++last_split_;
    if (last_split_ == splits_.size()) splits_.push_back({key, per_sequence_s});
  }
  splits_[last_split_].second = std::min(splits_[last_split_].second, per_sequence_s);
}

SearchResult Search::finish() {
  const std::optional<Estimate>& chosen = best_fit_ ? best_fit_ : least_memory_;
  if (chosen) {
    s_.plan = chosen->plan;
    s_.global_batch = chosen->global_batch;
    if (best_fit_) {
      std::vector<double> log_speeds;  // sequences per second
      for (const auto& split : splits_) log_speeds.push_back(-std::log(split.second));
      s_.pick_optimism = rq_.kept_pick_optimism ? *rq_.kept_pick_optimism
                                                : pick_optimism(log_speeds, rq_.layout_error_sigma);
    }
    res_.best = estimate(s_);
    if (!best_fit_)
      res_.best->warnings.push_back("no plan among " + std::to_string(res_.valid) +
                                    " valid ones fits in memory; showing the one needing the least");
    if (s_.global_batch != base_.global_batch) {
      char change[32];
      std::snprintf(change, sizeof change, "%+.1f%%",
                    100.0 * (static_cast<double>(s_.global_batch) / static_cast<double>(base_.global_batch) - 1));
      res_.best->warnings.insert(
          res_.best->warnings.begin(),
          "global_batch " + std::to_string(base_.global_batch) + " splits over no parallel plan of the " +
              std::to_string(devices_of(base_)) + " devices; the estimate uses " + std::to_string(s_.global_batch) +
              " (" + change + "), the batch near it whose plan runs fastest (global_batch_exact: true keeps "
              "the batch and names the fixes)");
    }
    res_.best->plans_considered = res_.considered;
    res_.best->splits_compared = rq_.kept_pick_optimism ? 0 : static_cast<int>(splits_.size());
    if (truncated_)
      res_.best->warnings.push_back("the plan search stopped after " + std::to_string(kMaxPlans) +
                                    " plans; fix some of tp, pp, cp, ep, vpp, zero, micro_batch and recompute "
                                    "to search the others");
  }
  // Every error names a field, even when the enumeration skipped all plans before checking one.
  if (!res_.best && res_.why_none.reason.empty()) res_.why_none = no_split(rq_, devices_of(base_));
  return res_;
}

}  // namespace

std::vector<long long> batch_units(const Scenario& base, const PlanRequest& rq) {
  std::vector<long long> units;
  if (check_model(base.model)) return units;
  Scenario s = base;
  const std::vector<int> eps = expert_choices(base, rq);
  for (const Layout& l : layouts(base, rq)) {
    if (!l.divides) continue;
    const long long unit = batch_unit(l, rq);
    if (unit > kMaxGlobalBatch || std::find(units.begin(), units.end(), unit) != units.end()) continue;
    s.global_batch = unit;
    // Valid with some expert degree, the first interleaving and the defaults of the other knobs.
    for (int ep : eps) {
      s.plan = {l.tp, l.pp, l.dp, l.cp, ep, vpp_choices(base, rq, l.pp)[0],
                rq.sequence_parallel != kAuto ? rq.sequence_parallel != 0 : default_sp(base, l.tp) != 0,
                rq.zero != kAuto ? rq.zero : 0, rq.micro_batch != kAuto ? rq.micro_batch : 1,
                static_cast<Recompute>(rq.recompute != kAuto ? rq.recompute : recompute_choices(base.framework)[0])};
      if (!check_plan(s)) {
        units.push_back(unit);
        break;
      }
    }
  }
  std::sort(units.begin(), units.end());
  return units;
}

bool batch_splits(long long global_batch, const std::vector<long long>& units) {
  return std::any_of(units.begin(), units.end(), [&](long long u) { return global_batch % u == 0; });
}

SearchResult search_plan(const Scenario& base, const PlanRequest& rq) {
  Search search(base, rq);
  if (auto p = check_model(base.model)) {
    SearchResult res;
    res.why_none = *p;
    return res;
  }
  const std::vector<Layout> all = layouts(base, rq);
  for (const Layout& l : all) search.layout(l, base.global_batch);
  if (search.batch_blocked() && !rq.exact_global_batch) {
    // Each layout at the nearest batch its data-parallel share divides, if within 5% of the
    // asked one (or as near as the nearest layout comes): tokens per step stay the user's choice.
    long long nearest = -1;
    for (long long u : batch_units(base, rq)) {
      const long long d = std::llabs(nearest_multiple(base.global_batch, u) - base.global_batch);
      if (nearest < 0 || d < nearest) nearest = d;
    }
    const long long tolerance = std::max(nearest, base.global_batch / 20);
    for (const Layout& l : all) {
      const long long batch = l.divides ? nearest_multiple(base.global_batch, batch_unit(l, rq)) : 0;
      if (l.divides && std::llabs(batch - base.global_batch) <= tolerance && batch <= kMaxGlobalBatch)
        search.layout(l, batch);
    }
  }
  return search.finish();
}

namespace {

// The scenario on `nodes` whole nodes, or on `chips` of its nodes.
Scenario on_nodes(const Scenario& s, int nodes) {
  Scenario v = s;
  v.nodes = nodes;
  v.chips = 0;
  return v;
}
Scenario on_chips(const Scenario& s, int chips) {
  Scenario v = s;
  v.chips = chips;
  v.nodes = (chips + s.instance.chips_per_node - 1) / s.instance.chips_per_node;
  return v;
}

bool splits_on(const Scenario& s, const PlanRequest& rq) {
  return batch_splits(s.global_batch, batch_units(s, rq));
}

// The nearest node count from the scenario's in `direction` (within `limit` steps) on which the
// batch splits; 0 when none does.
int nearest_nodes(const Scenario& s, const PlanRequest& rq, int direction, int limit) {
  for (int d = 1; d <= limit; ++d) {
    const long long n = s.nodes + 1LL * direction * d;
    if (n < 1 || n > 1000000) return 0;
    if (splits_on(on_nodes(s, static_cast<int>(n)), rq)) return static_cast<int>(n);
  }
  return 0;
}

}  // namespace

long long step_global_batch(const Scenario& s, const PlanRequest& rq, int direction) {
  const long long b = s.global_batch;
  long long next = direction > 0 ? kMaxGlobalBatch + 1 : 0;
  for (long long u : batch_units(s, rq)) {
    if (direction > 0) next = std::min(next, (b / u + 1) * u);
    else if (b - 1 >= u) next = std::max(next, (b - 1) / u * u);
  }
  return next >= 1 && next <= kMaxGlobalBatch ? next : b;
}

int step_nodes(const Scenario& s, const PlanRequest& rq, int direction) {
  const int d = direction > 0 ? 1 : -1;
  if (const int n = nearest_nodes(s, rq, d, 1024); n > 0) return n;
  return std::clamp(s.nodes + d, 1, 1000000);  // none splits nearby: every node count still estimates
}

BatchFixes batch_fixes(const Scenario& s, const PlanRequest& rq) {
  BatchFixes f;
  for (int d : {-1, 1})
    if (const int n = nearest_nodes(s, rq, d, 64); n > 0) f.nodes.push_back(n);
  for (int d : {-1, 1})
    if (const long long b = step_global_batch(s, rq, d); b != s.global_batch) f.global_batches.push_back(b);
  // Part of a node idle (whole nodes idle are the node counts above).
  const int chips = chips_of(s);
  for (int c = chips - 1; c >= std::max(1, chips - 512) && f.chips == 0; --c)
    if (c % s.instance.chips_per_node != 0 && splits_on(on_chips(s, c), rq)) f.chips = c;
  return f;
}

}  // namespace tc
