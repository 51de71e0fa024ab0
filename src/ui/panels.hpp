// The panels of the calculator, one file each, and the layout that places them. Panels draw
// AppState and edit its scenario document; they compute nothing themselves (src/core, src/io do).
#pragma once

#include "ui/app_state.hpp"

namespace tc::ui {

// The whole window: the layout of the panels below (compact in embed mode).
void draw_app(AppState& s);

void panel_toolbar(AppState& s);     // copy link, import/export, seed picker, view toggles
void panel_banners(AppState& s);     // errors: the scenario, the link, preset files
void panel_editor(AppState& s);
void panel_headline(AppState& s);    // wall time, bill, $ per 1M tokens, MFU
void panel_breakdown(AppState& s);   // step time as a stacked bar
void panel_memory(AppState& s);      // per device against capacity
void panel_bill(AppState& s);        // the bill itemized, wall-time terms, price tiers
void panel_comparison(AppState& s);  // the job on every ticked instance
void panel_scaling(AppState& s);     // time and cost against node count
void panel_seeds(AppState& s);       // seed cases, their claims and the verdicts
void panel_sources(AppState& s);     // where every preset figure comes from

}  // namespace tc::ui
