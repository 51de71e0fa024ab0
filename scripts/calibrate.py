#!/usr/bin/env python3
"""Fit the accelerator calibration constants on published runs (tests/data/published_runs.csv).

The constants of each accelerator group (PARAMS: large-GEMM efficiency in BF16 and FP8, per-kernel
cost, fused attention efficiency of the two kernel classes; GROUP_PARAMS: Trainium's host cost a
step and the share of HBM bandwidth its compiled memory-bound work reaches) are fitted by coordinate
search to minimise the error of tokens/s per chip over that group's rows, each source family one
vote (the mean of the families' mean absolute errors: the largest source does not set the fit a new
source gets). Blackwell parts (b200, gb200, b300, gb300) share one fit, since they are one
architecture and have few rows each. Then the constants of each framework profile (see FRAMEWORKS:
how much of its tensor-, expert- and data-parallel communication it overlaps, how many elementwise
and routing kernels it launches) are fitted over the rows that use it, across every accelerator; the
two fits alternate. Nothing is fitted per row, model or source. Every fit starts from scratch (the
middle of each accelerator constant's range, each framework constant's prior), not from the shipped
constants: the fit is a function of the rows it is given, so a refit without a family
(leave-one-source-out) owes nothing to that family.

Held-out split: every row whose id hashes to 0 mod 5 (zlib.crc32 of the id, HELD_OUT) is never
seen by any fit; scripts/accuracy_report.py reports its error as the out-of-sample figure.

  scripts/calibrate.py                      print the fit
  scripts/calibrate.py --write              write it into presets/accelerators.json
  scripts/calibrate.py --exclude Neuron     fit without one source family (leave-one-source-out)

Needs a built CLI (build/release/traincalc, or --cli PATH). Standard library only.
"""
import argparse
import atexit
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import datetime
import zlib

TODAY = datetime.date.today().isoformat()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS = {"a100-40gb": ["a100-40gb"], "a100-80gb": ["a100-80gb"], "h100-sxm": ["h100-sxm", "h200"],
          "blackwell": ["b200", "gb200", "b300", "gb300"], "trainium1": ["trainium1"]}

# Trainium2 and Trainium3 have no published training run. Their calibration is derived from their
# own microbenchmarks (tests/data/trainium_microbench.csv, each row with its source and caveats),
# not copied from Trainium1: the hand-tuned NKI matmul's share of peak on each chip, times the gap
# between what the compiled stacks reach on Trainium1 (its fit) and Trainium1's own NKI figure. The
# gap is the software's (XLA-compiled graphs against hand-tuned kernels), measured where it can be.
MICROBENCH = {
    # hbm: DMA-2 (the NKI performance guide's example, large DMAs at ~70%), which names no chip
    # generation, taken for Trainium1 as for Trainium2.
    "trainium1": {"nki_matmul": 0.8524, "hbm": 0.70,
                  "cite": "NKI-MM-4: aws-neuron-sdk nki/tutorials/matrix_multiplication.rst (SDK 2.20-2.26), "
                          "BF16 [4096,8192]@[8192,8192] at 85.24% of a NeuronCore-v2's peak"},
    "trainium2": {"nki_matmul": 0.9092, "hbm": 0.70,
                  "cite": "NKI-MM-5: awslabs/nki-autotune hand-tuned BF16 2048^3 matmul at 90.92% of peak (2026); "
                          "DMA-2: aws-neuron-sdk nki_perf_guide, large DMAs at ~70% of DMA throughput (SDK 2.32)"},
}
DERIVED = {"trainium2": "trainium2", "trainium3": "trainium2"}  # chip -> whose microbenchmarks it uses


def derive_from_microbenchmarks(by_id):
    """Writes the derived calibration of each chip in DERIVED from Trainium1's fit."""
    base = by_id["trainium1"]["calibration"]
    gap = base["matmul_efficiency_max"] / MICROBENCH["trainium1"]["nki_matmul"]
    hbm_gap = base["hbm_efficiency"] / MICROBENCH["trainium1"]["hbm"]
    for chip, bench_of in DERIVED.items():
        if chip not in by_id:
            continue
        mb = MICROBENCH[bench_of]
        scale = mb["nki_matmul"] / MICROBENCH["trainium1"]["nki_matmul"]
        c = by_id[chip]["calibration"]
        c.update({"matmul_efficiency_max": round(mb["nki_matmul"] * gap, 4),
                  "fp8_matmul_efficiency_max": round(base["fp8_matmul_efficiency_max"] * scale, 4),
                  "attention_efficiency": round(base["attention_efficiency"] * scale, 4),
                  "attention_v3_efficiency": round(base["attention_v3_efficiency"] * scale, 4),
                  "kernel_overhead_us": base["kernel_overhead_us"], "step_overhead_ms": base.get("step_overhead_ms", 0),
                  "hbm_efficiency": round(min(HBM_RANGE[1], mb["hbm"] * hbm_gap), 4)})
        c["fitted_on"] = (f"derived from microbenchmarks (no published training run): {mb['cite']}"
                          + ("" if bench_of == chip else f" ({chip} has none of its own and takes {bench_of}'s)")
                          + f"; times Trainium1's compiled-to-hand-tuned gap "
                          f"({base['matmul_efficiency_max']} fitted / {MICROBENCH['trainium1']['nki_matmul']} NKI, "
                          f"{MICROBENCH['trainium1']['cite']}; HBM {base['hbm_efficiency']} / "
                          f"{MICROBENCH['trainium1']['hbm']}, DMA-2 naming no generation); kernel and step "
                          f"costs: Trainium1's fit on published_runs.csv")
        for note in by_id[chip]["sources"]:
            if "calibration" in note["fields"]:
                note.update({"cite": c["fitted_on"], "date": TODAY, "confidence": "L"})


def held_out(row_id):
    """The fixed held-out split: about one row in five, chosen by a hash of the id (stable when rows
    are added or reordered). Calibration never sees these rows."""
    return zlib.crc32(row_id.encode()) % 5 == 0
# Which fitted accelerators carry their group's values: accelerators without published runs
# (h200, trainium2, trainium3) take the fit of their closest relative (same core or generation).
# Bounds keep each constant physical: a large GEMM reaches 25-95% of dense peak, a kernel call costs
# 2-12 us (launch latency and tail; CUDA launches are a few us), a fused attention kernel 15-75%
# over forward and backward: no published kernel does better forward (FlashAttention-2 up to 73% of
# an A100, Dao 2023; FlashAttention-3 740 TFLOP/s, 75% of an H100, Shah et al. 2024), and
# backward runs at a lower share than forward in both papers; nor more than the group's large
# GEMMs (attention_within_gemms).
PARAMS = [("matmul_efficiency_max", 0.25, 0.95), ("fp8_matmul_efficiency_max", 0.25, 0.95),
          ("kernel_overhead_us", 2.0, 12.0), ("attention_efficiency", 0.15, 0.75),
          ("attention_v3_efficiency", 0.15, 0.75)]
# Constants only some groups fit. Trainium's stacks run PyTorch/XLA: the host traces each step's graph
# anew in Python (lazy tensors) and waits for the device at its end (xm.mark_step), a cost per step
# that does not shrink with the device's speed; 0-300 ms. A GPU stack launches asynchronously and
# hides its host work behind the device's (fitted on GPUs, a per-step cost moved leave-one-source-out
# from 13.5% to 13.9%: it did not carry from one source to another). Their memory-bound work is the
# compiler's code moving tensors between HBM and on-chip memory by DMA, not hand-written kernels
# (GPUs' hand-written elementwise kernels are taken at 0.85 of their bandwidth, set, not fitted): its
# achieved share of HBM bandwidth is fitted, 0.3-0.9 (the NKI performance guide's example of a
# hand-tuned kernel reaches ~70%, DMA-2; Trainium2 and Trainium3 take the same compiled-to-hand-tuned
# ratio, as for GEMMs, and since DMA-2 names no generation, Trainium1's share). The last value of
# each entry is the constant's where a group has no rows: none for a cost, the range's middle else.
GROUP_PARAMS = {"trainium1": [("step_overhead_ms", 0.0, 300.0, 0.0), ("hbm_efficiency", 0.3, 0.9, None)]}


def params_of(group):
    return PARAMS + [p[:3] for p in GROUP_PARAMS.get(group, [])]


def param_range(key, group=None):
    """The fitted range (low, high) of an accelerator constant."""
    return next((lo, hi) for k, lo, hi in params_of(group) if k == key)


HBM_RANGE = param_range("hbm_efficiency", "trainium1")


# A constant measured relative to another starts from it: a fit from scratch first fits the primary
# with the secondary tied to it. Where no row constrains the secondary, it ends each pass equal to its
# primary (a group without FP8 rows runs FP8 GEMMs at its BF16 efficiency, one without
# FlashAttention-3-class kernels runs them at its FlashAttention-2-class efficiency).
PRIMARY = {"fp8_matmul_efficiency_max": "matmul_efficiency_max", "attention_v3_efficiency": "attention_efficiency"}


def find_cli(path):
    for p in [path, os.path.join(ROOT, "build/release/traincalc"), os.path.join(ROOT, "build/debug/traincalc")]:
        if p and os.path.exists(p):
            return p
    sys.exit("calibrate.py: build the CLI first (cmake --preset debug && cmake --build --preset debug)")


# The mechanism behind a fitted overlap, kept beside the fit in the preset's source note.
WHY = {"tp_overlap": ". Mechanism: Megatron-Core overlaps tensor-parallel collectives with GEMMs "
                     "(--tp-comm-overlap, Transformer Engine userbuffers)",
       "async_tp_overlap": ". Mechanism: PyTorch's async TP runs each TP collective in chunks behind its "
                           "GEMM (torch.compile micro-pipelining); runs with it beside their twins without",
       "ep_overlap": ". Mechanism: Megatron-Core can overlap one micro-batch's expert-parallel "
                     "all-to-all with another's compute in the 1F1B steady state "
                     "(--overlap-moe-expert-parallel-comm); recalled, not re-checked",
       "expert_quantize_us": ". Mechanism: a release whose Transformer Engine quantizes each local expert's "
                             "split in a loop on the host, after the alltoall dispatcher has synchronised on "
                             "the token counts, leaves the GPU idle for that host time at each quantize "
                             "(recalled, not re-checked against the release's source)",
       "dp_overlap": ". Mechanism: prefetching overlaps one submodule's gather with the previous "
                     "one's compute (Rajbhandari et al. 2020, ZeRO, Section 5.3)",
       ("megatron", "dp_overlap"): ". Mechanism: the share of the backward (and, with --overlap-param-gather, "
                                   "the forward) during which Megatron-Core's bucketed gradient reduce-scatter "
                                   "and parameter all-gather run hidden (--overlap-grad-reduce; Li et al. 2020 "
                                   "for the bucketing scheme); NCCL's kernels share the SMs and the links with "
                                   "the compute they overlap",
       ("neuron", "dp_overlap"): ". Mechanism: the share of the backward that hides the gradient "
                                 "reduction: a compiled step's graph holds both, and Trainium runs "
                                 "collectives beside its compute engines (recalled)"}

# An accelerator group without rows (leave-one-source-out) takes the fit of its closest relative
# with rows (the same vendor's previous or next generation), else the mean of the fitted groups.
RELATIVES = {"blackwell": "h100-sxm", "h100-sxm": "blackwell", "a100-40gb": "a100-80gb",
             "a100-80gb": "a100-40gb"}

# What a framework profile fits, each a named mechanism with physical bounds: how much of its
# tensor-, expert- and data-parallel communication it overlaps, and how many elementwise kernels it
# launches per layer (fusion). No profile scales GEMM speed. Each entry: key, bounds, and the value
# a profile takes when it has no rows left to fit on.
FRAMEWORKS = {"megatron": [("tp_overlap", 0.0, 0.95, 0.0), ("ep_overlap", 0.0, 0.95, 0.0), ("dp_overlap", 0.0, 0.95, 0.9),
                           ("elementwise_kernels_per_layer", 2, 40, 6), ("moe_kernels_per_layer", 4, 60, 12),
                           # Host time a per-expert quantize call adds (us), 0-150: a few Python-level
                           # dispatches of 10-20 us each at most; only a release that quantizes the
                           # experts' splits one by one (Megatron-Bridge 25.11's per_expert_gemms) pays it.
                           ("expert_quantize_us", 0, 150, 0)],
              "megatron-lm": [("elementwise_kernels_per_layer", 2, 40, 6), ("moe_kernels_per_layer", 4, 60, 12)],
              "megatron-2021": [("elementwise_kernels_per_layer", 2, 40, 10)],
              "fsdp": [("elementwise_kernels_per_layer", 4, 150, 20), ("async_tp_overlap", 0.0, 0.95, 0.0)],
              "deepspeed-zero3": [("dp_overlap", 0.0, 0.95, 0.85)],
              "neuronx-distributed": [("dp_overlap", 0.0, 0.95, 0.2)],
              "neuron-nemo-megatron": [("dp_overlap", 0.0, 0.95, 0.2), ("elementwise_kernels_per_layer", 2, 40, 8)],
              # The Hugging Face Trainer's prior kernel count is its model code's: BertLayer runs 12
              # separate elementwise ops forward in eager PyTorch (modeling_bert.py, recalled: scale,
              # mask add, softmax, dropout, the context's permute copy, two dropouts, two residual
              # adds, two LayerNorms, GELU; ViTLayer 11).
              "pytorch-xla-neuron": [("dp_overlap", 0.0, 0.95, 0.2), ("elementwise_kernels_per_layer", 2, 40, 12)]}


# Shares and host times of mechanisms that run wherever their profile applies them: Megatron-Core's
# communication overlaps as the NeMo and Megatron-Bridge recipes turn them on, the per-expert quantize
# of a release that launches it (framework_changes), asynchronous TP where a run asks for it. The
# search starts them from their prior of none (search_start: 0.05), so that a fit's path along its
# flat valleys is the shipped one. Where no row left in moves one (the source family that alone ran
# it left out), none would say that the mechanism the profile runs hides or costs nothing, the one
# value its running rules out: it takes the middle of its range, whose worst error over the range is
# least.
MIDDLE_WHEN_FREE = {("megatron", "tp_overlap"), ("megatron", "ep_overlap"), ("megatron", "expert_quantize_us"),
                    ("fsdp", "async_tp_overlap")}
assert all(any(k == p[0] for p in FRAMEWORKS.get(fid, [])) for fid, k in MIDDLE_WHEN_FREE)


def why(fw, key):
    """The mechanism named beside a fitted constant: the profile's own, else its platform's (a
    profile that runs on Neuron alone), else the constant's."""
    platform = "neuron" if fw.get("runs_on") == ["neuron"] else None
    return WHY.get((fw["id"], key), WHY.get((platform, key), WHY.get(key, "")))


# One `traincalc validate --batch` process per thread and CLI build: a fit evaluates thousands of
# preset variants, and starting the program for each doubled its time (67 s against 35 s). A rebuilt
# CLI (a new file at the path: the report rebuilds it after the band table changes) gets a new
# process and the old one is ended. Each ends when its stdin closes: at exit, every one is closed
# and waited for.
_BATCH = threading.local()
_STARTED = []


def _end(p):
    try:
        p.stdin.close()
    except OSError:  # it has already gone: the unsent request cannot be flushed
        pass
    p.wait()


def batch_process(cli):
    procs = _BATCH.__dict__.setdefault("procs", {})
    path = os.path.abspath(cli)
    st = os.stat(cli)
    key = (path, st.st_ino, st.st_mtime_ns)
    p = procs.get(key)
    if p is None or p.poll() is not None:
        for old in [k for k in procs if k[0] == path]:
            _end(procs.pop(old))
        p = procs[key] = subprocess.Popen([cli, "validate", "--batch"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, text=True)
        _STARTED.append(p)
    return p


@atexit.register
def _end_batch_processes():
    for p in _STARTED:
        _end(p)


def run(cli, docs, csv_path):
    """Every row of csv_path estimated with `docs` (preset files by name) over the built-in presets,
    as `traincalc validate --format json` gives them."""
    with tempfile.TemporaryDirectory() as d:
        for name, doc in docs.items():
            with open(os.path.join(d, name + ".json"), "w") as f:
                f.write(json.dumps(doc))  # json.dump encodes in Python, json.dumps in C
        p = batch_process(cli)
        try:
            p.stdin.write(json.dumps({"csv": csv_path, "presets": d}) + "\n")
            p.stdin.flush()
            line = p.stdout.readline()
        except OSError:
            line = ""
    if not line:
        raise RuntimeError(f"{cli} validate --batch ended (exit code {p.wait()})")
    out = json.loads(line)
    if isinstance(out, dict):
        raise RuntimeError(f"{cli} validate --batch: {out.get('error')}")
    return out


def subset_csv(csv_path, ids, directory, name):
    """The rows of csv_path whose id is in ids, as a CSV file of their own: a fit scores only the
    rows it can move, so each trial estimates those alone."""
    with open(csv_path, newline="") as f:
        reader = csv.DictReader(f)
        rows = [r for r in reader if r["id"] in ids]
        fields = reader.fieldnames
    path = os.path.join(directory, name + ".csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    return path


def objective(rows, keep, exclude):
    """Mean absolute error with one vote per source family: a fit that serves a source it has
    never seen must not be the fit of its largest source."""
    fam = {}
    for r in rows:
        if keep(r) and not r["problem"] and not r.get("known_issue") and r["family"] not in exclude and not held_out(r["id"]):
            fam.setdefault(r["family"], []).append(abs(r["error"]))
    n = sum(len(v) for v in fam.values())
    return (sum(sum(v) / len(v) for v in fam.values()) / len(fam) if fam else 0.0), n


def attention_within_gemms(values):
    """A fused attention kernel runs GEMMs no larger than the layer's, with the softmax between them:
    it reaches no more of the peak than the large GEMMs do."""
    c = dict(values)
    for k in ("attention_efficiency", "attention_v3_efficiency"):
        if k in c and "matmul_efficiency_max" in c:
            c[k] = min(c[k], c["matmul_efficiency_max"])
    return c


def descend(values, params, score, rounds, project=lambda v: v):
    values = project(values)
    best, n = score(values)
    if n == 0:
        return values, best, n
    for _ in range(rounds):
        for key, lo, hi in params:
            for step in (0.5, 0.2, 0.08, 0.03):
                improved = True
                while improved:
                    improved = False
                    for sign in (-1, 1):
                        trial = dict(values)
                        trial[key] = min(hi, max(lo, values[key] * (1 + sign * step)))
                        trial = project(trial)
                        if trial == values:
                            continue
                        s, _ = score(trial)
                        if s < best - 1e-6:
                            best, values, improved = s, trial, True
    score(values)
    return values, best, n


def moves_no_row(trial, best, score):
    """Whether the group's objective is the same with `trial`: no fitted row depends on what changed."""
    return abs(score(trial)[0] - best) < 1e-12


def take_where_free(values, trials, best, score):
    """`values` with each (key, value) of `trials` taken, in order, where it moves no fitted row's
    figure (a fit without rows moves none); the presets are left holding what it returns."""
    for k, v in trials:
        trial = {**values, k: v}
        if trial[k] != values[k] and moves_no_row(trial, best, score):
            values = trial
    score(values)
    return values


def retie_unconstrained(cal, best, score):
    """A secondary constant that moves no fitted row's figure goes back to its primary: left where
    the primary's earlier passes put it, it would run a group's FP8 GEMMs a few points off its BF16
    ones for no measured reason (held-out rows and users' jobs on such kernels do move)."""
    return take_where_free(cal, [(s, cal[p]) for s, p in PRIMARY.items()], best, score)


# Groups whose fused attention efficiency also carries the softmax: Trainium's runs on its vector and
# scalar engines, which the model does not time apart, where a GPU's exponentials and FP32 softmax
# instructions are timed beside the kernel's GEMMs (layer_attention).
SOFTMAX_IN_ATTENTION = {"trainium1"}
ATTENTION_RANGE = param_range("attention_efficiency")


def attention_without_rows(group, cal, best, score, ratios):
    """A FlashAttention-2-class efficiency that moves no fitted row's figure (Blackwell's rows run
    FlashAttention-3-class kernels; Trainium1's flash-attention rows are all NeuronX Distributed's)
    has nothing to fit it, and the middle of its range is no physical prior. It takes its group's
    large-GEMM efficiency times the mean ratio of the two on the GPU groups whose rows fit both
    (`ratios`, those fitted so far): what such kernels reach relative to their chip's GEMMs, the
    softmax apart (for Trainium, whose efficiency carries its softmax too, an upper bound). Returns
    the group's values and the ratio it lends (None: unfitted, on a bound, or softmax included)."""
    lo, hi = ATTENTION_RANGE
    if not moves_no_row({**cal, "attention_efficiency": cal["attention_efficiency"] * 0.5}, best, score):
        ratio = cal["attention_efficiency"] / cal["matmul_efficiency_max"]
        on_bound = cal["attention_efficiency"] in (lo, hi) or ratio >= 1
        return cal, None if on_bound or group in SOFTMAX_IN_ATTENTION else ratio
    if ratios:
        prior = cal["matmul_efficiency_max"] * sum(ratios) / len(ratios)
        cal = {**cal, "attention_efficiency": min(hi, max(lo, prior))}
    return cal, None


def fit(cli, csv_path, exclude, rounds=4, passes=3):
    with tempfile.TemporaryDirectory() as d:
        return fit_in(cli, csv_path, exclude, rounds, passes, d)


def search_start(value, lo, hi):
    """Where the coordinate search starts a framework constant: its value within its range, and at
    least 0.05, since the search's steps are multiplicative (a constant at 0 could never move)."""
    return min(hi, max(lo, value, 0.05))


def shipped_presets():
    """The presets a fit changes, as shipped: the accelerators' calibrations and the framework profiles."""
    return {name: json.load(open(os.path.join(ROOT, "presets", name + ".json"))) for name in ("accelerators", "frameworks")}


def fit_in(cli, full_csv, exclude, rounds, passes, workdir):
    docs = shipped_presets()
    every = run(cli, docs, full_csv)
    fittable = [r for r in every if not r["problem"] and not r.get("known_issue") and r["family"] not in exclude and not held_out(r["id"])]

    def rows_csv(name, keep):
        return subset_csv(full_csv, {r["id"] for r in fittable if keep(r)}, workdir, name)
    by_id = {a["id"]: a for a in docs["accelerators"]["accelerators"]}
    fw_by_id = {f["id"]: f for f in docs["frameworks"]["frameworks"]}
    result = {"accelerators": {}, "frameworks": {}}
    # The fit starts from scratch, not from the shipped constants: those were fitted on every family,
    # and a constant that the rows left in do not constrain (leave-one-source-out) would keep the value
    # the left-out family gave it. Each accelerator constant starts from the middle of its range (one
    # measured relative to another from that one, PRIMARY), each framework constant from its prior.
    for group, m in ((g, m) for g, members in GROUPS.items() for m in members if m in by_id):
        c = by_id[m]["calibration"]
        for k, lo, hi in params_of(group):
            c.pop(k, None)
            if k not in PRIMARY:
                c[k] = (lo + hi) / 2
    for fid in FRAMEWORKS:
        if fid in fw_by_id:
            fw_by_id[fid].update({k: prior for k, _, _, prior in FRAMEWORKS[fid]})
    # A group left without rows takes its relative's fit or the other groups' mean (RELATIVES).
    empty = [g for g, members in GROUPS.items()
             if objective(every, lambda r, m=members: r["accelerator"] in m, exclude)[1] == 0]
    attention_ratios = {}  # group -> its fitted FlashAttention-2-class efficiency over its GEMMs
    for _ in range(passes):
        for group, members in GROUPS.items():
            fitted = [m for m in members if m in by_id]
            if not fitted:
                continue

            csv_path = rows_csv("group-" + group, lambda r: r["accelerator"] in fitted)

            params = params_of(group)

            def score(c):
                for m in fitted:
                    by_id[m]["calibration"].update({k: c[k] for k, _, _ in params})
                return objective(run(cli, docs, csv_path), lambda r: r["accelerator"] in fitted, exclude)

            cal0 = by_id[fitted[0]]["calibration"]
            start = {k: min(hi, max(lo, cal0.get(k) or cal0[PRIMARY.get(k, k)])) for k, lo, hi in params}
            if not all(k in cal0 for k in PRIMARY):
                # First the primaries, each secondary tied to its own, so that one no row moves starts
                # from its primary's fit; then all of them.
                primaries = [p for p in params if p[0] not in PRIMARY]
                tied, _, _ = descend({k: start[k] for k, _, _ in primaries}, primaries,
                                     lambda c: score({**c, **{s: c[p] for s, p in PRIMARY.items()}}), rounds,
                                     attention_within_gemms)
                start = {**tied, **{s: tied[p] for s, p in PRIMARY.items()}}
            cal, best, n = descend(start, params, score, rounds, attention_within_gemms)
            others = [v for g, v in attention_ratios.items() if g != group]
            cal, ratio = attention_without_rows(group, cal, best, score, others)
            attention_ratios.pop(group, None)
            if ratio is not None:
                attention_ratios[group] = ratio
            cal = retie_unconstrained(cal, best, score)
            if n:
                # Members with rows of their own; the others take the fit and say so (calibrate --write).
                with_rows = [m for m in fitted if any(r["accelerator"] == m for r in fittable)]
                result["accelerators"][group] = {"members": with_rows, "mae": best, "rows": n,
                                                 "calibration": {k: round(cal[k], 4) for k in cal}}
        fitted_groups = {g: r["calibration"] for g, r in result["accelerators"].items() if g not in empty}
        for group in empty:
            relative = fitted_groups.get(RELATIVES.get(group))
            prior = relative or {k: sum(c[k] for c in fitted_groups.values()) / len(fitted_groups)
                                 for k, _, _ in PARAMS}
            # A constant only this group fits has no rows to come from: a cost is none, rather
            # than its range's middle, which the reset above left (GROUP_PARAMS).
            prior = {**prior, **{k: v for k, _, _, v in GROUP_PARAMS.get(group, []) if v is not None}}
            for m in GROUPS[group]:
                if m in by_id:
                    by_id[m]["calibration"].update(prior)
        for fid in FRAMEWORKS:
            if fid not in fw_by_id:
                continue

            csv_path = rows_csv("framework-" + fid, lambda r: r["framework"] == fid)

            def score(c):
                fw_by_id[fid].update(c)
                return objective(run(cli, docs, csv_path), lambda r: r["framework"] == fid, exclude)

            params = [p[:3] for p in FRAMEWORKS[fid]]
            start = {k: search_start(fw_by_id[fid].get(k, prior), lo, hi) for k, lo, hi, prior in FRAMEWORKS[fid]}
            val, best, n = descend(start, params, score, rounds)
            middles = [(k, (lo + hi) / 2) for k, lo, hi in params if (fid, k) in MIDDLE_WHEN_FREE]
            if middles:
                val = take_where_free(val, middles, best, score)
            if n:
                result["frameworks"][fid] = {"mae": best, "rows": n, **{k: round(v, 4) for k, v in val.items()}}
    return docs, result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--csv", default=os.path.join(ROOT, "tests/data/published_runs.csv"))
    ap.add_argument("--exclude", action="append", default=[], help="source family to leave out")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    cli = find_cli(args.cli)
    docs, result = fit(cli, args.csv, set(args.exclude))
    print(json.dumps(result, indent=1))
    if args.write:
        by_id = {a["id"]: a for a in docs["accelerators"]["accelerators"]}
        for group, r in result["accelerators"].items():
            for m in GROUPS[group]:
                if m not in by_id:
                    continue
                c = by_id[m]["calibration"]
                c.update(r["calibration"])
                rows = ", ".join(r["members"])
                c["fitted_on"] = (f"scripts/calibrate.py on the {r['rows']} published runs of {rows} in "
                                  f"tests/data/published_runs.csv (MAE {100 * r['mae']:.1f}%); see docs/accuracy.md"
                                  + ("" if m in r["members"] else f"; {m} has no published runs and takes this fit"))
                for note in by_id[m]["sources"]:
                    if "calibration" in note["fields"]:
                        note.update({"cite": c["fitted_on"], "date": TODAY, "confidence": "M"})
        derive_from_microbenchmarks(by_id)
        for fw in docs["frameworks"]["frameworks"]:
            r = result["frameworks"].get(fw["id"])
            if not r:
                continue
            for key, *_ in FRAMEWORKS[fw["id"]]:
                fw[key] = r[key]
                note = next((n for n in fw["sources"] if key in n["fields"]), None)
                if note is None:
                    note = {"fields": [key], "confidence": "M"}
                    fw["sources"].append(note)
                elif len(note["fields"]) > 1:
                    note["fields"].remove(key)
                    note = {"fields": [key], "confidence": "M"}
                    fw["sources"].append(note)
                note["cite"] = (f"scripts/calibrate.py on the {r['rows']} published runs using {fw['id']} in "
                                f"tests/data/published_runs.csv (MAE {100 * r['mae']:.1f}%)"
                                + "; see docs/accuracy.md" + why(fw, key))
                note["date"] = TODAY
        for name, doc in docs.items():
            with open(os.path.join(ROOT, "presets", name + ".json"), "w") as f:
                json.dump(doc, f, indent=2, ensure_ascii=False)
                f.write("\n")


if __name__ == "__main__":
    main()
