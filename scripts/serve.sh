#!/usr/bin/env bash
# Placeholder until the web app exists (it will build the web preset and serve it on localhost):
# for now, builds the native command line (debug preset) and prints the estimate of the default
# scenario (presets/scenarios/default.json, else the first built-in scenario).
#   scripts/serve.sh [--format json|text]     (default: text)
set -euo pipefail
cd "$(dirname "$0")/.."
format=text
if [ "${1:-}" = "--format" ] && [ -n "${2:-}" ]; then format=$2; fi

say() { printf '[serve] %s\n' "$*"; }
if [ ! -f build/debug/build.ninja ]; then
  say "configuring the debug preset (cmake --preset debug)"
  cmake --preset debug >/dev/null
fi
say "building the command line (cmake --build --preset debug --target traincalc)"
cmake --build --preset debug --target traincalc >/dev/null

scenario=presets/scenarios/default.json
if [ ! -f "$scenario" ]; then
  shopt -s nullglob
  all=(presets/scenarios/*.json)
  shopt -u nullglob
  [ ${#all[@]} -gt 0 ] || { say "no scenario in presets/scenarios/ yet"; exit 1; }
  scenario=${all[0]}
fi
say "build/debug/traincalc estimate $scenario --format $format"
build/debug/traincalc estimate "$scenario" --format "$format"
