#!/usr/bin/env python3
"""Fit the accelerator calibration constants on published runs (tests/data/published_runs.csv).

Three constants per accelerator family -- large-GEMM efficiency, per-kernel launch cost and fused
attention efficiency -- are fitted by coordinate search to minimise the mean absolute error of
tokens/s per chip over that family's rows. Blackwell parts (b200, gb200) share one fit, since they
are the same die and have few rows each. Nothing is fitted per row, model or source.

  scripts/calibrate.py                      print the fit
  scripts/calibrate.py --write              write it into presets/accelerators.json
  scripts/calibrate.py --exclude Neuron     fit without one source family (leave-one-source-out)

Needs a built CLI (build/debug/traincalc, or --cli PATH). Standard library only.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS = {"a100-40gb": ["a100-40gb"], "a100-80gb": ["a100-80gb"], "h100-sxm": ["h100-sxm", "h200"],
          "blackwell": ["b200", "gb200"], "trainium1": ["trainium1", "trainium2", "trainium3"]}
# Which fitted accelerators carry their group's values: accelerators without published runs
# (h200, trainium2, trainium3) take the fit of their closest relative (same core or generation).
PARAMS = [("matmul_efficiency_max", 0.25, 0.95), ("matmul_overhead_us", 1.0, 80.0),
          ("attention_efficiency", 0.15, 0.85)]


def find_cli(path):
    for p in [path, os.path.join(ROOT, "build/debug/traincalc"), os.path.join(ROOT, "build/release/traincalc")]:
        if p and os.path.exists(p):
            return p
    sys.exit("calibrate.py: build the CLI first (cmake --preset debug && cmake --build --preset debug)")


def run(cli, accel_doc, csv_path):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "accelerators.json"), "w") as f:
            json.dump(accel_doc, f)
        out = subprocess.run([cli, "validate", csv_path, "--format", "json", "--presets", d],
                             capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def objective(rows, accels, exclude):
    errs = [abs(r["error"]) for r in rows
            if r["accelerator"] in accels and not r["problem"] and r["family"] not in exclude]
    return sum(errs) / len(errs) if errs else 0.0, len(errs)


def fit(cli, csv_path, exclude, rounds=4):
    doc = json.load(open(os.path.join(ROOT, "presets/accelerators.json")))
    by_id = {a["id"]: a for a in doc["accelerators"]}
    result = {}
    for group, members in GROUPS.items():
        fitted = [m for m in members if m in by_id]
        if not fitted:
            continue
        cal = dict(by_id[fitted[0]]["calibration"])

        def score(c):
            for m in fitted:
                by_id[m]["calibration"].update({k: c[k] for k, _, _ in PARAMS})
            return objective(run(cli, doc, csv_path), fitted, exclude)

        best, n = score(cal)
        if n == 0:
            continue
        for _ in range(rounds):
            for key, lo, hi in PARAMS:
                for step in (0.5, 0.2, 0.08, 0.03):
                    improved = True
                    while improved:
                        improved = False
                        for sign in (-1, 1):
                            trial = dict(cal)
                            trial[key] = min(hi, max(lo, cal[key] * (1 + sign * step)))
                            s, _ = score(trial)
                            if s < best - 1e-6:
                                best, cal, improved = s, trial, True
        score(cal)
        result[group] = {"members": fitted, "mae": best, "rows": n,
                         "calibration": {k: round(cal[k], 4) for k, _, _ in PARAMS}}
    return doc, result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli")
    ap.add_argument("--csv", default=os.path.join(ROOT, "tests/data/published_runs.csv"))
    ap.add_argument("--exclude", action="append", default=[], help="source family to leave out")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    cli = find_cli(args.cli)
    doc, result = fit(cli, args.csv, set(args.exclude))
    print(json.dumps(result, indent=1))
    if args.write:
        by_id = {a["id"]: a for a in doc["accelerators"]}
        for group, r in result.items():
            for m in GROUPS[group]:
                if m not in by_id:
                    continue
                c = by_id[m]["calibration"]
                c.update(r["calibration"])
                rows = ", ".join(r["members"])
                c["fitted_on"] = (f"scripts/calibrate.py on the {r['rows']} published runs of {rows} in "
                                  f"tests/data/published_runs.csv (MAE {100 * r['mae']:.1f}%); see docs/accuracy.md"
                                  + ("" if m in r["members"] else f"; {m} has no published runs and takes this fit"))
        with open(os.path.join(ROOT, "presets/accelerators.json"), "w") as f:
            json.dump(doc, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
