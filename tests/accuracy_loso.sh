#!/usr/bin/env bash
# Leave-one-source-out accuracy: refits the calibration without each source family of
# tests/data/published_runs.csv, predicts that family, and fails unless the mean error of those
# predictions (and the all-rows MAE and p90) meet their targets. Writes nothing.
# Environment: TRAINCALC_NATIVE (the CLI, default build/debug/traincalc).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/accuracy_report.py --check --cli "${TRAINCALC_NATIVE:-build/debug/traincalc}"
