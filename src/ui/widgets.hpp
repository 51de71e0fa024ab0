// Small drawing helpers shared by the panels (no model logic).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "imgui.h"
#include "ui/app_state.hpp"

namespace tc::ui {

// Colors of the results, chosen to stay readable on the dark theme.
constexpr ImU32 kColorGood = IM_COL32(90, 200, 120, 255);
constexpr ImU32 kColorBad = IM_COL32(235, 80, 80, 255);
constexpr ImU32 kColorAccent = IM_COL32(255, 190, 60, 255);
ImU32 series_color(int i);

// Text without printf formatting: preset strings may hold '%'.
void text(const std::string& s);
void text_colored(ImU32 color, const std::string& s);
void text_wrapped(const std::string& s);
void text_disabled(const std::string& s);
void help_marker(const std::string& s);

// Tooltip with the sources of a preset value (kind "model", "instance", "accelerator").
void sources_tooltip(const AppState& s, const char* kind, const std::string& id, const char* field = "");

// How the last item (a figure) was computed, as its tooltip: `make()` returns the io::Explanation
// and runs only when the item is hovered, or when the headless test logs the frame (it records
// every explanation in s.explained to check that each figure has one).
template <class Make>
void explain_last(AppState& s, Make&& make) {
  const bool hovered = ImGui::IsItemHovered();
  if (hovered || s.log_text) show_explanations(s, {make()}, hovered);
}
// The tooltip of one or more explanations (hovered), and the test's record of them.
void show_explanations(AppState& s, const std::vector<io::Explanation>& xs, bool hovered);

// A combo with a search box; returns true when `current` changed.
bool id_picker(const char* label, std::string& current,
               const std::vector<std::pair<std::string, std::string>>& items, std::string& filter);

// A row of buttons that wraps on a narrow window: same_line_or_wrap(button_width("Next")) stays
// on the line when the next item fits, else starts a new line.
float button_width(const char* label);
void same_line_or_wrap(float next_width);

// Where named widgets were drawn last frame, in framebuffer pixels: the browser tests drag them.
std::map<std::string, std::pair<ImVec2, ImVec2>>& widget_rects();
void remember_rect(const std::string& name);

// A filled horizontal bar of `fraction` of the available width.
void bar(float fraction, ImU32 color, const std::string& overlay, float height = 0);

}  // namespace tc::ui
