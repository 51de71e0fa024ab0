// One frame of the calculator, shared by the desktop and the web main loops. The platform
// provides a Backend (events, GL, presenting); everything else is the same on both.
#pragma once

#include "ui/app_state.hpp"

namespace tc::app {

class Backend {
 public:
  virtual ~Backend() = default;
  // Poll events and size the window; false ends the loop (desktop window closed).
  virtual bool begin_frame() = 0;
  virtual void new_frame() = 0;   // the ImGui backends' NewFrame
  virtual void end_frame() = 0;   // render the draw data and present
  // Device pixels per CSS pixel (web) or the monitor's content scale (desktop).
  virtual float pixel_ratio() = 0;
  // The font atlas changed: the renderer uploads it again.
  virtual void fonts_changed() = 0;
};

// ImGui context, style and fonts; call once before the first frame.
void init_imgui();

// Rebuilds fonts and style for a pixel ratio (crisp text on HiDPI rather than scaled pixels).
void apply_scale(float ratio);

// Where the last frame's time went, in milliseconds (the web page's test hook reports it).
struct FrameTimes {
  double update = 0, panels = 0, render = 0;
};
const FrameTimes& last_frame_times();

// One frame: scale check, results update within `budget_ms`, panels, render.
bool frame(Backend& backend, ui::AppState& state, double budget_ms);

}  // namespace tc::app
