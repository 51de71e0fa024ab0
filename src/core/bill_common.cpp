#include "core/bill_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/bill_extras.hpp"

namespace tc::bill {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::string usd(double v) { return format_usd(v); }
std::string qty(double v) { return std::abs(v) >= 1000 ? fmt("%.0f", v) : fmt("%.4g", v); }

double sum_terms(const std::vector<NamedTerm>& t) {
  double s = 0;
  for (const auto& x : t) s += x.value;
  return s;
}

void check_sum(const char* what, const std::vector<NamedTerm>& terms, double total) {
  const double s = sum_terms(terms);
  if (!(std::abs(s - total) <= 1e-9 * std::max(1.0, std::abs(total))))
    throw std::logic_error(std::string(what) + ": total is not the sum of its terms");
}

void add_term(std::vector<NamedTerm>& v, const std::string& name, double value) {
  for (auto& t : v)
    if (t.name == name) {
      t.value += value;
      return;
    }
  v.push_back({name, value});
}

void add_line(Bill& b, const BillLine& l) {
  add_term(b.items_usd, l.item, l.usd);
  if (l.usd != 0 || l.quantity != 0) b.lines.push_back(l);
}

void push_line(std::vector<BillLine>& v, const std::string& item, double quantity, const std::string& unit,
               double usd_per_unit, const std::string& detail) {
  v.push_back({item, quantity, unit, usd_per_unit, quantity * usd_per_unit, detail});
}

double run_equivalents(const CampaignInputs& c) {
  const double full = c.full_runs.value_or(c.runs);
  return full + std::max(0.0, c.runs - full) * c.truncated_fraction;
}

double node_power_w(const JobPerf& job, std::optional<double> override_w, bool* known) {
  if (override_w) {
    *known = true;
    return *override_w;
  }
  *known = job.chip_power_w > 0;
  return job.chips_per_node * job.chip_power_w + job.host_power_w_per_node;
}

void finish_bill(Bill& b, const CostInputs& in, const JobPerf& job, const CampaignTime& ct,
                 double usd_per_node_hour_by_term, double bound_rate, const char* what) {
  for (const auto& t : ct.terms)
    if (t.name != "queue")
      add_term(b.instance_usd_by_term, t.name, job.nodes * t.value / 3600.0 * usd_per_node_hour_by_term);
  std::vector<BillLine> incidents;
  incident_lines(incidents, in, job, ct, usd_per_node_hour_by_term);
  for (const auto& l : incidents) add_line(b, l);
  const Extras ex = extras(in, job, ct);
  for (const auto& l : ex.lines) add_line(b, l);
  b.notes.insert(b.notes.end(), ex.notes.begin(), ex.notes.end());
  b.engineering_usd = ex.engineering;
  b.campaign_months = ex.months;
  b.total_usd = sum_terms(b.items_usd);
  check_sum(what, b.items_usd, b.total_usd);
  if (job.peak_tflops_per_chip > 0 && job.chips_per_node > 0)
    b.compute_only_bound_usd = job.model_flops_per_step * job.steps * run_equivalents(in.campaign) /
                               (job.peak_tflops_per_chip * 1e12 * job.chips_per_node) / 3600.0 * bound_rate;
}

void derive(Bill& b, const CostInputs& in, const JobPerf& job, double compute_usd) {
  b.runs = in.campaign.runs;
  b.run_equivalents = run_equivalents(in.campaign);
  b.tokens = job.tokens_per_step * job.steps * b.run_equivalents;
  const double mtok = b.tokens / 1e6;
  b.usd_per_million_tokens = mtok > 0 ? b.total_usd / mtok : 0;
  b.compute_usd_per_million_tokens = mtok > 0 ? compute_usd / mtok : 0;
  b.usd_per_run = b.runs > 0 ? b.total_usd / b.runs : 0;
  const double recurring = b.total_usd - b.engineering_usd;
  // Per month: runs_per_month runs; else the campaign back to back, and a campaign shorter than a
  // month counts as that month's spend.
  if (in.campaign.runs_per_month > 0)
    b.usd_per_month = recurring / b.runs * in.campaign.runs_per_month;
  else
    b.usd_per_month = recurring / std::max(1.0, b.campaign_months);
}

double powered_s(const CampaignTime& ct) {
  double s = ct.billed_s;
  for (const auto& t : ct.terms)
    if (t.name == "reruns" || t.name == "incidents") s += t.value;
  return s;
}

void fill_energy(Bill& b, const JobPerf& job, double power_w, bool known, double pue,
                 const EnergyInputs& en, const CampaignTime& ct) {
  b.energy_known = known;
  b.node_power_w = power_w;
  if (!known) {
    b.warnings.push_back("energy: no published chip power for " +
                         (job.accelerator_id.empty() ? std::string("this accelerator") : job.accelerator_id) +
                         "; set energy.node_power_w (measured watts per node) for energy and CO2e");
    return;
  }
  // kWh = nodes x W per node x powered hours x PUE / 1000
  b.energy_kwh = job.nodes * power_w * powered_s(ct) / 3600.0 * pue / 1000.0;
  b.co2e_kg = b.energy_kwh * en.grid_kg_co2e_per_kwh;
}

}  // namespace tc::bill
