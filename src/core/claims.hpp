// Claim check: what a claimed wall time, bill, price or utilization implies, and whether it can be
// true (issue 3). Pure functions, no I/O.
//
//   tc::ClaimContext ctx;  ctx.scenario = &sc;  ctx.estimate = &est;  ctx.cost = &cost;
//   ctx.instances = &catalog_instances;  ctx.accelerators = &catalog_accelerators;
//   std::vector<tc::ClaimCheck> v = tc::check_claims(claims, ctx);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/cost.hpp"
#include "core/types.hpp"

namespace tc {

enum class Verdict {
  ok = 0,       // consistent with the hardware, the list prices and published runs
  implausible,  // possible in principle, but beyond published runs, or not a list price
  impossible,   // above the hardware's peak or a link's bandwidth
  unchecked     // nothing in the claim that the model can check (text only, or no estimate)
};
const char* to_string(Verdict v);

// A claimed price more than this far from the list price is flagged.
constexpr double kPriceTolerance = 0.05;
// Spot prices float: a claimed spot price within this of the typical spot price passes.
constexpr double kSpotTolerance = 0.25;
// A datasheet figure (HBM, links, network) within this of the preset's matches it.
constexpr double kSpecTolerance = 0.05;
// A claimed peak within this of another chip's peak is reported as that chip's figure.
constexpr double kPeakMatchTolerance = 0.03;

// One claim of a field report. Every field is optional; what is given is checked.
struct Claim {
  std::string id;                         // the report's number for it, e.g. "A12" (seed-cases.md)
  std::string text;                       // the author's words
  std::string reason;                     // why it, or the part of it not encoded, cannot be checked
  std::string instance_id;                // the platform it is about; empty: the scenario's
  // About another model or dataset than the scenario's (ViT-B beside a ViT-L scenario): the
  // estimate's FLOPs, time and bill do not apply; only training_flops does.
  bool other_workload = false;
  std::optional<int> nodes;               // instances; default: the scenario's nodes
  std::optional<double> wall_time_s;      // of one run
  std::optional<double> bill_usd;         // of `runs` runs
  double runs = 1;                        // runs of wall_time_s that bill_usd covers
  double bill_other_usd = 0;              // the part of bill_usd that is not instance-hours
  std::optional<double> usd_per_hour;     // per instance
  std::string tier = "on_demand";         // of usd_per_hour
  std::optional<double> tflops_per_chip;  // achieved model TFLOPS per chip
  std::optional<double> peak_tflops;      // the peak the author used
  std::optional<double> mfu;              // the author's utilization (fraction)
  std::optional<double> tokens_per_s;     // whole job
  std::optional<double> training_flops;   // the author's count for the run (e.g. 6 N D)
  std::optional<double> collective_bytes; // a collective of this size ...
  std::optional<double> collective_time_s;  // ... done in this time
  int collective_ranks = 2;               // ranks it spans (2 gives the loosest bound)
  // Datasheet figures, against the instance's and its chip's presets.
  std::optional<int> chips_per_node;
  std::optional<double> hbm_gb_per_chip;  // GB or GiB as the author wrote (both are compared)
  std::optional<double> hbm_gb_per_node;
  std::optional<double> hbm_tb_per_s;     // per chip
  std::optional<double> link_gb_per_s;    // per chip inside the node, one direction or both
  std::optional<double> network_gbps;     // per node, Gbit/s
  // A claim of several figures (three plans, two prices): each part is checked as a claim (its
  // instance and nodes default to the scenario's), and the worst verdict of all is the claim's.
  std::vector<Claim> parts;
};

struct ClaimCheck {
  std::string id;
  std::string text;
  std::string instance_id;
  Verdict verdict = Verdict::unchecked;
  std::vector<std::string> reasons;       // one line per check made
  std::vector<NamedTerm> implied;         // implied_mfu, implied_usd_per_instance_hour, ...
};

struct ClaimContext {
  const Scenario* scenario = nullptr;     // required
  const Estimate* estimate = nullptr;     // optional: model FLOPs, estimated time
  const CostResult* cost = nullptr;       // optional: estimated wall time and bill
  const std::vector<Instance>* instances = nullptr;        // catalog (prices of other instances)
  const std::vector<Accelerator>* accelerators = nullptr; // catalog (peaks of other chips)
  const PricingInputs* pricing = nullptr; // optional: the region list prices are read in (else any)
  double mfu_ceiling = kPublishedMfuCeiling;
  double price_tolerance = kPriceTolerance;
};

// How many claims of a report got each verdict.
struct VerdictCounts {
  int ok = 0, implausible = 0, impossible = 0, unchecked = 0;
  int total() const { return ok + implausible + impossible + unchecked; }
};
VerdictCounts count_verdicts(const std::vector<ClaimCheck>& checks);
// "46 claims: 12 ok, 20 implausible, 3 impossible, 11 unchecked".
std::string describe(const VerdictCounts& n);

// Checks one claim (throws std::invalid_argument without ctx.scenario).
ClaimCheck check_claim(const Claim& c, const ClaimContext& ctx);
std::vector<ClaimCheck> check_claims(const std::vector<Claim>& claims, const ClaimContext& ctx);

}  // namespace tc
