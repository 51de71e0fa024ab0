// Memory per device against the device's capacity: red when it does not fit.
#include "ui/format.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {

void panel_memory(AppState& s) {
  const Outcome* o = shown(s);
  if (!o) return;
  const Memory& m = o->est.memory;
  const double cap = m.capacity_gib > 0 ? m.capacity_gib : 1;
  const double scale = std::max(cap, m.total_gib);
  const ImU32 total_color = m.fits ? kColorGood : kColorBad;
  bar(static_cast<float>(m.total_gib / scale), total_color,
      fmt_gib(m.total_gib) + " of " + fmt_gib(m.capacity_gib) + (m.fits ? " (fits)" : " (does NOT fit)"));
  sources_tooltip(s, "accelerator", o->job.spec.scenario.accelerator.id, "hbm_gib");
  const std::pair<const char*, double> parts[] = {{"weights", m.weights_gib},         {"gradients", m.gradients_gib},
                                                  {"optimizer", m.optimizer_gib},     {"activations", m.activations_gib},
                                                  {"other", m.other_gib}};
  int i = 0;
  for (const auto& [name, v] : parts) {
    bar(static_cast<float>(v / scale), series_color(i++), std::string(name) + " " + fmt_gib(v),
        ImGui::GetTextLineHeight() * 1.1f);
  }
  if (m.fits)
    text("Largest micro-batch that fits: " + std::to_string(m.max_micro_batch));
  else
    text_colored(kColorBad, m.max_micro_batch > 0
                                ? "Does not fit. Largest micro-batch that would: " + std::to_string(m.max_micro_batch)
                                : "Does not fit at any micro-batch with this plan: try more tensor or pipeline "
                                  "parallelism, ZeRO, recomputation, or more chips.");
}

}  // namespace tc::ui
