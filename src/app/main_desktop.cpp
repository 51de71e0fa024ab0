// The desktop window (GLFW + OpenGL 3): the same panels as the web page, offline, opening and
// saving scenario files on disk.
//   traincalc-desktop [SCENARIO.json] [--presets FILE.json]... [--frames N]
// --frames N draws N frames and exits (a smoke test under Xvfb).
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/frame.hpp"
#include "io/json_util.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream b;
  b << f.rdbuf();
  out = b.str();
  return true;
}

class DesktopHost : public tc::ui::Host {
 public:
  DesktopHost(GLFWwindow* w, tc::ui::AppState& s) : window_(w), state_(s) {}
  bool is_web() const override { return false; }
  void copy_text(const std::string& text) override { glfwSetClipboardString(window_, text.c_str()); }
  void save_file(const std::string& name, const std::string&, const std::string& data) override {
    std::ofstream f(name, std::ios::binary);
    f << data;
    state_.status = f ? "Saved " + name : "Could not write " + name;
  }
  void request_open_file() override {
    std::string text;
    const std::string& path = state_.view.desktop_path;
    if (!read_file(path, text))
      state_.banners.push_back({path + ": cannot be opened", true});
    else
      tc::ui::import_scenario(state_, path, text);
  }
  void set_location_hash(const std::string&) override {}
  std::string link_for(const std::string& hash) override {
    const char* base = std::getenv("TRAINCALC_PAGE_URL");
    return std::string(base ? base : "index.html") + hash;
  }
  void publish_results(const std::string&) override {}

 private:
  GLFWwindow* window_;
  tc::ui::AppState& state_;
};

class GlfwBackend : public tc::app::Backend {
 public:
  explicit GlfwBackend(GLFWwindow* w) : window_(w) {}
  bool begin_frame() override {
    glfwPollEvents();
    return !glfwWindowShouldClose(window_);
  }
  void new_frame() override {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
  }
  void end_frame() override {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    glViewport(0, 0, w, h);
    glClearColor(0.1f, 0.1f, 0.12f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(window_);
  }
  float pixel_ratio() override {
    float x = 1, y = 1;
    glfwGetWindowContentScale(window_, &x, &y);
    return x;
  }
  void fonts_changed() override {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }

 private:
  GLFWwindow* window_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string scenario_path;
  std::vector<std::string> preset_paths;
  int max_frames = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--presets" && i + 1 < argc) {
      preset_paths.push_back(argv[++i]);
    } else if (a == "--frames" && i + 1 < argc) {
      // A count, read as every input is (atoi of a long run of digits is undefined).
      const std::optional<double> n = tc::io::whole_number(argv[++i]);
      if (!n || *n < 0 || *n > 1e9 || *n != static_cast<int>(*n)) {
        std::fprintf(stderr, "error: --frames: must be a whole number from 0 to 1000000000 (got \"%s\")\n", argv[i]);
        return 2;
      }
      max_frames = static_cast<int>(*n);
    } else if (a == "-h" || a == "--help") {
      std::puts("usage: traincalc-desktop [SCENARIO.json] [--presets FILE.json]... [--frames N]");
      return 0;
    } else {
      scenario_path = a;
    }
  }
  if (!glfwInit()) {
    std::fprintf(stderr, "traincalc-desktop: cannot initialise GLFW (no display?)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(1400, 900, "traincalc", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "traincalc-desktop: cannot open an OpenGL 3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);

  tc::app::init_imgui();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  tc::ui::AppState state;
  DesktopHost host(window, state);
  tc::ui::init(state, &host);
  for (const auto& p : preset_paths) {
    std::string text;
    if (read_file(p, text))
      tc::ui::merge_presets(state, p, text);
    else
      state.banners.push_back({p + ": cannot be opened", true});
  }
  if (!scenario_path.empty()) {
    state.view.desktop_path = scenario_path;
    host.request_open_file();
  }

  GlfwBackend backend(window);
  for (int n = 0; max_frames < 0 || n < max_frames; ++n)
    if (!tc::app::frame(backend, state, 12.0)) break;

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
