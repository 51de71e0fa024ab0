// Where a step's time goes, as one stacked bar with a legend.
#include "core/labels.hpp"
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

void panel_breakdown(AppState& s) {
  const Outcome* o = shown(s);
  if (!o) return;
  const Estimate& e = o->est;
  double total = 0;
  for (const auto& t : e.breakdown_s) total += t.value > 0 ? t.value : 0;
  if (!(total > 0)) {
    text_disabled("No step time.");
    return;
  }
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = ImGui::GetFrameHeight() * 1.4f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float x = p.x;
  int i = 0;
  const NamedTerm* hovered = nullptr;
  for (const auto& t : e.breakdown_s) {
    const int color = i++;
    if (!(t.value > 0)) continue;
    const float seg = static_cast<float>(w * t.value / total);
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + seg, p.y + h), series_color(color));
    if (ImGui::IsMouseHoveringRect(ImVec2(x, p.y), ImVec2(x + seg, p.y + h)))
      hovered = &t;
    x += seg;
  }
  ImGui::Dummy(ImVec2(w, h));
  if (hovered) show_explanations(s, {io::explain_step_term(*o, o->job, s.lib, hovered->name)}, true);
  i = 0;
  if (ImGui::BeginTable("legend", 3, ImGuiTableFlags_SizingStretchProp)) {
    for (const auto& t : e.breakdown_s) {
      const int color = i++;
      if (!(t.value > 0)) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const ImVec2 c = ImGui::GetCursorScreenPos();
      const float sz = ImGui::GetTextLineHeight() * 0.8f;
      dl = ImGui::GetWindowDrawList();
      dl->AddRectFilled(ImVec2(c.x, c.y + sz * 0.1f), ImVec2(c.x + sz, c.y + sz * 1.1f), series_color(color));
      ImGui::Dummy(ImVec2(sz, sz));
      ImGui::SameLine();
      text(plain_label(t.name));
      ImGui::TableNextColumn();
      text(fmt_duration(t.value));
      explain_last(s, [&] { return io::explain_step_term(*o, o->job, s.lib, t.name); });
      ImGui::TableNextColumn();
      text(fmt_percent(t.value / total));
      explain_last(s, [&] { return io::explain_step_term(*o, o->job, s.lib, t.name); });
    }
    ImGui::EndTable();
  }
  text_disabled("step " + fmt_duration(e.step_time_s) + ", " + std::to_string(e.grad_accum) +
                " micro-batches per step, " + fmt_si(e.steps) + " steps");
  explain_last(s, [&] { return io::explain_step_time(*o, o->job, s.lib); });
}

}  // namespace tc::ui
