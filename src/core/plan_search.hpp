// Plan search: every knob left "auto" is enumerated over its valid values for the chip count;
// the fastest plan that fits in memory wins (as Calculon, Isaev et al. 2023, searches layouts).
#pragma once
#include <optional>

#include "core/estimate.hpp"

namespace tc {

struct SearchResult {
  std::optional<Estimate> best;   // empty when no plan is valid at all
  int considered = 0;             // plans enumerated
  int valid = 0;                  // plans passing check_plan
  int fitting = 0;                // valid plans that fit in memory
  InputProblem why_none;          // the first problem met, when no plan is valid
};

// base.plan supplies the fixed knobs; request marks which ones are searched.
SearchResult search_plan(const Scenario& base, const PlanRequest& request);

}  // namespace tc
