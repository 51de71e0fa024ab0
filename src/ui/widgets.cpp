#include "ui/widgets.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/text.hpp"
#include "io/schema.hpp"

namespace tc::ui {

ImU32 series_color(int i) {
  static const ImU32 colors[] = {IM_COL32(86, 156, 214, 255),  IM_COL32(230, 145, 56, 255),
                                 IM_COL32(106, 190, 112, 255), IM_COL32(214, 86, 120, 255),
                                 IM_COL32(160, 120, 220, 255), IM_COL32(220, 200, 80, 255),
                                 IM_COL32(90, 200, 200, 255),  IM_COL32(180, 180, 180, 255),
                                 IM_COL32(200, 110, 70, 255),  IM_COL32(120, 150, 90, 255),
                                 IM_COL32(240, 120, 200, 255), IM_COL32(100, 110, 230, 255),
                                 IM_COL32(150, 150, 110, 255)};
  return colors[static_cast<unsigned>(i) % (sizeof colors / sizeof colors[0])];
}

void text(const std::string& s) { ImGui::TextUnformatted(s.c_str(), s.c_str() + s.size()); }

void text_colored(ImU32 color, const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  text(s);
  ImGui::PopStyleColor();
}

void text_wrapped(const std::string& s) {
  ImGui::PushTextWrapPos(0.0f);
  text(s);
  ImGui::PopTextWrapPos();
}

void text_disabled(const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text(s);
  ImGui::PopStyleColor();
}

void help_marker(const std::string& s) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    text(s);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void sources_tooltip(const AppState& s, const char* kind, const std::string& id, const char* field) {
  if (!ImGui::IsItemHovered()) return;
  const auto notes = s.lib.sources_for(kind, id, field);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);
  if (notes.empty()) {
    text_disabled(std::string("No source recorded for ") + kind + " " + id);
  }
  for (const auto* n : notes) {
    std::string fields;
    for (const auto& f : n->fields) append_item(fields, f);
    text_colored(kColorAccent, fields.empty() ? std::string("all fields") : fields);
    text(n->cite);
    text_disabled(n->date + ", confidence " + n->confidence + " (" + n->file + ")");
    ImGui::Spacing();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void show_explanations(AppState& s, const std::vector<io::Explanation>& xs, bool hovered) {
  if (s.log_text) s.explained.insert(s.explained.end(), xs.begin(), xs.end());
  if (!hovered) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36.0f);
  for (const auto& x : xs) {
    text_colored(kColorAccent, x.title + (x.value.empty() ? "" : ": " + x.value));
    text(x.formula);
    for (const auto& in : x.inputs) {
      text("  " + in.name + " = " + in.value);
      text_disabled("    " + in.source);
    }
    for (const auto& n : x.notes) text_colored(kColorAccent, "! " + io::plain_message(n));
    if (!x.band.empty()) text_disabled("Range: " + x.band);
    ImGui::Spacing();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

namespace {
bool contains_ci(const std::string& hay, const std::string& needle) {
  if (needle.empty()) return true;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}
}  // namespace

bool id_picker(const char* label, std::string& current,
               const std::vector<std::pair<std::string, std::string>>& items, std::string& filter) {
  bool changed = false;
  std::string preview = current;
  for (const auto& [id, name] : items)
    if (id == current) preview = name;
  if (ImGui::BeginCombo(label, preview.c_str(), ImGuiComboFlags_HeightLarge)) {
    // A picker opens on the whole list: a search left from the last time would hide most of it.
    if (ImGui::IsWindowAppearing()) {
      filter.clear();
      ImGui::SetKeyboardFocusHere();
    }
    char buf[64];
    const std::size_t n = std::min(filter.size(), sizeof buf - 1);
    filter.copy(buf, n);
    buf[n] = 0;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##search", "search", buf, sizeof buf)) filter = buf;
    for (const auto& [id, name] : items) {
      if (!contains_ci(id, filter) && !contains_ci(name, filter)) continue;
      const bool selected = id == current;
      if (ImGui::Selectable((name + "##" + id).c_str(), selected)) {
        current = id;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

void same_line_or_wrap(float next_width) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float right = ImGui::GetItemRectMax().x + spacing + next_width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

std::map<std::string, std::pair<ImVec2, ImVec2>>& widget_rects() {
  static std::map<std::string, std::pair<ImVec2, ImVec2>> rects;
  return rects;
}

void remember_rect(const std::string& name) {
  widget_rects()[name] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
}

void bar(float fraction, ImU32 color, const std::string& overlay, float height) {
  if (!std::isfinite(fraction)) fraction = 0;
  fraction = std::clamp(fraction, 0.0f, 1.0f);
  const float h = height > 0 ? height : ImGui::GetFrameHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->AddRectFilled(p, ImVec2(p.x + w * fraction, p.y + h), color);
  ImGui::Dummy(ImVec2(w, h));
  if (!overlay.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(overlay.c_str());
    dl->AddText(ImVec2(p.x + ImGui::GetStyle().FramePadding.x, p.y + (h - ts.y) * 0.5f),
                ImGui::GetColorU32(ImGuiCol_Text), overlay.c_str());
    // Logged for the headless test's scan of drawn text.
    ImGui::LogText("%s", overlay.c_str());
  }
}

}  // namespace tc::ui
