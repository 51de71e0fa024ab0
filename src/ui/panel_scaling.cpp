// Time and cost against the node count (1 to N, powers of two and the current count), on a log
// axis, with the current point marked.
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
  struct P { int nodes; double wall, bill; bool fits; };
  std::vector<P> pts;
  int pending = 0;
  for (const auto& p : s.scaling) {
    if (!p.done) {
      ++pending;
      continue;
    }
    if (p.out.ok) pts.push_back({p.nodes, wall_of(p.out), bill_of(p.out), p.out.est.memory.fits});
  }
  if (pending) {
    ImGui::SameLine();
    text_disabled("computing " + std::to_string(pending) + " more...");
  }
  if (pts.empty()) {
    text_disabled("No point has a valid plan yet.");
    return;
  }
  double max_wall = 0, max_bill = 0;
  int max_nodes = 1;
  for (const auto& p : pts) {
    if (std::isfinite(p.wall)) max_wall = std::max(max_wall, p.wall);
    if (std::isfinite(p.bill)) max_bill = std::max(max_bill, p.bill);
    max_nodes = std::max(max_nodes, p.nodes);
  }
  for (const auto& p : s.scaling) max_nodes = std::max(max_nodes, p.nodes);

  const float fs = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = std::max(ImGui::GetContentRegionAvail().x, fs * 10);
  const float h = fs * 14;
  const ImVec2 p0(origin.x + fs * 5, origin.y + fs * 0.5f);
  const ImVec2 p1(origin.x + w - fs * 5, origin.y + h - fs * 2);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  const double lx = std::log2(static_cast<double>(max_nodes));
  auto X = [&](int nodes) {
    return lx > 0 ? p0.x + static_cast<float>(std::log2(static_cast<double>(nodes)) / lx) * (p1.x - p0.x)
                  : (p0.x + p1.x) / 2;
  };
  auto Y = [&](double v, double max) { return p1.y - static_cast<float>(max > 0 ? v / max : 0) * (p1.y - p0.y); };
  const ImU32 time_color = series_color(0), cost_color = series_color(1);
  const ImU32 text_color = ImGui::GetColorU32(ImGuiCol_Text);

  for (int n = 1; n <= max_nodes; n *= 2) {
    dl->AddLine(ImVec2(X(n), p1.y), ImVec2(X(n), p1.y + fs * 0.3f), text_color);
    label(dl, ImVec2(X(n) - fs * 0.5f, p1.y + fs * 0.35f), text_color, std::to_string(n));
  }
  label(dl, ImVec2(p0.x, p1.y + fs * 1.2f), ImGui::GetColorU32(ImGuiCol_TextDisabled), "nodes (log scale)");
  label(dl, ImVec2(origin.x, p0.y), time_color, fmt_duration(max_wall));
  label(dl, ImVec2(origin.x, p1.y - fs), time_color, "0");
  if (max_bill > 0) {
    label(dl, ImVec2(p1.x + fs * 0.3f, p0.y), cost_color, fmt_usd(max_bill));
    label(dl, ImVec2(p1.x + fs * 0.3f, p1.y - fs), cost_color, "$0");
  }
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const P& p = pts[i];
    if (i > 0 && std::isfinite(p.wall) && std::isfinite(pts[i - 1].wall))
      dl->AddLine(ImVec2(X(pts[i - 1].nodes), Y(pts[i - 1].wall, max_wall)), ImVec2(X(p.nodes), Y(p.wall, max_wall)),
                  time_color, 2.0f);
    if (i > 0 && std::isfinite(p.bill) && std::isfinite(pts[i - 1].bill))
      dl->AddLine(ImVec2(X(pts[i - 1].nodes), Y(pts[i - 1].bill, max_bill)), ImVec2(X(p.nodes), Y(p.bill, max_bill)),
                  cost_color, 2.0f);
    if (std::isfinite(p.wall)) dl->AddCircleFilled(ImVec2(X(p.nodes), Y(p.wall, max_wall)), fs * 0.25f, time_color);
    if (std::isfinite(p.bill)) dl->AddCircleFilled(ImVec2(X(p.nodes), Y(p.bill, max_bill)), fs * 0.25f, cost_color);
    if (!p.fits) dl->AddCircle(ImVec2(X(p.nodes), Y(p.wall, max_wall)), fs * 0.45f, kColorBad);
  }
  const int cur_nodes = cur->job.spec.scenario.nodes;
  dl->AddLine(ImVec2(X(cur_nodes), p0.y), ImVec2(X(cur_nodes), p1.y), kColorAccent, 1.5f);
  label(dl, ImVec2(X(cur_nodes) + fs * 0.2f, p0.y), kColorAccent, "current: " + std::to_string(cur_nodes));
  ImGui::Dummy(ImVec2(w, h));

  // Tooltip at the nearest point.
  if (ImGui::IsMouseHoveringRect(p0, p1)) {
    const float mx = ImGui::GetIO().MousePos.x;
    const P* best = nullptr;
    for (const auto& p : pts)
      if (!best || std::fabs(X(p.nodes) - mx) < std::fabs(X(best->nodes) - mx)) best = &p;
    if (best)
      ImGui::SetTooltip("%s", (std::to_string(best->nodes) + " nodes: " + fmt_duration(best->wall) + ", " +
                               fmt_usd(best->bill) + (best->fits ? "" : " (does not fit)"))
                                  .c_str());
  }
  text_colored(time_color, "- wall time");
  ImGui::SameLine();
  text_colored(cost_color, "- bill");
  ImGui::SameLine();
  text_disabled("(red ring: the plan does not fit in memory)");
}

}  // namespace tc::ui
