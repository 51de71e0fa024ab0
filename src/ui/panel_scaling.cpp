// Time and cost against the node count (1 to N, powers of two and the current count), on log
// axes (nodes, time and cost: each doubling of nodes is one step, and halving the time is one
// step at any scale), with every point labelled and explained on hover.
#include <algorithm>
#include <cmath>

#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {
double wall_of(const Outcome& o) { return o.cost ? o.cost->result.wall.total_s : o.est.train_time_s; }
double bill_of(const Outcome& o) {
  return o.cost && o.cost->result.bill.priced ? o.cost->result.bill.total_usd : NAN;
}
void label(ImDrawList* dl, ImVec2 at, ImU32 color, const std::string& s) {
  dl->AddText(at, color, s.c_str());
  ImGui::LogText("%s ", s.c_str());
}

struct P {
  const Outcome* out;
  int nodes;
  double wall, bill;
  bool fits;
};

// A log axis over the finite positive values of one series, padded so no point sits on an edge.
struct LogAxis {
  double lo = 1, hi = 10;
  bool valid = false;
  void fit(const std::vector<P>& pts, double P::*v) {
    for (const auto& p : pts) {
      const double x = p.*v;
      if (!(std::isfinite(x) && x > 0)) continue;
      lo = valid ? std::min(lo, x) : x;
      hi = valid ? std::max(hi, x) : x;
      valid = true;
    }
    lo /= 1.25;
    hi *= 1.25;
  }
  // 0 at the bottom (lo), 1 at the top (hi).
  double at(double x) const { return std::log(x / lo) / std::log(hi / lo); }
};

// Round values to mark on each vertical axis: durations people count in, powers of ten of money.
std::vector<double> time_ticks(const LogAxis& a) {
  static const double kTicks[] = {1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400,
                                  3650 * 86400.0};
  std::vector<double> t;
  for (double v : kTicks)
    if (v >= a.lo && v <= a.hi) t.push_back(v);
  return t;
}
std::vector<double> money_ticks(const LogAxis& a) {
  std::vector<double> t;
  for (double v = std::pow(10.0, std::ceil(std::log10(a.lo))); v <= a.hi; v *= 10) t.push_back(v);
  return t;
}

// Each point's wall time and bill, explained (for the hovered point, or all when logged).
void explain_points(AppState& s, const std::vector<P>& pts, const P* hovered) {
  for (const auto& p : pts) {
    if (&p != hovered && !s.log_text) continue;
    io::Explanation wall = io::explain_wall_time(*p.out, p.out->job, s.lib);
    io::Explanation bill = io::explain_bill(*p.out, p.out->job, s.lib);
    wall.title = std::to_string(p.nodes) + " nodes: " + wall.title;
    bill.title = std::to_string(p.nodes) + " nodes: " + bill.title;
    if (!p.fits) wall.notes.push_back("the plan does not fit in memory");
    show_explanations(s, {wall, bill}, &p == hovered);
  }
}

void chart(AppState& s, const std::vector<P>& pts, int max_nodes, int cur_nodes) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = std::max(ImGui::GetContentRegionAvail().x, fs * 10);
  const float h = fs * 14;
  const ImVec2 p0(origin.x + fs * 5, origin.y + fs * 0.5f);
  const ImVec2 p1(origin.x + w - fs * 5, origin.y + h - fs * 2);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  LogAxis tw, tb;
  tw.fit(pts, &P::wall);
  tb.fit(pts, &P::bill);
  const double lx = std::log2(static_cast<double>(max_nodes));
  auto X = [&](int nodes) {
    return lx > 0 ? p0.x + static_cast<float>(std::log2(static_cast<double>(nodes)) / lx) * (p1.x - p0.x)
                  : (p0.x + p1.x) / 2;
  };
  auto Y = [&](const LogAxis& a, double v) { return p1.y - static_cast<float>(a.at(v)) * (p1.y - p0.y); };
  const ImU32 time_color = series_color(0), cost_color = series_color(1);
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Border);
  for (int n = 1; n <= max_nodes; n *= 2) {
    dl->AddLine(ImVec2(X(n), p1.y), ImVec2(X(n), p1.y + fs * 0.3f), text_color);
    label(dl, ImVec2(X(n) - fs * 0.5f, p1.y + fs * 0.35f), text_color, std::to_string(n));
  }
  label(dl, ImVec2(p0.x, p1.y + fs * 1.2f), ImGui::GetColorU32(ImGuiCol_TextDisabled),
        "nodes (log scale); wall time (left) and bill (right) on log scales");
  if (tw.valid)
    for (double v : time_ticks(tw)) {
      dl->AddLine(ImVec2(p0.x, Y(tw, v)), ImVec2(p1.x, Y(tw, v)), grid);
      label(dl, ImVec2(origin.x, Y(tw, v) - fs * 0.5f), time_color, fmt_duration(v));
    }
  if (tb.valid)
    for (double v : money_ticks(tb)) label(dl, ImVec2(p1.x + fs * 0.3f, Y(tb, v) - fs * 0.5f), cost_color, fmt_usd(v));
  const bool label_points = pts.size() <= 12;
  // One series: its line, its points and (few points) their values; a ring marks a plan that
  // does not fit (drawn on the wall-time series).
  auto series = [&](const LogAxis& a, double P::*v, ImU32 color, float label_dy, bool ring_misfits,
                    std::string (*fmt)(double)) {
    if (!a.valid) return;
    auto ok = [&](const P& p) { return std::isfinite(p.*v) && p.*v > 0; };
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const P& p = pts[i];
      if (!ok(p)) continue;
      const ImVec2 at(X(p.nodes), Y(a, p.*v));
      if (i > 0 && ok(pts[i - 1])) dl->AddLine(ImVec2(X(pts[i - 1].nodes), Y(a, pts[i - 1].*v)), at, color, 2.0f);
      dl->AddCircleFilled(at, fs * 0.25f, color);
      if (label_points) label(dl, ImVec2(at.x + fs * 0.3f, at.y + label_dy), color, fmt(p.*v));
      if (ring_misfits && !p.fits) dl->AddCircle(at, fs * 0.45f, kColorBad);
    }
  };
  series(tw, &P::wall, time_color, -fs * 1.1f, true, fmt_duration);
  series(tb, &P::bill, cost_color, fs * 0.1f, false, fmt_usd);
  dl->AddLine(ImVec2(X(cur_nodes), p0.y), ImVec2(X(cur_nodes), p1.y), kColorAccent, 1.5f);
  label(dl, ImVec2(X(cur_nodes) + fs * 0.2f, p0.y), kColorAccent, "current: " + std::to_string(cur_nodes));
  ImGui::Dummy(ImVec2(w, h));
  // The point nearest the mouse, explained.
  const P* best = nullptr;
  if (ImGui::IsMouseHoveringRect(p0, p1)) {
    const float mx = ImGui::GetIO().MousePos.x;
    for (const auto& p : pts)
      if (!best || std::fabs(X(p.nodes) - mx) < std::fabs(X(best->nodes) - mx)) best = &p;
  }
  explain_points(s, pts, best);
}
}  // namespace

void panel_scaling(AppState& s) {
  const Outcome* cur = shown(s);
  if (!cur) return;
  int limit = s.view.scaling_max_nodes;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::InputInt("up to nodes (0: auto)", &limit, 0, 0)) {
    s.view.scaling_max_nodes = std::clamp(limit, 0, 4096);
    s.scaling_key = 0;  // the points change: rebuild them on the next update
    s.computed_key = 0;
  }
  std::vector<P> pts;
  int pending = 0, max_nodes = 1;
  for (const auto& p : s.scaling) {
    max_nodes = std::max(max_nodes, p.nodes);
    if (!p.done) {
      ++pending;
      continue;
    }
    if (p.out.ok) pts.push_back({&p.out, p.nodes, wall_of(p.out), bill_of(p.out), p.out.est.memory.fits});
  }
  if (pending) {
    ImGui::SameLine();
    text_disabled("computing " + std::to_string(pending) + " more...");
  }
  if (pts.empty()) {
    text_disabled("No point has a valid plan yet.");
    return;
  }
  chart(s, pts, max_nodes, cur->job.spec.scenario.nodes);
  text_colored(series_color(0), "- wall time");
  ImGui::SameLine();
  text_colored(series_color(1), "- bill");
  ImGui::SameLine();
  text_disabled("(red ring: the plan does not fit in memory; hover a point for how it was computed)");
}

}  // namespace tc::ui
