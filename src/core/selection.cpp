#include "core/selection.hpp"

#include <algorithm>
#include <cmath>

namespace tc {

namespace {

// In sigmas: the window of predictions around the fastest option's (beyond it the integrand is
// below phi(6), 6e-9), and how far below the fastest an option still counts (one 9 sigma below
// beats it with a probability of Phi(-9 / sqrt 2), 1e-10).
constexpr double kSpan = 6.0;
constexpr double kFar = 9.0;
constexpr int kIntervals = 160;      // Simpson's rule over 2 kSpan sigmas, 0.075 sigma a step: 5 digits on ties

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * 3.14159265358979323846); }

// Abramowitz and Stegun (1964), 26.2.17: the upper tail within 7.5e-8, always positive (no erfc,
// whose code the page would carry for this alone).
double normal_cdf(double z) {
  const double t = 1.0 / (1.0 + 0.2316419 * std::fabs(z));
  const double tail =
      normal_pdf(z) * t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1.0 - tail : tail;
}

}  // namespace

double pick_optimism(const std::vector<double>& log_speeds, double sigma) {
  if (!(sigma > 0) || !std::isfinite(sigma)) return 0;
  double top = -INFINITY;
  for (double v : log_speeds)
    if (std::isfinite(v)) top = std::max(top, v);
  // Each option as its distance below the fastest, in sigmas; those beyond kFar (picked with a
  // probability below 1e-9) and the non-finite ones left out.
  std::vector<double> d;
  for (double v : log_speeds)
    if (std::isfinite(v) && (top - v) / sigma <= kFar) d.push_back((v - top) / sigma);
  const std::size_t n = d.size();
  if (n < 2) return 0;
  // u is a prediction's value in sigmas above the fastest: option k is picked at u when every
  // other prediction lies below it.
  const double h = 2.0 * kSpan / kIntervals;
  std::vector<double> below(n);
  double sum = 0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double u = -kSpan + i * h;
    double all_below = 1;
    for (std::size_t j = 0; j < n; ++j) {
      below[j] = normal_cdf(u - d[j]);
      all_below *= below[j];
    }
    double f = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double z = u - d[k];
      if (below[k] > 0) f += z * normal_pdf(z) * all_below / below[k];
    }
    sum += f * (i == 0 || i == kIntervals ? 1.0 : (i % 2 ? 4.0 : 2.0));
  }
  return std::max(0.0, sigma * sum * h / 3.0);
}

}  // namespace tc
