// The web page's main loop (Emscripten, GLFW in JavaScript, WebGL2) and the C entry points that
// web/app.js and the browser tests call through Module.ccall. The page owns the DOM: this file
// hands it text (never HTML) and files as Blobs.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "app/frame.hpp"
#include "app/webgl_renderer.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_internal.h"
#include "io/presets.hpp"
#include "ui/mirror.hpp"
#include "ui/widgets.hpp"

// JavaScript side (web/app.js defines window.traincalc with these hooks).
EM_JS(void, js_copy_text, (const char* text), { window.traincalc.copyText(UTF8ToString(text)); });
EM_JS(void, js_save_file, (const char* name, const char* mime, const char* data),
      { window.traincalc.saveFile(UTF8ToString(name), UTF8ToString(mime), UTF8ToString(data)); });
EM_JS(void, js_open_file, (), { window.traincalc.openFile(); });
EM_JS(void, js_set_hash, (const char* hash), { window.traincalc.setHash(UTF8ToString(hash)); });
EM_JS(void, js_publish, (const char* json), { window.traincalc.publish(UTF8ToString(json)); });
EM_JS(void, js_set_cursor, (const char* cursor), { window.traincalc.setCursor(UTF8ToString(cursor)); });
EM_JS(void, js_first_frame, (), { window.traincalc.firstFrame(); });
EM_JS(void, js_focus_next, (int direction), { window.traincalc.focusNext(direction); });
// glfwSetWindowSize, without its fullscreen request when the size equals the screen's (a phone,
// a maximized headless window): browsers refuse one without a user gesture, with an error.
EM_JS(void, js_set_canvas_size, (int w, int h), {
  Browser.setCanvasSize(w, h);
  if (GLFW.active) {
    GLFW.active.width = w;
    GLFW.active.height = h;
  }
});
EM_JS(char*, js_page_base, (), {
  const s = location.origin + location.pathname;
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

namespace {

GLFWwindow* g_window = nullptr;
tc::ui::AppState* g_state = nullptr;
std::string g_results;
int g_frames = 0;
double g_frame_ms_last = 0, g_frame_ms_max = 0, g_frame_ms_sum = 0;
tc::app::FrameTimes g_slowest;  // the parts of the slowest frame since the last reset
int g_frame_count = 0;

// Frames are drawn only while something can change what they show: an input event (the page
// calls tc_wake, the entry points below call wake()), a result still being computed or
// published, a control held. ImGui settles hovers and popups over a couple of frames after the
// last event, hence a short tail; then the main loop pauses (no requestAnimationFrame at all)
// until the next wake().
constexpr int kTailFrames = 8;  // also covers a Tab's move (finish_tab_move)
constexpr double kTailMs = 150;
int g_tail_frames = kTailFrames;
double g_tail_until_ms = 0;
bool g_paused = false;

void wake() {
  g_tail_frames = kTailFrames;
  g_tail_until_ms = emscripten_get_now() + kTailMs;
  if (g_paused) {
    g_paused = false;
    emscripten_resume_main_loop();
  }
}

bool frame_needed() {
  const tc::ui::AppState& s = *g_state;
  if (g_tail_frames > 0 || emscripten_get_now() < g_tail_until_ms) return true;
  // A text field's cursor blinks: it is drawn while the field has the keyboard.
  return tc::ui::work_pending(s) || s.hash_dirty || s.mirror_dirty || s.interacting ||
         ImGui::GetIO().WantTextInput || g_frames < 2;
}

// Tab inside the canvas moves through its fields (ImGui's tabbing, which wraps around). A Tab
// that wraps past the last field (Shift+Tab: before the first) leaves the canvas instead, so
// that keyboard users reach the rest of the page. tc_tab() records where the keyboard focus was;
// once ImGui has moved it, a move backwards (forwards for Shift+Tab) is the wrap.
struct TabMove {
  int direction = 0;  // +1 Tab, -1 Shift+Tab, 0 none pending
  int frames = 0;
  ImGuiID from_id = 0;   // the item that had the keyboard focus when Tab was pressed (0: none)
  float from_y = 0, from_x = 0;
  ImGuiID from_nav = 0;  // the keyboard focus then
};
TabMove g_tab;

// The keyboard focus's place in its window (relative to the window's content: scroll-proof).
bool nav_rect(ImVec2& min) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (!g.NavWindow || g.NavId == 0) return false;
  min = g.NavWindow->NavRectRel[0].Min;
  return true;
}

// Called after each frame: ImGui needs a few frames to move the focus and activate the field.
void finish_tab_move() {
  if (g_tab.direction == 0 || ++g_tab.frames < 6) return;
  const int dir = g_tab.direction;
  g_tab.direction = 0;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ImVec2 to;
  bool leave = false;
  if (g_tab.from_id == 0) {
    leave = !ImGui::GetIO().WantTextInput && g.NavId == g_tab.from_nav;  // no field took the focus
  } else if (!nav_rect(to) || g.NavId == g_tab.from_id) {
    leave = true;  // nowhere else to go
  } else {
    const bool before = to.y < g_tab.from_y - 1 || (std::fabs(to.y - g_tab.from_y) <= 1 && to.x < g_tab.from_x);
    leave = (dir > 0) == before;  // wrapped around
  }
  if (!leave) return;
  ImGui::FocusWindow(nullptr);
  js_focus_next(dir);
}

class WebHost : public tc::ui::Host {
 public:
  bool is_web() const override { return true; }
  void copy_text(const std::string& text) override { js_copy_text(text.c_str()); }
  void save_file(const std::string& name, const std::string& mime, const std::string& data) override {
    js_save_file(name.c_str(), mime.c_str(), data.c_str());
  }
  void request_open_file() override { js_open_file(); }
  void set_location_hash(const std::string& hash) override { js_set_hash(hash.c_str()); }
  std::string link_for(const std::string& hash) override {
    char* base = js_page_base();
    std::string url = std::string(base) + hash;
    free(base);
    return url;
  }
  void publish_results(const std::string& mirror_json) override { js_publish(mirror_json.c_str()); }
};

class WebBackend : public tc::app::Backend {
 public:
  bool begin_frame() override {
    // The canvas keeps the size it was created with: follow its CSS size times the pixel ratio.
    double css_w = 0, css_h = 0;
    emscripten_get_element_css_size("#canvas", &css_w, &css_h);
    ratio_ = static_cast<float>(emscripten_get_device_pixel_ratio());
    const int w = std::max(1, static_cast<int>(std::lround(css_w * ratio_)));
    const int h = std::max(1, static_cast<int>(std::lround(css_h * ratio_)));
    int cw = 0, ch = 0;
    glfwGetWindowSize(g_window, &cw, &ch);
    if (cw != w || ch != h) js_set_canvas_size(w, h);
    return true;
  }
  void new_frame() override { ImGui_ImplGlfw_NewFrame(); }
  void end_frame() override {
    int w = 0, h = 0;
    glfwGetFramebufferSize(g_window, &w, &h);
    tc::app::webgl_render(ImGui::GetDrawData(), w, h);
    update_cursor();
  }
  float pixel_ratio() override { return ratio_ > 0 ? ratio_ : 1.0f; }
  void fonts_changed() override { tc::app::webgl_upload_fonts(); }

 private:
  // This GLFW's cursors are no-ops: set the canvas's CSS cursor instead.
  void update_cursor() {
    const ImGuiMouseCursor c = ImGui::GetMouseCursor();
    if (c == cursor_) return;
    cursor_ = c;
    const char* css = "default";
    switch (c) {
      case ImGuiMouseCursor_TextInput: css = "text"; break;
      case ImGuiMouseCursor_ResizeAll: css = "move"; break;
      case ImGuiMouseCursor_ResizeNS: css = "ns-resize"; break;
      case ImGuiMouseCursor_ResizeEW: css = "ew-resize"; break;
      case ImGuiMouseCursor_ResizeNESW: css = "nesw-resize"; break;
      case ImGuiMouseCursor_ResizeNWSE: css = "nwse-resize"; break;
      case ImGuiMouseCursor_Hand: css = "pointer"; break;
      case ImGuiMouseCursor_NotAllowed: css = "not-allowed"; break;
      case ImGuiMouseCursor_None: css = "none"; break;
      default: break;
    }
    js_set_cursor(css);
  }
  float ratio_ = 1;
  ImGuiMouseCursor cursor_ = -2;
};

WebHost g_host;
WebBackend g_backend;

// Dear ImGui 1.86 reads which keys are down once per frame: a key pressed and released between
// two frames (a quick tap while a frame is slow) would never be seen down, and a Tab lost so
// would leave the canvas (finish_tab_move sees the focus stay where it was). Such a release
// reaches ImGui's GLFW backend after the next frame, and so does every release after it, in order:
// Ctrl pressed before a slow frame, then A tapped and Ctrl let go, must reach the next frame as
// Ctrl+A (a Ctrl release passed on at once would leave a lone A).
struct KeyRelease {
  GLFWwindow* window;
  int key, scancode, mods;
};
struct KeyLatch {
  std::array<bool, IM_ARRAYSIZE(ImGuiIO::KeysDown)> pressed{};  // since the last frame ended
  std::vector<KeyRelease> held;                                 // released, not yet passed on
};
KeyLatch g_keys;

void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  const bool tracked = key >= 0 && key < static_cast<int>(g_keys.pressed.size());
  if (tracked && action == GLFW_RELEASE && (g_keys.pressed[static_cast<std::size_t>(key)] || !g_keys.held.empty())) {
    g_keys.held.push_back({window, key, scancode, mods});
    return;
  }
  if (tracked && action == GLFW_PRESS) g_keys.pressed[static_cast<std::size_t>(key)] = true;
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

// After each frame: the releases held back reach ImGui for the next one.
void release_held_keys() {
  g_keys.pressed.fill(false);
  for (const KeyRelease& r : g_keys.held) ImGui_ImplGlfw_KeyCallback(r.window, r.key, r.scancode, GLFW_RELEASE, r.mods);
  g_keys.held.clear();
}

void main_loop() {
  if (!frame_needed()) {
    emscripten_pause_main_loop();
    g_paused = true;
    return;
  }
  if (g_tail_frames > 0) --g_tail_frames;
  const double t0 = emscripten_get_now();
  tc::app::frame(g_backend, *g_state, 8.0);
  release_held_keys();
  finish_tab_move();
  g_frame_ms_last = emscripten_get_now() - t0;
  if (g_frame_ms_last > g_frame_ms_max) g_slowest = tc::app::last_frame_times();
  g_frame_ms_max = std::max(g_frame_ms_max, g_frame_ms_last);
  g_frame_ms_sum += g_frame_ms_last;
  ++g_frame_count;
  // Ready once a frame has drawn results: the page then marks body[data-ready].
  if (++g_frames == 2) js_first_frame();
}

// Whether a wheel event belongs to ImGui: only when the pointer is over something that can
// scroll that way, so that an embedding page still scrolls past the calculator.
bool wheel_wanted(float dy) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  if (!ImGui::GetIO().WantCaptureMouse) return false;
  if (g.ActiveId != 0 || g.OpenPopupStack.Size > 0) return true;
  for (ImGuiWindow* w = g.HoveredWindow; w; w = w->ParentWindow) {
    if (w->ScrollMax.y <= 0) continue;
    if ((dy > 0 && w->Scroll.y > 0) || (dy < 0 && w->Scroll.y < w->ScrollMax.y)) return true;
  }
  return false;
}

std::string g_clipboard;
std::vector<tc::io::PresetText> g_staged_presets;

}  // namespace

extern "C" {

// One of the page's HTML controls of the main inputs (ui/mirror.hpp). 1: applied.
EMSCRIPTEN_KEEPALIVE int tc_set_input(const char* path, const char* value) {
  wake();
  return tc::ui::set_mirror_input(*g_state, path, value) ? 1 : 0;
}

// A location.hash (on load and on hashchange). 1: applied; 0: an error banner, scenario kept.
EMSCRIPTEN_KEEPALIVE int tc_apply_hash(const char* hash) {
  wake();
  return tc::ui::apply_hash(*g_state, hash) ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE int tc_import(const char* name, const char* text) {
  wake();
  g_state->mirror_dirty = true;  // an error banner, or one cleared
  return tc::ui::import_scenario(*g_state, name, text) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int tc_merge_presets(const char* name, const char* text) {
  wake();
  return tc::ui::merge_presets(*g_state, name, text) ? 1 : 0;
}

// The files of presets.json, staged one by one, then merged as one set in the CLI's order
// (io::merge_preset_set), so that a set `traincalc --presets` accepts loads on the page too.
EMSCRIPTEN_KEEPALIVE int tc_stage_preset(const char* name, const char* text) {
  g_staged_presets.push_back({name, text});
  return 1;
}

EMSCRIPTEN_KEEPALIVE int tc_merge_staged_presets() {
  std::vector<tc::io::PresetText> files;
  files.swap(g_staged_presets);
  wake();
  g_state->mirror_dirty = true;  // a banner for a file that does not read
  return files.empty() || tc::ui::merge_preset_set(*g_state, std::move(files)) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void tc_report_error(const char* text) {
  wake();
  g_state->mirror_dirty = true;  // the mirror lists the banners
  g_state->banners.push_back({text, true});
}

// Test hook: the results as the DOM mirror shows them, plus the link and the frame times.
EMSCRIPTEN_KEEPALIVE const char* tc_results_json() {
  tc::io::Json j = tc::ui::mirror_json(*g_state);
  j["hash"] = tc::ui::current_hash(*g_state);
  j["scenario"] = g_state->doc;
  j["compute_ms"] = g_state->current.compute_ms;
  j["frames_drawn"] = g_frames;
  j["frame_ms"] = {{"last", g_frame_ms_last}, {"max", g_frame_ms_max},
                   {"mean", g_frame_count ? g_frame_ms_sum / g_frame_count : 0.0}, {"frames", g_frame_count},
                   {"update", tc::app::last_frame_times().update}, {"panels", tc::app::last_frame_times().panels},
                   {"render", tc::app::last_frame_times().render},
                   {"slowest", {{"update", g_slowest.update}, {"panels", g_slowest.panels}, {"render", g_slowest.render}}}};
  // The keyboard focus: its window and place in the window's content (scroll-proof), and whether
  // a text field is being edited (the Tab order test).
  ImVec2 focus;
  if (nav_rect(focus))
    j["focus"] = {{"window", ImGui::GetCurrentContext()->NavWindow->Name}, {"x", focus.x}, {"y", focus.y},
                  {"editing", ImGui::GetIO().WantTextInput}};
  g_results = j.dump();
  return g_results.c_str();
}

// Test hook: milliseconds of one estimate (plan search included) of the current scenario.
EMSCRIPTEN_KEEPALIVE double tc_bench_estimate(int n) {
  const double t0 = emscripten_get_now();
  for (int i = 0; i < n; ++i) {
    try {
      const auto spec = tc::io::parse_scenario(g_state->doc, g_state->lib, "bench");
      tc::io::run_estimate(spec);
    } catch (const std::exception&) {
    }
  }
  return (emscripten_get_now() - t0) / std::max(1, n);
}

EMSCRIPTEN_KEEPALIVE void tc_reset_frame_stats() {
  g_frame_ms_max = g_frame_ms_sum = 0;
  g_frame_count = 0;
}

// Test hook: where a named widget was drawn, in CSS pixels of the canvas: "[x0,y0,x1,y1]".
EMSCRIPTEN_KEEPALIVE const char* tc_widget_rect(const char* name) {
  const auto& rects = tc::ui::widget_rects();
  const auto it = rects.find(name);
  if (it == rects.end()) return "null";
  const float r = g_backend.pixel_ratio();
  g_results = tc::io::Json::array({it->second.first.x / r, it->second.first.y / r, it->second.second.x / r,
                                   it->second.second.y / r})
                  .dump();
  return g_results.c_str();
}

// Wheel in ImGui's units (one notch = 1, up = positive); 1 when ImGui takes it.
EMSCRIPTEN_KEEPALIVE int tc_wheel(double dx, double dy) {
  if (!wheel_wanted(static_cast<float>(dy))) return 0;
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheelH += static_cast<float>(dx);
  io.MouseWheel += static_cast<float>(dy);
  wake();
  return 1;
}

// An input event on the page (web/app.js): draw frames again.
EMSCRIPTEN_KEEPALIVE void tc_wake() { wake(); }

// A Tab pressed on the canvas, before ImGui sees it (see TabMove). 0: ImGui has no window to
// tab in, and the page lets the browser move the focus.
EMSCRIPTEN_KEEPALIVE int tc_tab(int shift) {
  if (!ImGui::GetCurrentContext()->NavWindow) return 0;
  // Where the focus is, a text field or not (a checkbox or combo the user clicked): a Tab from
  // the last of them wraps to the first, and only the place tells that the wrap happened.
  ImVec2 from;
  const bool has = nav_rect(from);
  const ImGuiID nav = ImGui::GetCurrentContext()->NavId;
  g_tab = {shift ? -1 : +1, 0, has ? nav : 0, from.y, from.x, nav};
  wake();
  return 1;
}

// The page's paste event: this GLFW cannot read the system clipboard.
EMSCRIPTEN_KEEPALIVE int tc_paste(const char* text) {
  if (!ImGui::GetIO().WantTextInput) return 0;
  ImGui::GetIO().AddInputCharactersUTF8(text);
  wake();
  return 1;
}

}  // extern "C"

int main() {
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  g_window = glfwCreateWindow(1280, 800, "traincalc", nullptr, nullptr);
  if (!g_window) return 1;
  glfwMakeContextCurrent(g_window);

  tc::app::init_imgui();
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_NoMouseCursorChange;  // see update_cursor()
  io.SetClipboardTextFn = [](void*, const char* text) {
    g_clipboard = text;
    js_copy_text(text);
  };
  // Ctrl+V text arrives through the page's paste event (tc_paste), not from here.
  io.GetClipboardTextFn = [](void*) -> const char* { return ""; };
  ImGui_ImplGlfw_InitForOpenGL(g_window, true);
  glfwSetKeyCallback(g_window, key_callback);  // ImGui's, then the latch
  if (!tc::app::webgl_init()) return 1;

  static tc::ui::AppState state;
  g_state = &state;
  tc::ui::init(state, &g_host);
  emscripten_set_main_loop(main_loop, 0, false);
  return 0;
}
