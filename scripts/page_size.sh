#!/usr/bin/env bash
# The page's download size: every file a browser fetches to start the calculator (index.html,
# app.js, style.css, traincalc-web.js, traincalc-web.wasm), each gzip -9 compressed as a server
# sends it, and the total against the budget of issue 13 (300 KB = 300,000 bytes).
#   scripts/page_size.sh [SITE_DIR] [--budget BYTES]     (default build/site, 300000)
# Exits 1 when the total is over the budget.
set -euo pipefail
cd "$(dirname "$0")/.."
site=build/site
budget=300000
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget=${2:?--budget needs a byte count}; shift ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) site=$1 ;;
  esac
  shift
done
total=0
printf '%-22s %10s %10s\n' file bytes gzip-9
for f in index.html app.js style.css traincalc-web.js traincalc-web.wasm; do
  [ -f "$site/$f" ] || { echo "page_size: $site/$f is missing (build the site: scripts/serve.sh --build-only)" >&2; exit 2; }
  raw=$(stat -c %s "$site/$f")
  gz=$(gzip -9c "$site/$f" | wc -c)
  total=$((total + gz))
  printf '%-22s %10d %10d\n' "$f" "$raw" "$gz"
done
printf '%-22s %10s %10d  (budget %d)\n' total '' "$total" "$budget"
[ "$total" -le "$budget" ] || { echo "page_size: $total bytes gzipped, over the budget of $budget" >&2; exit 1; }
