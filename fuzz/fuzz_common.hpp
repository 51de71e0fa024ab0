// Shared by the libFuzzer targets: the built-in library, and the full pipeline from a parsed
// scenario to the CLI's JSON output with the invariants every result must satisfy. A broken
// invariant aborts, which libFuzzer reports as a crash with the input that caused it.
//
// Accepted outcomes for any input: a result that passes the checks, or tc::io::InputError with a
// non-empty message (the CLI's exit status 2). Anything else is a bug: another exception type (the
// CLI's "internal error", exit 1), a sanitizer report, a timeout, or an abort from a check below.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"

namespace tc::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "invariant broken: %s\n", what.c_str());
  std::abort();
}

inline const io::PresetLibrary& builtin() {
  static const io::PresetLibrary lib = io::load_builtin_presets();
  return lib;
}

inline void check_value(double v, const std::string& name) {
  if (!std::isfinite(v)) fail(name + " is not finite");
  if (v < 0) fail(name + " is negative");
}

// Sum of named terms equals the total, relative to the larger magnitude.
template <class Terms>
void check_sum(const Terms& terms, double total, const std::string& name) {
  double sum = 0, scale = std::abs(total);
  for (const auto& t : terms) {
    if (!std::isfinite(t.value)) fail(name + "." + t.name + " is not finite");
    sum += t.value;
    scale = std::max(scale, std::abs(t.value));
  }
  if (std::abs(sum - total) > 1e-9 * scale + 1e-300) fail(name + " terms do not sum to the total");
}

inline void check_estimate(const Estimate& e) {
  if (!(e.step_time_s > 0) || !std::isfinite(e.step_time_s)) fail("step_time_s not finite and > 0");
  for (const auto& t : e.breakdown_s) check_value(t.value, "breakdown_s." + t.name);
  check_sum(e.breakdown_s, e.step_time_s, "breakdown_s");
  check_value(e.tokens_per_s, "tokens_per_s");
  check_value(e.samples_per_s, "samples_per_s");
  check_value(e.tokens_per_s_per_chip, "tokens_per_s_per_chip");
  check_value(e.mfu, "mfu");
  check_value(e.hfu, "hfu");
  check_value(e.tflops_per_chip, "tflops_per_chip");
  check_value(e.model_flops_per_step, "model_flops_per_step");
  check_value(e.hardware_flops_per_step, "hardware_flops_per_step");
  check_value(e.steps, "steps");
  check_value(e.train_time_s, "train_time_s");
  check_value(e.params, "params");
  const Memory& m = e.memory;
  for (double v : {m.weights_gib, m.gradients_gib, m.optimizer_gib, m.activations_gib, m.other_gib,
                   m.total_gib, m.capacity_gib})
    check_value(v, "memory");
}

// Every number in the output is finite (nlohmann would print NaN and infinity as null).
inline void check_json_numbers(const io::Json& j, const std::string& path = "$") {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) fail(path + " is not finite");
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) check_json_numbers(it.value(), path + "." + it.key());
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) check_json_numbers(j[i], path + "[" + std::to_string(i) + "]");
}

inline void check_bill(const Bill& b, const std::string& name) {
  check_sum(b.items_usd, b.total_usd, name + ".items_usd");
  for (const auto& t : b.items_usd) check_value(t.value, name + "." + t.name);
  check_value(b.instance_hours, name + ".instance_hours");
}

// What `traincalc estimate` does after parsing, with the checks. Throws io::InputError.
inline void run_pipeline(const io::Job& job, const io::PresetLibrary& lib) {
  const io::Result r = io::evaluate(job, lib);
  check_estimate(r.est);
  const io::CostReport& cost = io::cost_of(r);
  check_sum(cost.result.wall.terms, cost.result.wall.total_s, "wall_time");
  check_bill(cost.result.bill, "bill");
  if (cost.result.owned) check_bill(*cost.result.owned, "owned");
  const io::Json j = io::result_json(job, r);
  check_json_numbers(j);
  (void)j.dump(2);  // throws on invalid UTF-8: must not happen for accepted input
  (void)io::result_text(job, r);
}

inline void expect_message(const io::InputError& e) {
  if (std::string(e.what()).empty()) fail("InputError without a message");
}

}  // namespace tc::fuzz
