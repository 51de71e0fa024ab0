#!/usr/bin/env bash
# Short libFuzzer runs (CI): each target of fuzz/ for TRAINCALC_FUZZ_SECONDS (default 20) from its
# seed corpus, generated from the presets and seed scenarios at build time. A crash, sanitizer
# report, leak, timeout (10 s for one input) or broken invariant fails the script and prints the
# input, so that it can be replayed (`build/asan/fuzz/fuzz_scenario FILE`) and become a test in
# tests/test_regressions.cpp. The long local runs are recorded in docs/reliability.md.
# Environment: TRAINCALC_FUZZ_BUILD (default build/asan, the asan preset; configured if missing),
#              TRAINCALC_FUZZ_SECONDS, TRAINCALC_FUZZ_TARGETS (default: all five).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TRAINCALC_FUZZ_BUILD:-build/asan}
seconds=${TRAINCALC_FUZZ_SECONDS:-20}
targets=(${TRAINCALC_FUZZ_TARGETS:-fuzz_scenario fuzz_presets fuzz_url_hash fuzz_validate fuzz_compare})

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ is missing (scripts/setup.sh --test installs clang and libclang-rt-14-dev)" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  if [ "$build" != build/asan ]; then
    echo "fuzz: $build is not a configured build directory" >&2
    exit 1
  fi
  cmake --preset asan
fi
cmake --build "$build" -j2 --target "${targets[@]}" fuzz_corpus

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
for t in "${targets[@]}"; do
  name=${t#fuzz_}
  corpus=$build/fuzz/corpus/$name
  mkdir -p "$work/$name"
  echo "fuzz: $t for ${seconds}s from $(ls "$corpus" | wc -l) seeds"
  rc=0
  "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$build/fuzz/corpus/$name.dict" -artifact_prefix="$work/$name-" \
    "$work/$name" "$corpus" >"$work/$name.log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "ok   $t: ${runs:-?} executions in ${seconds}s, $cov, no crash"
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $t (exit $rc): the end of its log:"
    grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' "$work/$name.log" | tail -40
    for f in "$work/$name"-*; do
      [ -f "$f" ] || continue
      echo "---- input $(basename "$f") ($(wc -c <"$f") bytes), base64:"
      base64 -w0 "$f" | head -c 4000
      echo
    done
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
