// The app's chrome: seed picker, sharing, import and export, view toggles; in embed mode, sharing
// and exports only. The row wraps on a narrow window.
#include "core/labels.hpp"
#include "io/report.hpp"
#include "io/schema.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

void panel_toolbar(AppState& s) {
  Host& host = *s.host;
  // Embedded in a wiki page, the toolbar keeps sharing and exports only.
  const bool embed = s.view.embed;
  if (!embed) {
    const auto choices = seed_choices(s);
    std::string seed_preview = "Seed cases";
    for (const auto& c : s.seeds)
      if (c.id == s.seed_id) seed_preview = c.name;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::BeginCombo("##seeds", seed_preview.c_str())) {
      for (const auto& [id, name] : choices) {
        if (!ImGui::Selectable((name + "##" + id).c_str(), id == s.seed_id)) continue;
        if (id.empty()) {
          set_scenario(s, default_scenario(), "");
          continue;
        }
        for (const auto& c : s.seeds)
          if (c.id == id) set_scenario(s, c.doc, c.id);
      }
      ImGui::EndCombo();
    }
    remember_rect("seeds");
    same_line_or_wrap(button_width("Copy link"));
  }
  if (ImGui::Button("Copy link")) {
    host.copy_text(host.link_for(current_hash(s)));
    if (!s.current.ok)
      s.status = "Link copied, but it opens a scenario with a problem (" + plain_label(s.current.error_field) +
                 "): fix it first to share results";
    else
      s.status = link_is_exact(s) ? "Link copied"
                                  : "Link copied; it does not carry every field of this scenario "
                                    "(custom objects or claims): export the JSON to keep them";
  }
  remember_rect("copy_link");
  if (host.is_web()) {
    if (!embed) {
      same_line_or_wrap(button_width("Import JSON"));
      if (ImGui::Button("Import JSON")) host.request_open_file();
    }
    same_line_or_wrap(button_width("Export JSON"));
    if (ImGui::Button("Export JSON")) {
      host.save_file("scenario.json", "application/json", export_scenario(s));
      s.status = "Scenario exported";
    }
    remember_rect("export_json");
  } else {
    same_line_or_wrap(ImGui::GetFontSize() * 12);
    char buf[512];
    const std::size_t n = std::min(s.view.desktop_path.size(), sizeof buf - 1);
    s.view.desktop_path.copy(buf, n);
    buf[n] = 0;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    if (ImGui::InputText("##path", buf, sizeof buf)) s.view.desktop_path = buf;
    ImGui::SameLine();
    if (ImGui::Button("Open")) host.request_open_file();
    ImGui::SameLine();
    if (ImGui::Button("Save")) host.save_file(s.view.desktop_path, "application/json", export_scenario(s));
  }
  same_line_or_wrap(button_width("CSV"));
  if (ImGui::Button("CSV")) {
    host.save_file(host.is_web() ? "traincalc-results.csv" : s.view.desktop_path + ".csv", "text/csv",
                   io::table_csv(results_table(s)));
    s.status = "Results exported as CSV";
  }
  remember_rect("export_csv");
  same_line_or_wrap(button_width("Markdown"));
  if (ImGui::Button("Markdown")) {
    host.save_file(host.is_web() ? "traincalc-results.md" : s.view.desktop_path + ".md", "text/markdown",
                   io::table_markdown(results_table(s)));
    s.status = "Results exported as Markdown";
  }
  if (!embed) {
    same_line_or_wrap(button_width("View"));
    if (ImGui::Button("View")) ImGui::OpenPopup("view");
  }
  if (ImGui::BeginPopup("view")) {
    ImGui::Checkbox("Step-time breakdown", &s.view.show_breakdown);
    ImGui::Checkbox("Memory", &s.view.show_memory);
    ImGui::Checkbox("Bill", &s.view.show_bill);
    ImGui::Checkbox("Comparison", &s.view.show_comparison);
    ImGui::Checkbox("Scaling", &s.view.show_scaling);
    ImGui::Checkbox("Seed cases and claims", &s.view.show_seeds);
    ImGui::Checkbox("Sources", &s.view.show_sources);
    ImGui::EndPopup();
  }
  if (!s.status.empty()) {
    same_line_or_wrap(ImGui::CalcTextSize(s.status.c_str()).x);
    text_disabled(s.status);
  }
}

namespace {

// The nearest fixes of a global batch that splits over no plan, one click each (by value: a
// click edits the scenario the fixes came from).
void batch_fix_buttons(AppState& s, const BatchFixes f) {
  ImGui::TextUnformatted("Fix:");
  auto fix = [&](const std::string& label, const char* path, io::Json value, const char* instead_of) {
    ImGui::SameLine();
    if (!ImGui::SmallButton(label.c_str())) return;
    if (instead_of) doc_erase(s.doc, instead_of);
    doc_set(s.doc, path, std::move(value));
  };
  for (int n : f.nodes) fix(std::to_string(n) + " nodes", "nodes", n, "chips");
  for (long long b : f.global_batches) fix("global batch " + std::to_string(b), "global_batch", b, nullptr);
  if (f.chips > 0) fix(std::to_string(f.chips) + " chips (rest idle)", "chips", f.chips, "nodes");
  ImGui::SameLine();
  if (ImGui::SmallButton("let the batch adapt")) doc_erase(s.doc, "global_batch_exact");
  remember_rect("batch_fixes");
}

}  // namespace

void panel_banners(AppState& s) {
  const float wrap = 0.0f;
  if (!s.hash_error.empty()) {
    ImGui::PushTextWrapPos(wrap);
    text_colored(kColorBad, io::plain_message(s.hash_error));
    ImGui::PopTextWrapPos();
    remember_rect("hash_error");
  }
  if (!s.current.ok && !s.current.error.empty()) {
    ImGui::PushTextWrapPos(wrap);
    text_colored(kColorBad, "Scenario problem: " + io::plain_message(s.current.error) +
                                (s.has_good ? ". Showing the last good results (dimmed)." : ""));
    ImGui::PopTextWrapPos();
    if (s.current.batch_fixes) batch_fix_buttons(s, *s.current.batch_fixes);
  }
  for (std::size_t i = 0; i < s.banners.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton("x")) {
      s.banners.erase(s.banners.begin() + static_cast<long>(i));
      ImGui::PopID();
      break;
    }
    ImGui::SameLine();
    ImGui::PushTextWrapPos(wrap);
    text_colored(s.banners[i].error ? kColorBad : kColorAccent, io::plain_message(s.banners[i].text));
    ImGui::PopTextWrapPos();
    ImGui::PopID();
  }
}

}  // namespace tc::ui
