// Every item Dear ImGui adds to a window, reported to one observer: what the UI tests check the
// layout's ids with (two widgets with one id fight over the keyboard and the mouse). Dear ImGui's
// test-engine hooks (IMGUI_ENABLE_TEST_ENGINE), built for native programs only; the page has none.
#pragma once

#include <functional>

#include "imgui.h"

namespace tc::ui {

struct ImGuiItem {
  ImGuiID window_id = 0;
  ImGuiID id = 0;
  const char* label = nullptr;  // the widget's label where it reports one (ItemInfo), else null
};

// Sets the observer of the current ImGui context (an empty function turns it off).
void observe_items(std::function<void(const ImGuiItem&)> observer);

}  // namespace tc::ui
