#!/usr/bin/env python3
"""Regenerate docs/accuracy.md, docs/accuracy.svg and presets/accuracy/uncertainty.json.

  scripts/accuracy_report.py            per-row table, summaries, leave-one-source-out, plot
  scripts/accuracy_report.py --check    write nothing; exit 1 unless the in-sample, held-out and
                                        leave-one-source-out figures and the band's coverage meet
                                        their targets (TARGETS)

The per-row errors come from `traincalc validate` with the built-in presets. Leave-one-source-out
refits the calibration (scripts/calibrate.py) without one source family and predicts that family's
rows with the refitted constants. The held-out split (calibrate.held_out, one row in five by id hash) is
never fitted: its error with the shipped calibration is out of sample too. presets/accuracy/uncertainty.json
holds, per accelerator and framework, the spread of the out-of-sample (leave-one-source-out) signed
errors: the estimate's band (src/io/uncertainty) reads it. Its coverage is measured through the CLI:
on the held-out rows (rebuilt after the file is written), and on each left-out family's rows with a
table built without it (validate --presets) around the prediction of the refit without it.
Needs a built CLI (build/release/traincalc or --cli). Standard library only.
"""
import argparse
import concurrent.futures
import csv
import datetime
import functools
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calibrate  # noqa: E402

ROOT = calibrate.ROOT
CSV = os.path.join(ROOT, "tests/data/published_runs.csv")


def families(rows):
    return sorted({r["family"] for r in rows if counted(r)})


@functools.lru_cache(maxsize=1)
def published_runs():
    """The CSV's rows, read once (a tuple: callers only read them)."""
    with open(CSV) as f:
        return tuple(csv.DictReader(f))


def validate(cli, presets_dir=None):
    cmd = [cli, "validate", CSV, "--format", "json"]
    if presets_dir:
        cmd += ["--presets", presets_dir]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def counted_by_id(rows):
    return {r["id"]: r for r in rows if counted(r)}


def counted(r):
    """A row every figure counts: it ran, and its source does not flag its figure as a regression
    (`known_issue`, shown in the table but never fitted or averaged)."""
    return not r["problem"] and not r.get("known_issue")


def pct(x):
    return f"{100 * x:+.1f}%"


def mae(rows):
    return sum(abs(r["error"]) for r in rows) / len(rows) if rows else float("nan")


def p90(rows):
    a = sorted(abs(r["error"]) for r in rows)
    return a[int(0.9 * (len(a) - 1))] if a else float("nan")


def quantile(values, q):
    v = sorted(values)
    if not v:
        return 0.0
    i = q * (len(v) - 1)
    lo, hi = int(math.floor(i)), int(math.ceil(i))
    return v[lo] + (v[hi] - v[lo]) * (i - lo)


def loso(cli, rows):
    """Per left-out family: rows, MAE, bias; the out-of-sample error of every fitted row (by id). Also
    the rows whose accelerator group had no rows left, predicted from a relative's fit
    ("from_relative") or from the mean of the others ("without_relative"): what an accelerator
    without published runs can expect; and each refit's presets, by family. Held-out rows are in no
    fit and in no family's figure."""
    out, residual, unseen, refit_docs = {}, {}, {"from_relative": [], "without_relative": []}, {}
    group_of = {m: g for g, members in calibrate.GROUPS.items() for m in members}

    def refit_without(fam):
        docs, fit = calibrate.fit(cli, CSV, {fam})
        with tempfile.TemporaryDirectory() as d:
            for name, doc in docs.items():
                with open(os.path.join(d, name + ".json"), "w") as f:
                    json.dump(doc, f)
            got = [r for r in validate(cli, d)
                   if r["family"] == fam and counted(r) and not calibrate.held_out(r["id"])]
        return fam, fit, got, docs

    # The refits are independent processes' work: two at a time, the longest first (a refit
    # fits every row but the family's, so the smallest family's takes longest), so that no core
    # waits alone on the last one; the results in the families' order.
    size = {f: sum(1 for r in rows if r["family"] == f) for f in families(rows)}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        refits = list(pool.map(refit_without, sorted(size, key=lambda f: (size[f], f))))
    refits.sort(key=lambda t: t[0])
    for fam, fit, got, docs in refits:
        if not got:
            continue
        refit_docs[fam] = docs
        out[fam] = {"rows": len(got), "mae": mae(got), "bias": sum(r["error"] for r in got) / len(got)}
        for r in got:
            residual[r["id"]] = r["error"]
            group = group_of.get(r["accelerator"])
            if group in fit["accelerators"]:
                continue
            kind = "from_relative" if calibrate.RELATIVES.get(group) in fit["accelerators"] else "without_relative"
            unseen[kind].append(r)
        print(f"leave out {fam}: n={len(got)} MAE {100 * out[fam]['mae']:.1f}%", file=sys.stderr)
    return out, residual, unseen, refit_docs


def platform(accelerator):
    """Sources deviate alike within a platform: the GPU stacks, the Neuron stacks."""
    return "trainium" if accelerator.startswith("trainium") else "gpu"


def source_biases(rows, residual):
    """How far off a whole source was, by platform: each family's mean out-of-sample error, shrunk
    towards the mean of its platform's families by the share of its spread that is not the noise of
    a mean of few rows (random effects, DerSimonian and Laird 1986: tau^2 = the variance of the
    family means less their mean squared standard error; weight tau^2 / (tau^2 + se^2)). A family of
    eight rows then moves the band by what its mean says beyond its own noise."""
    by = {}
    for r in rows:
        if r["id"] in residual:
            by.setdefault((platform(r["accelerator"]), r["family"]), []).append(residual[r["id"]])
    out = {}
    for plat in {p for p, _ in by}:
        fams = {k: v for k, v in by.items() if k[0] == plat}
        means = {k: statistics.fmean(v) for k, v in fams.items()}
        centre = statistics.fmean(means.values())
        se2 = {k: statistics.pvariance(v) / len(v) for k, v in fams.items()}
        tau2 = max(0.0, statistics.pvariance(means.values()) - statistics.fmean(se2.values()))
        for k in fams:
            weight = tau2 / (tau2 + se2[k]) if tau2 + se2[k] > 0 else 1.0
            out[k] = centre + weight * (means[k] - centre)
    return out


def band_key_errors(rows, residual, key_of):
    """What a new source's run can expect, grouped by key_of(row) as (runs, errors): a user's job is a
    source nobody measured, so its error is a source's offset plus a run's scatter around it. Each
    row's deviation from its own family's mean error is shifted by the mean error of every family on
    its platform, one family one vote (a random-effects view of the sources). Only rows with a
    residual count."""
    bias = source_biases(rows, residual)
    groups = {}
    for r in rows:
        if r["id"] not in residual:
            continue
        plat = platform(r["accelerator"])
        dev = residual[r["id"]] - bias[(plat, r["family"])]
        errs = [dev + b for (p, _), b in bias.items() if p == plat]
        for k in key_of(r):
            runs, got = groups.setdefault(k, (set(), []))
            runs.add(r["id"])
            got.extend(errs)
    return {k: (len(runs), got) for k, (runs, got) in groups.items()}


def keys(r):
    return [r["accelerator"], r["accelerator"] + "/" + r["framework"]]


def unseen_spreads(unseen_rows, skip_family=None):
    """The spread of the rows whose accelerator group had no rows left (loso's unseen: predicted from
    a relative's fit or from the mean of the others), by kind."""
    out = {}
    for kind, got in unseen_rows.items():
        v = [r for r in got if r["family"] != skip_family]
        if v:
            out[kind] = {**spread([r["error"] for r in v]), "accelerators": sorted({r["accelerator"] for r in v})}
    return out


def loso_coverage(cli, rows, residual, unseen_rows, refit_docs):
    """The band's promise to a source it has never seen: for each family, the CLI's own band
    (src/io/uncertainty.cpp, relatives and widenings included) from a band table built without that
    family, around the prediction of the calibration refitted without it; per family (rows whose
    measured throughput lies inside, rows)."""
    by = {}
    for fam, docs in refit_docs.items():
        own = {r["id"] for r in rows if r["family"] == fam}
        others = {i: e for i, e in residual.items() if i not in own}
        table = uncertainty(rows, others, unseen_spreads(unseen_rows, fam))
        for r in calibrate.run(cli, {**docs, "uncertainty": table}, CSV):
            if r["family"] != fam or r["id"] not in residual:
                continue
            low, high = r["band_tokens_per_s_per_chip"]
            got = by.setdefault(fam, [0, 0])
            got[0] += low <= r["measured_tokens_per_s_per_chip"] <= high
            got[1] += 1
    return by


def heldout_coverage(rows):
    """Share of held-out rows whose measured throughput lies inside the band the CLI gives."""
    held = [r for r in rows if calibrate.held_out(r["id"]) and counted(r)]
    inside = sum(r["band_tokens_per_s_per_chip"][0] <= r["measured_tokens_per_s_per_chip"] <=
                 r["band_tokens_per_s_per_chip"][1] for r in held)
    return inside, len(held)


def band_edges(errs):
    """The 10% and 90% edges of a band meant to hold 80% of new outcomes, from n errors seen: the
    order statistics of rank floor(0.1 (n + 1)) and ceil(0.9 (n + 1)) (split conformal prediction,
    Vovk et al. 2005; Lei et al. 2018), which a new exchangeable error falls between with probability
    at least 0.8. Plain p10/p90 of a small sample covers less than 80% of new draws."""
    v = sorted(errs)
    n = len(v)
    lo_rank = max(1, math.floor(0.1 * (n + 1)))
    hi_rank = min(n, math.ceil(0.9 * (n + 1)))
    return v[lo_rank - 1], v[hi_rank - 1]


def spread(errs, runs=None):
    lo, hi = band_edges(errs)
    return {"runs": len(errs) if runs is None else runs,
            "mean_abs_error": round(sum(abs(e) for e in errs) / len(errs), 4),
            "error_p10": round(lo, 4), "error_p90": round(hi, 4)}


def svg_plot(rows):
    w, h, pad = 640, 640, 60
    vals = [v for r in rows for v in (r["measured_tokens_per_s_per_chip"], r["predicted_tokens_per_s_per_chip"])]
    lo, hi = math.log10(min(vals)) - 0.1, math.log10(max(vals)) + 0.1

    def xy(m, p):
        return (pad + (math.log10(m) - lo) / (hi - lo) * (w - 2 * pad),
                h - pad - (math.log10(p) - lo) / (hi - lo) * (h - 2 * pad))

    colors = {"a100-40gb": "#1f77b4", "a100-80gb": "#17becf", "h100-sxm": "#d62728", "b200": "#9467bd",
              "gb200": "#8c564b", "trainium1": "#2ca02c"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>']
    for f, dash in ((1.0, ""), (1.1, "4,4"), (0.9, "4,4")):
        x1, y1 = xy(10 ** lo, 10 ** lo * f)
        x2, y2 = xy(10 ** hi, 10 ** hi * f)
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#888" stroke-dasharray="{dash}"/>')
    for e in range(int(math.ceil(lo)), int(math.floor(hi)) + 1):
        x, _ = xy(10 ** e, 10 ** lo)
        _, y = xy(10 ** lo, 10 ** e)
        parts.append(f'<text x="{x:.1f}" y="{h - pad + 18}" text-anchor="middle">1e{e}</text>')
        parts.append(f'<text x="{pad - 8}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    for r in rows:
        x, y = xy(r["measured_tokens_per_s_per_chip"], r["predicted_tokens_per_s_per_chip"])
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colors.get(r["accelerator"], "#333")}" '
                     f'fill-opacity="0.75"><title>{r["id"]}: {pct(r["error"])}</title></circle>')
    for i, (acc, c) in enumerate(colors.items()):
        parts.append(f'<circle cx="{pad + 10}" cy="{pad + 14 * i}" r="4" fill="{c}"/>'
                     f'<text x="{pad + 20}" y="{pad + 4 + 14 * i}">{acc}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">measured tokens/s per chip</text>')
    parts.append(f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" text-anchor="middle">'
                 'predicted tokens/s per chip</text>')
    parts.append(f'<text x="{w / 2}" y="20" text-anchor="middle">traincalc vs published runs '
                 '(dashed: within 10%)</text></svg>')
    return "\n".join(parts) + "\n"


def coverage():
    """The span of shapes and cluster sizes the published runs cover, per column."""
    runs = published_runs()
    out = {}
    for col in ("hidden", "layers", "seq_len", "chips"):
        vals = [float(r[col]) for r in runs if r[col]]
        out[col] = [min(vals), max(vals)]
    return out


def uncertainty(rows, residual, unseen):
    """Out-of-sample signed-error spread per accelerator and per (accelerator, framework): the band
    of an estimate is what a run nobody fitted showed."""
    out = []
    # Every group is written, so that a note can say how few runs it has; src/io/uncertainty uses
    # one for a band only from nine runs (kMinBandRuns).
    for key, (runs, errs) in sorted(band_key_errors(rows, residual, keys).items()):
        acc, _, fw = key.partition("/")
        out.append({"accelerator": acc, "framework": fw, **spread(errs, runs)})
    # Accelerators without runs take the band of the one whose calibration they share; a group's
    # first member, that of the group whose fit the calibration gives it when it has no rows
    # (calibrate.RELATIVES). src/io/uncertainty follows the chain to the first with runs.
    relatives = {m: members[0] for members in calibrate.GROUPS.values() for m in members[1:]}
    relatives.update({calibrate.GROUPS[g][0]: calibrate.GROUPS[r][0] for g, r in calibrate.RELATIVES.items()})
    relatives.update({chip: "trainium1" for chip in calibrate.DERIVED})
    return {"schema": "traincalc.uncertainty/1", "relatives": relatives, "coverage": coverage(),
            "about": "What a new source can expect of predicted tokens/s per chip against "
                     "tests/data/published_runs.csv (predicted / measured - 1, each row predicted by the "
                     "calibration refitted without its source family; each row's scatter around its "
                     "family's mean error shifted by every family's mean error on its platform), by "
                     "accelerator and by accelerator and framework: the split-conformal 10% and 90% edges bound "
                     "the band an estimate shows; runs counts the published rows behind them. "
                     "Generated by scripts/accuracy_report.py; do not edit.",
            "generated": datetime.date.today().isoformat(), "groups": out,
            # The band widens by what accelerators predicted from a relative's fit showed.
            "unseen": {k: v for k, v in unseen.items() if k == "from_relative"}}


def trainium_section(rows):
    """Trainium1's rows by stack and Neuron SDK release (from the rows' notes)."""
    sdk = {}
    for r in published_runs():
        m = re.search(r"SDK ~?(\d+\.\d+(?:-\d+\.\d+)?)", r["notes"])
        sdk[r["id"]] = m.group(1) if m else "not stated"
    trn = [r for r in rows if r["accelerator"] == "trainium1"]
    if not trn:
        return []
    L = ["", "## Trainium1", "",
         f"{len(trn)} Trainium1 rows from four stacks: each stack is its own framework profile "
         "(presets/accuracy/software.json) and its own leave-one-source-out family.", "",
         "| stack | Neuron SDK | rows | MAE | bias |", "|---|---|---|---|---|"]

    def order(v):
        return [int(p) for p in re.split(r"[.-]", v)] if v[0].isdigit() else [99]
    for sw in sorted({r["software"] for r in trn}):
        for v in sorted({sdk.get(r["id"], "not stated") for r in trn if r["software"] == sw}, key=order):
            g = [r for r in trn if r["software"] == sw and sdk.get(r["id"]) == v]
            L.append(f"| {sw} | {v} | {len(g)} | {100 * mae(g):.1f}% | {pct(sum(r['error'] for r in g) / len(g))} |")
    return L


# What CI enforces (tests/accuracy_loso.sh): today's figures with a small margin, so that a change
# that loses accuracy out of sample fails. The goals not met yet (leave-one-source-out <= 8%, every
# family <= 12%, in sample <= 5% with p90 <= 12%, every accelerator of five rows or more <= 8%) are
# listed in docs/accuracy.md. In-sample MAE and p90 over fitted rows; held-out MAE;
# leave-one-source-out mean and worst family; the band's promise of 80% to a source it has never
# seen (its runs against the CLI's band from a table built without its family, every fitted row
# counted), held to the goal itself (COVERAGE_GOAL), not to today's figure with a margin;
# and to the held-out rows of seen sources (at least 75%; wider there, since their offset is in the
# band). The leave-one-source-out refits start from scratch, so each family's figure owes nothing to
# its own rows; a family whose rows alone pin a constant (SimuMax: Blackwell's BF16 GEMM speed)
# swings with the start and the other families' rows. The ceilings hold today's figures with a
# margin of about a point (2026-12-03: leave-one-source-out 14.0%, worst family 34.1%, held-out 8.9%,
# in sample 7.5%, p90 15.8%).
# The accuracy issue's goal for the band's coverage of sources never seen (2026-12-03: 84%; held-out
# rows 87%).
COVERAGE_GOAL = (0.75, 0.85)
TARGETS = {"mae": ("<=", 0.085), "p90": ("<=", 0.17), "heldout_mae": ("<=", 0.095),
           "loso_mean": ("<=", 0.15), "loso_worst": ("<=", 0.35),
           "heldout_coverage": ("range", (0.75, 0.90)), "loso_coverage": ("range", COVERAGE_GOAL)}



def bounded_constants():
    """The fitted constants that sit on a bound of their range (scripts/calibrate.py PARAMS and
    FRAMEWORKS): the fit wanted to go further, so something it stands in for is not modelled."""
    hits = []
    accs = json.load(open(os.path.join(ROOT, "presets/accelerators.json")))["accelerators"]
    for group, members in calibrate.GROUPS.items():
        cal = next((a["calibration"] for a in accs if a["id"] == members[0]), None)
        for key, lo, hi in calibrate.PARAMS if cal else []:
            if key in cal and min(abs(cal[key] - lo), abs(cal[key] - hi)) <= 1e-3 * hi:
                hits.append(f"{group} `{key}` = {cal[key]:g} (range {lo:g}-{hi:g})")
            elif (key.startswith("attention") and key in cal and cal[key] >= cal.get("matmul_efficiency_max", 1) - 1e-9
                  and not (key in calibrate.PRIMARY and cal[key] == cal.get(calibrate.PRIMARY[key]))):
                hits.append(f"{group} `{key}` = {cal[key]:g} (bound: its large GEMMs' `matmul_efficiency_max`, "
                            "calibrate.attention_within_gemms)")
    fws = json.load(open(os.path.join(ROOT, "presets/frameworks.json")))["frameworks"]
    for fw in fws:
        for key, lo, hi, _ in calibrate.FRAMEWORKS.get(fw["id"], []):
            if key in fw and min(abs(fw[key] - lo), abs(fw[key] - hi)) <= 1e-3 * hi:
                hits.append(f"{fw['id']} `{key}` = {fw[key]:g} (range {lo:g}-{hi:g})")
    return ["", "Fitted constants on a bound of their range (the fit would go further: what each stands in "
            "for is partly something not modelled): " + ("; ".join(hits) if hits else "none") + "."]

def figures(cli, all_rows, left_out=None):
    fitted = [r for r in all_rows if counted(r) and not calibrate.held_out(r["id"])]
    held = [r for r in all_rows if counted(r) and calibrate.held_out(r["id"])]
    lo, residual, unseen_rows, refit_docs = left_out or loso(cli, all_rows)
    hin, hn = heldout_coverage(all_rows)
    by_family = loso_coverage(cli, [r for r in all_rows if counted(r)], residual, unseen_rows, refit_docs)
    lin, ln = (sum(v[i] for v in by_family.values()) for i in (0, 1))
    return {"mae": mae(fitted), "p90": p90(fitted), "heldout_mae": mae(held), "heldout_p90": p90(held),
            "loso_mean": sum(v["mae"] for v in lo.values()) / len(lo),
            "loso_worst": max(v["mae"] for v in lo.values()),
            "heldout_coverage": hin / hn if hn else 0.0, "loso_coverage": lin / ln if ln else 0.0,
            "n_fitted": len(fitted), "n_heldout": len(held), "n_loso": ln, "loso_coverage_by_family": by_family}


def check(cli, all_rows):
    """Recomputes the figures without writing; 1 if a target fails."""
    got = figures(cli, all_rows)
    failed = 0
    for key, (kind, limit) in TARGETS.items():
        ok = got[key] <= limit if kind == "<=" else limit[0] <= got[key] <= limit[1]
        failed += not ok
        want = f"<= {100 * limit:g}%" if kind == "<=" else f"{100 * limit[0]:g}-{100 * limit[1]:g}%"
        print(f"{'ok  ' if ok else 'FAIL'} {key}: {100 * got[key]:.1f}% (target {want})")
    problems = [r for r in all_rows if r["problem"]]
    for r in problems:
        print(f"FAIL row {r['id']}: {r['problem']}")
    failed += len(problems)
    print(f"{len(TARGETS) - failed} passed, {failed} failed")
    return 1 if failed else 0


def rebuild(cli):
    """The band is compiled in: rebuild the CLI after presets/accuracy/uncertainty.json changes."""
    subprocess.run(["cmake", "--build", os.path.dirname(os.path.abspath(cli)), "--target", "traincalc"],
                   check=True, capture_output=True)


# The figures of the last calibration on the 205-row set (commit 2a40647, 2026-11-30), kept as the
# "before" column of docs/accuracy.md.
PREVIOUS = {"rows": 205, "mae": 0.062, "p90": 0.127, "loso_mean": 0.117,
            "loso": {"Megatron-LM": 0.068, "MosaicML": 0.069, "NeMo/Megatron-Bridge": 0.115, "MLPerf": 0.026,
                     "torchtitan": 0.105, "Neuron (all stacks as one family)": 0.319}}
# The same model and calibration (commit 2a40647) measured by this script on the 334-row set
# (2026-12-01, before any mechanism changed): 24 rows could not run (b300, gb300, fp4), its band
# was the in-sample spread.
PREVIOUS_334 = {"loso_mean": 0.170, "loso_worst": 0.297, "heldout_mae": 0.080, "heldout_p90": 0.164,
                "heldout_coverage": 0.85, "loso_coverage": 0.55, "mae": 0.113, "p90": 0.312, "failed": 24,
                "not_fitting": 20,
                "loso": {"MLPerf": 0.026, "Megatron-LM": 0.067, "MosaicML": 0.077, "NeMo/Megatron-Bridge": 0.184,
                         "Neuron: Megatron-LM on Neuron": 0.201, "Neuron: NeMo Megatron on Neuron": 0.297,
                         "Neuron: NeuronX Distributed": 0.082, "Neuron: PyTorch Neuron (Hugging Face Trainer)": 0.287,
                         "SimuMax": 0.218, "torchtitan": 0.265}}


def summary_lines(all_rows, fig, lo):
    rows = [r for r in all_rows if counted(r)]
    fitted = [r for r in rows if not calibrate.held_out(r["id"])]
    P = PREVIOUS_334
    L = ["## Summary: out of sample first", "",
         "| figure | previous model, 205 rows (2026-11-30) | previous model, these 334 rows | now |",
         "|---|---|---|---|",
         f"| leave-one-source-out mean (each family refitted out, then predicted) | {100 * PREVIOUS['loso_mean']:.1f}% | "
         f"{100 * P['loso_mean']:.1f}% | **{100 * fig['loso_mean']:.1f}%** ({len(lo)} families) |",
         f"| worst family left out | {100 * max(PREVIOUS['loso'].values()):.1f}% | {100 * P['loso_worst']:.1f}% | "
         f"{100 * fig['loso_worst']:.1f}% |",
         f"| held-out split (every row with crc32(id) % 5 == 0, never fitted): MAE | - | {100 * P['heldout_mae']:.1f}% | "
         f"**{100 * fig['heldout_mae']:.1f}%** (n = {fig['n_heldout']}) |",
         f"| held-out split: p90 | - | {100 * P['heldout_p90']:.1f}% | {100 * fig['heldout_p90']:.1f}% |",
         f"| band coverage, held-out rows inside the CLI's p10-p90 band (promises 80%) | - | "
         f"{100 * P['heldout_coverage']:.0f}% | **{100 * fig['heldout_coverage']:.0f}%** |",
         f"| band coverage, runs of a source never seen inside the CLI's band built without it | - | "
         f"{100 * P['loso_coverage']:.0f}% | **{100 * fig['loso_coverage']:.0f}%** (n = {fig['n_loso']}) |",
         f"| in sample: fitted rows MAE | {100 * PREVIOUS['mae']:.1f}% | {100 * P['mae']:.1f}% | {100 * fig['mae']:.1f}% "
         f"(n = {fig['n_fitted']}) |",
         f"| in sample: fitted rows p90 | {100 * PREVIOUS['p90']:.1f}% | {100 * P['p90']:.1f}% | {100 * fig['p90']:.1f}% |",
         f"| rows that cannot be estimated | 0 of 205 | {P['failed']} of 334 | "
         f"{sum(1 for r in all_rows if r['problem'])} of {len(all_rows)} |",
         f"| rows not counted: their source flags the figure as a regression (`known_issue`) | - | - | "
         f"{sum(1 for r in all_rows if r.get('known_issue'))} |",
         f"| published layouts reported as not fitting in memory | - | {P['not_fitting']} | "
         f"{sum(1 for r in rows if not r['fits'])} |",
        "", "| accelerator | rows | MAE (all rows, shipped calibration) | p90 | bias |", "|---|---|---|---|---|"]
    for acc in sorted({r["accelerator"] for r in rows}):
        g = [r for r in rows if r["accelerator"] == acc]
        L.append(f"| {acc} | {len(g)} | {100 * mae(g):.1f}% | {100 * p90(g):.1f}% | "
                 f"{pct(sum(r['error'] for r in g) / len(g))} |")
    L += ["", "| source family | rows | in-sample MAE | left out: MAE | left out: bias | previous model, left out |",
          "|---|---|---|---|---|---|"]
    for fam in families(rows):
        g = [r for r in fitted if r["family"] == fam]
        v = lo.get(fam)
        before = P["loso"].get(fam)
        L.append(f"| {fam} | {len(g)} | {100 * mae(g):.1f}% | "
                 + (f"{100 * v['mae']:.1f}% | {pct(v['bias'])}" if v else "- | -")
                 + f" | {'' if before is None else f'{100 * before:.1f}%'} |")
    return L


def error_range(rows, keep, sep=" to "):
    """'+9% to +15%' over the counted rows that `keep` picks: the figures of the hand-written notes
    on what is not modelled come from the rows, so they cannot go stale."""
    errs = sorted(100 * r["error"] for r in rows if counted(r) and keep(r))
    if not errs:
        return "no rows"
    def signed(e):
        return "0%" if round(e) == 0 else f"{e:+.0f}%"
    return signed(errs[0]) if len(errs) == 1 or round(errs[0]) == round(errs[-1]) else f"{signed(errs[0])}{sep}{signed(errs[-1])}"


def what_moved(all_rows, fig):
    """The mechanisms that replaced fitted factors, each with the figures it moved, newest among the
    first; the band's coverage is today's."""
    return ["", "## What moved, and what is not met", "",
          "Mechanisms that replaced fitted factors (each changes structure; the fit then refits only "
          "bounded physical constants):", "",
          "- No per-framework multiplier on GEMM speed (Megatron's was 1.27). What it hid is now named: FP8 "
          "GEMMs at their own efficiency of the FP8 peak (`fp8_matmul_efficiency_max`; all of Megatron's H100 "
          "rows are FP8, all FSDP ones BF16), FlashAttention-3-class attention in Transformer Engine stacks "
          "(`attention_v3_efficiency`, fitted 0.85 of the H100 peak against 0.18 for FlashAttention-2), and "
          "separately launched elementwise kernels per layer (fused stacks few, eager PyTorch many).",
          "- A kernel call costs 2-12 us (it was fitted up to 80 us): small-GEMM and eager-mode overhead now "
          "comes from kernel counts.",
          "- Local experts run as one grouped GEMM per pass, plus the token dispatcher's routing traffic and "
          "kernels: Megatron-Bridge 26.x MoE rows went from -30% to -43% to within 10%; the 25.11 Qwen3-30B "
          "rows, measured 1.7x slower on the same layout, are now far too fast (+260% on B200), which alone "
          "adds 4 points to the held-out MAE.",
          "- Megatron-LM's own defaults (no TP, EP or DP communication overlap) are a profile apart from the "
          "NeMo/Megatron-Bridge recipes (overlap on, parameter gather behind the forward): SimuMax's "
          "Megatron-LM runs left out went from 21.8% to 12.5%.",
          "- BF16 gradient buffers in Megatron-Core, pure-BF16 weights on the Neuron Megatron-LM port, and "
          "embedding/loss counted as pipeline layers: published layouts reported as not fitting fell from 20 "
          "to 11.",
          "- FP8 and FP4 GEMMs in Transformer Engine stacks keep the quantized copy of their input for the "
          "weight gradient (`keeps_quantized_gemm_inputs`): 1 byte an element instead of 2 for the QKV, "
          "output-projection and FFN inputs. The Llama 3.1 405B rows on GB200 and GB300 and Nemotron-4 340B "
          "on H100 fit as published; not fitting fell from 11 to 6 (2026-12-02). No throughput moved: the "
          "rows' layouts are fixed.",
          "- torchtitan's \"selective\" recompute is its per-op checkpointing (`selective_recompute`: "
          "`every_other_matmul` in the FSDP profile): it keeps the outputs of the attention kernel and of "
          "every other matmul of a block and replays K, O and the FFN's up projection with every elementwise "
          "op, where the Megatron meaning replays the attention core. Its Llama 2 70B row fits as published "
          "(not fitting 6 -> 5), torchtitan left out went from 17.3% to 17.0%, and MosaicML left out, no "
          "longer fitted beside rows whose recompute the profile misread, from 7.7% to 6.6% (2026-12-02).",
          "- A GEMM's output runs as 128 x 256 tiles in waves over the GPU's SMs (`gemm_units`, `gemm_tile`; "
          "tile and wave quantization, NVIDIA's Matrix Multiplication Background guide), K split over idle SMs "
          "when the output fills less than one wave: narrow tensor-parallel and expert GEMMs leave SMs idle. "
          "SimuMax's tp8-versus-tp1 spread on B200 (Llama 3 70B) narrowed from 23 to 18 points; the A100 40 GB "
          "kernel cost, fitted at 11.6 us near its 12 us bound, fell to 6.8 us. Leave-one-source-out went from "
          "16.4% to 16.2% (torchtitan 17.0% -> 16.0%, SimuMax 10.3% -> 9.1%, NeMo/Megatron-Bridge 13.3% -> "
          "12.9%, Megatron-LM 8.6% -> 8.3%; MosaicML 6.6% -> 7.7%, worse), held-out from 12.0% to 11.9% "
          "(2026-12-02).",
          "- The loss keeps an FP32 copy of the logits only where the stack upcasts them (Megatron, "
          "torchtitan); llm-foundry's default fused cross-entropy (flash-attn's kernel) keeps the 16-bit "
          "logits and reads them at 2 bytes (`fp32_loss_logits`, set per stack in "
          "presets/accuracy/software.json): the four MPT-350M rows on A100 40 GB fit as published (not "
          "fitting 5 -> 1); MosaicML left out went from 7.7% to 7.0%, torchtitan from 16.0% to 15.7%; "
          "leave-one-source-out 16.2% -> 16.1%, held-out 11.9% -> 12.0% (2026-12-02).",
          "- A published architecture the CSV's columns cannot hold takes the rest of its shape from a model "
          "preset named like it (new presets, each sourced: DeepSeek-V3, gpt-oss-120b, Qwen3-30B-A3B, "
          "Qwen3-235B-A22B): DeepSeek-V3's rows had run as 128 plain heads of 56 with every layer an expert "
          "layer and no shared expert; they now have latent attention (192-wide query/key heads, 128-wide "
          "values), one shared expert and three dense first layers (SimuMax's cut models one, as its notes "
          "say), and a model's dense layers are timed as dense layers (no routing, no all-to-all) instead of "
          "as expert layers. The softmax's exponentials run on the special-function units (`exp_tera_per_s`, "
          "sourced per GPU: 2.4 to 10.7 T/s), added to FlashAttention-2-class GEMMs and overlapped by "
          "FlashAttention-3-class kernels (Shah et al. 2024, Section 3.1). DeepSeek-V3 on GB200 went from "
          "+20% to 0%, on B300 from +40% to +20%, SimuMax's DeepSeek rows from +12..+22% to +6..+16% (GB300 "
          "from 0% to -15%). Held-out went from 12.0% to 11.3% (p90 19.5% -> 16.0%), in sample from 9.2% to "
          "9.0%; leave-one-source-out from 16.1% to 16.4% (NeMo/Megatron-Bridge 13.0% -> 12.8%, SimuMax "
          "9.1% -> 10.6%: without it Blackwell's BF16 GEMM speed comes from four mixture-of-experts rows, "
          "which had matched it better while DeepSeek-V3 was mis-shaped) (2026-12-02).",
          "- A row that leaves its recompute empty takes its stack's default; where that does not fit, the "
          "layout (which ran) recomputes fully the fewest layers of each stage that fit (`recompute_layers`, "
          "Megatron's --recompute-method block --recompute-num-layers, as recipes tune it; a scenario field "
          "too): Llama 3 70B under FSDP on GB200 (41 of 80 layers; +7% -> -7%) and DeepSeek-V3 in BF16 on "
          "GB200 (2 of each stage's 16; -6% -> -10%) fit as published, so no published layout is reported as "
          "not fitting. Held-out stayed at 11.3%; leave-one-source-out went from 16.4% to 17.0%, all of it "
          "SimuMax left out (10.6% -> 17.1%): its BF16 fit on four mixture-of-experts rows moved with the "
          "DeepSeek row (2026-12-02).",
          "- Examined and not adopted: GPT-OSS's 128-token sliding windows on half its layers. Counting "
          "them (fused kernels skip the blocks outside a window) moved its published rows on GB200/GB300 "
          "about 8 points further over, to +22..+28%, and leave-one-source-out to 17.5% (SimuMax left out to 22%, through the "
          "BF16 rows above): the measured runs do not show the saving, so GPT-OSS's attention is timed over "
          "the whole sequence, an upper bound (2026-12-02). Measured again on today's model, every fit from "
          "scratch (`sliding_window` and `sliding_window_layers` in the shape, w - w^2 / (2 s) keys a query on "
          "a windowed layer, Longformer's Section 3.1): its rows on GB200/GB300 from +12..+14% to +20..+25%, "
          "leave-one-source-out 17.5% -> 17.9% (SimuMax 15.9% -> 20.8%, NeMo/Megatron-Bridge 18.0% -> 18.3%; "
          "torchtitan 17.2% -> 16.2%), held-out 8.9% -> 9.4%, in sample 8.1% -> 8.2%; not adopted again "
          "(2026-12-03).",
          ] + later_mechanisms(all_rows, fig)


def later_mechanisms(all_rows, fig):
    """what_moved's second half: the link constants, the fitted overlaps and the mechanisms after
    them, each with its figures; the band's coverage is today's."""
    return [
          "- Link constants are no longer called fitted: the calibration never fitted them. Neuron's per-hop "
          "latency is the runtime documentation's (1-2 us inside an instance, 1.5 taken, was 5; 15 us between "
          "instances, as before; tests/data/trainium_microbench.csv CC-12, CC-11); every link efficiency and "
          "NVSwitch latency says it is assumed. Trainium1's fit moved (large GEMMs 0.439 -> 0.426 of peak, "
          "attention 0.20 -> 0.23): NeuronX Distributed left out went from 9.9% to 11.1%, PyTorch Neuron from "
          "37.6% to 36.6%, leave-one-source-out from 17.0% to 17.1%, held-out stayed at 11.3% (2026-12-02).",
          "- Megatron-Core's data-parallel overlap is fitted (`dp_overlap`, bounds 0-0.95; it was an assumed "
          "0.9): 0.34 of the backward (and, with the parameter gather, the forward) hides its bucketed "
          "reduce-scatter and all-gather, NCCL sharing the SMs and links with that compute; the fit moved "
          "Megatron's TP overlap from 0.55 to 0.85. MLPerf's GPT-3 175B rows, whose 10,240-10,752-GPU runs "
          "(8 micro-batches a step) spend a large share of the step reducing 5.4 B parameters a GPU over "
          "InfiniBand, went from -10%..+13% to -6%..+2% (in sample 7.3% -> 2.5%, left out 10.4% -> 5.3%); "
          "NeMo/Megatron-Bridge left out 12.9% -> 12.3%, SimuMax 17.1% -> 15.3%, torchtitan 15.8% -> 16.8%; "
          "leave-one-source-out 17.1% -> 16.5%, held-out 11.3% -> 11.1%, in sample 9.0% -> 8.8%. Fitting "
          "FSDP's overlap as well (an assumed 0.85; fitted 0.88) moved torchtitan left out to 21% and "
          "leave-one-source-out to 16.7%: not kept (2026-12-02).",
          "- An FP8 or FP4 recipe's output layer runs in BF16: Transformer Engine's autocast quantizes the "
          "transformer layers, and Megatron-Core's output layer is a plain ColumnParallelLinear outside it "
          "(torchtitan's float8 conversion skips the module named \"output\" too). The vocabulary GEMM is "
          "7-13% of a small or sparse model's FLOPs (Llama 3 8B, Qwen3-30B-A3B, GPT-OSS-120B), so FP8 rows "
          "had been timed too fast, and FP8 rows now pin Blackwell's BF16 efficiency where only SimuMax's "
          "BF16 rows had: SimuMax left out went from 14.9% to 6.8%, NeMo/Megatron-Bridge from 12.3% to 10.5%, "
          "MLPerf from 5.6% to 3.7%, torchtitan from 16.8% to 16.4%; leave-one-source-out from 16.3% to 15.0%, "
          "held-out from 10.8% to 10.5%, in sample from 8.8% to 8.5% (GB300 14.0% -> 10.5%, GB200 9.5% -> "
          "7.8%). The refit raised Blackwell's FP8 GEMM efficiency from 0.54 to 0.59 of peak and Megatron's "
          "expert-parallel overlap from 0.53 to 0.82, which moved the Megatron-Bridge 25.11 Qwen3-235B row "
          "on H100 from +10% to +48%, beside the other 25.11 mixture-of-experts rows (2026-12-02).",
          "- The calibration gives each source family one vote: it minimises the mean of the families' mean "
          "absolute errors, not the mean over rows, where MosaicML's 113 rows had set the H100 and A100 "
          "fits and the FSDP profile for every other source. Megatron-LM left out went from 8.3% to 6.5%, "
          "SimuMax from 15.3% to 14.9%, MLPerf from 5.3% to 5.6%; leave-one-source-out from 16.5% to 16.3%, "
          "held-out from 11.1% to 10.8%, in sample stayed at 8.8% (MosaicML's own rows 4.9% -> 5.2%). "
          "Examined on the way and not kept: unfused elementwise kernels costing HBM traffic that grows "
          "with the tokens (each reads and writes an activation) instead of a fixed cost a layer "
          "(leave-one-source-out 19.6%, held-out 14.3%: the large-GEMM efficiencies ran to their bounds); "
          "a fused attention kernel's fixed work per 128-row query tile (short sequences slower; 16.3%, "
          "11.2%, band coverage 93%); Trainium's memory-bound rate fitted instead of assumed (0.43 of HBM "
          "bandwidth, Trainium1 in sample 18.0% -> 16.2%, held-out 10.7%, but Megatron-LM on Neuron left "
          "out 19.9% -> 30.6%, leave-one-source-out 16.7%) (2026-12-02).",
          "- A row's part keeps its own memory where its source says it differs from the accelerator preset "
          "(`hbm_gib`, `hbm_tb_per_s` in the CSV): the torchtitan async-TP rows ran 96 GB HBM2e H100s at "
          "2.4 TB/s, not 80 GB at 3.35 TB/s, so their memory-bound work and traffic-bound GEMMs run 0.72x "
          "as fast. Those 12 rows' mean error went from 16.0% to 15.2%, torchtitan left out from 16.4% to "
          "14.9% (MosaicML from 7.3% to 7.6%), leave-one-source-out from 15.0% to 14.9%; held-out stayed at "
          "10.5%, in sample at 8.5% (p90 19.6% -> 18.5%) (2026-12-02).",
          "- Megatron-LM's runs launch each local expert's GEMMs one at a time (`per_expert_gemms`: Megatron-"
          "Core's TEGroupedMLP runs Transformer Engine's GroupedLinear, which issues one cuBLAS GEMM per expert "
          "over a few streams; recalled from the code): each of the six GEMMs of an expert's two matrices, "
          "forward and backward, pays the kernel cost, a count and no new constant. SimuMax's DeepSeek-V3 "
          "rows, with 32 to 64 experts a GPU, went from +5%..+15% to "
          + error_range(all_rows, lambda r: r["id"].startswith("SIMUMAX") and "deepseek" in r["id"], "..") + "; "
          "SimuMax left out from 6.6% to 5.7% (in sample 5.4% -> 4.1%), leave-one-source-out from 14.9% to "
          "14.8%, held-out from 10.3% to 10.2%, in sample from 8.4% to 8.3%; no family moved the other way. "
          "Megatron-Bridge 26.x keeps one launch a grouped GEMM: its rows with 16 experts a GPU are already "
          "predicted slower than measured (2026-12-02).",
          "- Megatron-Bridge 25.11, a release older than the Transformer Engine 2.11 of SimuMax's runs, "
          "launches local experts one by one as well: its twelve rows name their release (`software` "
          "\"Megatron-Bridge 25.11\", from their source's container) and its entry in "
          "presets/accuracy/software.json keeps the megatron profile and its fitted constants and changes "
          "only `per_expert_gemms` (`framework_changes`). Its Qwen3-30B rows on B200 and GB200, 16 experts a GPU, went from "
          "+227% and +56% to " + error_range(all_rows, lambda r: r["id"] == "MBRIDGE-25.11-B200-5") + " and "
          + error_range(all_rows, lambda r: r["id"] == "MBRIDGE-25.11-GB200-7") + ", its DeepSeek-V3 row on B200 (32 a GPU) from +41% to "
          + error_range(all_rows, lambda r: r["id"] == "MBRIDGE-25.11-B200-3") + "; held-out from 10.2% "
          "to 8.9%, NeMo/Megatron-Bridge left out from 10.4% to 9.8%, leave-one-source-out from 14.8% to "
          "14.7%, in sample from 8.3% to 8.1% (B200 11.4% -> 8.7%); no family moved the other way. What "
          "else slows that release's mixture-of-experts rows (still over by up to the figures above) is "
          "not found (2026-12-02).",
          "- The megatron profile's token dispatcher sends a token once to each expert-parallel rank that "
          "holds any of its experts (`dispatch_once_per_rank`: DeepEP's dispatch layout, is_token_in_rank; "
          "that Megatron-Bridge 26.x's recipes run it, as the flex dispatcher, is recalled), not once per "
          "expert as Megatron-Core's alltoall dispatcher does: the expected number of distinct ranks among "
          "top_k experts drawn without repeats, 5.3 copies instead of 8 for Qwen3-30B-A3B on eight GPUs. "
          "Megatron-Bridge 25.11 keeps one copy an expert (`framework_changes`). Megatron-Bridge 26.x's Qwen3-30B rows, whose "
          "all-to-alls had been some 30% of the predicted step, went from -7%..-21% to "
          + error_range(all_rows, lambda r: r["id"].startswith("MBRIDGE-26") and "Qwen3-30B" in r["id"], "..") + "; "
          "NeMo/Megatron-Bridge left out from 9.8% to 8.9%, SimuMax from 5.4% to 5.1%, leave-one-source-out "
          "from 14.7% to 14.6%, held-out from 8.9% to 8.6%, in sample from 8.1% to 8.0% (GB200 7.1% -> 6.2%, "
          "GB300 10.5% -> 9.1%); no family moved the other way. GPT-OSS's and DeepSeek-V3's rows, already "
          "over-predicted, moved 1-3 points further over: their all-to-alls shrink too (2026-12-02).",
          "- The Megatron-LM port to Neuron, which runs in pure BF16 (XLA_USE_BF16=1 turns every FP32 tensor "
          "into BF16, as its entry in presets/accuracy/software.json already said of its weights), holds and "
          "all-reduces its gradients in BF16 too (`framework_changes`: `grad_bytes` 2, not the 4 bytes of "
          "FP32 gradient accumulation the profile takes): its 256-chip rows, whose data-parallel all-reduce "
          "crosses 16 instances at 800 Gb/s, went from -23%..-14% to "
          + error_range(all_rows, lambda r: r["id"] in ("TRN1-MLM-G67-e", "TRN1-MLM-G67-f", "TRN1-MLM-G67-h"), "..") + "; "
          "Megatron-LM on Neuron left out from 19.9% to 18.1% (in sample 11.3% -> 9.2%), leave-one-source-out "
          "from 14.6% to 14.4%, in sample from 8.0% to 7.9% (p90 17.8% -> 17.0%), held-out stayed at 8.6% "
          "(2026-12-02).",
          "- Leave-one-source-out refits start from scratch, as the shipped fit now does (every accelerator "
          "constant from the middle of its range, every framework constant from its prior), not from the "
          "shipped constants. Those were fitted on every family, and a constant that the rows left in do not "
          "constrain kept the value the left-out family had given it: without NeMo/Megatron-Bridge the "
          "megatron profile keeps only MLPerf's dense rows, so its expert-parallel overlap and routing "
          "kernels were the ones NeMo/Megatron-Bridge's mixture-of-experts rows had fitted; without SimuMax, "
          "Blackwell's BF16 GEMM efficiency was the one SimuMax's dense BF16 rows had fitted. Every "
          "leave-one-source-out figure above this line was measured that way. The same model measured "
          "from scratch: leave-one-source-out 14.4% -> 17.5% (NeMo/Megatron-Bridge 8.9% -> 18.0%, SimuMax "
          "5.1% -> 15.9%, Megatron-LM on Neuron 18.1% -> 23.8%, PyTorch Neuron 36.6% -> 40.0%, torchtitan "
          "14.9% -> 17.2%, MosaicML 7.8% -> 8.7%; Megatron-LM 6.5% -> 5.4%), held-out 8.6% -> 8.9%, in "
          "sample 7.9% -> 8.1%, band coverage of sources never seen 83% -> 87%, of held-out rows 84% -> 88%. "
          "The fit from scratch (four rounds, three passes) reaches the shipped fit's objective (11.09% a "
          "family against 11.10%) at another point of a flat optimum: Megatron's TP overlap 0.70 instead of "
          "0.95, FSDP's elementwise kernels 117 instead of 150 (2026-12-02).",
          "- The softmax of a fused attention kernel also spends about four scalar FP32 instructions per "
          "score element each way on the CUDA cores beside its exponential (FlashAttention-2's Algorithms 1-2: "
          "row max, scaled subtract, row sum and the conversion of P forward; scaled subtract, dP - D, the "
          "product with P and the conversion of dS backward), at half the FP32 peak in instructions (Dao "
          "2023, Section 3.1: an A100 has 312 TFLOP/s of FP16 matmul but 19.5 of FP32). FlashAttention-2-"
          "class kernels add it to their GEMMs (A100 long-sequence rows 4-8 points slower before the refit); "
          "FlashAttention-3-class kernels hide it unless it is the slower part, as on GB200 with GPT-OSS's "
          "64-wide heads (+13% -> +12%), not on GB300, whose exponentials are twice as fast. Held-out went "
          "from 10.5% to 10.3%, in sample from 8.5% to 8.4%, leave-one-source-out stayed at 14.9% "
          "(SimuMax 6.8% -> 6.6%, NeMo/Megatron-Bridge 10.5% -> 10.4%, MLPerf 3.6% -> 3.5%; MosaicML "
          "7.6% -> 7.8%, worse) (2026-12-02).",
          "- The band's source offsets are shrunk towards their platform's mean by how much of a family's "
          "mean error is more than the noise of a mean of few rows (random effects, DerSimonian and Laird "
          "1986). With MLPerf's offset now negative, the unshrunk offsets widened every band: coverage of "
          "sources never seen rose to 89% and of held-out rows to 93%, above the 80% promised; shrunk, "
          "87% and 88% (on the model before this change, shrinking would have given 77% instead of 79%; "
          "coverage of sources never seen then counted only the rows whose own accelerator kept a band, "
          "below) (2026-12-02).",
          "- Examined and not adopted: torchtitan's async tensor parallelism as a TP-collective overlap at "
          "Megatron's fitted share (0.55 then, the same decomposition of a collective into chunks behind GEMMs). "
          "It predicts the measured async/vanilla ratio of its six pairs within 4% for BF16 and tensorwise FP8 "
          "(1.13 vs 1.10 and 1.14 vs 1.10 on Llama 3 8B, 1.11 vs 1.09 and 1.14 vs 1.16 on 70B), but not for "
          "rowwise FP8 (1.14 vs 1.04-1.06), and the asyncTP rows' errors went from a mean 16% to 24%: the "
          "vanilla Llama 3 8B rows are already 11-12% over, and the asyncTP rows' smaller errors had hidden "
          "that. Adopted after the 8B bias is found (2026-12-02).",
          "- FP32 jobs on Neuron run their matmuls in BF16 (the compiler's auto-cast; `\"auto_cast\": false` "
          "turns it off): the two FP32 BERT rows moved from -50% to +50%, so the published FP32 figures ran "
          "with less than full auto-cast.",
          "- A chip run below its power (`power_limit_w`; the torchtitan async-TP rows ran H100s at 500 W, not "
          "700 W) computes at the clock its power allows, first-order CMOS scaling f ~ P^(1/3) (0.89 of the "
          "clock at 500 W): those 12 rows' mean error went from 27% to 19%, and the H100 calibration, no "
          "longer pulled towards them, moved MosaicML left out from 9.9% to 7.7% (2026-12-01).",
          "- Two Megatron-Bridge 26.06.01 GPT-OSS rows, whose source's own footnote calls their figure a known "
          "regression fixed in the next release (`known_issue` in the CSV), are shown but neither fitted nor "
          "averaged (they were +86%).",
          "- The band is what a new source can expect (a family's offset plus a run's scatter, below): its "
          "coverage of sources it has never seen went from 52% to 87% on the rows whose accelerator kept a "
          "band of its own; on the held-out rows of seen sources it held 88%. A group narrows the band "
          "only from 9 rows (it was 3), the fewest from which p10-p90 edges can promise 80%.",
          "- The band's coverage of sources never seen is measured through the CLI's own band: for each family "
          "left out, a band table built without it (`validate --presets DIR` reads one, schema "
          "`traincalc.uncertainty/1`) around the prediction of the calibration refitted without it. Before, a "
          "script re-built the band's first step and skipped the 98 of 264 rows whose accelerator had fewer "
          "than nine runs left (all of SimuMax's, MosaicML's A100 40 GB rows, Megatron-Bridge's on GB200, GB300 "
          "and B300), which take a relative's band, widened. Counted, they showed the widenings too wide: "
          "97% of all rows inside. Two fixes, neither a fitted number: a band widened by an independent "
          "error adds it in quadrature (edges and mean absolute error of a sum of centred errors), not edge "
          "to edge, and one widened for a missing measurement grows by sqrt(2), not 2; an accelerator "
          "without a band follows its relatives down to the first with one (a group's first member to the "
          "group whose fit its calibration takes when the group has no rows: B200 to H100), where it had "
          "fallen to +/-50%. B200 without SimuMax keeps the Blackwell fit of the Megatron-Bridge rows but "
          "takes H100's band, and the shape spans that widen a band far outside them include the family's "
          "own rows: the measure is not yet all out of sample. Then 94% (n = 264), held-out rows 88% "
          "(2026-12-02).",
          "- A framework without a band of its own on an accelerator (nine runs or more) takes the "
          "accelerator's band as it is, no longer widened by that framework's spread on every other "
          "accelerator: the accelerator's band is already what a source never measured there can expect "
          "(every family's offset is in its errors, each predicted by a calibration refitted without it, "
          "the frameworks that one source alone ran with their constants unfitted), and the widening "
          "added those offsets a second time. Coverage of sources never seen went from 94% to 81% (n = "
          "264; one vote a family, 92% to 81%), the median band of those rows from 1.98x to 1.55x wide "
          "(high over low throughput); held-out rows 88%, unchanged (their groups have runs). The model's "
          "figures did not move. The families the model misses as a whole fall outside more often: "
          "NeMo/Megatron-Bridge 26 of 50 inside (left out, its rows come out 14% slow on average), "
          "SimuMax 19 of 27 (15% slow), NeMo Megatron on Neuron 7 of 11, torchtitan 8 of 13; MosaicML "
          "108 of 113 (2026-12-03).",
          "- The 1F1B pipeline's bubble is the fill and drain through the other stages, (p - 1) / v times a "
          "stage of layers alone, not of the busiest stage: that one (the last, with the output layer and "
          "loss) runs every micro-batch, and the first micro-batch's forward and the last one's backward "
          "pass once through each of the others (Narayanan et al. 2021, Section 2.2, for equal stages). A "
          "128K vocabulary on a stage of a few layers weighs: SimuMax's Llama tp1/pp2 rows, 9-11% slow at "
          "every micro-batch count, moved 1-4 points towards their measurement before the refit, its "
          "DeepSeek-V3 pp2 row of four micro-batches from +5% to +12%. Out of sample a wash: "
          "leave-one-source-out 17.5% -> 17.7% (MLPerf 3.4% -> 4.7% on its 8 rows, SimuMax 15.9% -> 16.3%; "
          "MosaicML 8.7% -> 8.5%, NeMo/Megatron-Bridge 18.0% -> 17.9%), held-out 8.9% -> 8.8%, in sample "
          "8.1% either way (p90 16.8% -> 17.4%); kept as the schedule's arithmetic (2026-12-03).",
          "- A GEMM whose operands are narrower than the activations converts its inputs first, as FP8 "
          "recipes already did: Neuron's auto-cast (neuronx-cc --auto-cast matmult, its default) reads each "
          "FP32 input of the QKV, output-projection and FFN GEMMs and writes a BF16 copy, 1.5 FP32-sized "
          "elements of HBM traffic. The two FP32 BERT-Large rows on Trainium1 went from +47% and +20% to "
          "+35% and +11% (measured 1.8x slower than BF16 on the same layout and release; predicted 1.3x); "
          "PyTorch Neuron left out 40.1% -> 36.2%, leave-one-source-out 17.7% -> 17.3%, in sample 8.1% -> "
          "8.0% (p90 17.4% -> 16.3%), held-out 8.8% either way; no fitted constant moved and no other row "
          "(2026-12-03).",
          "- Blackwell's tensor units run no faster than the chip's power sustains for dense GEMMs: power over "
          "the energy of their FLOPs at the peak's clock, in proportion to the operand width (the power cap "
          "of the energy roofline, Choi et al. 2013; core/estimate.hpp, tensor_clock_fraction). The energy is "
          "set, not fitted: GB300's 1,400 W over its 2,500 TFLOP/s BF16 peak (0.56 pJ a 16-bit FLOP), the "
          "family's highest-power part taken to hold its clock exactly, one energy a FLOP assumed for Blackwell "
          "and Blackwell Ultra. So GB200 "
          "(1,200 W) runs dense BF16 and FP8 GEMMs at 86% of its clock, B300 (1,100 W) at 87%, B200 (1,000 "
          "W) at 79%, and Blackwell Ultra's FP4, 1.5x GB200's peak, at 67% on GB300 (the "
          "measured FP4 over FP8 gain is the same 1.35-1.38x on both). The 17 FP8 configurations published "
          "on both GB300 and GB200 measure GB300 1.09-1.28x as fast, where the printed peaks are equal. "
          "Fitted freely the energy trades with the GEMM efficiencies: with them it ran them to their bounds "
          "(FP8 at 95% of peak, 0.79 pJ), so it is set. The Blackwell BF16 and FP8 efficiencies went from "
          "0.41 and 0.60 to 0.52 and 0.66 of peak (B200's BF16 GEMMs at 0.41 of peak either way), its "
          "attention from 0.41 and 0.42 to 0.54, H100's FlashAttention-3-class attention from 0.58 to 0.60. "
          "Leave-one-source-out 17.3% -> 16.0% (SimuMax 16.3% -> 7.5%, NeMo/Megatron-Bridge 17.9% -> "
          "13.6%, torchtitan 17.2% -> 16.3%; MLPerf 4.7% -> 6.4% on its 8 rows), held-out 8.8% -> 8.7% "
          "(p90 15.3% -> 16.5%), in sample 8.0% -> 7.8% (p90 16.3% -> 15.9%; GB300 8.6% -> 7.4%, its p90 "
          "16.3% -> 20.3%; GB200 6.4% -> 6.6%), band "
          "coverage of sources never seen 81% -> 84% (2026-12-03).",
          "- Unfused attention on Trainium keeps its scores on chip where one head's fit: neuronx-cc places a "
          "graph's tensors in the NeuronCore's software-managed SBUF (`sram_mib`, per chip: 48 MiB on "
          "Trainium1, 24 a core; 224 and 256 on Trainium2 and Trainium3; AWS Neuron docs), taken here to hold one head's "
          "score matrix for one sequence where it fits the rank's share: on Trainium1 up to about 3,500 "
          "tokens in BF16, on a Trainium2 logical core (two cores, 56 MiB) about 5,400; a layer the backward "
          "does not recompute still stores its softmax output, written once and read once (core/estimate.cpp, "
          "attention_kernel). NeMo Megatron on Neuron runs no fused attention kernel, as the Megatron-LM "
          "reference it grew from (its rows, SDK 2.13-2.18, taken to predate the NKI flash-attention "
          "kernels; recalled): its Llama 2 rows at 4,096 tokens spill, its GPT-3 rows at 2,048 do not, the "
          "split its rows show (examined and not adopted on 2026-12-02 with every score through HBM, below). "
          "A fused attention kernel reaches no more of the peak than its group's large GEMMs "
          "(scripts/calibrate.py, attention_within_gemms): fitted without that bound, Trainium1's ran to 0.75 "
          "of peak beside GEMMs at 0.39. Trainium1 refit: large GEMMs 0.42 -> 0.40 of peak, attention 0.23 "
          "-> 0.40 (on the new bound, as Blackwell's, 0.54 -> 0.52; Trainium2's derived attention 0.24 -> "
          "0.43). The port's Llama 2 7B rows went from +71%..+73% to +34%..+36%, its Llama 2 13B rows on "
          "32 nodes from +41%..+42% to +13%..+14% (the two whose 16-node count the notes call suspect from "
          "-30%..-31% to -44%..-45%), its GPT-3 rows from -16%..0% to -19%..-4%, the Megatron-LM "
          "reference's (no score traffic at 2,048 tokens now) from -20%..+1% to -16%..+6%; PyTorch Neuron's "
          "within 1.6 points. Leave-one-source-out 16.0% -> 14.0% (NeMo Megatron on Neuron 31.7% -> 22.9%, "
          "Megatron-LM on Neuron 23.8% -> 15.8%, NeuronX Distributed 11.0% -> 9.9%, PyTorch Neuron 36.2% -> "
          "34.1%; NeMo/Megatron-Bridge 13.6% -> 13.8%), held-out 8.7% -> 8.9% (p90 16.5% -> 17.5%: the "
          "port's GPT-3 46B rows and BERT-Large at 512 tokens), in sample 7.8% -> 7.5% (p90 15.9% -> 15.8%; "
          "Trainium1 17.3% -> 15.6%), band coverage of sources never seen 84% either way (2026-12-03)."]


def ratio_range(values):
    v = sorted(values)
    if not v:
        return "no rows"
    return f"{v[0]:.2f}" if f"{v[0]:.2f}" == f"{v[-1]:.2f}" else f"{v[0]:.2f}-{v[-1]:.2f}"


def gb300_pairs(all_rows):
    """Measured and predicted GB300/GB200 throughput over the FP8 rows published for both on the
    same model, recipe and release (ids that differ only in the accelerator)."""
    by_id = counted_by_id(all_rows)
    pairs = [(r, by_id[i.replace("-GB300-", "-GB200-")]) for i, r in by_id.items()
             if "-GB300-" in i and "FP8" in i and i.replace("-GB300-", "-GB200-") in by_id]
    tps = "{}_tokens_per_s_per_chip"

    def ratios(kind, keep=lambda i: True):
        return ratio_range(a[tps.format(kind)] / b[tps.format(kind)] for a, b in pairs if keep(a["id"]))
    lora = lambda i: "LoRA" in i
    return (f"over the {len(pairs)} FP8 rows published for both on the same model, recipe and release, GB300 "
            f"is measured {ratios('measured')} times as fast as GB200 and predicted {ratios('predicted')} "
            f"(the LoRA rows, identical FP8 layouts of mostly frozen-weight GEMMs: measured "
            f"{ratios('measured', lora)}, predicted {ratios('predicted', lora)})")


def cell(c, key, default=None):
    """A CSV cell as an int, `default` when it is empty or not a whole number."""
    try:
        return int(c[key])
    except (KeyError, ValueError):
        return default


def local_expert_excess(all_rows):
    """The measured step's excess over the predicted one per micro-batch and layer of a stage, for
    Megatron-Bridge 25.11's mixture-of-experts rows, split at 8 experts a GPU: (ms of rows with more,
    their expert counts, ms of rows with fewer, their counts, ms per local expert of the first)."""
    pred = counted_by_id(all_rows)
    many, few = [], []
    for c in published_runs():
        r = pred.get(c["id"])
        if not r or not c["id"].startswith("MBRIDGE-25.11") or not c["moe_experts"]:
            continue
        chips, gb, seq, layers = (cell(c, k) for k in ("chips", "global_batch", "seq_len", "layers"))
        tp, pp, ep, vpp = (cell(c, k, 1) for k in ("tp", "pp", "ep", "vpp"))
        dp = chips // (tp * pp * cell(c, "cp", 1)) if chips else 0
        m = gb // (dp * cell(c, "micro_batch", 1)) if gb and dp else 0
        if not (m and seq and layers):
            continue
        step = {k: gb * seq / chips / r[f"{k}_tokens_per_s_per_chip"] for k in ("measured", "predicted")}
        # Interleaved 1F1B: m micro-batch slots plus (pp - 1) / vpp of bubble (Narayanan et al. 2021).
        ms = 1e3 * (step["measured"] - step["predicted"]) / ((m + (pp - 1) / vpp) * layers / pp)
        local = cell(c, "moe_experts") // ep
        (many if local > 8 else few).append((ms, local))

    def span(v, unit=" ms"):
        return f"{min(v):+.1f} to {max(v):+.1f}{unit}" if v else "no rows"

    def experts(v):
        return f"{min(n for _, n in v)}-{max(n for _, n in v)}" if v else "no"
    per_expert = [ms / n for ms, n in many]
    return (span([ms for ms, _ in many]), experts(many), span([ms for ms, _ in few]), experts(few),
            f"{min(per_expert):.1f}-{max(per_expert):.1f} ms" if per_expert else "no rows")


def scale_spread(all_rows, prefix):
    """How much faster per chip the rows of `prefix` on their largest cluster are measured than those
    on their smallest (the least and the most over every pair of the two), in percent; None when
    the rows do not span two cluster sizes."""
    chips = {c["id"]: cell(c, "chips") for c in published_runs()}
    rows = [r for r in all_rows if counted(r) and r["id"].startswith(prefix) and chips.get(r["id"])]
    sizes = sorted({chips[r["id"]] for r in rows})
    if len(sizes) < 2:
        return None
    small = [r["measured_tokens_per_s_per_chip"] for r in rows if chips[r["id"]] == sizes[0]]
    large = [r["measured_tokens_per_s_per_chip"] for r in rows if chips[r["id"]] == sizes[-1]]
    return f"{100 * (min(large) / max(small) - 1):.0f}-{100 * (max(large) / min(small) - 1):.0f}%", sizes[0], sizes[-1]


# What a run is measured on and with: every CSV column but its name, source, notes and measurement.
NOT_CONFIGURATION = {"id", "source", "origin", "notes", "measured_tokens_per_s_per_chip",
                     "measured_step_time_s", "known_issue"}


def best_single_figure_errors(measured):
    """The absolute errors of the one figure that predicts all of `measured` best (mean of
    |p / m - 1|, piecewise linear in p, so its minimum lies at one of the measurements)."""
    return min(([abs(p / m - 1) for m in measured] for p in measured), key=sum)


def repeated_configurations(all_rows):
    """Rows whose every configuration column repeats another row's, by family: how far the best one
    figure for each configuration lies from its rows. A model that reads only those columns predicts
    one figure for all of them, so this is a floor under the family's error that no mechanism can
    lower."""
    config = {c["id"]: tuple(v for k, v in sorted(c.items()) if k not in NOT_CONFIGURATION)
              for c in published_runs()}
    groups = {}
    for r in all_rows:
        if counted(r):
            groups.setdefault((r["family"], config[r["id"]]), []).append(r["measured_tokens_per_s_per_chip"])
    floor = {}
    for (family, _), measured in groups.items():
        n, dev = floor.get(family, (0, []))
        floor[family] = (n + len(measured), dev + (best_single_figure_errors(measured) if len(measured) > 1 else []))
    parts = [f"{family}, {len(dev)} of its {n} rows, {100 * sum(dev) / len(dev):.1f}% from the best one figure "
             f"for their configuration ({100 * sum(dev) / n:.1f} points of the family's mean error)"
             for family, (n, dev) in sorted(floor.items(), key=lambda t: -sum(t[1][1]) / t[1][0])
             if dev]
    everything = sum(sum(dev) for _, dev in floor.values()) / sum(n for n, _ in floor.values())
    return ("Rows measured on one configuration (every column of the CSV alike but the id, source, origin, "
            "notes, measurements and known_issue), by family: " + "; ".join(parts) + ". A model that reads "
            "those columns gives such rows one figure, so these are floors under the families' errors "
            f"(held-out rows included; over all rows, {100 * everything:.1f} points of the mean). Their rows "
            "differ in what no column holds: the Neuron SDK release, torchao's FP8 scaling and torchtitan's "
            "asynchronous tensor parallelism, FP8 against MXFP8, suspect node counts (all in the notes).")


def found_by_comparing_rows(all_rows):
    """Patterns read from the rows on 2026-12-02 that no mechanism of the model explains yet."""
    many, n_many, few, n_few, per_expert = local_expert_excess(all_rows)
    text = ("Found by comparing rows (the first, since 2026-12-03, modelled in part): " + gb300_pairs(all_rows) +
            ". The model's GB300 differs from GB200 in its FP4 and FP32 peaks, memory, exponential rate "
            "and power (1,400 W against 1,200 W), which sets the clock of dense GEMMs (the energy of a "
            "GEMM FLOP, above); NVIDIA prints the same FP8 and BF16 peaks for both. "
            "Megatron-Bridge 25.11's mixture-of-experts rows exceed their predicted step by " + many +
            " per micro-batch and layer of a stage where a GPU holds " + n_many + " experts, and by " + few +
            " where it holds " + n_few + ": " + per_expert + " per local expert beyond the kernel cost of "
            "each expert's six GEMMs, which the model counts, as if each launch, with its casts, cost several "
            "times the fitted kernel cost (a per-expert loop driven from the host would; the 26.x rows on the "
            "same layouts do not).")
    spread = scale_spread(all_rows, "TRN1-MLM-G67")
    if spread:
        faster, lo, hi = spread
        text += (f" The Megatron-LM-on-Neuron rows on {hi} chips are measured {faster} faster per chip than "
                 f"those on {lo} chips with the same layout and micro-batches a step (tensor parallel 8, "
                 "one sequence a micro-batch, 16 of them a step): no mechanism makes a larger cluster "
                 "faster per chip, so the spread is the releases' (their notes: SDK 2.3 to 2.13).")
    return text


def not_met(all_rows, lo, fig):
    """The accuracy issue's goals not met yet, what is known and not modelled, and what was tried and
    not kept (each with its out-of-sample figures)."""
    got, (lo_goal, hi_goal) = fig["loso_coverage"], COVERAGE_GOAL
    why = ("a source left out takes the scatter of its closest group's rows, another source's, and one "
           "band for every source of a platform holds the runs of the sources near its centre nearly "
           "always; " if got > hi_goal else
           "the families the model misses as a whole (a mean error left out well beyond the band's "
           "offsets) fall outside it; ")
    coverage = ("" if lo_goal <= got <= hi_goal else
                f", the band holding {100 * lo_goal:.0f}-{100 * hi_goal:.0f}% of the runs of sources it has never "
                f"seen ({100 * got:.0f}%: {why}by family, " +
                ", ".join(f"{f} {v[0]} of {v[1]}" for f, v in sorted(fig["loso_coverage_by_family"].items())) + ")")
    return ["", "Goals of the accuracy issue not met yet: leave-one-source-out mean <= 8% and every family <= 12% "
          "(above: " + ", ".join(f"{f} {100 * v['mae']:.1f}%" for f, v in sorted(lo.items(), key=lambda t: -t[1]["mae"])
                                 if v["mae"] > 0.12) + "), in-sample MAE <= 5% "
          "and p90 <= 12%, every accelerator with five rows or more <= 8%" + coverage + ". Known and not modelled: torchao's rowwise-scaled FP8 "
          "(measured slower than BF16 on Llama 3 8B, predicted faster: "
          + error_range(all_rows, lambda r: "Llama3-8B" in r["id"] and "fp8rw" in r["id"]) + "; the extra casts "
          "rowwise scaling needs, a second, column-wise copy of each GEMM input and output gradient for the "
          "weight gradient, and the tensor-parallel input gathered in BF16 and cast whole, come to about 10% of "
          "that step by a count of their HBM traffic, against the 35% measured: the rest would be the kernels' "
          "own speed, which no source read here gives), torchtitan's async tensor "
          "parallelism (above), the rest of Megatron-Bridge 25.11's MoE slowness (measured 1.7x slower "
          "than 26.06 on the same layout; one kernel cost per expert GEMM, above, closes about half of it "
          "for the rows with 16-32 experts a GPU, below), NVFP4 (the two FP4 rows: "
          + error_range(all_rows, lambda r: "NVFP4" in r["id"]) + "; the "
          "measured FP4/FP8 gain is 1.35-1.38x on both GB200 and GB300 against 2x in the peaks (GB300's FP4 "
          "peak, 1.5x GB200's, draws 1.5x the power and is held to GB200's FP4 rate a watt, above), as if "
          "some 15% of the layers' GEMMs stayed in BF16, which NVFP4 recipes are recalled to do; not "
          "modelled without the recipe checked), Megatron's recompute modules (a row's "
          "recompute_modules=[mla_up_proj] or [layernorm, moe_act] is timed as selective recompute of the "
          "attention core), and GPT-OSS, over-predicted on GB200/GB300 by "
          + error_range(all_rows, lambda r: "GPT-OSS" in r["id"] and r["accelerator"] in ("gb200", "gb300")
                        and not r["id"].startswith("MBRIDGE-25.11"))
          + " (Megatron-Bridge 26.x) for a reason not found. "
          "Tried and not kept: elementwise kernels whose launches overlap their memory traffic (the slower "
          "of the two a layer, as asynchronously launched kernels would run, instead of their sum; "
          "leave-one-source-out 14.9% -> 15.8%, held-out 10.5% -> 11.5%, torchtitan left out 14.9% -> 17.9%, "
          "PyTorch Neuron 36.6% -> 38.8%: the fixed per-kernel cost the fit finds is not hidden by long "
          "kernels), expert-parallel overlap without a pipeline (Megatron-Bridge 25.09 on; it "
          "moved leave-one-source-out from 16.4% to 17.6%, and again, with the output layer in BF16, from "
          "15.0% to 15.8%, held-out 10.5% -> 11.3%), a separate calibration for Blackwell Ultra "
          "(no out-of-sample gain), separate calibrations for HGX (B200, B300) and NVL72 (GB200, GB300) "
          "Blackwell (leave-one-source-out 16.3% -> 18.9%: SimuMax's HGX rows left out to 39%), a host "
          "dispatch cost per launched kernel fitted per framework beside the GPU's own (0-20 us: eager "
          "PyTorch against CUDA graphs; leave-one-source-out 15.0% -> 15.0%, held-out 10.5% -> 10.4% for "
          "four more constants, Megatron-LM's on its 20 us bound and FSDP's kernel count still on its 150), "
          "one calibration for both A100s (one die; leave-one-source-out 15.0% -> 14.9%, held-out 10.5% -> "
          "10.4%, five constants fewer, but then no family left out empties an accelerator's group, and "
          "the band of an accelerator without runs, Trainium2's and H200's, loses the one measurement of "
          "what predicting a chip from its relative's fit costs, and falls back to a guess as wide again), NeMo Megatron "
          "on Neuron without a fused attention kernel, as its Megatron-LM parent ran (leave-one-source-out "
          "15.0% -> 14.2%: NeMo on Neuron left out 31.7% -> 24.8%, its Llama 2 rows at 4,096 tokens from "
          "+70% to +40%, NeuronX Distributed 11.0% -> 7.3%, Megatron-LM on Neuron 19.9% -> 22.7%; held-out "
          "10.5% -> 10.6%; tried again before the per-expert launches above: 14.9% -> 14.1%, held-out 10.3% -> 10.5%, in "
          "sample 8.4% -> 8.1%, the same families moved alike): the score matrix through HBM weighs four "
          "times as much against a Llama 2 7B layer at 4,096 tokens as against a GPT-3 23B layer at 2,048, "
          "the pattern the rows show, but it narrows the gap between the port's Llama and GPT rows from "
          "about 80 points to 55, not to 0; which kernel the port ran is not in a source read here, and the "
          "fit alone does not choose it (2026-12-02; adopted on 2026-12-03 with the scores kept on chip "
          "where one head's fit, above); a GEMM tile's fixed work (prologue and epilogue) as "
          "256 elements of the inner dimension, rate x K / (K + 256) on GPUs, which slows the narrow "
          "tensor-parallel GEMMs that SimuMax's tp8 rows over-predict (leave-one-source-out 14.8% -> 15.0%: "
          "SimuMax 5.7% -> 5.1%, MosaicML 7.8% -> 8.9%, MLPerf 3.5% -> 4.2%; held-out 10.2% either way, in "
          "sample 8.3% -> 8.2%) (2026-12-02); fused attention held at 60% of peak or more (fitted: 42% on "
          "Blackwell), so that on B200 and GB200 the exponentials, as fast as the tensor cores' share of a "
          "score at full speed (FlashAttention-4's reading of Blackwell, recalled), set the attention's time "
          "and Blackwell Ultra's doubled exponential rate shows: GB300 in sample 9.1% -> 8.5%, but B200 "
          "8.7% -> 10.8%, SimuMax left out 5.1% -> 6.9%, held-out 8.6% -> 9.3%, leave-one-source-out "
          "14.6% -> 14.8% (2026-12-02); a deduplicating dispatcher whose expert-parallel group spans "
          "nodes sending a token over the network once to each node holding any of its experts, then "
          "forwarding it over NVLink, the two stages overlapped (DeepSeek-V3, arXiv 2412.19437, Section "
          "3.2.2; DeepEP's internode kernels): the one published run whose group spans nodes "
          "(Megatron-Bridge 26.06, Qwen3-30B-A3B on two H100 nodes, ep 16) went from -11% to +66%, its "
          "measured step leaving room for the copies to each rank crossing the network (as modelled), not "
          "for one a node; nothing else moved, so DeepSeek-V3's node-limited routing (at most 4 nodes a "
          "token), which bounds only the per-node copies, is not modelled either (2026-12-03).", "",
          found_by_comparing_rows(all_rows), "",
          repeated_configurations(all_rows)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    cli = calibrate.find_cli(args.cli)
    all_rows = validate(cli)
    if args.check:
        sys.exit(check(cli, all_rows))
    rows = [r for r in all_rows if counted(r)]
    left_out = loso(cli, all_rows)
    lo, residual, unseen_rows, _ = left_out
    unseen = unseen_spreads(unseen_rows)
    os.makedirs(os.path.join(ROOT, "presets/accuracy"), exist_ok=True)
    with open(os.path.join(ROOT, "presets/accuracy/uncertainty.json"), "w") as f:
        json.dump(uncertainty(rows, residual, unseen), f, indent=2)
        f.write("\n")
    rebuild(cli)
    all_rows = validate(cli)
    rows = [r for r in all_rows if counted(r)]
    fig = figures(cli, all_rows, left_out)

    L = ["# Accuracy against published training runs", "",
         f"Generated by `scripts/accuracy_report.py` on {datetime.date.today().isoformat()} from "
         "`tests/data/published_runs.csv` (sources in each row). Error = predicted / measured - 1 on "
         "tokens/s per chip (on step time where a row publishes only that); the same numbers come from "
         "`traincalc validate tests/data/published_runs.csv`, which also gives each row's band. The figure "
         "to quote is the out-of-sample one: a user's job is a run nobody has fitted. In CI, "
         "`tests/accuracy_loso.sh` enforces the targets of `TARGETS` in the script and "
         "`tests/test_accuracy.cpp` the in-sample ones.", ""]
    L += summary_lines(all_rows, fig, lo)
    L += what_moved(all_rows, fig)
    L += not_met(all_rows, lo, fig)
    L += bounded_constants()
    L += ["", "## The band", "",
          "A user's job is a run of a source nobody has measured, so its band is what a new source can "
          "expect: a source's offset (each family's mean out-of-sample error, shrunk towards its platform's mean by how "
          "much of it is more than the noise of a mean of few rows, one family one vote, over the "
          "families of its platform: GPU stacks or Neuron stacks) plus a run's scatter around its own "
          "family's offset, from the rows of its closest group (the accelerator with the framework where "
          "that group has nine or more rows, the fewest from which p10-p90 edges promise 80%, else the "
          "accelerator; relatives and wider bands for what no run covers, `src/io/uncertainty.cpp`). The edges are split-conformal (the order statistics of "
          "rank floor(0.1 (n+1)) and ceil(0.9 (n+1)) of the n offset-plus-scatter errors) and never exclude "
          "0. Out-of-sample errors are the leave-one-source-out predictions. Coverage is measured twice, both "
          "times through the CLI's own band: on every fitted row, with a band table built without its family "
          "(offsets and scatter alike; `validate --presets DIR` reads one) around the prediction of the "
          "calibration refitted without it, so that a row whose accelerator had too few runs left takes a "
          "relative's band, widened, as a new user's job would: the promise to a new source, which must hold "
          f"{100 * COVERAGE_GOAL[0]:.0f}-{100 * COVERAGE_GOAL[1]:.0f}%; and on the held-out rows with the "
          "shipped table, where the source is one the band has seen, so the band is conservative there."]
    L += trainium_section(rows)
    L += ["", "## Leave one source out", "",
          "The calibration is refitted without each source family (and never with the held-out rows) and "
          "that family is predicted with the refitted constants. Each refit starts from scratch, as the "
          "shipped fit does (every accelerator constant from the middle of its range, every framework "
          "constant from its prior), never from the shipped constants, which every family fitted. Only "
          "fitted constants are refitted: "
          "structural choices stay, and some were made with a family's rows in view, so that family's "
          "figure is partly in-sample. Neuron rows form one family per stack (NeuronX Distributed, NeMo "
          "Megatron on Neuron, Megatron-LM on Neuron, PyTorch Neuron): each is a separate table by "
          "separate authors.", "",
          "Rows whose accelerator had no runs left in the refit show what an accelerator without "
          "published runs can expect (the band of Trainium2, Trainium3 and H200 is widened by the "
          "first line):", "", "| predicted from | rows | MAE | p10 | p90 |", "|---|---|---|---|---|"]
    for kind, what in (("from_relative", "its relative's fit"), ("without_relative", "the mean of the other fits")):
        if kind in unseen:
            u = unseen[kind]
            L.append(f"| {what} ({', '.join(u['accelerators'])}) | {u['runs']} | {100 * u['mean_abs_error']:.1f}% | "
                     f"{pct(u['error_p10'])} | {pct(u['error_p90'])} |")
    L += ["", "## Predicted vs measured", "", "![predicted vs measured](accuracy.svg)", "",
          "## Every row", "",
          "Held-out rows are marked *held out*; \"left out\" is the row's error when its family was refitted out.", "",
          "| id | accelerator | model | software | measured | predicted | band | error | left out |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in all_rows:
        err = pct(r["error"]) if not r["problem"] else r["problem"]
        band = r.get("band_tokens_per_s_per_chip") or [0, 0]
        out = "*held out*" if calibrate.held_out(r["id"]) else (pct(residual[r["id"]]) if r["id"] in residual else "")
        if r.get("known_issue"):
            out = "*not counted: " + r["known_issue"] + "*"
        L.append(f"| {r['id']} | {r['accelerator']} | {r['model']} | {r.get('software', '')} | "
                 f"{r['measured_tokens_per_s_per_chip']:.0f} | {r['predicted_tokens_per_s_per_chip']:.0f} | "
                 f"{band[0]:.0f}-{band[1]:.0f} | {err} | {out} |")
    with open(os.path.join(ROOT, "docs/accuracy.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    with open(os.path.join(ROOT, "docs/accuracy.svg"), "w") as f:
        f.write(svg_plot(rows))
    print(f"wrote docs/accuracy.md, docs/accuracy.svg, presets/accuracy/uncertainty.json "
          f"(LOSO {100 * fig['loso_mean']:.1f}%, held-out {100 * fig['heldout_mae']:.1f}%, "
          f"coverage {100 * fig['heldout_coverage']:.0f}% / {100 * fig['loso_coverage']:.0f}%)")


if __name__ == "__main__":
    main()
