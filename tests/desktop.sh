#!/usr/bin/env bash
# The native desktop app opens a real window (Xvfb), renders every seed scenario for a few
# frames and exits cleanly. Built by the programs build preset (release, optimized).
set -euo pipefail
cd "$(dirname "$0")/.."
app=build/release/traincalc-desktop
command -v xvfb-run >/dev/null || { echo "desktop: xvfb-run missing: run scripts/setup.sh --test" >&2; exit 1; }
if [ ! -x "$app" ]; then
  [ -f build/release/build.ninja ] || cmake --preset release >/dev/null
  cmake --build --preset release --target traincalc-desktop >/dev/null
fi
passed=0
for f in presets/scenarios/*.json; do
  if timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$app" "$f" --frames 30 >/dev/null 2>&1; then
    passed=$((passed + 1))
  else
    echo "desktop: $f: the app failed (exit $?)" >&2
    exit 1
  fi
done
echo "desktop: $passed passed, 0 failed"
