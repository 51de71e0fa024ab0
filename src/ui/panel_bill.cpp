// The bill itemized, the wall-time terms it pays for, the price tiers it used, and the owned
// cluster beside it.
#include <cmath>

#include "core/labels.hpp"
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {
// Every item of a bill, its quantity x rate in the tooltip, and the total.
void items_table(AppState& s, const char* id, const Bill& b) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("item");
  ImGui::TableSetupColumn("USD");
  ImGui::TableHeadersRow();
  for (const auto& it : b.items_usd) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text(plain_label(it.name));
    ImGui::TableNextColumn();
    text(fmt_usd(it.value));
    explain_last(s, [&] { return io::explain_bill_item(b, it.name); });
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  text_colored(kColorAccent, "total");
  ImGui::TableNextColumn();
  text_colored(kColorAccent, b.priced ? fmt_usd(b.total_usd) : "incomplete: some hours have no public price");
  explain_last(s, [&] { return io::explain_items_total(b); });
  ImGui::EndTable();
}

// The owned cluster beside the cloud: its items, cost of ownership, break-even utilization.
void owned_node(AppState& s, const Bill& o) {
  if (!ImGui::TreeNode("Owned cluster")) return;
  text(o.instance_id + ": " + fmt_usd(o.usd_per_year) + " a year, " + fmt_usd(o.usd_per_node_hour) +
       " per node-hour (idle hours included), " + fmt_usd(o.tco_usd_horizon) + " over the horizon");
  explain_last(s, [&] { return io::explain_ownership(o); });
  items_table(s, "owned", o);
  text(o.break_even_note);
  for (const auto& n : o.notes) text_disabled(n);
  ImGui::TreePop();
}
}  // namespace

void panel_bill(AppState& s) {
  const Outcome* o = shown(s);
  if (!o) return;
  if (o->cost_error) text_colored(kColorBad, o->cost_error->what());
  if (!o->cost) {
    text_disabled("No bill for this scenario.");
    return;
  }
  const CostResult& r = o->cost->result;
  const Bill& b = r.bill;
  ImGui::PushTextWrapPos(0.0f);  // notes and tier lines are long: wrap them at the panel's edge
  items_table(s, "bill", b);
  for (const auto& u : b.unpriced) text_colored(kColorBad, "not priced: " + u);
  text_disabled(fmt_fixed(b.instance_hours, 0) + " instance-hours, " + fmt_usd(b.usd_per_run) + " per run, " +
                fmt_usd(b.usd_per_month) + " per month, lower bound on compute " + fmt_usd(b.compute_only_bound_usd));
  explain_last(s, [&] { return io::explain_bill_rates(b); });
  if (b.energy_known) {
    text_disabled("energy " + fmt_si(b.energy_kwh) + " kWh, " + fmt_si(b.co2e_kg) + " kg CO2e");
    explain_last(s, [&] { return io::explain_energy(b, o->job); });
  }
  for (const auto& n : b.notes) text_disabled(n);
  if (r.owned) owned_node(s, *r.owned);

  if (ImGui::TreeNode("Price tiers")) {
    for (const auto& t : b.tiers) {
      std::string line = fmt_tier(t.tier) + (t.billed_tier != t.tier ? " (billed as " + fmt_tier(t.billed_tier) + ")" : "") +
                         ": " + fmt_percent(t.share, 0) + " of hours, " +
                         (t.priced ? fmt_usd(t.usd_per_hour) + "/h = " + fmt_usd(t.usd) : std::string("no price"));
      text(line);
      explain_last(s, [&] { return io::explain_price_tier(t); });
      if (t.paid_instance_hours > 0)
        text_disabled("  " + t.commitment + ": " + fmt_usd(t.committed_usd) + " paid, " + fmt_usd(t.idle_usd) +
                      " of it idle");
      if (t.billed_tier == "spot" && t.priced && t.break_even_interruptions_per_hour > 0)
        text_disabled("  spot stays cheaper than on demand below " +
                      fmt_fixed(t.break_even_interruptions_per_hour * 730, 2) + " interruptions per instance-month");
    }
    ImGui::TreePop();
  }
  if (ImGui::TreeNode("Wall time of one run")) {
    for (const auto& t : r.wall.terms)
      if (t.value > 0) {
        text(plain_label(t.name) + ": " + fmt_duration(t.value));
        explain_last(s, [&] { return io::explain_wall_term(*o, t.name); });
      }
    text_disabled("checkpoint every " + fmt_duration(r.wall.checkpoint_interval_s) + ", " +
                  fmt_fixed(r.wall.expected_failures, 1) + " failures expected per run");
    explain_last(s, [&] { return io::explain_wall_term(*o, "checkpoints"); });
    ImGui::TreePop();
  }
  if (r.deadline)
    text_colored(r.deadline->meets ? kColorGood : kColorBad,
                 std::string(r.deadline->meets ? "Meets" : "Misses") + " the deadline by " +
                     fmt_duration(std::fabs(r.deadline->margin_s)));
  if (r.deadline) explain_last(s, [&] { return io::explain_deadline(*o); });
  if (o->cost->baseline) {
    const auto& c = *o->cost->baseline;
    text("Against " + c.baseline_instance + ": saves " + fmt_usd(c.saving_usd_per_run) + " per run (" +
         fmt_percent(c.saving_fraction) + ")" +
         (c.payback_months ? ", pays back the migration in " + fmt_fixed(*c.payback_months, 1) + " months"
                           : std::string(", never pays back the migration")));
    explain_last(s, [&] { return io::explain_baseline(c); });
  }
  ImGui::PopTextWrapPos();
}

}  // namespace tc::ui
