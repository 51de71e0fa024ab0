// What the cloud and the owned-cluster bills share (internal to src/core): formatting of bill
// details, sums checked against their terms, bill lines, the campaign's time over its runs, and
// the figures every bill derives once its items are in.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cost.hpp"

namespace tc::bill {

constexpr double kHoursPerMonth = 730.0;   // 8,760 h / 12, the convention of AWS pricing pages
constexpr double kHoursPerYear = 8760.0;

// printf of one number; money as format_usd; a quantity in a bill line's detail: 15000, 987.8, 3.45.
std::string fmt(const char* f, double v);
std::string usd(double v);
std::string qty(double v);

double sum_terms(const std::vector<NamedTerm>& t);
// Totals are built as sums; this guards against a term added later and left out of a total.
void check_sum(const char* what, const std::vector<NamedTerm>& terms, double total);
void add_term(std::vector<NamedTerm>& v, const std::string& name, double value);
// Adds a line to the bill and its amount to the line's item; a line of zero adds only the item.
void add_line(Bill& b, const BillLine& l);
// Appends quantity x usd_per_unit as a line.
void push_line(std::vector<BillLine>& v, const std::string& item, double quantity, const std::string& unit,
               double usd_per_unit, const std::string& detail);

// The campaign's wall-time terms summed over its runs (cost.cpp).
struct CampaignTime {
  std::vector<NamedTerm> terms;  // summed over runs, seconds
  double wall_s = 0;
  double billed_s = 0;
  std::vector<std::pair<double, double>> runs;  // billed seconds of a run, and how many such runs
};
CampaignTime campaign_time(const CostInputs& in, const JobPerf& job, const Accelerator& acc,
                           double spot_share);
// Full runs' worth of training in the campaign.
double run_equivalents(const CampaignInputs& c);

// Power of one node: the override, else chips x chip power + host; *known: a published figure.
double node_power_w(const JobPerf& job, std::optional<double> override_w, bool* known);
// What every bill adds after its compute items: the compute cost split by wall-time term (at
// usd_per_node_hour_by_term), incidents (at the same rate), storage, transfer and engineering, the checked total, and the
// compute-only bound: the campaign's model FLOPs at dense peak, in node-hours at bound_rate. No
// plan on these chips bills less compute than that (MFU <= 1).
void finish_bill(Bill& b, const CostInputs& in, const JobPerf& job, const CampaignTime& ct,
                 double usd_per_node_hour_by_term, double bound_rate, const char* what);
// Fills the derived per-token, per-run and per-month figures of a bill.
void derive(Bill& b, const CostInputs& in, const JobPerf& job, double compute_usd);
// Seconds the job's nodes draw power: the hours billed at the tier mix plus the reruns and named
// incidents (billed on lines of their own, but a rerun, a lost day, an OOM or a slow stretch runs
// the nodes all the same). Queueing holds no nodes.
double powered_s(const CampaignTime& ct);
// Energy and CO2e of the campaign's powered hours (powered_s).
void fill_energy(Bill& b, const JobPerf& job, double power_w, bool known, double pue,
                 const EnergyInputs& en, const CampaignTime& ct);

}  // namespace tc::bill
