// Storage, data transfer and engineering: the items of a bill that do not depend on where the
// job runs (the same on the cloud and on an owned cluster). Internal to src/core.
#pragma once

#include <vector>

#include "core/cost.hpp"

namespace tc::bill {

struct Extras {
  std::vector<BillLine> lines;
  double engineering = 0;
  double months = 0;
};

// The extras of a campaign that runs campaign_wall_s in all.
Extras extras(const CostInputs& in, const JobPerf& job, double campaign_wall_s);

}  // namespace tc::bill
