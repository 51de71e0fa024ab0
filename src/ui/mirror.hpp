// The DOM mirror: the page's text copy of the canvas, and the main inputs as HTML controls.
#pragma once

#include <string>
#include <vector>

#include "ui/app_state.hpp"

namespace tc::ui {

// The inputs the page offers as HTML controls: model, instance, nodes, precision, global_batch.
const std::vector<std::string>& mirror_input_paths();

// Adds band, warnings, bill lines, claim verdicts, banners and the inputs (value, choices) to
// the mirror JSON.
void add_mirror_details(io::Json& j, const AppState& s);

// An HTML control's new value, edited into the scenario as the canvas editor does (doc_set);
// false for a path that is not one of mirror_input_paths().
bool set_mirror_input(AppState& s, const std::string& path, const std::string& text);

}  // namespace tc::ui
