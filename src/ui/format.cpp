#include "ui/format.hpp"

#include <cmath>
#include <cstdio>

#include "core/commitments.hpp"
#include "core/labels.hpp"
#include "io/report.hpp"

namespace tc::ui {

std::string fmt_fixed(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string fmt_percent(double fraction, int digits) {
  if (!std::isfinite(fraction)) return "-";
  return fmt_fixed(100 * fraction, digits) + "%";
}

std::string fmt_duration(double seconds) { return format_duration(seconds); }

std::string fmt_si(double v) { return io::format_si(v); }

std::string fmt_usd(double usd) { return format_usd(usd); }

std::string fmt_tier(const std::string& tier) {
  const auto name = parse_tier(tier);
  return name ? describe_tier(*name) : tier;
}

std::string fmt_gib(double gib) { return fmt_fixed(gib, 1) + " GiB"; }

std::string fmt_named(const std::string& id, double v) {
  auto ends = [&](const char* suffix) {
    const std::string x = suffix;
    return id.size() >= x.size() && id.compare(id.size() - x.size(), x.size(), x) == 0;
  };
  std::string value = fmt_si(v);
  if (ends("_usd") || id.find("usd_per_") != std::string::npos) value = fmt_usd(v);
  else if (ends("_s")) value = fmt_duration(v);
  else if (ends("mfu")) value = fmt_percent(v);
  return plain_label(id) + " = " + value;
}

std::string fmt_exact(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace tc::ui
