// A Dear ImGui context without a window, as ImGui's example_null: no ini file, the app's two fonts
// (the second, larger one for headline values), the font atlas built. For the headless UI tests
// and the page's frame benchmark.
#pragma once

#include "imgui.h"

namespace tc_test {

inline void create_headless_imgui() {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.Fonts->AddFontDefault();
  ImFontConfig big;
  big.SizePixels = 20;
  io.Fonts->AddFontDefault(&big);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
}

}  // namespace tc_test
