// Headline cards: the four numbers a reader wants first.
#include <algorithm>
#include <cctype>

#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

namespace {
struct Card {
  const char* title;
  std::string value, sub;
};

// The sub lines (the band's range first, then what the figure covers) wrap inside the card: on a
// phone a range ("66.4 days to 151.5 days") is about as wide as half the screen.
float sub_height(const std::string& sub, float width) {
  return ImGui::CalcTextSize(sub.c_str(), nullptr, false, width - 2 * ImGui::GetStyle().FramePadding.x).y;
}

// The app loads a second, larger font for the values (crisper than scaling the first).
ImFont* value_font() {
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  return atlas->Fonts.Size > 1 ? atlas->Fonts[1] : ImGui::GetFont();
}

void card(const Card& c, float width, float height, bool stale) {
  ImGui::BeginGroup();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float pad = ImGui::GetStyle().FramePadding.x;
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + width, p.y + height),
                                            ImGui::GetColorU32(ImGuiCol_FrameBg), ImGui::GetStyle().FrameRounding);
  ImGui::Indent(pad);
  text_disabled(c.title);
  ImGui::PushFont(value_font());
  if (stale)
    text_disabled(c.value);
  else
    text(c.value);
  ImGui::PopFont();
  ImGui::PushTextWrapPos(p.x + width - pad - ImGui::GetWindowPos().x);
  text_disabled(c.sub);
  ImGui::PopTextWrapPos();
  ImGui::Unindent(pad);
  ImGui::SetCursorScreenPos(p);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::EndGroup();
}

// One height for every card: the tallest one's title, value and wrapped sub line.
float card_height(const Card* cards, int n, float width) {
  float sub = 0;
  for (int i = 0; i < n; ++i) sub = std::max(sub, sub_height(cards[i].sub, width));
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::GetTextLineHeight() + value_font()->FontSize + sub + 3 * st.ItemSpacing.y + st.FramePadding.y;
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
  // same accelerator (and framework and class of model), widened outside the data (src/io/uncertainty).
  const io::Uncertainty& u = o->band;
  const io::BandFactors f = io::band_factors(u, e);
  if (o->cost) {
    const auto& r = o->cost->result;
    wall_sub = io::band_range(f, r.wall.total_s, io::BandSide::time, fmt_duration);
    if (r.bill.priced) bill_sub = io::band_range(f, r.bill.total_usd, io::BandSide::time, fmt_usd) + "\n" + bill_sub;
  }
  const std::string mfu_sub = io::band_range(f, e.mfu, io::BandSide::speed, [](double v) { return fmt_percent(v); }) + "\n" +
                              fmt_fixed(e.tflops_per_chip, 0) + " TFLOP/s per chip";
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool two_rows = avail < ImGui::GetFontSize() * 40;
  const float w = two_rows ? (avail - spacing) / 2 : (avail - 3 * spacing) / 4;
  const Card cards[4] = {{"Wall time", wall, wall_sub},
                         {"Total bill", bill, bill_sub},
                         {"Per 1M tokens", per_m, per_m_sub},
                         {"MFU", fmt_percent(e.mfu), mfu_sub}};
  const float h = card_height(cards, 4, w);
  const io::Job& job = o->job;
  card(cards[0], w, h, stale);
  explain_last(s, [&] { return io::explain_wall_time(*o, job, s.lib); });
  ImGui::SameLine();
  card(cards[1], w, h, stale);
  explain_last(s, [&] { return io::explain_bill(*o, job, s.lib); });
  if (!two_rows) ImGui::SameLine();
  card(cards[2], w, h, stale);
  explain_last(s, [&] { return io::explain_usd_per_million_tokens(*o, job, s.lib); });
  ImGui::SameLine();
  card(cards[3], w, h, stale);
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
  for (const auto& w2 : io::plain_warnings(*o)) text_colored(kColorAccent, "! " + w2);
  ImGui::PopTextWrapPos();
}

}  // namespace tc::ui
