#!/usr/bin/env python3
"""Before/after guard for changes of structure: the CLI must print the same results.

  scripts/golden_diff.py record [--cli PATH] [--dir DIR]   store the outputs as the baseline
  scripts/golden_diff.py check  [--cli PATH] [--dir DIR]   run again and diff against the baseline

Runs the built CLI (default build/release/traincalc) over
  - every preset scenario: `estimate FILE --format json` and `--format text`, and, where the
    scenario lists compare_instances, `compare FILE --format json|csv|markdown|text`;
  - the published runs: `validate tests/data/published_runs.csv --format json`.
JSON outputs must have the same structure, strings and booleans, and every number within a
relative difference of 1e-12; text, CSV and Markdown must be identical. Exit codes and stderr
are part of the output (a scenario that was rejected must be rejected the same way).
The baseline (default build/golden) is a local artefact, not kept in the repository: record it
from the revision the change starts from.
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REL_TOL = 1e-12


def cases():
    """(name, argv, kind) for every output the guard covers; kind is json or text."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "presets/scenarios/*.json"))):
        rel = os.path.relpath(path, ROOT)
        stem = os.path.splitext(os.path.basename(path))[0]
        out.append((f"estimate-{stem}.json", ["estimate", rel, "--format", "json"], "json"))
        out.append((f"estimate-{stem}.txt", ["estimate", rel, "--format", "text"], "text"))
        with open(path) as f:
            doc = json.load(f)
        if doc.get("compare_instances"):
            out.append((f"compare-{stem}.json", ["compare", rel, "--format", "json"], "json"))
            for fmt in ("csv", "markdown", "text"):
                out.append((f"compare-{stem}.{fmt}", ["compare", rel, "--format", fmt], "text"))
    runs = "tests/data/published_runs.csv"
    out.append(("validate.json", ["validate", runs, "--format", "json"], "json"))
    return out


def run(cli, argv):
    p = subprocess.run([cli] + argv, cwd=ROOT, capture_output=True, text=True)
    return {"argv": argv, "rc": p.returncode, "stdout": p.stdout, "stderr": p.stderr}


def diff_json(a, b, where, problems):
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None or isinstance(a, str):
        if a != b or type(a) is not type(b):
            problems.append(f"{where}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}")
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if a != b and not (math.isfinite(a) and math.isfinite(b) and
                           abs(a - b) <= REL_TOL * max(abs(a), abs(b))):
            problems.append(f"{where}: {a!r} != {b!r}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            problems.append(f"{where}: {len(a)} items != {len(b)} items")
        for i, (x, y) in enumerate(zip(a, b)):
            diff_json(x, y, f"{where}[{i}]", problems)
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                problems.append(f"{where}.{k}: only in the {'baseline' if k in a else 'new output'}")
            else:
                diff_json(a[k], b[k], f"{where}.{k}", problems)
    else:
        problems.append(f"{where}: {type(a).__name__} != {type(b).__name__}")


def compare(name, kind, old, new):
    problems = []
    for field in ("rc", "stderr"):
        if old[field] != new[field]:
            problems.append(f"{field}: {old[field]!r} != {new[field]!r}")
    if kind == "json" and old["rc"] == 0 and new["rc"] == 0:
        diff_json(json.loads(old["stdout"]), json.loads(new["stdout"]), "$", problems)
    elif old["stdout"] != new["stdout"]:
        a, b = old["stdout"].splitlines(), new["stdout"].splitlines()
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else "<end>"
            y = b[i] if i < len(b) else "<end>"
            if x != y:
                problems.append(f"line {i + 1}:\n    - {x}\n    + {y}")
    return [f"{name}: {p}" for p in problems]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["record", "check"])
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/release/traincalc"))
    ap.add_argument("--dir", default=os.path.join(ROOT, "build/golden"))
    args = ap.parse_args()
    if not os.path.isfile(args.cli):
        sys.exit(f"golden_diff: {args.cli} is missing: build it first")
    os.makedirs(args.dir, exist_ok=True)
    problems = []
    todo = cases()
    for name, argv, kind in todo:
        result = run(args.cli, argv)
        path = os.path.join(args.dir, name + ".out.json")
        if args.action == "record":
            with open(path, "w") as f:
                json.dump(result, f, indent=1)
            continue
        if not os.path.isfile(path):
            problems.append(f"{name}: no baseline (run `record` first)")
            continue
        with open(path) as f:
            problems += compare(name, kind, json.load(f), result)
    if args.action == "record":
        print(f"golden_diff: recorded {len(todo)} outputs in {args.dir}")
        return 0
    for p in problems:
        print(p)
    print(f"golden_diff: {len(todo)} outputs, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
