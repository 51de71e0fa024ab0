// Seed cases: the field reports the product was born from, their claims beside the estimate, and
// each verdict explained.
#include "core/claims.hpp"
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

void panel_seeds(AppState& s) {
  s.seeds_wanted = true;
  if (s.seeds.empty()) text_disabled("No seed scenarios are built in.");
  for (const auto& c : s.seeds) {
    ImGui::PushID(c.id.c_str());
    const bool active = c.id == s.seed_id;
    if (ImGui::Selectable(c.name.c_str(), active)) set_scenario(s, c.doc, c.id);
    if (!c.description.empty() && ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
      text(c.description);
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::SameLine();
    text_disabled(c.verdicts_done ? c.verdicts : std::string("claims: checking..."));
    ImGui::PopID();
  }
  const Outcome* o = shown(s);
  if (!o || !o->cost || o->cost->claims.empty()) return;
  ImGui::Separator();
  text("Claims of this case, checked (" + describe(count_verdicts(o->cost->claims)) + "):");
  for (const auto& c : o->cost->claims) {
    const ImU32 color = c.verdict == Verdict::ok ? kColorGood
                        : c.verdict == Verdict::unchecked ? ImGui::GetColorU32(ImGuiCol_TextDisabled)
                        : c.verdict == Verdict::implausible ? kColorAccent
                                                              : kColorBad;
    text_colored(color, std::string("[") + to_string(c.verdict) + "] " + c.id);
    ImGui::SameLine();
    text_wrapped(c.text);
    ImGui::Indent();
    for (const auto& r : c.reasons) text_wrapped(r);
    for (const auto& t : c.implied) text_disabled(fmt_named(t.name, t.value));
    ImGui::Unindent();
  }
}

}  // namespace tc::ui
