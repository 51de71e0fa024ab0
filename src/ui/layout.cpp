// Places the panels: editor beside results on a wide window; on a narrow one (a phone) the
// results first and the inputs below them, as in the compact embed mode.
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {
// Test hook: where the results and the editor start (the browser test checks the narrow order).
void mark(const char* name) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  widget_rects()[name] = {p, p};
}

void results(AppState& s, bool embed) {
  mark("results");
  panel_headline(s);
  if (s.view.show_breakdown && !embed && ImGui::CollapsingHeader("Step time", ImGuiTreeNodeFlags_DefaultOpen))
    panel_breakdown(s);
  if (s.view.show_memory && !embed && ImGui::CollapsingHeader("Memory per device", ImGuiTreeNodeFlags_DefaultOpen))
    panel_memory(s);
  if (s.view.show_comparison && ImGui::CollapsingHeader("Comparison", ImGuiTreeNodeFlags_DefaultOpen))
    panel_comparison(s);
  if (s.view.show_scaling && ImGui::CollapsingHeader("Scaling", ImGuiTreeNodeFlags_DefaultOpen)) panel_scaling(s);
  if (s.view.show_bill && ImGui::CollapsingHeader("Bill", embed ? 0 : ImGuiTreeNodeFlags_DefaultOpen)) panel_bill(s);
  if (s.view.show_seeds && !embed && ImGui::CollapsingHeader("Seed cases and claims")) panel_seeds(s);
  if (s.view.show_sources && !embed && ImGui::CollapsingHeader("Sources", ImGuiTreeNodeFlags_DefaultOpen))
    panel_sources(s);
}
}  // namespace

void draw_app(AppState& s) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("traincalc", nullptr, flags);
  // Popups and tooltips drawn opaque: the dark theme's 94% lets the figures under them show through.
  ImVec4 popup = ImGui::GetStyleColorVec4(ImGuiCol_PopupBg);
  popup.w = 1.0f;
  ImGui::PushStyleColor(ImGuiCol_PopupBg, popup);
  s.explained.clear();
  // Test hook: every text drawn goes to the clipboard function as well (ImGui's logging, which
  // also opens every collapsed section). Ending a top-level window ends the log.
  if (s.log_text) ImGui::LogToClipboard(64);
  const bool embed = s.view.embed;
  panel_toolbar(s);
  panel_banners(s);
  const float fs = ImGui::GetFontSize();
  const float avail = ImGui::GetContentRegionAvail().x;
  if (embed) {
    ImGui::BeginChild("results");
    mark("editor");
    if (ImGui::CollapsingHeader("Scenario")) panel_editor(s);
    results(s, true);
    ImGui::EndChild();
  } else if (avail > fs * 62) {
    ImGui::BeginChild("editor", ImVec2(fs * 30, 0), true);
    mark("editor");
    panel_editor(s);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("results");
    results(s, false);
    ImGui::EndChild();
  } else {
    ImGui::BeginChild("all");
    results(s, false);
    mark("editor");
    if (ImGui::CollapsingHeader("Scenario", ImGuiTreeNodeFlags_DefaultOpen)) panel_editor(s);
    ImGui::EndChild();
  }
  if (s.log_text) ImGui::LogFinish();
  ImGui::PopStyleColor();
  ImGui::End();
  s.interacting = ImGui::IsAnyItemActive();
}

}  // namespace tc::ui
