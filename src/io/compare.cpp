#include "io/compare.hpp"

#include <cstdio>

namespace tc::io {

std::string plan_short(const ParallelPlan& p) {
  std::string s = "tp" + std::to_string(p.tp) + " pp" + std::to_string(p.pp) + " dp" + std::to_string(p.dp);
  if (p.cp > 1) s += " cp" + std::to_string(p.cp);
  if (p.ep > 1) s += " ep" + std::to_string(p.ep) + (expert_tp(p) != p.tp ? "/etp" + std::to_string(expert_tp(p)) : "");
  return s;
}

namespace {
std::string plan_text(const ParallelPlan& p) {
  return plan_short(p) + (p.vpp > 1 ? " vpp" + std::to_string(p.vpp) : "") + " z" + std::to_string(p.zero) +
         " mb" + std::to_string(p.micro_batch) + " " + to_string(p.recompute);
}
}  // namespace

std::vector<CompareRow> compare_instances(const ScenarioSpec& spec, const PresetLibrary& lib,
                                          const std::vector<std::string>& ids) {
  std::vector<CompareRow> rows;
  for (const auto& id : ids) {
    CompareRow r;
    r.instance_id = id;
    try {
      r.spec = id == spec.instance_id ? spec : with_instance(spec, lib, id);
      r.estimate = run_estimate(r.spec);
      r.cost = cost_report(r.spec, r.estimate, lib, false, false);
    } catch (const InputError& e) {
      r.problem = e.what();
    }
    rows.push_back(std::move(r));
  }
  // Fastest by wall time of a run; cheapest by the campaign bill, among priced rows that fit.
  CompareRow* fastest = nullptr;
  CompareRow* cheapest = nullptr;
  for (auto& r : rows) {
    if (!r.problem.empty() || !r.estimate.memory.fits) continue;
    if (!fastest || r.cost.result.wall.total_s < fastest->cost.result.wall.total_s) fastest = &r;
    const Bill& b = r.cost.result.bill;
    if (b.priced && (!cheapest || b.total_usd < cheapest->cost.result.bill.total_usd)) cheapest = &r;
  }
  if (fastest) fastest->fastest = true;
  if (cheapest) cheapest->cheapest = true;
  return rows;
}

Table compare_table(const std::vector<CompareRow>& rows) {
  Table t;
  t.header = {"instance", "nodes", "chips", "plan", "step_time", "tokens_per_s_per_chip", "mfu_pct",
              "wall_time", "total_usd", "usd_per_million_tokens", "fits", "note"};
  for (const auto& r : rows) {
    if (!r.problem.empty()) {
      t.rows.push_back({r.instance_id, "", "", "", "", "", "", "", "", "", "", r.problem});
      continue;
    }
    const Estimate& e = r.estimate;
    const Bill& b = r.cost.result.bill;
    std::string note = r.fastest && r.cheapest ? "fastest, cheapest"
                       : r.fastest             ? "fastest"
                       : r.cheapest            ? "cheapest"
                                               : "";
    if (!b.priced) note += std::string(note.empty() ? "" : "; ") + "no public price for some hours";
    t.rows.push_back({r.instance_id, std::to_string(r.spec.scenario.nodes), std::to_string(e.chips),
                      plan_text(e.plan), format_duration(e.step_time_s), format_fixed(e.tokens_per_s_per_chip, 0),
                      format_fixed(100 * e.mfu, 1), format_duration(r.cost.result.wall.total_s),
                      b.priced ? format_fixed(b.total_usd, 0) : "-",
                      b.priced && b.tokens > 0 ? format_fixed(b.usd_per_million_tokens, 3) : "-",
                      e.memory.fits ? "yes" : "no", note});
  }
  return t;
}

Json compare_json(const std::vector<CompareRow>& rows) {
  Json arr = Json::array();
  for (const auto& r : rows) {
    if (!r.problem.empty()) {
      arr.push_back({{"instance", r.instance_id}, {"error", r.problem}});
      continue;
    }
    Json j = estimate_json(r.spec, r.estimate);
    add_cost_json(j, r.cost);
    j["fastest"] = r.fastest;
    j["cheapest"] = r.cheapest;
    arr.push_back(j);
  }
  return arr;
}

}  // namespace tc::io
