#include "app/frame.hpp"

#include <chrono>
#include <cmath>

#include "imgui.h"
#include "ui/panels.hpp"

namespace tc::app {

namespace {
float g_scale = 0;
FrameTimes g_times;
using Clock = std::chrono::steady_clock;
double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
}  // namespace

const FrameTimes& last_frame_times() { return g_times; }

void init_imgui() {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // view settings live in AppState, not in a file
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
}

void apply_scale(float ratio) {
  if (!(ratio > 0) || !std::isfinite(ratio)) ratio = 1;
  g_scale = ratio;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // The built-in font is a pixel font: whole multiples of its 13 px design stay sharp.
  const float base = 13.0f * std::max(1.0f, std::round(ratio));
  ImFontConfig normal;
  normal.SizePixels = base;
  io.Fonts->AddFontDefault(&normal);
  ImFontConfig big;
  big.SizePixels = base * 2;
  io.Fonts->AddFontDefault(&big);
  io.Fonts->Build();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.ScaleAllSizes(base / 13.0f);
  ImGui::GetStyle() = style;
}

bool frame(Backend& backend, ui::AppState& state, double budget_ms) {
  if (!backend.begin_frame()) return false;
  const float ratio = backend.pixel_ratio();
  if (ratio != g_scale) {
    apply_scale(ratio);
    backend.fonts_changed();
  }
  backend.new_frame();  // reads this frame's mouse, which update needs
  state.pointer_held = ImGui::GetIO().MouseDown[0];
  const auto t0 = Clock::now();
  ui::update(state, budget_ms);
  const auto t1 = Clock::now();
  ImGui::NewFrame();
  ui::draw_app(state);
  ImGui::Render();
  const auto t2 = Clock::now();
  backend.end_frame();
  const auto t3 = Clock::now();
  g_times = {ms(t0, t1), ms(t1, t2), ms(t2, t3)};
  return true;
}

}  // namespace tc::app
