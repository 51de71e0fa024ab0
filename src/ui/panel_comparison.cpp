// The same job on every ticked instance (the plan searched for each), as a sortable table and
// bars of time and cost; the cheapest and the fastest are marked by the rule `traincalc compare`
// uses (io/compare.hpp).
#include <algorithm>
#include <cmath>

#include "io/compare.hpp"
#include "io/schema.hpp"
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {

struct Row {
  const ComparisonRow* row;
  double wall, bill, per_m, mfu, step;
};

double wall_of(const Outcome& o) { return o.cost ? o.cost->result.wall.total_s : o.est.train_time_s; }
double bill_of(const Outcome& o) {
  return o.cost && o.cost->result.bill.priced ? o.cost->result.bill.total_usd : NAN;
}

void instance_ticks(AppState& s) {
  if (ImGui::Button("Instances...")) ImGui::OpenPopup("ticks");
  remember_rect("compare_instances");
  if (ImGui::BeginPopup("ticks")) {
    io::Json list = io::Json::array();
    if (const io::Json* c = doc_get(s.doc, "compare_instances"); c && c->is_array()) list = *c;
    bool changed = false;
    for (const auto& inst : s.lib.instances) {
      bool ticked = std::find(list.begin(), list.end(), io::Json(inst.id)) != list.end();
      if (ImGui::Checkbox(inst.name.c_str(), &ticked)) {
        if (ticked)
          list.push_back(inst.id);
        else
          list.erase(std::remove(list.begin(), list.end(), io::Json(inst.id)), list.end());
        changed = true;
      }
      sources_tooltip(s, "instance", inst.id);
    }
    if (changed) {
      if (list.empty())
        doc_erase(s.doc, "compare_instances");
      else
        doc_set(s.doc, "compare_instances", list);
    }
    ImGui::EndPopup();
  }
}

// The sortable table; the fastest and the cheapest row in the accent colour.
void comparison_table(AppState& s, std::vector<Row>& rows, const ComparisonRow* fast_c, const ComparisonRow* cheap_c) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  // A horizontally scrolling table is a child window: give it the height of its rows.
  const float table_h = ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(rows.size()) + 1.5f) +
                        ImGui::GetStyle().ScrollbarSize + ImGui::GetStyle().CellPadding.y * 2 * (rows.size() + 1);
  if (ImGui::BeginTable("comparison", 8, flags, ImVec2(0, table_h))) {
    ImGui::TableSetupColumn("instance", ImGuiTableColumnFlags_DefaultSort);
    ImGui::TableSetupColumn("chips");
    ImGui::TableSetupColumn("plan", ImGuiTableColumnFlags_NoSort);
    ImGui::TableSetupColumn("step");
    ImGui::TableSetupColumn("wall time");
    ImGui::TableSetupColumn("bill, USD");
    ImGui::TableSetupColumn("USD per 1M tokens");
    ImGui::TableSetupColumn("MFU");
    ImGui::TableHeadersRow();
    if (ImGuiTableSortSpecs* spec = ImGui::TableGetSortSpecs(); spec && spec->SpecsCount > 0) {
      const int col = spec->Specs[0].ColumnIndex;
      const bool asc = spec->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
      auto value = [col](const Row& r) -> double {
        switch (col) {
          case 1: return r.row->done && r.row->out.ok ? r.row->out.est.chips : NAN;
          case 3: return r.step;
          case 4: return r.wall;
          case 5: return r.bill;
          case 6: return r.per_m;
          case 7: return r.mfu;
          default: return NAN;
        }
      };
      std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        if (col == 0) return asc ? a.row->instance_id < b.row->instance_id : a.row->instance_id > b.row->instance_id;
        const double va = value(a), vb = value(b);
        if (!std::isfinite(va)) return false;  // unknown values sort last either way
        if (!std::isfinite(vb)) return true;
        return asc ? va < vb : va > vb;
      });
    }
    for (const Row& r : rows) {
      const ComparisonRow& c = *r.row;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const bool is_current = shown(s) && c.instance_id == shown(s)->job.spec.instance_id;
      text_colored(is_current ? kColorAccent : ImGui::GetColorU32(ImGuiCol_Text), c.instance_id);
      sources_tooltip(s, "instance", c.instance_id);
      if (!c.done) {
        ImGui::TableNextColumn();
        text_disabled("...");
        continue;
      }
      if (!c.out.ok) {
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        text_colored(kColorBad, "no plan");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", io::plain_message(c.out.error).c_str());
        continue;
      }
      const Estimate& e = c.out.est;
      const Outcome& out = c.out;
      ImGui::TableNextColumn();
      text(std::to_string(e.chips));
      explain_last(s, [&] { return io::explain_chips(out, out.job, s.lib); });
      ImGui::TableNextColumn();
      text(io::plan_short(e.plan) + (e.memory.fits ? "" : " (no fit)"));
      explain_last(s, [&] { return io::explain_plan(out); });
      ImGui::TableNextColumn();
      text(fmt_duration(r.step));
      explain_last(s, [&] { return io::explain_step_time(out, out.job, s.lib); });
      ImGui::TableNextColumn();
      text_colored(&c == fast_c ? kColorGood : ImGui::GetColorU32(ImGuiCol_Text),
                   fmt_duration(r.wall) + (&c == fast_c ? " fastest" : ""));
      explain_last(s, [&] { return io::explain_wall_time(out, out.job, s.lib); });
      ImGui::TableNextColumn();
      text_colored(&c == cheap_c ? kColorGood : ImGui::GetColorU32(ImGuiCol_Text),
                   fmt_usd(r.bill) + (&c == cheap_c ? " cheapest" : "") +
                       (c.out.cost && !c.out.cost->result.warnings.empty() ? " (!)" : ""));
      explain_last(s, [&] { return io::explain_bill(out, out.job, s.lib); });
      ImGui::TableNextColumn();
      text(fmt_usd(r.per_m));
      explain_last(s, [&] { return io::explain_usd_per_million_tokens(out, out.job, s.lib); });
      ImGui::TableNextColumn();
      text(fmt_percent(r.mfu));
      explain_last(s, [&] { return io::explain_mfu(out, out.job, s.lib); });
    }
    ImGui::EndTable();
  }
}

// Bars: time and cost relative to the largest, each labelled with its value and unit.
void comparison_bars(AppState& s, const std::vector<Row>& rows, const ComparisonRow* fast_c,
                     const ComparisonRow* cheap_c) {
  double max_wall = 0, max_bill = 0;
  for (const Row& r : rows) {
    if (std::isfinite(r.wall)) max_wall = std::max(max_wall, r.wall);
    if (std::isfinite(r.bill)) max_bill = std::max(max_bill, r.bill);
  }
  if (max_wall > 0 && ImGui::BeginTable("bars", 3, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("instance", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 9);
    const std::string wall_head = "wall time (full bar: " + fmt_duration(max_wall) + ")";
    const std::string bill_head = max_bill > 0 ? "bill, USD (full bar: " + fmt_usd(max_bill) + ")" : "bill, USD";
    ImGui::TableSetupColumn(wall_head.c_str());
    ImGui::TableSetupColumn(bill_head.c_str());
    ImGui::TableHeadersRow();
    for (const Row& r : rows) {
      if (!std::isfinite(r.wall)) continue;
      const Outcome& out = r.row->out;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      text(r.row->instance_id);
      ImGui::TableNextColumn();
      bar(static_cast<float>(r.wall / max_wall), r.row == fast_c ? kColorGood : series_color(0), fmt_duration(r.wall),
          ImGui::GetTextLineHeight() * 1.2f);
      explain_last(s, [&] { return io::explain_wall_time(out, out.job, s.lib); });
      ImGui::TableNextColumn();
      if (max_bill > 0 && std::isfinite(r.bill)) {
        bar(static_cast<float>(r.bill / max_bill), r.row == cheap_c ? kColorGood : series_color(1), fmt_usd(r.bill),
            ImGui::GetTextLineHeight() * 1.2f);
        explain_last(s, [&] { return io::explain_bill(out, out.job, s.lib); });
      } else {
        text_disabled("-");
      }
    }
    ImGui::EndTable();
  }
}

}  // namespace

void panel_comparison(AppState& s) {
  instance_ticks(s);
  ImGui::SameLine();
  int pending = 0;
  for (const auto& c : s.comparison) pending += c.done ? 0 : 1;
  text_disabled(pending ? "computing " + std::to_string(pending) + " more..." : "plan searched per instance");

  std::vector<Row> rows;
  for (const auto& c : s.comparison)
    rows.push_back({&c, c.done && c.out.ok ? wall_of(c.out) : NAN, c.done && c.out.ok ? bill_of(c.out) : NAN,
                    c.done && c.out.ok && c.out.cost && c.out.cost->result.bill.priced
                        ? c.out.cost->result.bill.usd_per_million_tokens
                        : NAN,
                    c.done && c.out.ok ? c.out.est.mfu : NAN, c.done && c.out.ok ? c.out.est.step_time_s : NAN});
  std::vector<const io::Result*> results;
  for (const auto& c : s.comparison) results.push_back(c.done && c.out.ok ? &c.out : nullptr);
  const io::Marks marks = io::fastest_and_cheapest(results);
  const ComparisonRow* cheap_c = marks.cheapest >= 0 ? &s.comparison[static_cast<std::size_t>(marks.cheapest)] : nullptr;
  const ComparisonRow* fast_c = marks.fastest >= 0 ? &s.comparison[static_cast<std::size_t>(marks.fastest)] : nullptr;

  comparison_table(s, rows, fast_c, cheap_c);
  comparison_bars(s, rows, fast_c, cheap_c);
}

}  // namespace tc::ui
