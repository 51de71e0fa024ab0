// Cost model: the wall-clock time of a training job and its whole bill (issue 3).
//
// Pure functions, no I/O. The performance side (step time, steps, FLOPs, checkpoint size) comes
// from tc::Estimate through JobPerf; everything else is a CostInputs field with a documented
// default. Every total is the sum of named terms (checked when it is built).
//
//   tc::JobPerf job = tc::job_perf(scenario, estimate);
//   tc::CostResult r = tc::evaluate_cost(inputs, job, scenario.instance, scenario.accelerator);
//   // r.wall (one full run), r.bill (cloud, the whole campaign), r.owned (owned cluster, if set)
//
// Bad inputs throw tc::CostError naming the field (src/io turns it into tc::io::InputError).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/estimate.hpp"
#include "core/types.hpp"

namespace tc {

// A cost input that cannot be used, e.g. CostError("pricing.mix", "fractions sum to 0.9, not 1").
using CostError = FieldError;

// ---------------------------------------------------------------------------------------------
// Inputs. Units are in the names. std::nullopt = take the default of the accelerator family.

// Graph compilation. Trainium (Neuron) compiles the whole graph ahead of time: minutes for a large
// model and again for every new input shape; GPUs (torch.compile, CUDA graphs, cuDNN autotune)
// take seconds to a minute. Family defaults: see compile_defaults().
struct CompileInputs {
  std::optional<double> first_s;          // first compile of the training graph
  std::optional<double> recompile_s;      // each further shape (e.g. sequence-length bucket)
  int shapes = 1;                         // distinct input shapes (buckets); shapes - 1 recompiles
  double cache_hit = 0;                   // share of compile work a later run finds in a reused
                                          // compile cache (0: every run compiles, 1: only the first)
};

// Reduced throughput at the start of a run (loader, caches, autotuning, collectives warm-up).
struct WarmupInputs {
  std::optional<double> minutes;          // duration of the slow phase
  std::optional<double> throughput;       // fraction of steady throughput during it, in [0, 1]
};

struct CheckpointInputs {
  std::optional<double> interval_min;     // minutes of training between checkpoints;
                                          // nullopt: Young/Daly optimum (see wall_time())
  // Aggregate storage write bandwidth, GB/s (decimal); nullopt: the FSx file system's throughput
  // when the checkpoints are on FSx for Lustre, else kDefaultCheckpointWriteGbPerS.
  std::optional<double> write_gb_per_s;
  double bytes_override = 0;              // checkpoint size in bytes; 0: from the estimate
  int kept = 2;                           // checkpoints kept in storage at a time
};

// An FSx for Lustre file system of ~10 TiB at 1,000 MB/s/TiB (PERSISTENT_2 disk baseline, FSx
// Lustre User Guide, hardware.md section 2.4.6).
constexpr double kDefaultCheckpointWriteGbPerS = 10;

struct FailureInputs {
  // Unexpected interruptions per node-hour. Default from Llama 3 (Dubey et al. 2024, Section
  // 3.3.4): 419 unexpected interruptions in 54 days on 16,384 H100 = 2,048 nodes of 8 GPUs,
  // 419 / (54 * 24 * 2048) = 1.58e-4 per node-hour.
  double per_node_hour = 419.0 / (54.0 * 24.0 * 2048.0);
  double restart_min = 20;                // detect, replace the node, reload the checkpoint
};

struct SpotInputs {
  // Interruptions per spot instance-hour; nullopt: from the instance's Spot Instance Advisor band
  // in the region (core/commitments), else the highest band, with a warning.
  std::optional<double> interruptions_per_hour;
  double restart_min = 30;                // get capacity back (or another pool) and restart
};

// A share of the instance-hours billed at one tier.
struct TierShare {
  std::string tier;                       // on_demand, reserved_1y, reserved_3y, capacity_block,
                                          // spot, custom (or a preset's own tier name)
  double fraction = 0;                    // share of instance-hours (mix by fraction)
  int instances = 0;                      // instances billed at this tier (mix by instances; counts
                                          // that do not sum to the nodes bill as proportions)
  std::string fallback;                   // tier to bill when this one has no public price
  std::optional<double> usd_per_hour;     // custom tier: negotiated rate per instance-hour
  std::optional<double> discount;         // custom tier: fraction off on demand; spot: override
};

enum class MixBy { fraction = 0, instances };

// What a commitment's idle hours (a Reserved Instance or Savings Plan term the campaign does not
// fill, a Capacity Block's unused tail) do to this bill.
enum class IdleCommitment { bill = 0, share };  // bill: the job pays them; share: other work does

struct PricingInputs {
  std::string region = "us-east-1";       // where every instance is priced ...
  bool region_given = false;              // false: the default, which an instance sold elsewhere leaves
  std::vector<std::pair<std::string, std::string>> instance_regions;  // ... unless set here by id
  IdleCommitment idle_commitment = IdleCommitment::bill;
  MixBy mix_by = MixBy::fraction;
  std::optional<double> spot_discount;    // fraction off on demand; nullopt: the instance preset
  // Default: all hours on demand; an instance without a public on-demand rate falls back to its
  // Capacity Block rate, with a warning that names both tiers.
  std::vector<TierShare> mix{TierShare{"on_demand", 1.0, 0, "capacity_block", {}, {}}};
};

// A price that steps down with the volume of a month: each step bills the units up to `up_to_units`
// (cumulative, counted from 0; 0 = no limit) at its rate. A flat price is one step.
struct PriceStep {
  double up_to_units = 0;
  double usd_per_unit = 0;
  std::string label;                      // "first 50 TB", "next 450 TB", ...
};

// Another region a copy may go to, with its own rate ($ per GB out of the source region).
struct RegionPairRate {
  std::string from, to;
  double usd_per_gb = 0;
};

// A priced AWS service other than instances (presets/services.json): storage, internet egress,
// inter-region transfer.
struct ServicePrice {
  std::string id;                         // s3_standard, s3_express_one_zone, fsx_lustre_persistent_2_125,
                                          // ..., fsx_lustre_scratch_2, internet_egress, inter_region
  std::string name;                       // "S3 Standard"
  std::string unit;                       // GB-month (storage) or GB (transfer)
  std::vector<PriceStep> steps;           // by volume per month
  double free_units_per_month = 0;        // internet egress: 100 GB a month free
  double throughput_mb_s_per_tib = 0;     // FSx for Lustre: the tier's disk baseline
  std::vector<RegionPairRate> pairs;      // inter_region: pairs priced apart from steps[0]
  std::string region, date, source, confidence;
  bool secondary = false;                 // the price comes from secondary sources only (say so)
};

// The service prices a scenario is billed with (filled from the presets by src/io).
const ServicePrice* find_service(const std::vector<ServicePrice>& services, const std::string& id);

struct StorageInputs {
  // Flat $ per GB-month for every stored GB; nullopt: each service's published, tiered rate.
  std::optional<double> usd_per_gb_month;
  double dataset_gb = 0;                  // training data kept in storage during the campaign
  double retention_days = 0;              // checkpoints and data kept after the campaign
  std::string checkpoints_service = "s3_standard";  // s3_standard, s3_express_one_zone, fsx_lustre
  std::string dataset_service = "s3_standard";
  // FSx for Lustre, when a service above is fsx_lustre: one file system holds both.
  std::string fsx_tier = "persistent_2_125";  // persistent_2_125/250/500/1000, scratch_2
  std::optional<double> fsx_capacity_tib;     // provisioned; nullopt: what it holds
};

struct TransferInputs {
  double cross_region_copies = 0;         // copies of the dataset to another region
  std::optional<double> copy_gb;          // size of one copy; nullopt: storage.dataset_gb
  std::string copy_from_region = "us-east-1";  // transfer is billed out of the source region
  std::string copy_to_region;             // empty: another region, at the usual US/EU rate
  std::optional<double> cross_region_usd_per_gb;  // nullopt: the region pair's published rate
  double egress_gb = 0;                   // to the internet, once per campaign
  double egress_gb_per_month = 0;         // to the internet, every month of the campaign
  std::optional<double> egress_usd_per_gb;  // flat; nullopt: the published tiers and free 100 GB
};

// Incidents that cost node-hours beyond the planned run (seed cases A and D), each a bill line at
// the job's blended instance rate and, except failed runs, a delay of the first run.
enum class IncidentKind { lost_day = 0, oom, throughput_regression, failed_runs };
struct Incident {
  IncidentKind kind = IncidentKind::lost_day;
  double days = 1;                        // lost_day: days lost; throughput_regression: wall-clock days
  double hours = 0;                       // oom: hours of the job's nodes lost
  double fraction = 0;                    // throughput_regression: throughput lost, in (0, 1);
                                          // failed_runs: share of runs that fail and are rerun
  double progress = 1;                    // failed_runs: share of a run done when it fails
  std::string note;                       // e.g. the seed claim it encodes ("A39")
};
const char* to_string(IncidentKind k);

struct EngineeringInputs {
  double person_weeks = 0;                // migration or porting effort, one-off
  double usd_per_week = 0;                // loaded cost of one person-week
  double spread_runs = 0;                 // spread the one-off over this many runs (0: all on
                                          // this campaign)
};

// Several runs of the same job: a sweep where most runs stop early, or "2.3 full runs per
// delivered model". Runs may be fractional (an expected count).
struct CampaignInputs {
  double runs = 1;
  std::optional<double> full_runs;        // runs that train to the end; nullopt: all of them
  double truncated_fraction = 1;          // share of the training each other run completes
  double runs_per_month = 0;              // 0: runs back to back
};

// A cluster you own instead of renting (cost per run and per year beside the cloud bill).
struct OwnedClusterInputs {
  bool enabled = false;
  std::string instance_id;                // the hardware owned (a preset instance); empty: the job's
  int nodes = 0;                          // size of the owned cluster; 0: the job's node count
  double capex_usd_per_node = 0;          // purchase price of one node incl. its share of network
  double depreciation_years = 4;          // straight line to the residual value
  double residual_fraction = 0;           // resale value at the end of depreciation, share of capex
  double financing_rate = 0;              // annual interest on the capex (0: paid in cash)
  std::optional<double> financing_years;  // loan term; nullopt: depreciation_years
  double maintenance_usd_per_year = 0;    // support contracts, per year for the whole cluster
  double maintenance_fraction_per_year = 0;  // ... or as a share of capex per year (both add)
  double colocation_usd_per_kw_month = 0; // colocation by IT power (node power, before PUE)
  double utilization = 0.6;               // busy share of the year (idle hours are paid too)
  std::optional<double> node_power_w;     // measured; nullopt: chips x chip power + host power
  double idle_power_fraction = 0.3;       // power drawn while idle, as a share of busy power
  double pue = 1.3;                       // on-premises PUE (Uptime Institute 2023 survey: ~1.58
                                          // average; 1.3 for a modern GPU room)
  std::optional<double> usd_per_kwh;      // nullopt: energy.usd_per_kwh
  double facility_usd_per_year = 0;       // space, cooling plant, network contracts
  double staff_usd_per_year = 0;          // operations staff
  double horizon_years = 3;
};

struct EnergyInputs {
  double usd_per_kwh = 0.10;              // electricity (US industrial ~0.08, commercial ~0.13, EIA 2024)
  double grid_kg_co2e_per_kwh = 0.37;     // US average (EPA eGRID 2022, ~820 lb CO2e/MWh)
  double cloud_pue = 1.15;                // AWS global PUE (Amazon sustainability report 2023)
  std::optional<double> node_power_w;     // measured power per node; nullopt: from the presets
};

struct CostInputs {
  CompileInputs compile;
  WarmupInputs warmup;
  CheckpointInputs checkpoint;
  FailureInputs failures;
  SpotInputs spot;
  double queue_hours = 0;                 // waiting for capacity before a run (wall time, unbilled)
  PricingInputs pricing;
  StorageInputs storage;
  TransferInputs transfer;
  EngineeringInputs engineering;
  std::vector<Incident> incidents;
  CampaignInputs campaign;
  OwnedClusterInputs owned;
  EnergyInputs energy;
  std::optional<double> deadline_days;    // does one full run finish in time?
  std::string baseline_instance;          // the instance savings are computed against
  std::vector<ServicePrice> services;     // storage and transfer prices (presets/services.json)
};

// Problems with the inputs alone, as {field, reason} (the JSON path of the scenario field);
// empty when valid. evaluate_cost() throws the first as CostError.
std::vector<InputProblem> validate(const CostInputs& in);

// Family defaults for compile and warm-up (the presets may override them later).
struct CompileDefaults {
  double first_s, recompile_s, warmup_min, warmup_throughput;
  const char* source;
};
CompileDefaults compile_defaults(const Accelerator& acc);
// Trainium and Inferentia run the Neuron stack; everything else here runs CUDA.
bool is_neuron(const Accelerator& acc);
bool runs_on(const FrameworkProfile& fw, const Accelerator& acc);

// ---------------------------------------------------------------------------------------------
// What the cost model needs from the performance model.
struct JobPerf {
  std::string instance_id;
  std::string accelerator_id;
  int nodes = 1;
  int chips = 0;
  int chips_per_node = 0;
  double step_time_s = 0;
  double steps = 0;                       // optimizer steps of one full run
  double tokens_per_step = 0;
  double model_flops_per_step = 0;
  double checkpoint_bytes = 0;            // weights + optimizer state of what trains
  double frozen_weights_bytes = 0;        // LoRA: the base model's weights, stored once
  double peak_tflops_per_chip = 0;        // dense peak at the scenario's precision
  double mfu = 0;
  double chip_power_w = 0;                // 0: not published
  double host_power_w_per_node = 0;
};
JobPerf job_perf(const Scenario& sc, const Estimate& est);

// ---------------------------------------------------------------------------------------------
// Outputs.

struct WallTime {
  std::vector<NamedTerm> terms;           // training, compile, warmup, checkpoints, failures,
                                          // spot_interruptions, queue (seconds)
  double total_s = 0;
  double billed_s = 0;                    // total minus queueing: instances are held
  double checkpoint_interval_s = 0;       // as used (given or Young/Daly)
  double checkpoint_write_s = 0;          // one checkpoint
  double expected_failures = 0;
  double expected_spot_interruptions = 0;
};

// Instance-hours billed at one tier, with the preset price it used.
struct TierLine {
  std::string tier;                       // as asked in the mix
  std::string billed_tier;                // after a fallback (== tier when none)
  double share = 0;                       // of the instance-hours
  double instance_hours = 0;
  bool priced = false;
  double usd_per_hour = 0;
  double usd = 0;                         // the job's own hours at this tier
  std::string region, date, source;       // of the price
  // Commitments (reserved, savings plan) and Capacity Blocks: what is paid whatever is used.
  double paid_instance_hours = 0;         // 0: billed by the hour
  double committed_usd = 0;               // paid_instance_hours x usd_per_hour
  double idle_usd = 0;                    // committed_usd - usd
  std::string commitment;                 // "64 instances x 1 term of 8,760 h", "2 blocks ... x 14 days"
  double break_even_interruptions_per_hour = 0;  // spot: where it stops being cheaper than on demand
};

// One line of a bill as a finance reader checks it: quantity x rate = usd. Every items_usd entry
// is the sum of its lines (lines of zero are left out).
struct BillLine {
  std::string item;                       // the items_usd entry: instance.on_demand, storage.checkpoints, ...
  double quantity = 0;
  std::string unit;                       // instance-hours, GB-months, GB, person-weeks, node-hours, ...
  double usd_per_unit = 0;
  double usd = 0;                         // quantity x usd_per_unit
  std::string detail;                     // tier, region, price date, source
};

struct Bill {
  std::string kind;                       // "cloud" or "owned"
  std::string instance_id;
  std::string region;                     // where it is priced (resolve_region)
  std::vector<NamedTerm> items_usd;       // instance.<tier> | owned.*, storage.*, transfer.*, engineering
  double total_usd = 0;                   // sum of items_usd
  std::vector<BillLine> lines;            // items_usd as quantity x rate
  bool priced = true;                     // false: some instance-hours have no public price and
                                          // are not in the total (see unpriced)
  std::vector<std::string> unpriced;
  std::vector<TierLine> tiers;            // cloud
  std::vector<NamedTerm> instance_usd_by_term;  // the compute cost split by wall-time term
  double instance_hours = 0;              // the whole campaign
  double runs = 1;
  double run_equivalents = 1;             // full runs' worth of training
  double tokens = 0;                      // trained in the campaign
  double campaign_months = 0;
  double usd_per_million_tokens = 0;      // all-in
  double compute_usd_per_million_tokens = 0;  // instance or owned-cluster cost only
  double usd_per_run = 0;                 // total / runs
  double usd_per_month = 0;               // recurring cost per month: runs_per_month runs, else the
                                          // campaign back to back (at least a month)
  double compute_only_bound_usd = 0;      // model FLOPs at dense peak on the billed rate: no plan
                                          // on these chips bills less compute than this
  double engineering_usd = 0;             // one-off share in this bill
  // Energy of the campaign (every platform): chips + host x PUE.
  bool energy_known = false;
  double node_power_w = 0;
  double energy_kwh = 0;
  double co2e_kg = 0;
  // Owned cluster.
  double usd_per_year = 0;                // total cost of ownership per year
  double tco_usd_horizon = 0;             // over owned.horizon_years
  double usd_per_node_hour = 0;           // effective, idle hours included
  std::vector<NamedTerm> tco_usd_by_item; // the horizon's cost of ownership by item (owned.*)
  // The utilization at which the owned cluster's compute costs what the cloud's does for this
  // campaign; nullopt with the reason in break_even_note when there is none.
  std::optional<double> break_even_utilization;
  std::string break_even_note;
  std::vector<std::string> notes;         // what is free or assumed, e.g. same-region S3 traffic
  std::vector<std::string> warnings;
};

struct DeadlineCheck {
  double deadline_s = 0;
  double wall_s = 0;                      // one full run
  bool meets = false;
  double margin_s = 0;                    // deadline - wall (negative: late)
};

struct CostResult {
  WallTime wall;                          // one full run on the cloud
  Bill bill;                              // the cloud bill of the campaign
  std::optional<WallTime> owned_wall;     // one full run on the owned cluster (no spot)
  std::optional<Bill> owned;
  std::optional<DeadlineCheck> deadline;
  std::vector<std::string> warnings;      // the union of the bills' warnings
};

// Wall time of one run: `run_fraction` of the training (1 = a full run), `spot_share` of the
// instance-hours on spot. The first run of a campaign compiles in full (cached = false); later
// runs find cache_hit of it in the compile cache (cached = true).
WallTime wall_time(const CostInputs& in, const JobPerf& job, const Accelerator& acc,
                   double spot_share, double run_fraction = 1.0, bool cached = false);

// Prices are the instance's in in.pricing.region (or its entry in instance_regions); spot
// interruptions: in.spot.interruptions_per_hour, else the instance's Advisor band there.
CostResult evaluate_cost(const CostInputs& in, const JobPerf& job, const Instance& inst,
                         const Accelerator& acc);

// Savings of `mine` against a baseline instance's result, and months to pay back the one-off
// engineering. Evaluate the baseline with baseline_inputs(in): no migration effort there.
struct BaselineComparison {
  std::string baseline_instance;
  double baseline_usd_per_run = 0;        // recurring (no engineering)
  double usd_per_run = 0;                 // recurring (no engineering)
  double saving_usd_per_run = 0;          // baseline - mine
  double saving_fraction = 0;             // of the baseline
  double saving_usd_per_month = 0;
  double engineering_usd = 0;             // one-off migration, in full
  std::optional<double> payback_months;   // nullopt: never (no monthly saving)
  bool priced = true;
};
CostInputs baseline_inputs(const CostInputs& in);
BaselineComparison compare_with_baseline(const CostInputs& in, const Bill& mine, const Bill& base);

// ---------------------------------------------------------------------------------------------
// Helpers shared with the claim check.

// The instance's public price for a tier name (nullptr: none, or price <= 0): in `region` (a Local
// Zone counts as its parent region), or in any region when `region` is empty.
const PriceTier* find_price(const Instance& inst, const std::string& tier, const std::string& region = "");
// Whether a price holds in `region` (a Local Zone counts as its parent region; empty: any).
bool price_in_region(const PriceTier& p, const std::string& region);
// The region given for an instance: its entry in instance_regions, else pricing.region.
const std::string& pricing_region(const PricingInputs& p, const std::string& instance_id);
// The region the bill of `inst` is priced in: pricing_region(); but when the region was left at
// its default and the instance has no price there (trn2.48xlarge is sold only in us-east-2), the
// first region it is priced in. evaluate_cost() says so on the bill.
std::string resolve_region(const PricingInputs& p, const Instance& inst);
// "p5.48xlarge on_demand $55.04/h (us-east-1, 2025-11-30)".
std::string describe_price(const Instance& inst, const PriceTier& p);
// Money and time said one way everywhere (the page, the text report, claims' reasons):
// "$55.04", "$466.26", "$21.1 k", "$1.48 M"; "41.5 ms", "12.35 s", "45 min", "19 h", "4.0 days".
std::string format_usd(double v);
std::string format_duration(double seconds);
// Dense peak TFLOPS of an accelerator at a precision (0: unsupported).
double peak_tflops(const Accelerator& acc, Precision p);

}  // namespace tc
