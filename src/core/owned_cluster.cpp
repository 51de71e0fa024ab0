#include "core/owned_cluster.hpp"

#include "core/bill_common.hpp"

namespace tc::bill {

Bill owned_bill(const CostInputs& in, const JobPerf& job, const Instance& inst, const Accelerator& acc,
                CostResult& r) {
  Bill o;
  o.kind = "owned";
  o.instance_id = inst.id;
  const OwnedClusterInputs& oc = in.owned;
  const int n_own = oc.nodes > 0 ? oc.nodes : job.nodes;
  if (job.nodes > n_own)
    o.warnings.push_back("owned_cluster.nodes: the job needs " + std::to_string(job.nodes) +
                         " nodes, the owned cluster has " + std::to_string(n_own));
  r.owned_wall = wall_time(in, job, acc, 0.0, 1.0, false);
  const CampaignTime oct = campaign_time(in, job, acc, 0.0);
  o.instance_hours = job.nodes * oct.billed_s / 3600.0;  // node-hours of the campaign
  bool pknown = false;
  const double opw = node_power_w(job, oc.node_power_w ? oc.node_power_w : in.energy.node_power_w, &pknown);
  const double kwh_price = oc.usd_per_kwh.value_or(in.energy.usd_per_kwh);
  // Per year: straight-line depreciation; energy of busy hours at full power and idle hours at
  // idle_power_fraction, x PUE; facility; staff.
  const double dep_y = n_own * oc.capex_usd_per_node / oc.depreciation_years;
  const double energy_y = pknown ? n_own * opw / 1000.0 * oc.pue * kHoursPerYear *
                                       (oc.utilization + (1 - oc.utilization) * oc.idle_power_fraction) *
                                       kwh_price
                                 : 0;
  const double useful_node_hours_y = n_own * kHoursPerYear * oc.utilization;
  const double share = o.instance_hours / useful_node_hours_y;  // of a year's useful node-hours
  // Each yearly cost is spread over the year's useful node-hours: this campaign pays its share.
  const std::pair<const char*, double> per_year[] = {{"owned.depreciation", dep_y},
                                                     {"owned.energy", energy_y},
                                                     {"owned.facility", oc.facility_usd_per_year},
                                                     {"owned.staff", oc.staff_usd_per_year}};
  for (const auto& [item, usd_y] : per_year)
    add_line(o, {item, o.instance_hours, "node-hours", usd_y / useful_node_hours_y, usd_y * share,
                 usd(usd_y) + " a year over " + fmt("%.0f", useful_node_hours_y) + " useful node-hours"});
  const double owned_compute = sum_terms(o.items_usd);
  o.usd_per_year = dep_y + energy_y + oc.facility_usd_per_year + oc.staff_usd_per_year;
  o.tco_usd_horizon = o.usd_per_year * oc.horizon_years;
  o.usd_per_node_hour = o.usd_per_year / useful_node_hours_y;
  finish_bill(o, in, job, oct, owned_compute / std::max(o.instance_hours, 1e-300), o.usd_per_node_hour,
              "owned cost_usd");
  derive(o, in, job, owned_compute);
  fill_energy(o, job, opw, pknown, oc.pue, in.energy, oct.billed_s);
  if (!pknown) o.warnings.push_back("owned_cluster: electricity is left out of the bill (no node power)");
  if (oc.capex_usd_per_node <= 0)
    o.warnings.push_back("owned_cluster.capex_usd_per_node is 0: the owned bill has no hardware cost");
  return o;
}

}  // namespace tc::bill
