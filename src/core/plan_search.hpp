// Plan search: every knob left "auto" is enumerated over its valid values for the chip count;
// the fastest plan that fits in memory wins (as Calculon, Isaev et al. 2023, searches layouts).
#pragma once
#include <optional>
#include <vector>

#include "core/estimate.hpp"

namespace tc {

struct SearchResult {
  std::optional<Estimate> best;   // empty when no plan is valid at all
  int considered = 0;             // plans enumerated
  int valid = 0;                  // plans passing check_plan
  int fitting = 0;                // valid plans that fit in memory
  InputProblem why_none;          // the first problem met, when no plan is valid
};

// base.plan supplies the fixed knobs; request marks which ones are searched. When no plan splits
// base.global_batch over the cluster and the request does not ask for it exactly, each layout runs
// the nearest multiple of its data-parallel degree (times a fixed micro-batch) within 5% of it (or
// the nearest of all, when none is that close), plans compared by time per sequence; the result
// then warns with both batches.
SearchResult search_plan(const Scenario& base, const PlanRequest& request);

// What a global batch must be a multiple of: dp x micro_batch (micro_batch 1 unless fixed) of
// every layout that is valid on the cluster apart from the batch. Sorted, unique.
std::vector<long long> batch_units(const Scenario& s, const PlanRequest& request);
bool batch_splits(long long global_batch, const std::vector<long long>& units);

// The nearest ways out when s.global_batch splits over no plan of the cluster: node counts (the
// nearest below and above, within 64), global batches (the nearest below and above) and the most
// chips of the cluster, short of whole nodes, it splits over (the rest idle). Empty or 0 where
// there is none.
struct BatchFixes {
  std::vector<int> nodes;
  std::vector<long long> global_batches;
  int chips = 0;
};
BatchFixes batch_fixes(const Scenario& s, const PlanRequest& request);

// The next value up (direction > 0) or down from the scenario's that splits over a plan: a global
// batch, or a node count at the scenario's global batch. The scenario's own value when none does.
long long step_global_batch(const Scenario& s, const PlanRequest& request, int direction);
int step_nodes(const Scenario& s, const PlanRequest& request, int direction);

}  // namespace tc
