#include "io/job.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/estimate.hpp"
#include "core/owned_cluster.hpp"
#include "io/report.hpp"
#include "io/schema.hpp"
#include "io/url_state.hpp"

namespace tc::io {

namespace {

CostResult cost_on(const CostInputs& in, const ScenarioSpec& spec, const Estimate& est) {
  const Scenario& sc = spec.scenario;
  // CostError is the InputError the caller expects: nothing to translate.
  return evaluate_cost(in, job_perf(sc, est), sc.instance, sc.accelerator);
}

// The baseline instance's own plan and bill, against the job's bill.
void add_baseline(CostReport& r, const Job& job, const PresetLibrary& lib) {
  const std::string& base = job.cost.baseline_instance;
  if (base.empty() || base == job.spec.scenario.instance.id) return;
  // Errors of the baseline's own estimate name the field that asked for it.
  ScenarioSpec bspec;
  Estimate best;
  try {
    lib.require_instance(base, "baseline_instance");
    bspec = with_instance(job.spec, lib, base);
    best = run_estimate(bspec);
  } catch (const InputError& e) {
    if (e.field() == "baseline_instance") throw;
    throw InputError("baseline_instance", base + ": " + e.what());
  }
  const CostResult bres = cost_on(baseline_inputs(job.cost), bspec, best);
  r.baseline = compare_with_baseline(job.cost, r.result.bill, bres.bill);
  if (!bres.bill.priced)
    r.result.warnings.push_back("baseline_instance: " + base + " has unpriced hours; no saving computed");
}

// An owned cluster of other hardware than the job's (seed case E: owned H100 beside a Trainium
// job): the job planned and run on owned_cluster.nodes of owned_cluster.instance, against the
// job's cloud bill. Owned hardware of the job's own instance is costed by evaluate_cost().
void add_owned_elsewhere(CostReport& r, const Job& job, const PresetLibrary& lib) {
  const OwnedClusterInputs& oc = job.cost.owned;
  if (!oc.enabled || oc.instance_id.empty() || oc.instance_id == job.spec.scenario.instance.id) return;
  lib.require_instance(oc.instance_id, "owned_cluster.instance");  // an unknown id is an input error
  ScenarioSpec ospec;
  Estimate oest;
  try {
    ospec = with_instance(job.spec, lib, oc.instance_id);
    // The scenario's layout is for its own instance: the owned hardware gets a plan of its own.
    ospec.request = searched_plan(ospec.request);
    ospec = with_nodes(ospec, oc.nodes > 0 ? oc.nodes : ospec.scenario.nodes);
    oest = run_estimate(ospec);
  } catch (const InputError& e) {
    // Hardware that cannot run the job leaves the cloud bill standing, and says why.
    r.result.warnings.push_back("owned_cluster.instance: " + oc.instance_id + " cannot run this job (" + e.what() +
                                "); no owned bill");
    return;
  }
  const Scenario& sc = ospec.scenario;
  OwnedResult o = evaluate_owned(job.cost, job_perf(sc, oest), sc.instance, sc.accelerator, r.result.bill);
  r.result.owned_wall = o.wall;
  o.bill.notes.push_back("owned_cluster: the job planned afresh on " + std::to_string(sc.nodes) + " x " + sc.instance.id +
                         " (plan " + plan_short(oest.plan) + "), not on the scenario's layout");
  if (!oest.memory.fits)
    o.bill.warnings.push_back("owned_cluster: the job does not fit in the memory of " + std::to_string(sc.nodes) +
                              " x " + sc.instance.id + " with any plan searched");
  for (const auto& w : o.bill.warnings) r.result.warnings.push_back(w);
  r.result.owned = std::move(o.bill);
}

CostReport cost_report(const Job& job, const Estimate& est, const PresetLibrary& lib,
                       const EvaluateOptions& options) {
  if (job.cost_error) throw *job.cost_error;
  CostReport r;
  r.result = cost_on(job.cost, job.spec, est);
  if (options.owned) add_owned_elsewhere(r, job, lib);
  if (options.baseline) add_baseline(r, job, lib);
  if (options.claims) {
    if (job.claims_error) throw *job.claims_error;
    if (!job.claims.empty()) {
      ClaimContext ctx;
      ctx.scenario = &job.spec.scenario;
      ctx.estimate = &est;
      ctx.cost = &r.result;
      ctx.instances = &lib.instances;
      ctx.accelerators = &lib.accelerators;
      ctx.pricing = &job.cost.pricing;
      r.claims = check_claims(job.claims, ctx);
    }
  }
  return r;
}

}  // namespace

Job parse_job(const Json& doc, const PresetLibrary& lib, const std::string& label) {
  Job job;
  job.spec = parse_scenario(doc, lib, label);
  try {
    job.cost = parse_cost_inputs(doc);
    job.cost.services = lib.services;
  } catch (const InputError& e) {
    job.cost_error = e;
  }
  try {
    job.claims = parse_claims(doc);
  } catch (const InputError& e) {
    job.claims_error = e;
  }
  return job;
}

Job parse_job_text(const std::string& text, const PresetLibrary& lib, const std::string& label) {
  return parse_job(parse_json(text, label), lib, label);
}

namespace {

// An error on a scenario path, named as a link spells it, with the path: "n (nodes): ...",
// "o.checkpoint.interval_min (overheads.checkpoint.interval_min): ...".
InputError as_link_error(const InputError& e) {
  const std::string key = link_key(e.field());
  return key.empty() ? e : InputError(key + " (" + e.field() + ")", e.reason());
}

}  // namespace

Job parse_job_link(std::string_view link, const PresetLibrary& lib) {
  const auto hash_at = link.find('#');
  if (hash_at == std::string_view::npos && link.find("://") != std::string_view::npos)
    throw InputError("link", "has no # part: the scenario travels in the hash (#v1&m=...)");
  const std::string_view hash = hash_at == std::string_view::npos ? link : link.substr(hash_at);
  const UrlState st = parse_url_hash(hash, Json::object());
  if (!st.has_scenario) throw InputError("link", "names no scenario (no v1 keys)");
  Job job;
  try {
    job = parse_job(st.scenario, lib, "link");
  } catch (const InputError& e) {
    throw as_link_error(e);
  }
  // A link carries no claims; a cost section it sets wrong is its error, named by its key.
  if (job.cost_error) throw as_link_error(*job.cost_error);
  return job;
}

Job job_on_instance(const Job& job, const PresetLibrary& lib, const std::string& instance_id) {
  Job v = job;
  v.spec = with_instance(job.spec, lib, instance_id);
  return v;
}

Job job_on_nodes(const Job& job, int nodes) {
  Job v = job;
  v.spec = with_nodes(job.spec, nodes);
  return v;
}

namespace {

// The pipeline depth nearest `p.pp` that the scenario's devices divide into with p.tp x p.cp and
// its layers fill at p.vpp chunks a stage (estimate.cpp: pp x vpp <= layers + 2); the deeper
// of two equally near, for memory. p.pp when tp x cp does not divide the devices.
int nearest_pipeline(const Scenario& s, const ParallelPlan& p, const PlanRequest& r) {
  const long long shape = static_cast<long long>(p.tp) * p.cp;
  const long long devices = devices_of(s);
  if (shape <= 0 || devices % shape != 0) return p.pp;
  const long long room = devices / shape;
  int best = p.pp;
  long long best_gap = -1;
  // A stated first or last stage needs a pipeline to be the edge of.
  const long long shallowest = r.first_stage_layers >= 0 || r.last_stage_layers >= 0 ? 2 : 1;
  for (long long d = shallowest; d <= room && d * std::max(1, p.vpp) <= s.model.layers + 2LL; ++d) {
    if (room % d != 0) continue;
    const long long gap = std::llabs(d - p.pp);
    if (best_gap < 0 || gap <= best_gap) {
      best = static_cast<int>(d);
      best_gap = gap;
    }
  }
  return best;
}

}  // namespace

std::string plan_short(const ParallelPlan& p) {
  std::string s = "tp" + std::to_string(p.tp) + " pp" + std::to_string(p.pp) + " dp" + std::to_string(p.dp);
  if (p.cp > 1) s += " cp" + std::to_string(p.cp);
  if (p.ep > 1) s += " ep" + std::to_string(p.ep) + (expert_tp(p) != p.tp ? "/etp" + std::to_string(expert_tp(p)) : "");
  if (p.first_stage_layers >= 0) s += " first" + std::to_string(p.first_stage_layers);
  if (p.last_stage_layers >= 0) s += " last" + std::to_string(p.last_stage_layers);
  return s;
}

Job job_with_plan(const Job& job, const Estimate& searched, PlanKept kept) {
  Job v = job;
  const ParallelPlan& p = searched.plan;
  PlanRequest& r = v.spec.request;
  r.kept_pick_optimism = searched.pick_optimism;
  auto fix = [](int& knob, int value) {
    if (knob == kAuto) knob = value;
  };
  fix(r.tp, p.tp);
  fix(r.sequence_parallel, p.sequence_parallel ? 1 : 0);
  fix(r.recompute, static_cast<int>(p.recompute));
  fix(r.zero, p.zero);
  if (kept != PlanKept::tensor_parallel) {
    fix(r.cp, p.cp);  // with tp, the shape nearest_pipeline keeps
    const int pp = nearest_pipeline(v.spec.scenario, p, r);
    fix(r.pp, pp);
    fix(r.vpp, pp > 1 ? p.vpp : 1);
    fix(r.micro_batch, kept == PlanKept::micro_batch_one ? 1 : p.micro_batch);
  }
  r.dp = kAuto;
  return v;
}

Result evaluate(const Job& job, const PresetLibrary& lib, const EvaluateOptions& options) {
  Result r;
  r.est = run_estimate(job.spec);
  r.band = uncertainty_for(job.spec.scenario, lib.bands);
  try {
    r.cost = cost_report(job, r.est, lib, options);
  } catch (const InputError& e) {
    r.cost_error = e;
  }
  return r;
}

const CostReport& cost_of(const Result& r) {
  if (r.cost_error) throw *r.cost_error;
  return *r.cost;
}

std::vector<std::string> plain_warnings(const Result& r) {
  std::vector<std::string> out;
  for (const auto& w : r.est.warnings) out.push_back(plain_message(w));
  if (r.cost)
    for (const auto& w : r.cost->result.warnings) out.push_back(plain_message(w));
  return out;
}

Json result_json(const Job& job, const Result& r) {
  Json j = estimate_json(job.spec, r.est, r.band);
  add_cost_json(j, cost_of(r));
  return j;
}

std::string result_text(const Job& job, const Result& r) {
  return estimate_text(job.spec, r.est, r.band) + cost_text(cost_of(r));
}

}  // namespace tc::io
