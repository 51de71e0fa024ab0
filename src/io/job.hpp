// A job: a scenario read once into typed inputs (the scenario, its cost sections and claims, every
// default resolved), and the one evaluation of it (plan search, estimate, uncertainty band, cost,
// claims, baseline) that the CLI, the page, the desktop app and the fuzzers call. Variants of a
// job (another instance, another node count, a pinned plan) are edits of the struct.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/claims.hpp"
#include "core/cost.hpp"
#include "io/cost_json.hpp"
#include "io/presets.hpp"
#include "io/scenario.hpp"
#include "io/uncertainty.hpp"

namespace tc::io {

struct Job {
  ScenarioSpec spec;
  CostInputs cost;                       // the cost sections, defaults filled
  std::vector<Claim> claims;
  // A cost section or a claim that does not read. The estimate stands without them; evaluate()
  // reports them where the cost model would have read them.
  std::optional<InputError> cost_error, claims_error;
};

// Throws InputError naming the field when the scenario itself does not read.
Job parse_job(const Json& doc, const PresetLibrary& lib, const std::string& label);
Job parse_job_text(const std::string& text, const PresetLibrary& lib, const std::string& label);
// A page link (https://host/page#v1&m=...) or its hash, decoded by parse_url_hash as the page
// decodes it, over an empty base. Errors name the link key ("n (nodes): must be <= 1000000 ...").
Job parse_job_link(std::string_view link, const PresetLibrary& lib);

// A plan in a table cell: "tp4 pp2 dp32", with cp, ep and the expert tp when they are not trivial
// and a stated first or last stage's layers ("last6").
std::string plan_short(const ParallelPlan& p);

// The same job on another instance or node count (see with_instance, with_nodes).
Job job_on_instance(const Job& job, const PresetLibrary& lib, const std::string& instance_id);
Job job_on_nodes(const Job& job, int nodes);
// How much of a plan a changed job keeps (a preview while a control is held): the whole plan,
// its pipeline moved to the nearest depth the cluster divides; that with a micro-batch of 1, for
// a batch that no longer divides (both keep cp with tp); or the tensor-parallel shape only (tp,
// sequence parallelism, recompute, ZeRO), the rest searched again.
enum class PlanKept { whole, micro_batch_one, tensor_parallel };
// The plan knobs the job leaves to the search fixed as `kept` says, except data parallelism,
// which follows the cluster; the pick keeps the correction of the search that found `searched`
// (its pick_optimism), so that a preview shows about what the release will (the release searches
// the changed job again, and its correction with it).
Job job_with_plan(const Job& job, const Estimate& searched, PlanKept kept);

struct EvaluateOptions {
  bool claims = true;
  bool baseline = true;   // the baseline instance needs a plan search of its own
  bool owned = true;      // so does an owned cluster of another instance than the job's
};
// A comparison row or scaling point: its own bill, neither claims, baseline nor owned cluster
// of other hardware.
constexpr EvaluateOptions kVariantOptions{false, false, false};

struct Result {
  Estimate est;
  Uncertainty band;                      // how far published runs of this family strayed
  std::optional<CostReport> cost;        // absent when cost_error is set
  std::optional<InputError> cost_error;  // the cost sections, claims or baseline do not work out
};

// Throws InputError when the job has no valid plan; problems of the cost side land in cost_error.
Result evaluate(const Job& job, const PresetLibrary& lib, const EvaluateOptions& options = {});
// The cost report, or the problem that left it out. Throws InputError.
const CostReport& cost_of(const Result& r);
// The result's warnings, the estimate's then the bill's, as people read them (plain_message:
// fields in words); the JSON output keeps them as they are.
std::vector<std::string> plain_warnings(const Result& r);

// The CLI's JSON result: the estimate, its band and the cost (io/report.hpp, io/cost_json.hpp).
Json result_json(const Job& job, const Result& r);
// Estimate and cost as readable text.
std::string result_text(const Job& job, const Result& r);

}  // namespace tc::io
