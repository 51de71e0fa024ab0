// The cost sections of a scenario file, read into tc::CostInputs and tc::Claim, and the cost model's
// results as JSON (issue 3). Validation is strict: an unknown key, a wrong type, a negative price
// or rate, or tier fractions that do not sum to 1 throw InputError naming the field, e.g.
// "pricing.mix: fractions sum to 0.9, not 1".
//
// io/job.hpp reads them once into a Job; evaluate() fills a CostReport, and
//   tc::io::add_cost_json(result_json, report);   // wall_time_s, cost_usd, usd_per_million_tokens, ...
//
// Scenario keys (all optional; defaults in src/core/cost.hpp and README):
//   "pricing":  {"tier": "on_demand", "fallback": "capacity_block"}          one tier for all hours
//            or {"mix": [{"tier": "on_demand", "fraction": 0.2, "fallback": "capacity_block"},
//                        {"tier": "spot", "fraction": 0.8}]}                  shares of hours
//            or {"mix": [{"tier": "reserved_3y", "instances": 48}, {"tier": "spot", "instances": 16}]}
//               tier: on_demand | reserved_1y|3y[_convertible][_partial_upfront|_all_upfront] |
//                     savings_plan_compute_1y|3y | savings_plan_instance_1y|3y | capacity_block |
//                     spot | sagemaker | custom   (core/commitments.hpp)
//               (custom: "usd_per_hour" or "discount" off on demand; savings plans: "discount",
//               required, at most the published maximum; spot: optional "discount")
//               "spot_discount": fraction off on demand for every spot share (default: the
//               Spot Instance Advisor's saving in the region, else the preset's)
//               "region": "us-east-1", "instance_regions": {"trn2.48xlarge": "us-east-2"},
//               "idle_commitment": "bill" | "share" (who pays a term's or a block's idle hours)
//   "overheads": {"compile": {"first_s", "recompile_s", "shapes", "cache_hit"},
//                 "warmup": {"minutes", "throughput"},
//                 "checkpoint": {"interval_min" (number or "auto"), "write_gb_per_s", "bytes", "kept"},
//                 "failures": {"per_node_hour", "restart_min"},
//                 "spot": {"interruptions_per_hour", "restart_min"},
//                 "queue_hours",
//                 "storage": {"dataset_gb", "retention_days" (or the older "retention_months"),
//                             "checkpoints_service", "dataset_service" (s3_standard |
//                             s3_express_one_zone | fsx_lustre), "fsx_tier" (persistent_2_125 |
//                             _250 | _500 | _1000 | scratch_2), "fsx_capacity_tib",
//                             "usd_per_gb_month" (flat, instead of the services' rates)},
//                 "transfer": {"cross_region_copies", "copy_gb", "copy_from_region", "copy_to_region",
//                              "cross_region_usd_per_gb", "egress_gb", "egress_gb_per_month",
//                              "egress_usd_per_gb" (flat, instead of the tiers)},
//                 "engineering": {"person_weeks", "usd_per_week", "spread_runs"}}
//   "campaign": {"runs", "full_runs", "truncated_fraction", "runs_per_month"}
//   "incidents": [{"kind": "lost_day", "days"} | {"kind": "oom", "hours"} |
//                 {"kind": "throughput_regression", "fraction", "days"} |
//                 {"kind": "failed_runs", "fraction", "progress"}, each with an optional "note"]
//   "owned_cluster": {"instance", "nodes", "capex_usd_per_node", "depreciation_years",
//                     "residual_fraction", "financing_rate", "financing_years",
//                     "maintenance_usd_per_year", "maintenance_fraction_per_year",
//                     "colocation_usd_per_kw_month", "utilization", "node_power_w",
//                     "idle_power_fraction", "pue", "usd_per_kwh", "facility_usd_per_year",
//                     "staff_usd_per_year", "horizon_years"}
//   "energy": {"usd_per_kwh", "grid_kg_co2e_per_kwh", "cloud_pue", "node_power_w"}
//   "deadline_days": number, "baseline_instance": "p4d.24xlarge"
//   "claims": [{"id" ("A12": unique), "text", "reason" (why it cannot be checked), "instance",
//               "other_workload" (another model than the scenario's), "nodes", "wall_time_s" | "wall_time_hours" | "wall_time_days",
//               "bill_usd", "bill_other_usd", "runs" (of the wall time, in bill_usd), "usd_per_hour", "tier", "tflops_per_chip",
//               "peak_tflops", "mfu", "tokens_per_s", "training_flops",
//               "collective": {"bytes", "time_s", "ranks"}, "chips_per_node", "hbm_gb_per_chip",
//               "hbm_gb_per_node", "hbm_tb_per_s", "link_gb_per_s", "network_gbps",
//               "parts": [{the same figures, checked one by one}]}]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/claims.hpp"
#include "core/cost.hpp"
#include "io/json_util.hpp"
#include "io/presets.hpp"

namespace tc::io {

// `doc` is the whole scenario document; sections it lacks take their defaults.
CostInputs parse_cost_inputs(const Json& doc);
std::vector<Claim> parse_claims(const Json& doc);

// Serialization.
Json wall_time_json(const WallTime& w);         // {"total": s, "training": s, ...}
Json bill_json(const Bill& b);                  // details: tiers, hours, per-run, energy
Json cost_usd_json(const Bill& b);              // {"total": $ | null, "instance.spot": $, ...}
Json claims_json(const std::vector<ClaimCheck>& claims);
Json baseline_json(const BaselineComparison& c);

// The cost side of a job's evaluation (io/job.hpp).
struct CostReport {
  CostResult result;
  std::vector<ClaimCheck> claims;
  std::optional<BaselineComparison> baseline;   // when the scenario names a baseline_instance
};

// Adds to an estimate's result JSON: wall_time_s, cost_usd, usd_per_million_tokens, energy_kwh,
// co2e_kg (null when unknown), bill, owned (if any), deadline, baseline, claims and claim_verdicts (counts; if any), and
// appends the cost warnings to result["warnings"].
void add_cost_json(Json& result, const CostReport& r);

}  // namespace tc::io
