#include "io/explain.hpp"

#include <algorithm>
#include <cmath>

#include "core/cost.hpp"
#include "core/estimate.hpp"
#include "core/labels.hpp"
#include "core/text.hpp"
#include "io/compare.hpp"
#include "io/report.hpp"

namespace tc::io {

namespace {

const char* kModelDoc = "traincalc model (docs/model.md, ";

// A preset figure's source: its source note ("cite (date, confidence H)"), else the entry's own
// source text, else where the figure came from when it is no preset (a config.json, the scenario).
std::string preset_source(const PresetLibrary& lib, const char* kind, const std::string& id, const char* field,
                          const std::string& own) {
  const auto notes = lib.sources_for(kind, id, field);
  if (!notes.empty())
    return notes.front()->cite + " (" + notes.front()->date + ", confidence " + notes.front()->confidence + ")";
  if (!own.empty()) return own;
  return std::string(kind) + " " + id + " as the scenario gives it";
}

std::string accelerator_source(const PresetLibrary& lib, const Job& job, const char* field) {
  const Accelerator& a = job.spec.scenario.accelerator;
  return preset_source(lib, "accelerator", a.id, field, a.source);
}

std::string model_source(const PresetLibrary& lib, const Job& job) {
  const ModelShape& m = job.spec.scenario.model;
  return preset_source(lib, "model", job.spec.model_id, "", m.source);
}

std::string scenario_field(const char* field) { return std::string("scenario: ") + field; }

// The throughput band of published runs of this accelerator (io/uncertainty), applied to a
// figure that grows with time or with speed.
std::string band_of(const Result& r, double value, BandSide side, std::string (*format)(double)) {
  const Uncertainty& u = r.band;
  const BandFactors f = band_factors(u, r.est);
  std::string s = "typically within " + format_fixed(100 * u.mean_abs_error, 0) + "% (" + u.basis + "): ";
  s += band_range(f, value, side, format);
  s += ", the 10th to 90th percentile of published runs' errors";
  if (!u.note.empty()) s += "; " + u.note;
  return s;
}

std::string percent(double fraction) { return format_fixed(100 * fraction, 1) + "%"; }
std::string count(double v) { return format_si(v); }

ExplainInput step_time_input(const Result& r) {
  return {"step time", format_duration(r.est.step_time_s), std::string(kModelDoc) + "Step time)"};
}

ExplainInput chips_input(const Result& r, const Job& job) {
  if (job.spec.requested_chips) return {"chips", std::to_string(r.est.chips), scenario_field("chips")};
  return {"chips", std::to_string(r.est.chips),
          scenario_field("nodes") + " x " + std::to_string(job.spec.node_chips) + " chips per " + job.spec.instance_id};
}

// A peak at precision p, at the clock a power cap, or the chip's own power, allows its tensor units
// (core/estimate.hpp).
std::string peak_value(const Job& job, Precision p) {
  const Scenario& s = job.spec.scenario;
  std::string value = format_fixed(peak_tflops(s.accelerator, p), 0) + " TFLOP/s " + to_string(p);
  const double clock = tensor_clock_fraction(s, p);
  if (clock < 1)
    value += ", at " + percent(clock) + " of its clock on " + format_fixed(chip_power_w(s), 0) + " W" +
             (power_limited_clock_fraction(s) < 1 ? " (power_limit_w)" : "");
  return value;
}

// The peak the matrix math runs at, as MFU counts it (BF16 for an auto-cast FP32 job).
ExplainInput peak_input(const Job& job, const PresetLibrary& lib) {
  return {"dense peak per chip", peak_value(job, matmul_precision(job.spec.scenario)),
          accelerator_source(lib, job, "peak_tflops")};
}

// Where the accelerator's calibration comes from: the rows it was fitted on, or its preset's note.
std::string calibration_source(const Job& job, const PresetLibrary& lib) {
  const AcceleratorCalibration& c = job.spec.scenario.accelerator.cal;
  return c.fitted_on.empty() ? accelerator_source(lib, job, "calibration") : c.fitted_on;
}

ExplainInput calibration_input(const Job& job, const PresetLibrary& lib) {
  const AcceleratorCalibration& c = job.spec.scenario.accelerator.cal;
  return {"calibration", "matmul " + percent(c.matmul_efficiency_max) + " of peak, attention " +
                             percent(c.attention_efficiency) + ", HBM " + percent(c.hbm_efficiency),
          calibration_source(job, lib)};
}

// The wall-time terms of a run, each with where its inputs come from.
void wall_terms(Explanation& x, const WallTime& w) {
  for (const auto& t : w.terms)
    if (t.value > 0)
      x.inputs.push_back({plain_label(t.name), format_duration(t.value),
                          t.name == "training" ? "steps x step time" : "overheads in the scenario, or their defaults "
                                                                       "(docs/model.md, The bill)"});
}

}  // namespace

std::string explanation_text(const Explanation& x) {
  std::string s = x.title + (x.value.empty() ? "" : ": " + x.value) + "\n" + x.formula + "\n";
  for (const auto& in : x.inputs) s += "  " + in.name + " = " + in.value + ": " + in.source + "\n";
  for (const auto& n : x.notes) s += "  ! " + n + "\n";
  if (!x.band.empty()) s += "Range: " + x.band + "\n";
  return s;
}

Explanation explain_step_time(const Result& r, const Job& job, const PresetLibrary& lib) {
  Explanation x{"Step time", format_duration(r.est.step_time_s),
                "One micro-batch on the busiest pipeline rank x the micro-batches per step, plus the pipeline "
                "bubble, the exposed data-parallel reduction and the optimizer step (docs/model.md, Step time)",
                {}, band_of(r, r.est.step_time_s, BandSide::time, format_duration)};
  x.inputs.push_back({"micro-batches per step", std::to_string(r.est.grad_accum),
                      "global batch / (micro-batch x data parallel), plan " + plan_short(r.est.plan)});
  x.inputs.push_back(peak_input(job, lib));
  x.inputs.push_back(calibration_input(job, lib));
  x.inputs.push_back({"model", job.spec.model_id, model_source(lib, job)});
  return x;
}

Explanation explain_chips(const Result& r, const Job& job, const PresetLibrary& lib) {
  Explanation x{"Chips", std::to_string(r.est.chips), "nodes x chips per node (or the chips the scenario asks for)",
                {chips_input(r, job)}, ""};
  x.inputs.push_back({"instance", job.spec.instance_id,
                      preset_source(lib, "instance", job.spec.instance_id, "chips_per_node",
                                    job.spec.scenario.instance.source)});
  x.band = "exact: a count, not an estimate";
  return x;
}

Explanation explain_plan(const Result& r) {
  const ParallelPlan& p = r.est.plan;
  Explanation x{"Plan", plan_short(p),
                "the knobs left to \"auto\" are searched over every valid plan; the fastest that fits in memory "
                "is kept (docs/model.md; Narayanan et al. 2021 for tp x pp x dp)", {}, "exact: a choice, not an estimate"};
  const std::string src = r.est.plans_considered > 1 ? "plan search, " + std::to_string(r.est.plans_considered) +
                                                           " plans considered"
                                                     : "the scenario's plan";
  x.inputs.push_back({"tensor x pipeline x data parallel", std::to_string(p.tp) + " x " + std::to_string(p.pp) + " x " +
                                                                std::to_string(p.dp), src});
  x.inputs.push_back({"micro-batch x accumulation", std::to_string(p.micro_batch) + " x " + std::to_string(r.est.grad_accum),
                      src});
  x.inputs.push_back({"ZeRO stage, recompute", std::to_string(p.zero) + ", " + to_string(p.recompute), src});
  return x;
}

Explanation explain_mfu(const Result& r, const Job& job, const PresetLibrary& lib) {
  const Estimate& e = r.est;
  Explanation x{"MFU", percent(e.mfu),
                "model FLOPs per step / (step time x chips x dense peak per chip); model FLOPs 6N + 12 l a d s "
                "per token (Chowdhery et al. 2022, PaLM, Appendix B; LoRA: 4N + 6 N_adapter + 12 l a d s)",
                {}, band_of(r, e.mfu, BandSide::speed, percent)};
  x.inputs.push_back({"model FLOPs per step", count(e.model_flops_per_step), model_source(lib, job)});
  x.inputs.push_back(step_time_input(r));
  x.inputs.push_back(chips_input(r, job));
  x.inputs.push_back(peak_input(job, lib));
  return x;
}

Explanation explain_wall_time(const Result& r, const Job& job, const PresetLibrary& lib) {
  const Estimate& e = r.est;
  if (!r.cost) {
    Explanation x{"Training time", format_duration(e.train_time_s), "steps x step time (no cost model: no overheads)",
                  {}, band_of(r, e.train_time_s, BandSide::time, format_duration)};
    x.inputs.push_back({"steps", count(e.steps), scenario_field("training.tokens") + " / tokens per step"});
    x.inputs.push_back(step_time_input(r));
    return x;
  }
  const WallTime& w = r.cost->result.wall;
  Explanation x{"Wall time", format_duration(w.total_s),
                "training (steps x step time) + compilation + warm-up + checkpoint writes + failures and restarts "
                "+ spot interruptions + queueing; checkpoint interval by Young/Daly unless given (docs/model.md, "
                "The bill)",
                {}, band_of(r, w.total_s, BandSide::time, format_duration)};
  x.inputs.push_back({"steps", count(e.steps), scenario_field("training.tokens") + " / tokens per step"});
  x.inputs.push_back(step_time_input(r));
  wall_terms(x, w);
  x.inputs.push_back(peak_input(job, lib));
  return x;
}

Explanation explain_bill(const Result& r, const Job& job, const PresetLibrary&) {
  if (!r.cost) return {"Total bill", "-", "no cost model for this scenario", {}, ""};
  const Bill& b = r.cost->result.bill;
  Explanation x{"Total bill", b.priced ? format_usd(b.total_usd) : "incomplete",
                "the sum of the bill's items, each quantity x rate: instance-hours (nodes x billed wall time x "
                "runs) at each pricing tier's $/h, then storage, transfer, incidents and engineering",
                {}, ""};
  x.inputs.push_back({"instance-hours", format_fixed(b.instance_hours, 0),
                      std::to_string(job.spec.scenario.nodes) + " nodes x billed wall time x " +
                          format_fixed(b.runs, b.runs == std::floor(b.runs) ? 0 : 2) + (b.runs == 1 ? " run" : " runs")});
  for (const auto& t : b.tiers)
    x.inputs.push_back({plain_label("instance." + t.billed_tier) + ", " + percent(t.share) + " of hours",
                        t.priced ? format_usd(t.usd_per_hour) + "/h" : "no public price",
                        t.priced ? t.source + " (" + t.region + ", " + t.date + ")" : "no price in the presets"});
  // Every other item: the tiers' hours are above; their paid and unused parts, storage, ... here.
  for (const auto& it : b.items_usd) {
    const bool tier_hours = std::any_of(b.tiers.begin(), b.tiers.end(),
                                        [&](const TierLine& t) { return it.name == "instance." + t.billed_tier; });
    if (!tier_hours && it.value > 0)
      x.inputs.push_back({plain_label(it.name), format_usd(it.value), "bill lines (hover the bill's rows)"});
  }
  x.notes = r.cost->result.warnings;
  if (b.priced) x.band = band_of(r, b.total_usd, BandSide::time, format_usd) + " (compute scales with time)";
  else x.band = "no range: some hours have no public price";
  return x;
}

Explanation explain_usd_per_million_tokens(const Result& r, const Job&, const PresetLibrary&) {
  if (!r.cost) return {"Per 1M tokens", "-", "no cost model for this scenario", {}, ""};
  const Bill& b = r.cost->result.bill;
  const bool ok = b.priced && b.tokens > 0;
  Explanation x{"Per 1M tokens", ok ? format_usd(b.usd_per_million_tokens) : "-",
                "total bill / tokens trained in the campaign x 1,000,000 (all-in; compute only: the instance "
                "items alone)",
                {}, ""};
  x.inputs.push_back({"total bill", b.priced ? format_usd(b.total_usd) : "incomplete", "the bill (hover it)"});
  x.inputs.push_back({"tokens trained", count(b.tokens), scenario_field("training.tokens") + " x full runs"});
  x.inputs.push_back({"compute only", ok ? format_usd(b.compute_usd_per_million_tokens) : "-",
                      "instance items / tokens x 1,000,000"});
  x.band = ok ? band_of(r, b.usd_per_million_tokens, BandSide::time, format_usd) : "no range: the bill is incomplete";
  return x;
}

namespace {

// How each step-time term is modelled, in words (docs/model.md, Step time, with its sources).
struct TermModel {
  const char* term;
  const char* formula;
  const char* calibration;  // the accelerator field its efficiency comes from ("" when none)
};
const TermModel kTermModels[] = {
    {"matmul", "every GEMM at its per-device shape: max(2MNK / (peak x matmul efficiency x SMs its output tiles "
               "keep busy), bytes / HBM) + kernel cost, x micro-batches per step (roofline, Williams et al. 2009; "
               "tile and wave quantization, NVIDIA's Matrix Multiplication Background guide); local experts as "
               "one grouped GEMM, or a kernel cost each (per_expert_gemms), FP8/FP4 quantize launches too, each with a release's host time (expert_quantize_us); LoRA's adapter pairs on every projection, one "
               "pair a fused Q/K/V or gate/up module (fused_projections)", "peak_tflops"},
    {"attention", "fused kernel at the attention rate, causal half skipped, backward 2.5 forwards, plus the "
                  "softmax's exponentials and FP32 work on a GPU (added for FlashAttention-2-class kernels, "
                  "overlapped by FlashAttention-3-class ones); unfused: batched GEMMs, the scores through HBM "
                  "unless they fit on chip (sram_mib) (Dao 2023, Section 3.1; Shah et al. 2024)", "peak_tflops"},
    {"memory_bound", "norms, residuals, activations, rotary, casts: bytes / achievable HBM bandwidth, plus the "
                     "framework's separately launched kernels at the kernel cost; an FP8/FP4 recipe's weights "
                     "quantized once a step or every micro-batch (caches_quantized_weights)", "hbm_tb_per_s"},
    {"recompute", "full: the forward again (collectives included) of the recomputed layers (all, or "
                  "recompute_layers a stage); "
                  "selective: the attention core (Korthikanti et al. 2022), or every other matmul and the "
                  "elementwise work (per-op checkpointing)", "peak_tflops"},
    {"tp_comm", "4 all-reduces of b s h per layer (sequence parallel: reduce-scatter + all-gather, same bytes) "
                "over the node's links, alpha-beta model (Thakur et al. 2005), minus the framework's overlap "
                "(none when the tp group spans nodes or without sequence parallelism)", ""},
    {"cp_comm", "the K/V ring exposed beyond the attention kernel, twice the bytes backward (K/V and dK/dV; "
                "Liu et al. 2023)", ""},
    {"ep_comm", "dispatch and combine all-to-alls (a token's copy per routed expert, or, with "
                "dispatch_once_per_rank, per rank holding any of them), forward and backward (Lepikhin "
                "et al. 2021), minus the "
                "framework's overlap on a 1F1B pipeline's steady-state micro-batches, (m - pp + 1) / m (none "
                "without one)", ""},
    {"pp_p2p", "b s h / t bytes per pipeline boundary per virtual stage over the links (Narayanan et al. 2021); "
               "with interleaving and the framework's overlap_p2p, only what outlasts the micro-batch's compute", ""},
    {"pp_bubble", "1F1B's fill and drain once through each rank but the busiest, a vpp-th of its micro-batch "
                  "each ((pp - 1) / vpp stage times for equal stages; Narayanan et al. 2021, Section 2.2)", ""},
    {"dp_comm", "gradient all-reduce (ZeRO-1/2: reduce-scatter + parameter all-gather) less dp_overlap of the "
                "backwards it can hide behind (with interleaving, each chunk's last), at least the last bucket "
                "(Li et al. 2020); ZeRO-2 reduce-scatters every micro-batch; a gather overlapped with the next "
                "forward likewise; ZeRO-3 gathers behind the previous layer (Zhao et al. 2023); a later pipeline rank's "
                "reduction hides behind the drain through the ranks before it", ""},
    {"optimizer", "Adam's bytes per owned parameter / achievable HBM bandwidth", "hbm_tb_per_s"},
    {"step_overhead", "the host's work a step waits for once, whatever its micro-batches: Trainium's stacks run "
                      "PyTorch/XLA, whose lazy tensors trace each step's graph anew and sync at its end "
                      "(xm.mark_step); the accelerator's step_overhead_ms, fitted on published runs (none on GPUs, "
                      "whose stacks launch asynchronously)", ""},
    {"pick_optimism", "the plan search picks the fastest-predicted of its ways to split the model (tp, pp, cp, "
                      "ep), each predicted with an error of its own; the one predicted fastest is on average the "
                      "most over-predicted (the optimizer's curse, Smith and Winkler 2006): exp(o) - 1 of the step, "
                      "o the expected error of the pick when each split's errs by N(0, sigma^2) independently, "
                      "the predictions standing in for the true speeds (core/selection.hpp); a plan fixed in the "
                      "scenario has none", ""},
};

ExplainInput network_input(const Job& job, const PresetLibrary& lib) {
  const Instance& i = job.spec.scenario.instance;
  return {"links", i.intra.type + " " + format_fixed(i.intra.gb_per_s_per_chip, 0) + " GB/s per chip, network " +
                       format_fixed(i.inter_node_gbps, 0) + " Gbps per node",
          preset_source(lib, "instance", job.spec.instance_id, "intra.gb_per_s_per_chip", i.source)};
}

// The framework's share of a communication term that runs hidden, and where the share comes from:
// the preset's source note, or the scenario when its inline framework changes the preset's value.
struct OverlapKnob {
  const char* term;
  const char* knob;
  double FrameworkProfile::*share;
};
const OverlapKnob kOverlapKnobs[] = {{"tp_comm", "tp_overlap", &FrameworkProfile::tp_overlap},
                                     {"ep_comm", "ep_overlap", &FrameworkProfile::ep_overlap},
                                     {"dp_comm", "dp_overlap", &FrameworkProfile::dp_overlap}};

// Where a framework field's value comes from: the preset's source note (`unset` where the profile
// has none), or the scenario when its inline framework changes the preset's value.
template <class T>
std::string framework_field_source(const PresetLibrary& lib, const FrameworkProfile& f, T FrameworkProfile::*field,
                                   const char* name, const std::string& unset) {
  const FrameworkProfile* preset = lib.framework(f.id);
  if (!preset || preset->*field != f.*field) return "as the scenario gives it";
  return preset_source(lib, "framework", f.id, name, "profile " + f.id + " does not set it: " + unset);
}

void add_overlap_input(Explanation& x, const Result& r, const Job& job, const PresetLibrary& lib,
                       const std::string& term) {
  const Scenario& s = job.spec.scenario;
  const FrameworkProfile& f = s.framework;
  // With asynchronous TP on, its own share hides the TP term; the share shown is the one the plan
  // hides (core/estimate.hpp, tp_hidden_share).
  const OverlapKnob async = {"tp_comm", "async_tp_overlap", &FrameworkProfile::async_tp_overlap};
  for (const auto& k : kOverlapKnobs)
    if (term == k.term) {
      const bool tp = term == async.term;
      const OverlapKnob& used = tp && runs_async_tp(s) ? async : k;
      const double hidden = tp ? tp_hidden_share(s, r.est.plan) : f.*used.share;
      const std::string why = hidden == f.*used.share ? ""
                              : r.est.plan.sequence_parallel ? ", half: rowwise FP8 gathers before its cast"
                                                             : ", none without sequence parallelism";
      x.inputs.push_back({used.knob, format_fixed(hidden, 2) + " (" + f.id + why + ")",
                          framework_field_source(lib, f, used.share, used.knob, "the model's default")});
    }
}

// The copies of a token the expert-parallel dispatcher sends at the chosen plan's ep, and whose
// choice that is (core/estimate.hpp, dispatch_copies).
ExplainInput dispatch_input(const Result& r, const Job& job, const PresetLibrary& lib) {
  const Scenario& s = job.spec.scenario;
  const FrameworkProfile& f = s.framework;
  const bool once = f.dispatch_once_per_rank;
  const std::string source = framework_field_source(lib, f, &FrameworkProfile::dispatch_once_per_rank,
                                                    "dispatch_once_per_rank", "one copy per routed expert");
  return {"token copies", format_fixed(dispatch_copies(s.model, r.est.plan.ep, once), 2) + " of top_k " +
                              std::to_string(s.model.moe_top_k) + (once ? ", one per rank (" : ", one per expert (") +
                              f.id + ")",
          source};
}

// The rate attention's GEMMs run at: the peak of their precision times the efficiency of the kernel
// class the stack runs (core/estimate.hpp, attention_kernel).
ExplainInput attention_input(const Result& r, const Job& job, const PresetLibrary& lib) {
  const Scenario& s = job.spec.scenario;
  const AttentionKernel k = attention_kernel(s, r.est.plan);  // the chosen plan's cp splits the scores
  const char* kind = k.kind == AttentionKernel::Kind::fa3   ? " (FlashAttention-3 class)"
                     : k.kind == AttentionKernel::Kind::fa2 ? " (FlashAttention-2 class)"
                     : k.scores_on_chip                     ? " (unfused, scores on chip)"
                                                            : " (unfused, scores via HBM)";
  std::string value = peak_value(job, k.precision) + " x " + percent(k.efficiency) + kind;
  std::string source = accelerator_source(lib, job, "peak_tflops");
  if (k.scores_on_chip) source += "; SRAM: " + accelerator_source(lib, job, "sram_mib");
  if (k.kind != AttentionKernel::Kind::unfused && s.accelerator.exp_tera_per_s > 0) {
    value += "; softmax exponentials at " + format_fixed(s.accelerator.exp_tera_per_s, 1) + " T/s";
    source += "; exponentials: " + accelerator_source(lib, job, "exp_tera_per_s");
  }
  return {"attention rate", value, source};
}

}  // namespace

Explanation explain_step_term(const Result& r, const Job& job, const PresetLibrary& lib, const std::string& term) {
  double value = 0;
  for (const auto& t : r.est.breakdown_s)
    if (t.name == term) value = t.value;
  const TermModel* m = nullptr;
  for (const auto& k : kTermModels)
    if (term == k.term) m = &k;
  const double share = r.est.step_time_s > 0 ? value / r.est.step_time_s : 0;
  Explanation x{plain_label(term), format_duration(value) + " (" + percent(share) + " of the step)",
                m ? m->formula : "a term of the step time (docs/model.md, Step time)", {},
                band_of(r, value, BandSide::time, format_duration) + " (the band is the whole step's)"};
  x.inputs.push_back({"micro-batches per step", std::to_string(r.est.grad_accum), "plan " + plan_short(r.est.plan)});
  const Accelerator& a = job.spec.scenario.accelerator;
  if (term == "attention") {
    x.inputs.push_back(attention_input(r, job, lib));
  } else if (term == "step_overhead") {
    x.inputs.push_back({"host time a step", format_fixed(a.cal.step_overhead_ms, 0) + " ms", calibration_source(job, lib)});
  } else if (term == "pick_optimism") {
    x.inputs.push_back(r.est.splits_compared > 0
                           ? ExplainInput{"ways to split the model compared", std::to_string(r.est.splits_compared),
                                          "the plan search"}
                           : ExplainInput{"ways to split the model compared", "as the last full search",
                                          "kept while a control is held; the release searches again"});
    x.inputs.push_back({"sigma, the model's error from one layout of a job to another",
                        percent(job.spec.request.layout_error_sigma),
                        "the jobs published with several layouts, predicted out of sample (docs/accuracy.md, "
                        "Choosing a layout; presets/accuracy/uncertainty.json layout_error)"});
  } else if (m && *m->calibration) {
    const bool hbm = std::string(m->calibration) == "hbm_tb_per_s";
    x.inputs.push_back(hbm ? ExplainInput{"HBM bandwidth", format_fixed(a.hbm_tb_per_s, 2) + " TB/s per chip",
                                          accelerator_source(lib, job, "hbm_tb_per_s")}
                           : peak_input(job, lib));
  } else {
    x.inputs.push_back(network_input(job, lib));
  }
  if (term == "matmul" && a.gemm_units > 0)
    x.inputs.push_back({"GEMM units", std::to_string(a.gemm_units) + " SMs, " + std::to_string(a.gemm_tile_m) +
                                          " x " + std::to_string(a.gemm_tile_n) + " output tiles",
                        accelerator_source(lib, job, "gemm_units")});
  if (term == "ep_comm") x.inputs.push_back(dispatch_input(r, job, lib));
  add_overlap_input(x, r, job, lib, term);
  x.inputs.push_back(calibration_input(job, lib));
  return x;
}

Explanation explain_memory(const Result& r, const Job& job, const PresetLibrary& lib, const std::string& part) {
  const Memory& m = r.est.memory;
  const ParallelPlan& p = r.est.plan;
  const std::string plan = "plan " + plan_short(p) + ", ZeRO " + std::to_string(p.zero);
  Explanation x{"", "", "", {}, "a direct count of bytes: no throughput band applies"};
  const std::string model = model_source(lib, job);
  if (part == "total") {
    x = {"Memory per device", format_fixed(m.total_gib, 1) + " of " + format_fixed(m.capacity_gib, 1) + " GiB",
         "weights + gradients + optimizer state + activations + runtime reserve, against the device's HBM "
         "(Rajbhandari et al. 2020 for ZeRO sharding; Korthikanti et al. 2022 for activations)", {}, x.band};
    x.inputs.push_back({"capacity", format_fixed(m.capacity_gib, 1) + " GiB per device",
                        accelerator_source(lib, job, "hbm_gib")});
  } else if (part == "weights" || part == "gradients") {
    x = {part == "weights" ? "Weights" : "Gradients", format_fixed(part == "weights" ? m.weights_gib : m.gradients_gib, 1) + " GiB",
         "parameters held by the device (split by tensor, pipeline and expert parallelism; ZeRO-" +
             std::string(part == "weights" ? "3" : "2") + " shards over data parallelism) x bytes per value "
             "(Rajbhandari et al. 2020)", {}, x.band};
  } else if (part == "optimizer") {
    x = {"Optimizer state", format_fixed(m.optimizer_gib, 1) + " GiB",
         "Adam's two moments (and the FP32 master copy unless rounding is stochastic) per owned parameter, sharded "
         "by ZeRO-1 and above over data parallelism (Rajbhandari et al. 2020)", {}, x.band};
  } else if (part == "activations") {
    x = {"Activations", format_fixed(m.activations_gib, 1) + " GiB",
         "per layer after Korthikanti et al. 2022 (GQA, gated FFN, MoE, FlashAttention), x the micro-batches "
         "1F1B keeps in flight, less what recomputation drops; on the last pipeline rank, the logits (16-bit, "
         "plus an FP32 copy unless the loss is fused), a prediction module's too", {}, x.band};
  } else if (part == "max_micro_batch") {
    x = {"Largest micro-batch that fits", std::to_string(m.max_micro_batch),
         "the largest micro-batch whose total memory per device stays within capacity, searched with the rest of "
         "the plan as it is", {}, x.band};
    x.inputs.push_back({"capacity", format_fixed(m.capacity_gib, 1) + " GiB per device",
                        accelerator_source(lib, job, "hbm_gib")});
  } else {
    x = {"Runtime reserve and buffers", format_fixed(m.other_gib, 1) + " GiB",
         "the accelerator's runtime reserve (allocator, communication buffers, compiled graphs), two gradient "
         "buckets in flight and, with ZeRO-3, the gathered weights: the edge modules and two of the rank's largest "
         "layers", {},
         x.band};
    x.inputs.push_back({"runtime reserve", format_fixed(job.spec.scenario.accelerator.cal.runtime_reserve_gib, 1) + " GiB",
                        accelerator_source(lib, job, "calibration")});
  }
  x.inputs.push_back({"parameters", count(r.est.params), model});
  x.inputs.push_back({"plan", plan, r.est.plans_considered > 1 ? "the plan search (fastest plan that fits)"
                                                                : "the scenario's plan"});
  return x;
}

Explanation explain_bill_item(const Bill& b, const std::string& item) {
  double usd = 0;
  for (const auto& it : b.items_usd)
    if (it.name == item) usd = it.value;
  Explanation x{plain_label(item), format_usd(usd), "the sum of its lines, each quantity x rate", {},
                "list prices as dated; the quantity follows the wall time and carries its band"};
  for (const auto& l : b.lines)
    if (l.item == item)
      x.inputs.push_back({format_fixed(l.quantity, l.quantity < 100 ? 2 : 0) + " " + l.unit + " x " +
                              format_usd(l.usd_per_unit),
                          format_usd(l.usd), l.detail.empty() ? "scenario input" : l.detail});
  if (x.inputs.empty()) x.inputs.push_back({"nothing billed", "$0", "no line of this item"});
  return x;
}

Explanation explain_items_total(const Bill& b) {
  Explanation x{b.kind == "owned" ? "Owned cluster's share" : "Total bill", b.priced ? format_usd(b.total_usd) : "incomplete",
                "the sum of the items above, each the sum of its lines (quantity x rate)", {},
                "list prices as dated; quantities follow the wall time and carry its band"};
  for (const auto& it : b.items_usd)
    x.inputs.push_back({plain_label(it.name), format_usd(it.value), "its lines (hover the row)"});
  for (const auto& u : b.unpriced) x.notes.push_back("not priced: " + u);
  return x;
}

Explanation explain_bill_rates(const Bill& b) {
  Explanation x{"Instance-hours, per run, per month", format_fixed(b.instance_hours, 0) + " instance-hours",
                "instance-hours = nodes x billed hours of every run; per run = total / runs; per month = the "
                "recurring cost of a month (runs per month, else the campaign back to back, 730 h a month as AWS "
                "prices it); lower bound = the campaign's model FLOPs at dense peak, in node-hours at the billed "
                "rate (no plan bills less compute: MFU <= 1)", {}, "follows the wall time's band"};
  x.inputs.push_back({"runs", format_fixed(b.runs, b.runs == std::floor(b.runs) ? 0 : 2), "scenario: campaign.runs"});
  x.inputs.push_back({"per run", format_usd(b.usd_per_run), "total / runs"});
  x.inputs.push_back({"per month", format_usd(b.usd_per_month), format_fixed(b.campaign_months, 2) + " months of campaign"});
  x.inputs.push_back({"lower bound on compute", format_usd(b.compute_only_bound_usd), "model FLOPs / dense peak"});
  return x;
}

Explanation explain_energy(const Bill& b, const Job& job) {
  const EnergyInputs& en = job.cost.energy;
  Explanation x{"Energy", format_si(b.energy_kwh) + " kWh, " + format_si(b.co2e_kg) + " kg CO2e",
                "kWh = nodes x power per node x billed hours x PUE / 1000; CO2e = kWh x grid intensity", {},
                "power is the chips' board power plus the host: a ceiling, real draw is lower"};
  x.inputs.push_back({"power per node", format_fixed(b.node_power_w, 0) + " W",
                      en.node_power_w ? std::string("scenario: energy.node_power_w")
                                      : "chips x accelerator power_w + instance host_power_w (presets)"});
  x.inputs.push_back({"PUE", format_fixed(en.cloud_pue, 2), "AWS global PUE (Amazon sustainability report 2023), "
                                                            "or scenario energy.cloud_pue"});
  x.inputs.push_back({"grid intensity", format_fixed(en.grid_kg_co2e_per_kwh, 2) + " kg CO2e/kWh",
                      "US average (EPA eGRID 2022), or scenario energy.grid_kg_co2e_per_kwh"});
  return x;
}

Explanation explain_ownership(const Bill& o) {
  Explanation x{"Owned cluster", format_usd(o.usd_per_year) + " a year",
                "a year's cost of ownership (depreciation to the residual, financing, maintenance, energy, "
                "colocation, facility, staff) / the year's useful node-hours gives the effective rate; the "
                "horizon's cost is the yearly items x horizon years", {}, "inputs of the scenario's owned_cluster"};
  x.inputs.push_back({"per node-hour", format_usd(o.usd_per_node_hour), "yearly cost / (nodes x 8,760 h x utilization)"});
  for (const auto& t : o.tco_usd_by_item)
    x.inputs.push_back({plain_label(t.name) + " over the horizon", format_usd(t.value), "scenario: owned_cluster"});
  x.notes.push_back(o.break_even_note);
  return x;
}

Explanation explain_deadline(const Result& r) {
  if (!r.cost || !r.cost->result.deadline) return {"Deadline", "-", "no deadline in the scenario", {}, ""};
  const DeadlineCheck& d = *r.cost->result.deadline;
  Explanation x{"Deadline", d.meets ? "met" : "missed", "deadline - wall time of one full run", {},
                band_of(r, d.wall_s, BandSide::time, format_duration) + " (the run's wall time)"};
  x.inputs.push_back({"deadline", format_duration(d.deadline_s), scenario_field("deadline_days")});
  x.inputs.push_back({"wall time of a run", format_duration(d.wall_s), "the wall time (hover the headline card)"});
  x.inputs.push_back({"margin", format_duration(d.margin_s), "deadline - wall time"});
  return x;
}

Explanation explain_baseline(const BaselineComparison& c) {
  Explanation x{"Against " + c.baseline_instance, format_usd(c.saving_usd_per_run) + " saved per run",
                "saving = the baseline's cost per run - this one's (both recurring, without engineering); payback "
                "= the one-off migration engineering / the saving per month", {},
                "both bills carry their own band; the saving is their difference"};
  x.inputs.push_back({"this instance, per run", format_usd(c.usd_per_run), "this bill, without engineering"});
  x.inputs.push_back({"baseline, per run", format_usd(c.baseline_usd_per_run),
                      "the same job on " + c.baseline_instance + " at its list price"});
  x.inputs.push_back({"saving per month", format_usd(c.saving_usd_per_month), "saving per run x runs per month"});
  x.inputs.push_back({"migration engineering", format_usd(c.engineering_usd), scenario_field("overheads.engineering")});
  return x;
}

Explanation explain_price_tier(const TierLine& t) {
  Explanation x{plain_label("instance." + t.billed_tier), t.priced ? format_usd(t.usd) : "no price",
                "instance-hours at this tier (its share of the campaign's) x its hourly rate", {},
                "list price as of its date"};
  if (t.billed_tier != t.tier) x.formula += "; asked as " + plain_label("instance." + t.tier) + ", which has no price";
  x.inputs.push_back({"instance-hours", format_fixed(t.instance_hours, 0), percent(t.share) + " of the campaign's hours"});
  x.inputs.push_back({"rate", t.priced ? format_usd(t.usd_per_hour) + "/h" : "-",
                      t.priced ? t.source + " (" + t.region + ", " + t.date + ")" : "no public price"});
  if (t.paid_instance_hours > 0)
    x.inputs.push_back({"commitment", format_usd(t.committed_usd) + " paid, " + format_usd(t.idle_usd) + " idle",
                        t.commitment});
  return x;
}

Explanation explain_wall_term(const Result& r, const std::string& term) {
  double value = 0;
  if (r.cost)
    for (const auto& t : r.cost->result.wall.terms)
      if (t.name == term) value = t.value;
  Explanation x{plain_label(term), format_duration(value), "", {}, ""};
  if (term == "training") {
    x.formula = "steps x step time";
    x.inputs.push_back({"steps", count(r.est.steps), scenario_field("training.tokens") + " / tokens per step"});
    x.inputs.push_back(step_time_input(r));
    x.band = band_of(r, value, BandSide::time, format_duration);
  } else {
    x.formula = "an overhead of the run from the scenario's overheads or their defaults per accelerator family "
                "(docs/model.md, The bill)";
    if (r.cost && term == "checkpoints")
      x.inputs.push_back({"checkpoint interval", format_duration(r.cost->result.wall.checkpoint_interval_s),
                          "scenario, or the Young/Daly optimum (Young 1974, Daly 2006)"});
    if (r.cost && term == "failures")
      x.inputs.push_back({"failures per run", format_fixed(r.cost->result.wall.expected_failures, 1),
                          scenario_field("overheads.failures.per_node_hour") + " x nodes x hours"});
    if (x.inputs.empty()) x.inputs.push_back({"duration", format_duration(value), "scenario overheads or defaults"});
    x.band = "an input, not an estimate";
  }
  return x;
}

std::string result_explained(const Job& job, const Result& r, const PresetLibrary& lib) {
  std::vector<Explanation> xs;
  for (auto* make : {explain_wall_time, explain_bill, explain_usd_per_million_tokens, explain_mfu, explain_step_time})
    xs.push_back(make(r, job, lib));
  xs.push_back(explain_plan(r));
  for (const auto& t : r.est.breakdown_s)
    if (t.value > 0) xs.push_back(explain_step_term(r, job, lib, t.name));
  xs.push_back(explain_memory(r, job, lib, "total"));
  if (r.cost) {
    const Bill& b = r.cost->result.bill;
    for (const auto& it : b.items_usd) xs.push_back(explain_bill_item(b, it.name));
    for (const auto& t : b.tiers) xs.push_back(explain_price_tier(t));
  }
  std::string s;
  for (const auto& x : xs) append_item(s, explanation_text(x), "\n");
  return s;
}

}  // namespace tc::io
