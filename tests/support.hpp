// Helpers every test file shares: the built-in preset library (loaded once per test program), a
// substring test, and a walk over a JSON document for non-finite numbers.
#pragma once

#include <cmath>
#include <string>

#include "io/json_util.hpp"
#include "io/presets.hpp"

namespace tc_test {

inline const tc::io::PresetLibrary& lib() {
  static const tc::io::PresetLibrary l = tc::io::load_builtin_presets();
  return l;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// True when no number anywhere in j is NaN or infinite.
inline bool all_finite(const tc::io::Json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured())
    for (const auto& x : j)
      if (!all_finite(x)) return false;
  return true;
}

}  // namespace tc_test
