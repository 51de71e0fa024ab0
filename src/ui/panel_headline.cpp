// Headline cards: the four numbers a reader wants first.
#include <cctype>

#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {
void card(const char* title, const std::string& value, const std::string& sub, float width, bool stale) {
  ImGui::BeginGroup();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeightWithSpacing() * 3.6f;
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + width, p.y + h),
                                            ImGui::GetColorU32(ImGuiCol_FrameBg), ImGui::GetStyle().FrameRounding);
  ImGui::Indent(ImGui::GetStyle().FramePadding.x);
  text_disabled(title);
  // The app loads a second, larger font for these values (crisper than scaling the first).
  ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : nullptr;
  if (big) ImGui::PushFont(big);
  if (stale)
    text_disabled(value);
  else
    text(value);
  if (big) ImGui::PopFont();
  text_disabled(sub);
  ImGui::Unindent(ImGui::GetStyle().FramePadding.x);
  ImGui::Dummy(ImVec2(width, 0));
  ImGui::EndGroup();
}
}  // namespace

void panel_headline(AppState& s) {
  const Outcome* o = shown(s);
  if (!o) {
    text_disabled("No result yet.");
    return;
  }
  const bool stale = !s.current.ok;
  const Estimate& e = o->est;
  std::string wall = fmt_duration(e.train_time_s), wall_sub = "training only";
  std::string bill = "-", bill_sub = !o->cost_error ? "no cost model" : "cost inputs invalid";
  std::string per_m = "-", per_m_sub = "all-in";
  if (o->cost) {
    const auto& r = o->cost->result;
    wall = fmt_duration(r.wall.total_s);
    wall_sub = "training " + fmt_duration(e.train_time_s) + " + overheads";
    bill = r.bill.priced ? fmt_usd(r.bill.total_usd) : "no public price";
    bill_sub = r.bill.runs == 1 ? "one run" : fmt_fixed(r.bill.runs, 1) + " runs";
    per_m = r.bill.priced && r.bill.tokens > 0 ? fmt_usd(r.bill.usd_per_million_tokens) : "-";
    per_m_sub = "compute " + (r.bill.priced && r.bill.tokens > 0 ? fmt_usd(r.bill.compute_usd_per_million_tokens) : std::string("-"));
  }
  // Times and bills scale with the throughput error; the band is that of published runs of the
  // same accelerator (and framework), widened outside the data (src/io/uncertainty).
  const io::Uncertainty& u = o->band;
  const io::BandFactors f = io::band_factors(u, e);
  if (o->cost) {
    const auto& r = o->cost->result;
    wall_sub = io::band_range(f, r.wall.total_s, io::BandSide::time, fmt_duration);
    if (r.bill.priced) bill_sub += ", " + io::band_range(f, r.bill.total_usd, io::BandSide::time, fmt_usd);
  }
  const std::string mfu_sub = io::band_range(f, e.mfu, io::BandSide::speed, [](double v) { return fmt_percent(v); }) + ", " +
                              fmt_fixed(e.tflops_per_chip, 0) + " TFLOP/s per chip";
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool two_rows = avail < ImGui::GetFontSize() * 40;
  const float w = two_rows ? (avail - spacing) / 2 : (avail - 3 * spacing) / 4;
  const io::Job& job = o->job;
  card("Wall time", wall, wall_sub, w, stale);
  explain_last(s, [&] { return io::explain_wall_time(*o, job, s.lib); });
  ImGui::SameLine();
  card("Total bill", bill, bill_sub, w, stale);
  explain_last(s, [&] { return io::explain_bill(*o, job, s.lib); });
  if (!two_rows) ImGui::SameLine();
  card("Per 1M tokens", per_m, per_m_sub, w, stale);
  explain_last(s, [&] { return io::explain_usd_per_million_tokens(*o, job, s.lib); });
  ImGui::SameLine();
  card("MFU", fmt_percent(e.mfu), mfu_sub, w, stale);
  explain_last(s, [&] { return io::explain_mfu(*o, job, s.lib); });
  // The band, the summary and the warnings are long: wrap them at the panel's edge.
  ImGui::PushTextWrapPos(0.0f);
  const std::string band = "Typically within " + fmt_fixed(100 * u.mean_abs_error, 0) + "% (" + u.basis +
                           "); ranges span the 10th to 90th percentile of their errors.";
  if (u.note.empty()) {
    text_disabled(band);
  } else {
    std::string note = u.note;  // a sentence of its own after the band's
    if (!note.empty()) note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
    text_colored(kColorAccent, band + " " + note + ".");
  }
  const Scenario& sc = job.spec.scenario;
  text_disabled((sc.model.name.empty() ? job.spec.model_id : sc.model.name) + " on " + std::to_string(sc.nodes) +
                " x " + job.spec.instance_id + " = " + std::to_string(e.chips) + " " + sc.accelerator.name + ", " +
                fmt_si(e.tokens_per_s) + " tokens/s, step " + fmt_duration(e.step_time_s));
  explain_last(s, [&] { return io::explain_step_time(*o, job, s.lib); });
  for (const auto& w2 : e.warnings) text_colored(kColorAccent, "! " + w2);
  if (o->cost)
    for (const auto& w2 : o->cost->result.warnings) text_colored(kColorAccent, "! " + w2);
  ImGui::PopTextWrapPos();
}

}  // namespace tc::ui
