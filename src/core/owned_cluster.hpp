// The owned-cluster alternative to renting: the same job on nodes you own, its yearly cost of
// ownership allocated to the campaign's node-hours. Internal to src/core.
#pragma once

#include "core/cost.hpp"

namespace tc::bill {

// Owned cluster: same job, no spot; sets r.owned_wall to one full run on it.
Bill owned_bill(const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                CostResult& r);

}  // namespace tc::bill
