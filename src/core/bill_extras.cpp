#include "core/bill_extras.hpp"

#include <algorithm>

#include "core/bill_common.hpp"

namespace tc::bill {

// Storage, transfer and engineering: the same on the cloud and on an owned cluster.
Extras extras(const CostInputs& in, const JobPerf& job, double campaign_wall_s) {
  Extras e;
  const double running_months = campaign_wall_s / 3600.0 / kHoursPerMonth;
  e.months = running_months;
  if (in.campaign.runs_per_month > 0)
    e.months = std::max(running_months, in.campaign.runs / in.campaign.runs_per_month);
  const double held = e.months + in.storage.retention_months;
  const double ckpt_bytes = in.checkpoint.bytes_override > 0 ? in.checkpoint.bytes_override
                                                             : job.checkpoint_bytes;
  const double gb_month = in.storage.usd_per_gb_month;
  // Storage: GB kept x $/GB-month x months held (S3-style monthly average billing).
  push_line(e.lines, "storage.checkpoints", in.checkpoint.kept * ckpt_bytes / 1e9 * held, "GB-months", gb_month,
            std::to_string(in.checkpoint.kept) + " checkpoints of " + qty(ckpt_bytes / 1e9) + " GB for " + qty(held) +
                " months");
  push_line(e.lines, "storage.dataset", in.storage.dataset_gb * held, "GB-months", gb_month,
            qty(in.storage.dataset_gb) + " GB for " + qty(held) + " months");
  const double copy_gb = in.transfer.copy_gb.value_or(in.storage.dataset_gb);
  push_line(e.lines, "transfer.cross_region", in.transfer.cross_region_copies * copy_gb, "GB",
            in.transfer.cross_region_usd_per_gb,
            qty(in.transfer.cross_region_copies) + " copies of " + qty(copy_gb) + " GB");
  push_line(e.lines, "transfer.egress", in.transfer.egress_gb + in.transfer.egress_gb_per_month * e.months, "GB",
            in.transfer.egress_usd_per_gb, "to the internet");
  const double share = in.engineering.spread_runs > 0 ? std::min(1.0, in.campaign.runs / in.engineering.spread_runs)
                                                      : 1.0;
  push_line(e.lines, "engineering", in.engineering.person_weeks * share, "person-weeks", in.engineering.usd_per_week,
            share < 1 ? fmt("%.3g", share * 100) + "% of the one-off effort, spread over runs" : "one-off effort");
  e.engineering = e.lines.back().usd;
  return e;
}

}  // namespace tc::bill
