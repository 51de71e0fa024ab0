#!/usr/bin/env bash
# Native and WebAssembly builds must compute the same estimates. For each built-in scenario
# (presets/scenarios/*.json), every preset model on every preset instance (a generated scenario
# per pair, the plan searched; ids from `traincalc list ... --format json`) and a few test
# scenarios (tests/data/scenarios/*.json), runs
#   native:  build/release/traincalc estimate FILE
#   web:     node --no-experimental-fetch build/web/traincalc.js estimate FILE
#            (all of them in one node process per job: tests/wasm_cli.mjs)
# and compares the two JSON outputs: same structure, same strings and booleans, and every number
# within a relative difference of 1e-9. A scenario that one build rejects must be rejected by the
# other with the same exit code and message.
# Environment: TRAINCALC_NATIVE, TRAINCALC_WEB_JS (the two programs), TRAINCALC_MAX_DATA_SCENARIOS
# (how many tests/data scenarios, default 10; spread evenly over the sorted list),
# TRAINCALC_PRESET_GRID (1, the default: include the model x instance grid; 0: leave it out),
# TRAINCALC_JOBS (scenarios run at a time, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
native=${TRAINCALC_NATIVE:-build/release/traincalc}
web_js=${TRAINCALC_WEB_JS:-build/web/traincalc.js}
max_data=${TRAINCALC_MAX_DATA_SCENARIOS:-10}
grid=${TRAINCALC_PRESET_GRID:-1}

shopt -s nullglob
presets=(presets/scenarios/*.json)
data=(tests/data/scenarios/*.json)
shopt -u nullglob
# A few of the test scenarios, spread over the sorted list.
picked=()
n=${#data[@]}
if [ "$n" -le "$max_data" ]; then
  picked=("${data[@]}")
else
  for ((i = 0; i < max_data; i++)); do picked+=("${data[$((i * n / max_data))]}"); done
fi
files=("${presets[@]}" "${picked[@]}")
if [ ${#files[@]} -eq 0 ]; then
  echo "native_vs_web: no scenario files (presets/scenarios/*.json, tests/data/scenarios/*.json) yet: skipped"
  exit 0
fi
for prog in "$native" "$web_js"; do
  if [ ! -f "$prog" ]; then
    echo "native_vs_web: $prog is missing: build it first (cmake --build --preset programs / --preset web)" >&2
    exit 1
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$grid" = 1 ]; then
  # Every preset model on every preset instance: 2 nodes where the instance has a network, else 1.
  mkdir -p "$work/grid"
  "$native" list models --format json >"$work/models.json"
  "$native" list instances --format json >"$work/instances.json"
  python3 - "$work" <<'EOF_GRID'
import json, os, sys
work = sys.argv[1]
models = json.load(open(os.path.join(work, "models.json")))
instances = json.load(open(os.path.join(work, "instances.json")))
for m in models:
    for i in instances:
        nodes = 2 if float(i["inter_node_gbps"]) > 0 else 1
        doc = {"model": m["id"], "instance": i["id"], "nodes": nodes,
               "training": {"tokens": 1e11}, "baseline_instance": "p5.48xlarge"}
        with open(os.path.join(work, "grid", f"{m['id']}@{i['id']}.json"), "w") as f:
            json.dump(doc, f)
print(f"native_vs_web: {len(models)} models x {len(instances)} instances generated")
EOF_GRID
  files+=("$work"/grid/*.json)
fi
# Native: one process per scenario, two at a time (the machine's two cores; TRAINCALC_JOBS).
# Web: every scenario through tests/wasm_cli.mjs, which compiles the module once and runs each
# scenario in a fresh instance, in as many node processes as jobs. Outputs land in $work/N.*.
run_native() {
  local i=$1 f=$2 rc=0
  "$native" estimate "$f" >"$work/$i.native.out" 2>"$work/$i.native.err" || rc=$?
  echo "$rc" >"$work/$i.native.rc"
}
jobs_max=${TRAINCALC_JOBS:-2}
i=0
for f in "${files[@]}"; do
  i=$((i + 1))
  echo "$f" >"$work/$i.name"
  run_native "$i" "$f" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
done
wait
python3 - "$work" "$i" "$jobs_max" <<'EOF_JOBS'
import json, os, sys
work, count, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(1, count + 1):
    name = open(os.path.join(work, f"{i}.name"), encoding="utf-8").read().strip()
    with open(os.path.join(work, f"web-jobs.{i % jobs}"), "a", encoding="utf-8") as f:
        f.write(json.dumps([os.path.join(work, f"{i}.web"), "estimate", name]) + "\n")
EOF_JOBS
pids=()
for ((j = 0; j < jobs_max && j < i; j++)); do
  node --no-experimental-fetch tests/wasm_cli.mjs "$web_js" "$work/web-jobs.$j" &
  pids+=($!)
done
for p in "${pids[@]}"; do
  wait "$p" || { echo "native_vs_web: tests/wasm_cli.mjs failed (exit $?)" >&2; exit 1; }
done

python3 - "$work" "$i" <<'EOF'
import json, math, os, sys

work, count = sys.argv[1], int(sys.argv[2])
REL = 1e-9

def read(i, what):
    with open(os.path.join(work, f"{i}.{what}"), encoding="utf-8") as f:
        return f.read()

def compare(a, b, path, diffs, stats):
    """Appends to diffs a line for each difference between a (native) and b (web)."""
    if isinstance(a, bool) or isinstance(b, bool):
        if a is not b:
            diffs.append(f"{path}: {a!r} (native) != {b!r} (web)")
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        stats["numbers"] += 1
        if a == b:
            return
        scale = max(abs(a), abs(b))
        rel = abs(a - b) / scale if scale > 0 and math.isfinite(scale) else math.inf
        stats["max_rel"] = max(stats["max_rel"], rel)
        if not rel < REL:
            diffs.append(f"{path}: {a!r} (native) vs {b!r} (web): relative difference {rel:.3g}")
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() - b.keys()):
            diffs.append(f"{path}.{k}: only in the native output")
        for k in sorted(b.keys() - a.keys()):
            diffs.append(f"{path}.{k}: only in the web output")
        for k in a.keys() & b.keys():
            compare(a[k], b[k], f"{path}.{k}", diffs, stats)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            diffs.append(f"{path}: {len(a)} items (native) vs {len(b)} (web)")
        for k, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{path}[{k}]", diffs, stats)
    elif type(a) is not type(b) or a != b:
        diffs.append(f"{path}: {a!r} (native) != {b!r} (web)")

failed = 0
stats = {"numbers": 0, "max_rel": 0.0}
for i in range(1, count + 1):
    name = read(i, "name").strip()
    if "/grid/" in name:
        name = "grid: " + os.path.basename(name)[:-5]
    rc_n, rc_w = int(read(i, "native.rc")), int(read(i, "web.rc"))
    diffs = []
    if rc_n != rc_w:
        diffs.append(f"exit code {rc_n} (native) vs {rc_w} (web)")
    elif rc_n != 0:
        err_n, err_w = read(i, "native.err").strip(), read(i, "web.err").strip()
        if err_n != err_w:
            diffs.append(f"different messages:\n      native: {err_n}\n      web:    {err_w}")
    else:
        try:
            a = json.loads(read(i, "native.out"))
            b = json.loads(read(i, "web.out"))
        except json.JSONDecodeError as e:
            diffs.append(f"output is not JSON: {e}")
        else:
            compare(a, b, "$", diffs, stats)
    if diffs:
        failed += 1
        print(f"FAIL {name}")
        for d in diffs[:20]:
            print(f"    {d}")
        if len(diffs) > 20:
            print(f"    ... and {len(diffs) - 20} more differences")
        for side in ("native", "web"):
            err = read(i, f"{side}.err").strip()
            if err:
                print(f"    {side} stderr: {err[:500]}")
    else:
        what = "same JSON" if rc_n == 0 else f"both rejected it (exit {rc_n}), same message"
        print(f"ok   {name}: {what}")

print(f"native_vs_web: {count} scenarios, {stats['numbers']} numbers compared, "
      f"largest relative difference {stats['max_rel']:.3g} (limit {REL:g})")
print(f"native_vs_web: {count - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
EOF
