// Every number the UI draws goes through these: a non-finite value shows as "-", never "nan".
#pragma once

#include <string>

namespace tc::ui {

std::string fmt_fixed(double v, int digits);          // "12.35"
std::string fmt_percent(double fraction, int digits = 1);
// A pricing tier in plain words: "3-year Standard RI, all upfront", "Capacity Block".
std::string fmt_tier(const std::string& tier);  // "47.6%"
std::string fmt_duration(double seconds);             // "68.6 days"
std::string fmt_usd(double usd);                      // "$1.23 M", "$512"
std::string fmt_si(double v);                         // "1.23 M"
std::string fmt_gib(double gib);                      // "23.8 GiB"
// A figure named by an id whose unit is in its name ("implied_mfu", "estimated_wall_time_s",
// "bill_at_list_price_usd"): its plain label and its value in that unit's format.
std::string fmt_named(const std::string& id, double v);
std::string fmt_exact(double v);                      // "%.6g": the DOM mirror's machine-readable value

}  // namespace tc::ui
