#!/usr/bin/env bash
# Browser end-to-end test of the web calculator (tests/e2e/calculator.mjs) in Debian's Chromium.
# Builds what it needs (the CLI of the debug preset, the page through scripts/serve.sh
# --build-only), serves build/site on a free 127.0.0.1 port with python3's http.server, plus a
# copy under /ops/ whose presets.json lists a broken preset file, runs the checks, and stops the
# server. Artifacts (desktop and phone screenshots, scenarios, page size, summary) land in
# build/e2e/; CI uploads them.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
say() { printf '[e2e] %s\n' "$*"; }

for need in /usr/bin/chromium node python3; do
  command -v "$need" >/dev/null || { say "missing $need: run scripts/setup.sh --test" >&2; exit 1; }
done
[ -d tests/e2e/node_modules/playwright-core ] ||
  { say "missing playwright-core in tests/e2e: run scripts/setup.sh --test" >&2; exit 1; }

t0=$SECONDS
[ -f build/release/build.ninja ] || cmake --preset release >/dev/null
cmake --build --preset release --target traincalc >/dev/null
scripts/serve.sh --no-setup --build-only
# The download size: every file of the page, gzip -9. Issue 13's goal is 300 KB; the page is
# about 470 KB today (docs/performance.md), so this ceiling stops it growing until the goal is met.
# Raised from 470,000 on 2026-12-03 by the band kept by class of model (its table and lookup,
# 470,116 bytes), then from 470,600 by LoRA's fused and per-expert adapters and FP8 weight
# quantization with their preset sources (470,972 bytes), then from 471,400 by the pipeline ranks'
# placement of a mixture's dense layers and its model field (471,808 bytes), then from 472,200 by
# the per-step host cost of Trainium's traced-graph stacks, its step term and sources (473,178),
# then from 473,600 by timing each pipeline rank with its own layers, the layout warnings and
# their explanations (474,862), then on 2026-12-04 by the prediction modules, the pace warning,
# stated first and last stages and the review's fixes (477,746; docs/performance.md lists each),
# then on 2026-12-05 by rowwise FP8 scaling and asynchronous TP (485,764), then by each expert's
# quantize launches in stacks that launch experts one by one (486,237).
mkdir -p build/e2e
size_rc=0
scripts/page_size.sh build/site --budget 486300 | tee build/e2e/page-size.txt || size_rc=$?

root=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$root"
}
trap cleanup EXIT
cp -r build/site/. "$root/"
rm -f "$root/presets.json"
mkdir -p "$root/ops/presets"
cp build/site/index.html build/site/app.js build/site/style.css build/site/traincalc-web.js build/site/traincalc-web.wasm "$root/ops/"
echo '["presets/bad-prices.json"]' >"$root/ops/presets.json"
echo '{"schema": "traincalc.instances/1", "instances": [{"id": 7}]}' >"$root/ops/presets/bad-prices.json"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
python3 -m http.server --bind 127.0.0.1 --directory "$root" "$port" >"$root.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
  sleep 0.1
done

rc=0
timeout 300 node tests/e2e/calculator.mjs --base "http://127.0.0.1:$port/" --cli build/release/traincalc \
  --out build/e2e || rc=$?
rm -f "$root.log"
say "finished in $((SECONDS - t0)) s (build included)"
[ $size_rc -eq 0 ] || { say "FAIL page size over budget (build/e2e/page-size.txt)"; rc=1; }
exit $rc
