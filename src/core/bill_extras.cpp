#include "core/bill_extras.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cmath>

namespace tc::bill {
namespace {

constexpr double kBytesPerTib = 1099511627776.0;  // 2^40
constexpr double kGbPerTib = 1024.0;              // FSx provisions GiB and bills them as "GB"
// Stored content is counted in decimal GB (bytes / 1e9), as the checkpoint size is elsewhere.

const char* kFsx = "fsx_lustre";

// "S3 Standard, us-east-1, prices checked 2026-12-01" and, for a price from secondary sources,
// its confidence.
std::string price_origin(const ServicePrice& p) {
  std::string s = p.name;
  if (!p.region.empty()) s += ", " + p.region;
  if (!p.date.empty()) s += ", prices checked " + p.date;
  if (p.secondary) s += ", secondary sources only (confidence " + p.confidence + ")";
  return s;
}

const ServicePrice& require_service(const CostInputs& in, const std::string& id, const std::string& field) {
  if (const ServicePrice* p = find_service(in.services, id)) return *p;
  throw CostError(field, "no price for '" + id + "' in the service presets (presets/services.json)");
}

struct Stored {
  std::string what;
  double gb = 0;
};

std::vector<Stored> stored_on(const CostInputs& in, const JobPerf& job, const std::string& service) {
  std::vector<Stored> v;
  const double ckpt_gb = checkpoint_bytes(in, job) / 1e9;
  if (in.storage.checkpoints_service == service && in.checkpoint.kept > 0 && ckpt_gb > 0)
    v.push_back({std::to_string(in.checkpoint.kept) + " checkpoints of " + qty(ckpt_gb) + " GB",
                 in.checkpoint.kept * ckpt_gb});
  // A LoRA job's frozen base, stored once for the campaign and its retention, checkpoints kept or not.
  const double base_gb = job.frozen_weights_bytes / 1e9;
  if (in.storage.checkpoints_service == service && base_gb > 0)
    v.push_back({"the frozen base model " + qty(base_gb) + " GB", base_gb});
  if (in.storage.dataset_service == service && in.storage.dataset_gb > 0)
    v.push_back({"dataset " + qty(in.storage.dataset_gb) + " GB", in.storage.dataset_gb});
  return v;
}

std::string describe(const std::vector<Stored>& v) {
  std::string s;
  for (const auto& x : v) append_item(s, x.what, " + ");
  return s;
}

// Remembers the region of a service price the bill uses.
void note_region(Extras& e, const ServicePrice& p) {
  if (std::find(e.price_regions.begin(), e.price_regions.end(), p.region) == e.price_regions.end())
    e.price_regions.push_back(p.region);
}

// Pushes one line per step of a tiered monthly price for `units_per_month` over `months`.
void tiered_lines(Extras& e, const std::string& item, const ServicePrice& p, double units_per_month,
                  double months, const std::string& what) {
  note_region(e, p);
  std::vector<BillLine>& v = e.lines;
  const std::vector<double> in_step = split_steps(units_per_month, p.steps);
  for (std::size_t i = 0; i < p.steps.size(); ++i)
    if (in_step[i] > 0)
      push_line(v, item, in_step[i] * months, p.unit, p.steps[i].usd_per_unit,
                price_origin(p) + ", " + p.steps[i].label + ": " + what);
}

// S3 Standard and S3 Express One Zone: GB stored x months held at the service's rate, tiered by
// the GB stored in a month (S3 pricing bills the month's average, hardware.md 2.4.6).
void s3_lines(Extras& e, const CostInputs& in, const JobPerf& job, const std::string& service, double held) {
  const std::vector<Stored> v = stored_on(in, job, service);
  if (v.empty()) return;
  double gb = 0;
  for (const auto& x : v) gb += x.gb;
  const std::string item = "storage." + service;
  const std::string what = describe(v) + " for " + qty(held) + " months";
  if (in.storage.usd_per_gb_month) {
    push_line(e.lines, item, gb * held, "GB-months", *in.storage.usd_per_gb_month, "scenario rate: " + what);
  } else {
    const std::string field = in.storage.checkpoints_service == service ? "overheads.storage.checkpoints_service"
                                                                        : "overheads.storage.dataset_service";
    tiered_lines(e, item, require_service(in, service, field), gb, held, what);
  }
}

// FSx for Lustre: provisioned capacity x months at its throughput tier's $/GB-month (FSx pricing
// page [A13]: billed per GB-month of capacity, whatever it holds).
void fsx_lines(Extras& e, const CostInputs& in, const JobPerf& job, double held) {
  const FsxSizing f = fsx_sizing(in, job);
  if (!f.used) return;
  const double gb = f.capacity_tib * kGbPerTib;
  const std::string sizing = in.storage.fsx_capacity_tib
                                 ? qty(f.capacity_tib) + " TiB provisioned"
                                 : qty(f.capacity_tib) + " TiB, sized to what it holds (the reference gives no "
                                                         "capacity increment; set fsx_capacity_tib)";
  const std::string what = sizing + " for " + f.holds + ", " + qty(held) + " months";
  if (in.storage.usd_per_gb_month)
    push_line(e.lines, "storage.fsx_lustre", gb * held, "GB-months", *in.storage.usd_per_gb_month,
              "scenario rate: " + what);
  else
    tiered_lines(e, "storage.fsx_lustre", *f.price, gb, held, what);
}

// Inter-region copies: GB out of the source region at the pair's rate ($0.02/GB from most US and
// EU regions, $0.01 between us-east-1 and us-east-2; hardware.md 2.4.7 [S12]).
void copy_lines(Extras& e, const CostInputs& in) {
  const TransferInputs& t = in.transfer;
  const double gb = t.cross_region_copies * t.copy_gb.value_or(in.storage.dataset_gb);
  if (!(gb > 0)) return;
  const std::string what = qty(t.cross_region_copies) + (t.cross_region_copies == 1 ? " copy of " : " copies of ") + qty(t.copy_gb.value_or(in.storage.dataset_gb)) +
                           " GB from " + t.copy_from_region + " to " +
                           (t.copy_to_region.empty() ? std::string("another region") : t.copy_to_region);
  if (!t.copy_to_region.empty() && t.copy_to_region == t.copy_from_region) {
    e.notes.push_back("transfer: copies within " + t.copy_from_region + " are not inter-region traffic (no charge)");
    return;
  }
  if (t.cross_region_usd_per_gb) {
    push_line(e.lines, "transfer.cross_region", gb, "GB", *t.cross_region_usd_per_gb, "scenario rate: " + what);
    return;
  }
  const ServicePrice& p = require_service(in, "inter_region", "overheads.transfer.cross_region_copies");
  double rate = p.steps.empty() ? 0 : p.steps.front().usd_per_unit;
  std::string basis = p.steps.empty() ? std::string() : p.steps.front().label;
  for (const auto& pr : p.pairs)
    if (pr.from == t.copy_from_region && pr.to == t.copy_to_region) {
      rate = pr.usd_per_gb;
      basis = pr.from + " to " + pr.to;
    }
  if (t.copy_to_region.empty())
    basis += "; some pairs cost more (e.g. us-east-1 to ap-south-1): set copy_to_region or cross_region_usd_per_gb";
  push_line(e.lines, "transfer.cross_region", gb, "GB", rate, price_origin(p) + ", " + basis + ": " + what);
}

// Internet egress: the monthly tiers after the free 100 GB a month (hardware.md 2.4.7 [A14]).
// egress_gb_per_month recurs every month of the campaign (a part month bills its share of a
// month's tiers); the one-off egress_gb falls in one month on top of that month's traffic.
void egress_lines(Extras& e, const CostInputs& in, double months) {
  const TransferInputs& t = in.transfer;
  const double total = t.egress_gb + t.egress_gb_per_month * months;
  if (!(total > 0)) return;
  if (t.egress_usd_per_gb) {
    push_line(e.lines, "transfer.egress", total, "GB", *t.egress_usd_per_gb, "scenario rate, to the internet");
    return;
  }
  const ServicePrice& p = require_service(in, "internet_egress", "overheads.transfer.egress_gb");
  note_region(e, p);
  const double free = p.free_units_per_month;
  auto billable = [&](double gb_in_month) { return split_steps(std::max(0.0, gb_in_month - free), p.steps); };
  const double base_month = t.egress_gb_per_month * std::min(1.0, months);
  const std::vector<double> recurring = billable(t.egress_gb_per_month);
  const std::vector<double> with_once = billable(base_month + t.egress_gb);
  const std::vector<double> without_once = billable(base_month);
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const double gb = recurring[i] * months + with_once[i] - without_once[i];
    if (gb > 0)
      push_line(e.lines, "transfer.egress", gb, "GB", p.steps[i].usd_per_unit,
                price_origin(p) + ", " + p.steps[i].label + " a month beyond the " + qty(free) +
                    " GB free each month (the tiers count the account's whole egress)");
  }
}

// S3 Express One Zone bills each GB uploaded (S3 FAQ [A9]): the checkpoints written in the
// campaign, i.e. the seconds spent writing them x the write bandwidth. Retrievals (on restarts)
// are left out, and said so.
void express_upload_lines(Extras& e, const CostInputs& in, const JobPerf& job, const CampaignTime& ct) {
  if (in.storage.checkpoints_service != "s3_express_one_zone" || in.checkpoint.kept == 0) return;
  double writing_s = 0;
  for (const auto& t : ct.terms)
    if (t.name == "checkpoints") writing_s = t.value;
  const double gb = writing_s * checkpoint_write_gb_per_s(in, job);
  if (!(gb > 0)) return;
  const ServicePrice& p = require_service(in, "s3_express_one_zone_upload", "overheads.storage.checkpoints_service");
  tiered_lines(e, "storage.s3_express_one_zone", p, gb, 1, "checkpoints written in the campaign (" +
               qty(gb) + " GB)");
  e.notes.push_back("storage: S3 Express One Zone's per-GB retrieval (checkpoint reads on restart) and its requests "
                    "are not in this bill");
}

// The reference prices storage and transfer in us-east-1 only: a job billed elsewhere says so,
// so that the bill does not mix regions silently.
void same_region_note(Extras& e, const CostInputs& in, const JobPerf& job) {
  const std::string& region = pricing_region(in.pricing, job.instance_id);
  for (const auto& r : e.price_regions)
    if (r != region) {
      e.notes.push_back("region: storage and transfer are priced at " + r + " rates (the reference has no others), "
                        "the instances in " + region);
      return;
    }
}

}  // namespace

std::vector<double> split_steps(double units, const std::vector<PriceStep>& steps) {
  std::vector<double> v(steps.size(), 0);
  double below = 0;  // units billed by earlier steps
  for (std::size_t i = 0; i < steps.size() && units > below; ++i) {
    const double top = steps[i].up_to_units > 0 ? std::min(units, steps[i].up_to_units) : units;
    v[i] = std::max(0.0, top - below);
    below = std::max(below, top);
  }
  return v;
}

double checkpoint_bytes(const CostInputs& in, const JobPerf& job) {
  return in.checkpoint.bytes_override > 0 ? in.checkpoint.bytes_override : job.checkpoint_bytes;
}

FsxSizing fsx_sizing(const CostInputs& in, const JobPerf& job) {
  FsxSizing f;
  const std::vector<Stored> v = stored_on(in, job, kFsx);
  f.used = !v.empty() || (in.storage.fsx_capacity_tib &&
                          (in.storage.checkpoints_service == kFsx || in.storage.dataset_service == kFsx));
  if (!f.used) return f;
  f.price = &require_service(in, std::string(kFsx) + "_" + in.storage.fsx_tier, "overheads.storage.fsx_tier");
  double gb = 0;
  for (const auto& x : v) gb += x.gb;
  f.needed_tib = gb * 1e9 / kBytesPerTib;
  f.holds = v.empty() ? std::string("nothing yet") : describe(v);
  f.capacity_tib = in.storage.fsx_capacity_tib.value_or(f.needed_tib);
  if (f.capacity_tib < f.needed_tib)
    throw CostError("overheads.storage.fsx_capacity_tib",
                    qty(f.capacity_tib) + " TiB is too small for what it holds: " + f.holds + " = " + qty(gb) +
                        " GB = " + qty(f.needed_tib) + " TiB");
  return f;
}

double checkpoint_write_gb_per_s(const CostInputs& in, const JobPerf& job) {
  if (in.checkpoint.write_gb_per_s) return *in.checkpoint.write_gb_per_s;
  if (in.storage.checkpoints_service != kFsx) return kDefaultCheckpointWriteGbPerS;
  // The tier's disk baseline per TiB x TiB provisioned (FSx Lustre User Guide [A12]); bursts
  // above it run out on sustained writes, so the baseline is the rate a checkpoint can count on.
  const FsxSizing f = fsx_sizing(in, job);
  return f.capacity_tib * f.price->throughput_mb_s_per_tib / 1000.0;
}

Extras extras(const CostInputs& in, const JobPerf& job, const CampaignTime& ct) {
  Extras e;
  const double running_months = ct.wall_s / 3600.0 / kHoursPerMonth;
  e.months = running_months;
  if (in.campaign.runs_per_month > 0)
    e.months = std::max(running_months, in.campaign.runs / in.campaign.runs_per_month);
  // Retention in days, as 730-hour months (the AWS pricing convention).
  const double held = e.months + in.storage.retention_days * 24.0 / kHoursPerMonth;
  for (const char* s3 : {"s3_standard", "s3_express_one_zone"}) s3_lines(e, in, job, s3, held);
  fsx_lines(e, in, job, held);
  const bool on_s3 = !stored_on(in, job, "s3_standard").empty() || !stored_on(in, job, "s3_express_one_zone").empty();
  if (on_s3)
    e.notes.push_back("transfer: checkpoint writes and dataset reads between EC2 and S3 in the same region are "
                      "free (hardware.md 2.4.7); no line for them");
  express_upload_lines(e, in, job, ct);
  copy_lines(e, in);
  egress_lines(e, in, e.months);
  same_region_note(e, in, job);
  const double share = in.engineering.spread_runs > 0 ? std::min(1.0, in.campaign.runs / in.engineering.spread_runs)
                                                      : 1.0;
  push_line(e.lines, "engineering", in.engineering.person_weeks * share, "person-weeks", in.engineering.usd_per_week,
            share < 1 ? fmt("%.3g", share * 100) + "% of the one-off effort, spread over runs" : "one-off effort");
  e.engineering = e.lines.back().usd;
  return e;
}

// --- incidents ------------------------------------------------------------------------------

namespace {

// Hours of the job's nodes one named incident costs (0 for failed runs, which scale with a run).
double incident_hours(const Incident& x) {
  switch (x.kind) {
    case IncidentKind::lost_day: return 24.0 * x.days;
    case IncidentKind::oom: return x.hours;
    case IncidentKind::throughput_regression:
      // A regression of r lasting D wall-clock days does (1 - r) D days of work in D days: the
      // missing r D days are made up at full speed afterwards, so the run takes r D days longer.
      // (Were D the days of work done while slow, they would take D / (1 - r) and cost
      // D (1/(1 - r) - 1); the seed reports give the regression's duration on the calendar.)
      return 24.0 * x.days * x.fraction;
    case IncidentKind::failed_runs: return 0;
  }
  return 0;
}

std::string incident_detail(const Incident& x) {
  std::string d;
  switch (x.kind) {
    case IncidentKind::lost_day: d = qty(x.days) + " day(s) lost on the job's nodes"; break;
    case IncidentKind::oom: d = "an OOM: " + qty(x.hours) + " h of the job's nodes lost"; break;
    case IncidentKind::throughput_regression:
      d = fmt("%.3g", 100 * x.fraction) + "% throughput lost for " + qty(x.days) + " days: " + qty(x.fraction) +
          " x " + qty(x.days) + " days made up";
      break;
    case IncidentKind::failed_runs:
      d = fmt("%.3g", 100 * x.fraction) + "% of runs fail " + fmt("%.3g", 100 * x.progress) + "% of the way and are rerun";
      break;
  }
  if (!x.note.empty()) d += " (" + x.note + ")";
  return d + ", at the blended instance rate";
}

double term_of(const CampaignTime& ct, const char* name) {
  for (const auto& t : ct.terms)
    if (t.name == name) return t.value;
  return 0;
}

}  // namespace

double incident_delay_s(const CostInputs& in) {
  double h = 0;
  for (const auto& x : in.incidents) h += incident_hours(x);
  return h * 3600.0;
}

double rerun_s(const CostInputs& in, double run_s) {
  double f = 0;
  for (const auto& x : in.incidents)
    if (x.kind == IncidentKind::failed_runs) f += x.fraction * x.progress;
  return f * run_s;
}

void incident_lines(std::vector<BillLine>& v, const CostInputs& in, const JobPerf& job, const CampaignTime& ct,
                    double usd_per_node_hour) {
  // The campaign's terms carry each kind once per run weight; split them back by incident.
  const double delay_h = incident_delay_s(in) / 3600.0;
  const double rerun_share = rerun_s(in, 1.0);
  for (const auto& x : in.incidents) {
    double node_h = 0;
    if (x.kind == IncidentKind::failed_runs)
      node_h = rerun_share > 0 ? job.nodes * term_of(ct, "reruns") / 3600.0 * x.fraction * x.progress / rerun_share : 0;
    else
      node_h = delay_h > 0 ? job.nodes * term_of(ct, "incidents") / 3600.0 * incident_hours(x) / delay_h : 0;
    const std::string item = x.kind == IncidentKind::failed_runs ? "reruns.failed_runs"
                                                                 : std::string("incidents.") + to_string(x.kind);
    push_line(v, item, node_h, "instance-hours", usd_per_node_hour,
              incident_detail(x));
  }
}

}  // namespace tc::bill

namespace tc {

const ServicePrice* find_service(const std::vector<ServicePrice>& services, const std::string& id) {
  for (const auto& s : services)
    if (s.id == id) return &s;
  return nullptr;
}

const char* to_string(IncidentKind k) {
  switch (k) {
    case IncidentKind::lost_day: return "lost_day";
    case IncidentKind::oom: return "oom";
    case IncidentKind::throughput_regression: return "throughput_regression";
    case IncidentKind::failed_runs: return "failed_runs";
  }
  return "?";
}

}  // namespace tc
