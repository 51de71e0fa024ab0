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
  explain_last(s, [&] { return io::explain_memory(*o, o->job, s.lib, "total"); });
  struct Part {
    const char* id;
    const char* label;
    double gib;
  };
  const Part parts[] = {{"weights", "weights", m.weights_gib},
                        {"gradients", "gradients", m.gradients_gib},
                        {"optimizer", "optimizer state", m.optimizer_gib},
                        {"activations", "activations", m.activations_gib},
                        {"other", "runtime reserve and buffers", m.other_gib}};
  int i = 0;
  for (const Part& p : parts) {
    bar(static_cast<float>(p.gib / scale), series_color(i++), std::string(p.label) + " " + fmt_gib(p.gib),
        ImGui::GetTextLineHeight() * 1.1f);
    explain_last(s, [&] { return io::explain_memory(*o, o->job, s.lib, p.id); });
  }
  if (m.fits) {
    text("Largest micro-batch that fits: " + std::to_string(m.max_micro_batch));
  } else {
    text_colored(kColorBad, m.max_micro_batch > 0
                                ? "Does not fit. Largest micro-batch that would: " + std::to_string(m.max_micro_batch)
                                : "Does not fit at any micro-batch with this plan: try more tensor or pipeline "
                                  "parallelism, ZeRO, recomputation, or more chips.");
  }
  explain_last(s, [&] { return io::explain_memory(*o, o->job, s.lib, "max_micro_batch"); });
}

}  // namespace tc::ui
