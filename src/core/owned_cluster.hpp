// The owned-cluster alternative to renting: the same job on nodes you own, the cost of ownership
// over a horizon (depreciation to a residual value, financing, maintenance, power with PUE,
// colocation, facility, staff) allocated to the campaign's node-hours at the cluster's
// utilization, and the utilization at which owning costs what renting does.
#pragma once

#include "core/cost.hpp"

namespace tc {

// Straight-line depreciation of capex_usd to residual_fraction of it over life_years, the part
// that falls within horizon_years: (capex - residual) x min(horizon, life) / life. Never more than
// the hardware cost, whatever the horizon.
double depreciation_usd(double capex_usd, double residual_fraction, double life_years, double horizon_years);

// Interest on capex_usd borrowed at annual_rate and repaid in equal annual instalments over
// term_years (an annuity: payment = C r / (1 - (1 + r)^-T)), the interest of the instalments that
// fall within horizon_years, spread evenly over the term: (T x payment - C) x min(H, T) / T.
double financing_usd(double capex_usd, double annual_rate, double term_years, double horizon_years);

struct OwnedResult {
  WallTime wall;                          // one full run on the owned cluster (no spot)
  Bill bill;
};

// `job` is the job on the owned hardware (inst, acc); `cloud` the campaign's cloud bill, for the
// break-even utilization. Throws CostError naming the field.
OwnedResult evaluate_owned(const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                           const Bill& cloud);

namespace bill {
// evaluate_owned() against r.bill, into r.owned_wall; the owned bill.
Bill owned_bill(const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                CostResult& r);
}  // namespace bill

}  // namespace tc
