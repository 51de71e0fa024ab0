#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run):
#   1. scripts/setup.sh --test                   (Debian packages, Dear ImGui, playwright-core)
#   2. preset release: configure, build programs (GCC -O3 -Werror: the CLI that the scripts below
#                                                run, the model's benchmarks)
#   3. preset asan:  configure, build, ctest     (clang: the GoogleTest suite under ASan + UBSan)
#   4. preset web:   configure, build, ctest     (em++ -Wall -Wextra -Werror, core + CLI + UI)
#   5. every tests/*.sh                          (e.g. tests/native_vs_web.sh)
#   6. tests/e2e: npm test, if it defines one    (headless Chromium through playwright-core)
# Stops at the first failure with its name and exit code. Uses at most 2 parallel jobs.
#   scripts/test.sh --no-setup    skip step 1 (the machine is already set up)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # em++ links only with Debian's node-acorn on the path
export CTEST_OUTPUT_ON_FAILURE=1
export CMAKE_BUILD_PARALLEL_LEVEL=2

run_setup=1
for arg in "$@"; do
  case "$arg" in
    --no-setup) run_setup=0 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT
t_start=$SECONDS
timings=()
tests_passed=0

banner() { printf '\n==== [test] %s\n' "$*"; }
# step NAME COMMAND...: runs COMMAND, records its duration, and stops the run if it fails.
step() {
  local name=$1 t0=$SECONDS rc=0
  shift
  banner "$name: $*"
  "$@" || rc=$?
  if [ $rc -ne 0 ]; then
    printf '\n==== [test] FAILED: %s (exit code %d, after %ds; total %ds)\n' "$name" "$rc" $((SECONDS - t0)) $((SECONDS - t_start)) >&2
    exit $rc
  fi
  timings+=("$(printf '%-28s %4ds' "$name" $((SECONDS - t0)))")
}
# ctest_preset PRESET: ctest through its preset; counts the tests it ran.
ctest_preset() {
  local preset=$1 out=$log_dir/ctest-$1.log n
  ctest --preset "$preset" 2>&1 | tee "$out" || return $?
  n=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$out" | tail -1)
  tests_passed=$((tests_passed + ${n:-0}))
}
# script_step SCRIPT: runs a test script; adds N from its closing "N passed, 0 failed" line, if any.
script_step() {
  local out=$log_dir/script.log n
  bash "$1" 2>&1 | tee "$out" || return $?
  n=$(sed -n 's/^\([A-Za-z_]*: \)\{0,1\}\([0-9][0-9]*\) passed, 0 failed.*/\2/p' "$out" | tail -1)
  tests_passed=$((tests_passed + ${n:-0}))
}
preset() {
  local p=$1
  step "$p: configure" cmake --preset "$p"
  step "$p: build" cmake --build --preset "$p"
  step "$p: ctest" ctest_preset "$p"
}

if [ $run_setup -eq 1 ]; then
  step "setup" scripts/setup.sh --test
fi

# The suite runs once, under the sanitizers, which check all that a plain run does and more; a
# second, GCC debug build and run of it took 2.5 of the 12 minutes this command may take
# (issue 11). GCC compiles the model, the CLI and the model's benchmarks optimized, warnings as
# errors; clang compiles everything, the UI included, under the sanitizers and for the web.
step "release: configure" cmake --preset release
step "release: build programs" cmake --build --preset programs
preset asan
preset web

# Extra test scripts: each is run from the repo root and must exit 0 (a script may print that it
# skips, and exit 0, when what it checks does not exist yet).
shopt -s nullglob
for script in tests/*.sh; do
  step "$script" script_step "$script"
done
shopt -u nullglob

if [ -f tests/e2e/package.json ] &&
   node -e 'process.exit(require("./tests/e2e/package.json").scripts?.test ? 0 : 1)'; then
  step "e2e: npm test" npm --prefix tests/e2e test
  tests_passed=$((tests_passed + 1))
else
  banner "e2e: tests/e2e defines no test script yet; skipped"
fi

banner "all steps passed in $((SECONDS - t_start))s"
printf '  %s\n' "${timings[@]}"
echo "tests: $tests_passed passed, 0 failed"
