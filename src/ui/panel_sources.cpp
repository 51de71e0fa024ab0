// Where every figure of the current model, instance and accelerator comes from.
#include "core/text.hpp"
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {
void notes_table(const AppState& s, const char* kind, const std::string& id) {
  const auto notes = s.lib.sources_for(kind, id);
  if (!ImGui::TreeNodeEx((std::string(kind) + " " + id).c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (notes.empty()) text_disabled("no source recorded");
  if (!notes.empty() &&
      ImGui::BeginTable("notes", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("fields");
    ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("date");
    ImGui::TableSetupColumn("conf.");
    ImGui::TableHeadersRow();
    for (const auto* n : notes) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      std::string fields;
      for (const auto& f : n->fields) append_item(fields, f);
      text_wrapped(fields.empty() ? "all" : fields);
      ImGui::TableNextColumn();
      text_wrapped(n->cite);
      ImGui::TableNextColumn();
      text(n->date);
      ImGui::TableNextColumn();
      text(n->confidence);
    }
    ImGui::EndTable();
  }
  ImGui::TreePop();
}
}  // namespace

void panel_sources(AppState& s) {
  const Outcome* o = shown(s);
  if (!o) return;
  const Scenario& sc = o->job.spec.scenario;
  notes_table(s, "model", sc.model.id);
  notes_table(s, "instance", sc.instance.id);
  notes_table(s, "accelerator", sc.accelerator.id);
  notes_table(s, "framework", sc.framework.id);
  if (!sc.instance.prices.empty() && ImGui::TreeNodeEx("prices", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const auto& p : sc.instance.prices) {
      text(p.tier + ": " + fmt_usd(p.price_usd_per_hour) + "/h, " + p.region + ", " + p.date);
      text_disabled(p.source);
    }
    // Earlier list prices: still quoted, never billed.
    for (const auto& p : sc.instance.price_history) {
      text(p.tier + " until " + p.date + " (no longer billed): " + fmt_usd(p.price_usd_per_hour) + "/h, " + p.region);
      text_disabled(p.source);
    }
    ImGui::TreePop();
  }
  text_disabled("Preset files: ");
  for (const auto& f : s.lib.files) {
    ImGui::SameLine();
    text_disabled(f);
  }
}

}  // namespace tc::ui
