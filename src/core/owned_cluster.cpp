#include "core/owned_cluster.hpp"

#include <algorithm>
#include <cmath>

#include "core/bill_common.hpp"

namespace tc {

using namespace bill;

double depreciation_usd(double capex_usd, double residual_fraction, double life_years, double horizon_years) {
  if (!(life_years > 0) || !(horizon_years > 0)) return 0;
  return capex_usd * (1 - residual_fraction) * std::min(horizon_years, life_years) / life_years;
}

double financing_usd(double capex_usd, double annual_rate, double term_years, double horizon_years) {
  if (!(annual_rate > 0) || !(term_years > 0) || !(horizon_years > 0)) return 0;
  // Annuity payment P = C r / (1 - (1 + r)^-T); 1 - (1 + r)^-T written as -expm1(-T log1p(r)) so
  // that a tiny rate (1e-300) gives P = C / T, not C r / 0.
  const double payment = capex_usd * annual_rate / -std::expm1(-term_years * std::log1p(annual_rate));
  return std::max(0.0, payment * term_years - capex_usd) * std::min(horizon_years, term_years) / term_years;
}

namespace {

// The cost of ownership per year, averaged over the horizon, item by item.
struct YearlyCosts {
  std::vector<std::pair<std::string, double>> items;  // owned.* -> $ a year
  double fixed_usd = 0;                   // all but energy
  double busy_energy_usd = 0;             // a year at 100% utilization
  double idle_energy_usd = 0;             // a year at 0%
};

YearlyCosts yearly_costs(const OwnedClusterInputs& oc, int n_own, double node_w, bool power_known,
                         double usd_per_kwh) {
  YearlyCosts y;
  const double capex = n_own * oc.capex_usd_per_node;
  const double h = oc.horizon_years;
  const double dep = depreciation_usd(capex, oc.residual_fraction, oc.depreciation_years, h) / h;
  const double fin = financing_usd(capex, oc.financing_rate, oc.financing_years.value_or(oc.depreciation_years), h) / h;
  const double maint = oc.maintenance_usd_per_year + oc.maintenance_fraction_per_year * capex;
  // Colocation is sold per kW of IT load (node power before PUE), per month.
  const double colo = power_known ? n_own * node_w / 1000.0 * oc.colocation_usd_per_kw_month * 12 : 0;
  // Energy: busy hours at full power, idle hours at idle_power_fraction of it, x PUE.
  if (power_known) {
    y.busy_energy_usd = n_own * node_w / 1000.0 * oc.pue * kHoursPerYear * usd_per_kwh;
    y.idle_energy_usd = y.busy_energy_usd * oc.idle_power_fraction;
  }
  const double energy = y.idle_energy_usd + (y.busy_energy_usd - y.idle_energy_usd) * oc.utilization;
  y.items = {{"owned.depreciation", dep}, {"owned.financing", fin},   {"owned.maintenance", maint},
             {"owned.energy", energy},    {"owned.colocation", colo}, {"owned.facility", oc.facility_usd_per_year},
             {"owned.staff", oc.staff_usd_per_year}};
  y.fixed_usd = dep + fin + maint + colo + oc.facility_usd_per_year + oc.staff_usd_per_year;
  return y;
}

// Solves owned $/node-hour(u) = target for the utilization u: (F + E_idle + (E_busy - E_idle) u) /
// (n 8760 u) = target, i.e. u = (F + E_idle) / (target n 8760 - (E_busy - E_idle)).
void break_even(Bill& o, const YearlyCosts& y, int n_own, double owned_node_hours, const Bill& cloud) {
  double cloud_compute = 0;
  for (const auto& t : cloud.tiers)
    if (t.priced) cloud_compute += t.usd;
  if (!cloud.priced || !(cloud_compute > 0) || !(owned_node_hours > 0)) {
    o.break_even_note = "no break-even: the cloud bill has no complete compute price to compare with";
    return;
  }
  // The cloud's compute for this campaign per owned node-hour: its blended $/instance-hour when
  // both run the same instance for the same hours.
  const double target = cloud_compute / owned_node_hours;
  const double slope = target * n_own * kHoursPerYear - (y.busy_energy_usd - y.idle_energy_usd);
  const double u = slope > 0 ? (y.fixed_usd + y.idle_energy_usd) / slope : INFINITY;
  const std::string vs = "the cloud's " + usd(target) + " per node-hour of this job (" + usd(cloud_compute) +
                         " of compute over " + qty(owned_node_hours) + " owned node-hours)";
  if (u <= 1) {
    o.break_even_utilization = u;
    o.break_even_note = "owning costs less than renting above " + fmt("%.3g", 100 * u) + "% utilization, against " + vs;
  } else {
    const double at_full = (y.fixed_usd + y.busy_energy_usd) / (n_own * kHoursPerYear);
    o.break_even_note = "no break-even: even at 100% utilization an owned node-hour costs " + usd(at_full) +
                        ", above " + vs;
  }
}

}  // namespace

OwnedResult evaluate_owned(const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                           const Bill& cloud) {
  OwnedResult res;
  Bill& o = res.bill;
  o.kind = "owned";
  o.instance_id = inst.id;
  const OwnedClusterInputs& oc = in.owned;
  const int n_own = oc.nodes > 0 ? oc.nodes : job.nodes;
  if (job.nodes > n_own)
    o.warnings.push_back("owned_cluster.nodes: the job needs " + std::to_string(job.nodes) +
                         " nodes, the owned cluster has " + std::to_string(n_own));
  res.wall = wall_time(in, job, acc, 0.0, 1.0, false);
  const CampaignTime oct = campaign_time(in, job, acc, 0.0);
  o.instance_hours = job.nodes * oct.billed_s / 3600.0;  // node-hours of the campaign
  bool pknown = false;
  const double opw = node_power_w(job, oc.node_power_w ? oc.node_power_w : in.energy.node_power_w, &pknown);
  const YearlyCosts y = yearly_costs(oc, n_own, opw, pknown, oc.usd_per_kwh.value_or(in.energy.usd_per_kwh));
  const double useful_node_hours_y = n_own * kHoursPerYear * oc.utilization;
  const double share = o.instance_hours / useful_node_hours_y;  // of a year's useful node-hours
  // Each yearly cost is spread over the year's useful node-hours: this campaign pays its share.
  // Financing, maintenance and colocation are listed when the scenario sets them.
  for (const auto& [item, usd_y] : y.items) {
    const bool optional = item == "owned.financing" || item == "owned.maintenance" || item == "owned.colocation";
    if (optional && !(usd_y > 0)) continue;
    add_line(o, {item, o.instance_hours, "node-hours", usd_y / useful_node_hours_y, usd_y * share,
                 usd(usd_y) + " a year over " + fmt("%.0f", useful_node_hours_y) + " useful node-hours"});
    add_term(o.tco_usd_by_item, item, usd_y * oc.horizon_years);
  }
  const double owned_compute = sum_terms(o.items_usd);
  o.tco_usd_horizon = sum_terms(o.tco_usd_by_item);
  o.usd_per_year = o.tco_usd_horizon / oc.horizon_years;
  o.usd_per_node_hour = o.usd_per_year / useful_node_hours_y;
  finish_bill(o, in, job, oct, owned_compute / std::max(o.instance_hours, 1e-300), o.usd_per_node_hour,
              "owned cost_usd");
  derive(o, in, job, owned_compute);
  fill_energy(o, job, opw, pknown, oc.pue, in.energy, oct);
  break_even(o, y, n_own, o.instance_hours, cloud);
  if (!pknown) {
    o.warnings.push_back("owned_cluster: electricity is left out of the bill (no node power)");
    if (oc.colocation_usd_per_kw_month > 0)
      o.warnings.push_back("owned_cluster.colocation_usd_per_kw_month: no node power to price colocation by; "
                           "set owned_cluster.node_power_w");
  }
  if (oc.capex_usd_per_node <= 0)
    o.warnings.push_back("owned_cluster.capex_usd_per_node is 0: the owned bill has no hardware cost");
  return res;
}

namespace bill {

Bill owned_bill(const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                CostResult& r) {
  OwnedResult o = evaluate_owned(in, job, inst, acc, r.bill);
  r.owned_wall = o.wall;
  return std::move(o.bill);
}

}  // namespace bill
}  // namespace tc
