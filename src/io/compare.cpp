#include "io/compare.hpp"

#include "core/labels.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cstdio>

namespace tc::io {

namespace {
std::string plan_text(const ParallelPlan& p) {
  return plan_short(p) + (p.vpp > 1 ? " vpp" + std::to_string(p.vpp) : "") + " z" + std::to_string(p.zero) +
         " mb" + std::to_string(p.micro_batch) + " " + to_string(p.recompute);
}
}  // namespace

Marks fastest_and_cheapest(const std::vector<const Result*>& results) {
  Marks m;
  auto at = [&](int i) -> const CostResult& { return results[static_cast<std::size_t>(i)]->cost->result; };
  for (int i = 0; i < static_cast<int>(results.size()); ++i) {
    const Result* r = results[static_cast<std::size_t>(i)];
    if (!r || !r->cost || !r->est.memory.fits) continue;
    const CostResult& c = r->cost->result;
    if (m.fastest < 0 || c.wall.total_s < at(m.fastest).wall.total_s) m.fastest = i;
    if (c.bill.priced && (m.cheapest < 0 || c.bill.total_usd < at(m.cheapest).bill.total_usd)) m.cheapest = i;
  }
  return m;
}

Job compare_job(const Job& job, const PresetLibrary& lib, const std::string& id) {
  if (id == job.spec.instance_id) return job;
  Job base = job;
  ScenarioSpec& sp = base.spec;
  if (sp.compare_at == "nodes") sp.requested_chips = 0;
  if (sp.compare_at == "chips" && sp.requested_chips == 0)
    sp.requested_chips = sp.scenario.chips > 0 ? sp.scenario.chips : sp.scenario.nodes * sp.node_chips;
  Job v = job_on_instance(base, lib, id);
  if (is_neuron(v.spec.scenario.accelerator) != is_neuron(job.spec.scenario.accelerator))
    v.cost.engineering = EngineeringInputs{};
  return v;
}

std::vector<std::string> comparison_ids(const Job& job, const std::vector<std::string>& ids) {
  std::vector<std::string> v = {job.spec.instance_id};
  for (const auto& id : ids)
    if (std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
  return v;
}

std::vector<std::string> comparison_notes(const std::vector<CompareRow>& rows) {
  std::vector<std::string> notes;
  if (rows.empty()) return notes;
  const ScenarioSpec& own = rows.front().job.spec;
  const bool chips = own.compare_at == "chips" || (own.compare_at.empty() && own.requested_chips > 0);
  notes.push_back(std::string("rows keep the ") + (chips ? "chip count" : "node count") +
                  " equal (compare_at: " + (chips ? "chips" : "nodes") + ")");
  std::string regions, first;
  bool mixed = false;
  for (const auto& r : rows) {
    if (!r.problem.empty()) continue;
    const std::string& reg = r.result.cost->result.bill.region;
    if (first.empty()) first = reg;
    mixed = mixed || reg != first;
    append_item(regions, r.instance_id + " " + reg);
  }
  if (mixed) notes.push_back("rows are priced in different regions (" + regions + "): pricing.instance_regions");
  const bool replanned = std::any_of(rows.begin() + 1, rows.end(), [&](const CompareRow& r) {
    return r.problem.empty() && other_plan_hardware(own.scenario, r.job.spec.scenario);
  });
  if (replanned && fixes_plan(own.request))
    notes.push_back("the scenario's fixed plan is for " + own.instance_id +
                    "'s hardware; rows on other chips or node sizes take the plan the search finds for them, "
                    "with the searched plan's expected shortfall, which a fixed plan has not");
  if (own.scenario.accelerator.id.empty()) return notes;
  const Job& j = rows.front().job;
  if (j.cost.engineering.person_weeks > 0)
    notes.push_back("the one-off porting effort is billed on the " +
                    std::string(is_neuron(own.scenario.accelerator) ? "Neuron" : "GPU") + " rows only");
  return notes;
}

std::vector<CompareRow> compare_instances(const Job& job, const PresetLibrary& lib,
                                          const std::vector<std::string>& ids) {
  std::vector<CompareRow> rows;
  for (const auto& id : ids) {
    CompareRow r;
    r.instance_id = id;
    try {
      r.job = compare_job(job, lib, id);
      r.result = evaluate(r.job, lib, kVariantOptions);
      cost_of(r.result);
    } catch (const InputError& e) {
      r.problem = e.what();
    }
    rows.push_back(std::move(r));
  }
  mark_fastest_and_cheapest(rows);
  return rows;
}

void mark_fastest_and_cheapest(std::vector<CompareRow>& rows) {
  std::vector<const Result*> results;
  for (const auto& r : rows) results.push_back(r.problem.empty() ? &r.result : nullptr);
  const Marks m = fastest_and_cheapest(results);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].fastest = m.fastest == static_cast<int>(i);
    rows[i].cheapest = m.cheapest == static_cast<int>(i);
  }
}

namespace {
// The tiers a row is billed at (tier id and its plain words, region, price date, $/h; "a + b" for
// a mix) and its warnings, in plain words (the table is for people; compare_json keeps the paths).
void add_price_cells(std::vector<std::string>& row, const CompareRow& r, bool human) {
  const CostResult& c = r.result.cost->result;
  std::string tier, pricing, region, rate, date, warnings;
  auto add = [](std::string& cell, const std::string& v) {
    if (cell.find(v) == std::string::npos) append_item(cell, v, " + ");
  };
  for (const auto& t : c.bill.tiers) {
    if (!t.priced) continue;
    add(tier, t.billed_tier);
    add(pricing, plain_label("instance." + t.billed_tier));
    add(region, t.region);
    add(rate, human ? format_usd(t.usd_per_hour) + "/h" : format_fixed(t.usd_per_hour, 4));
    add(date, t.date);
  }
  for (const auto& w : plain_warnings(r.result)) append_item(warnings, w, " | ");
  row.insert(row.end(), {tier, pricing, region, rate, date, warnings});
}

std::string note_of(const CompareRow& r) {
  std::string note = r.fastest && r.cheapest ? "fastest, cheapest"
                     : r.fastest             ? "fastest"
                     : r.cheapest            ? "cheapest"
                                             : "";
  if (!r.result.cost->result.bill.priced) append_item(note, "no public price for some hours", "; ");
  return note;
}
}  // namespace

Table compare_table(const std::vector<CompareRow>& rows, TableStyle style) {
  const bool human = style == TableStyle::human;
  Table t;
  t.header = {"instance", "nodes", "chips", "plan", human ? "step_time" : "step_time_s", "tokens_per_s_per_chip",
              "mfu_pct", human ? "wall_time" : "wall_time_days", human ? "bill" : "total_usd",
              human ? "per_1M_tokens" : "usd_per_million_tokens", "fits", "note", "tier", "pricing", "region",
              human ? "price" : "usd_per_hour", "price_date", "warnings"};
  for (const auto& r : rows) {
    if (!r.problem.empty()) {
      std::vector<std::string> row(t.header.size());
      row[0] = r.instance_id;
      row[11] = r.problem;
      t.rows.push_back(std::move(row));
      continue;
    }
    const Estimate& e = r.result.est;
    const CostResult& c = r.result.cost->result;
    const Bill& b = c.bill;
    // Text is read: durations in their unit ("4.0 days") and money as the page writes it ("$4.96 M").
    // CSV and Markdown are computed with: plain decimals in the unit the header names.
    auto usd = [&](double v, int decimals) { return human ? format_usd(v) : format_fixed(v, decimals); };
    t.rows.push_back({r.instance_id, std::to_string(r.job.spec.scenario.nodes), std::to_string(e.chips),
                      plan_text(e.plan),
                      human ? format_duration(e.step_time_s) : format_fixed(e.step_time_s, 4),
                      format_fixed(e.tokens_per_s_per_chip, 0), format_fixed(100 * e.mfu, 1),
                      human ? format_duration(c.wall.total_s) : format_fixed(c.wall.total_s / 86400, 3),
                      b.priced ? usd(b.total_usd, 2) : "-",
                      b.priced && b.tokens > 0 ? usd(b.usd_per_million_tokens, 3) : "-",
                      e.memory.fits ? "yes" : "no", note_of(r)});
    add_price_cells(t.rows.back(), r, human);
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
    Json j = result_json(r.job, r.result);
    j["fastest"] = r.fastest;
    j["cheapest"] = r.cheapest;
    arr.push_back(j);
  }
  return arr;
}

}  // namespace tc::io
