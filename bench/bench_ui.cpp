// The page's frames, natively and without a window (as ImGui's example_null): what a frame costs
// the calculator itself, apart from the browser and its WebGL. The goal (issue 13,
// docs/performance.md) is a drag frame under 8 ms at the 99th percentile in headless Chromium;
// these figures say which part of a frame is ours.
//   BM_DragFrame  the nodes of Llama 3.1 70B on trn2 change every frame while a control is held,
//                 with the comparison of three instances and the scaling chart shown (the e2e drag)
//   BM_IdleFrame  the same page redrawn with nothing changing (the cost of the panels alone)
#include <benchmark/benchmark.h>

#include <cmath>

#include "headless_imgui.hpp"
#include "imgui.h"
#include "ui/app_state.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace {

class Page {
 public:
  Page() {
    tc_test::create_headless_imgui();
    tc::ui::init(state, nullptr);
    state.doc["compare_instances"] = {"trn2.48xlarge", "p5.48xlarge", "p4d.24xlarge"};
    // Every comparison row and scaling point computed, as before the e2e drag starts.
    for (int i = 0; i < 3; ++i) frame(1e9);
  }
  ~Page() { ImGui::DestroyContext(); }

  void frame(double budget_ms) {
    tc::ui::update(state, budget_ms);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    tc::ui::draw_app(state);
    ImGui::Render();
  }

  tc::ui::AppState state;
};

// The mouse holds the nodes slider and sweeps it, 2% of its width per frame, as the e2e drag does.
void BM_DragFrame(benchmark::State& st) {
  Page page;
  const auto rect = tc::ui::widget_rects().at("nodes");
  const float y = (rect.first.y + rect.second.y) / 2, x0 = rect.first.x + 4, x1 = rect.second.x - 4;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(x0 + (x1 - x0) * 0.4f, y);
  io.MouseDown[0] = true;
  int i = 0;
  for (auto _ : st) {
    const float t = 0.4f + 0.4f * std::sin(static_cast<float>(i++) / 8);
    io.MousePos = ImVec2(x0 + (x1 - x0) * t, y);
    page.frame(8);
  }
  io.MouseDown[0] = false;
  st.counters["nodes"] = page.state.doc.value("nodes", 0);
}
BENCHMARK(BM_DragFrame)->Unit(benchmark::kMillisecond);

void BM_IdleFrame(benchmark::State& st) {
  Page page;
  for (auto _ : st) page.frame(8);
}
BENCHMARK(BM_IdleFrame)->Unit(benchmark::kMillisecond);

}  // namespace
