#!/usr/bin/env bash
# Short libFuzzer runs (CI): each target of fuzz/ for TRAINCALC_FUZZ_SECONDS (default 50, all of
# them at once: about 20 s of a core each) from its seed corpus, generated from the presets and seed scenarios at build time. A crash, sanitizer
# report, leak, timeout (10 s for one input) or broken invariant fails the script and prints the
# input, so that it can be replayed (`build/asan/fuzz/fuzz_scenario FILE`) and become a test in
# tests/test_regressions.cpp. The long local runs are recorded in docs/reliability.md.
# Environment: TRAINCALC_FUZZ_BUILD (default build/asan, the asan preset; configured if missing),
#              TRAINCALC_FUZZ_SECONDS, TRAINCALC_FUZZ_TARGETS (default: all five),
#              TRAINCALC_FUZZ_JOBS (targets run at a time, default all).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TRAINCALC_FUZZ_BUILD:-build/asan}
seconds=${TRAINCALC_FUZZ_SECONDS:-50}
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
# fuzz_one TARGET: runs one target; its report goes to $work/NAME.report, its exit code to NAME.rc.
fuzz_one() {
  local t=$1 name=${1#fuzz_} rc=0 runs cov
  local corpus=$build/fuzz/corpus/$name out=$work/$name.report
  mkdir -p "$work/$name"
  echo "fuzz: $t for ${seconds}s from $(ls "$corpus" | wc -l) seeds" >"$out"
  "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$build/fuzz/corpus/$name.dict" -artifact_prefix="$work/$name-" \
    "$work/$name" "$corpus" >"$work/$name.log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "ok   $t: ${runs:-?} executions in ${seconds}s, $cov, no crash" >>"$out"
  else
    {
      echo "FAIL $t (exit $rc): the end of its log:"
      grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' "$work/$name.log" | tail -40
      for f in "$work/$name"-*; do
        [ -f "$f" ] || continue
        echo "---- input $(basename "$f") ($(wc -c <"$f") bytes), base64:"
        base64 -w0 "$f" | head -c 4000
        echo
      done
    } >>"$out"
  fi
  echo $rc >"$work/$name.rc"
}

# Every target at once: on two cores five fuzzers of 50 s each get about 20 s of a core each,
# what five runs of 20 s one after another got, in half the time and with no core idle at the
# end (two at a time left one idle for the fifth).
jobs=${TRAINCALC_FUZZ_JOBS:-${#targets[@]}}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
passed=0
failed=0
for t in "${targets[@]}"; do
  name=${t#fuzz_}
  cat "$work/$name.report"
  if [ "$(cat "$work/$name.rc")" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
