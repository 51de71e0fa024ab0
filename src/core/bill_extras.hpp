// Storage, data transfer, engineering and incidents: the items of a bill that do not depend on the
// pricing tier (the same on the cloud and on an owned cluster). Internal to src/core.
//
// Prices come from CostInputs::services (presets/services.json, from
// ../shared/reference/hardware.md sections 2.4.6 and 2.4.7), each line naming its service, tier,
// region and price date; a figure from secondary sources says so in its line.
#pragma once

#include <string>
#include <vector>

#include "core/bill_common.hpp"
#include "core/cost.hpp"

namespace tc::bill {

struct Extras {
  std::vector<BillLine> lines;
  double engineering = 0;
  double months = 0;
  std::vector<std::string> notes;
  std::vector<std::string> price_regions;  // regions of the service prices used
};

// Storage, transfer and engineering of a campaign of wall time ct (its checkpoint term sets the
// GB written to storage that bills uploads).
Extras extras(const CostInputs& in, const JobPerf& job, const CampaignTime& ct);

// The checkpoint's size in bytes: the override, else weights + optimizer state.
double checkpoint_bytes(const CostInputs& in, const JobPerf& job);

// The FSx for Lustre file system the scenario stores on, if any.
struct FsxSizing {
  bool used = false;
  const ServicePrice* price = nullptr;
  double needed_tib = 0;                  // what it holds
  double capacity_tib = 0;                // provisioned (given, else what it holds)
  std::string holds;                      // "2 checkpoints of 1600 GB + dataset 15000 GB"
};
// Throws CostError when the tier has no price or a given capacity is too small for its content.
FsxSizing fsx_sizing(const CostInputs& in, const JobPerf& job);

// Aggregate checkpoint write bandwidth, GB/s: as given, else the FSx file system's throughput
// when the checkpoints are on it, else kDefaultCheckpointWriteGbPerS.
double checkpoint_write_gb_per_s(const CostInputs& in, const JobPerf& job);

// Delay of the first run by the named incidents (lost days, OOMs, throughput regressions), s.
double incident_delay_s(const CostInputs& in);
// Expected rerun time of a run of run_s seconds from the failed-run fractions, s.
double rerun_s(const CostInputs& in, double run_s);
// One line per incident: the campaign's "incidents" and "reruns" seconds (ct) on the job's nodes
// at usd_per_node_hour, split by incident.
void incident_lines(std::vector<BillLine>& v, const CostInputs& in, const JobPerf& job, const CampaignTime& ct,
                    double usd_per_node_hour);

// Units in each step of a tiered price for `units` in a month (same order as steps).
std::vector<double> split_steps(double units, const std::vector<PriceStep>& steps);

}  // namespace tc::bill
