#!/usr/bin/env bash
# Out-of-sample accuracy: refits the calibration without each source family of
# tests/data/published_runs.csv and predicts that family, predicts the held-out split with the
# shipped calibration, measures the band's coverage, and fails unless every figure meets its target
# (TARGETS in scripts/accuracy_report.py). Writes nothing.
# The ten refits start from scratch and evaluate tens of thousands of preset variants, each through
# one long-running `traincalc validate --batch` a thread (about 3 minutes on two cores, 6 when each
# variant started the CLI anew): it is built optimized (preset release, CLI only).
# Environment: TRAINCALC_NATIVE_OPTIMIZED (an optimized CLI to use instead).
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${TRAINCALC_NATIVE_OPTIMIZED:-}
if [ -z "$cli" ]; then
  cmake --preset release >/dev/null
  cmake --build --preset release --target traincalc >/dev/null
  cli=build/release/traincalc
fi
python3 scripts/accuracy_report.py --check --cli "$cli"
