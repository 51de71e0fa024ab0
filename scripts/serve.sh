#!/usr/bin/env bash
# The README's first command: installs what is missing (scripts/setup.sh), builds the web
# calculator (preset "web"), gathers the page in build/site/ and serves it on 127.0.0.1, printing
# the URL of the default scenario: Llama 3.1 70B on trn2.48xlarge against p5.48xlarge.
#   scripts/serve.sh [--port N] [--no-setup] [--build-only]
#     --port N       first port to try (default 8000; the next free one is used)
#     --no-setup     skip scripts/setup.sh (the machine is already set up)
#     --build-only   build build/site/ and exit (CI, the pages workflow, tests/e2e.sh)
# Site operators may put presets.json (a list of preset files) and those files in build/site/.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # em++ links only with Debian's node-acorn on the path
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}

port=8000
setup=1
serve=1
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=${2:?--port needs a number}; shift ;;
    --no-setup) setup=0 ;;
    --build-only) serve=0 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "serve.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

say() { printf '[serve] %s\n' "$*"; }

if [ $setup -eq 1 ]; then scripts/setup.sh; fi
if [ ! -f build/web/build.ninja ]; then
  say "configuring the web preset (cmake --preset web)"
  cmake --preset web >/dev/null
fi
say "building the web calculator (cmake --build --preset web --target traincalc-web)"
log=$(mktemp)
if ! cmake --build --preset web --target traincalc-web >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  say "the web build failed (above)"
  exit 1
fi
tail -n 1 "$log"
rm -f "$log"

site=build/site
say "gathering the page in $site/"
mkdir -p "$site"
# Keep an operator's presets.json and preset files; replace the page itself.
cp web/index.html web/app.js web/style.css "$site/"
cp build/web/traincalc-web.js build/web/traincalc-web.wasm "$site/"
wasm_kib=$(( $(stat -c %s "$site/traincalc-web.wasm") / 1024 ))
gz_kib=$(( $(gzip -9c "$site/traincalc-web.wasm" | wc -c) / 1024 ))
say "traincalc-web.wasm: ${wasm_kib} KiB (${gz_kib} KiB gzipped)"
[ $serve -eq 1 ] || exit 0

# The first free port from $port on.
port=$(python3 - "$port" <<'PY'
import socket, sys
p = int(sys.argv[1])
for cand in range(p, p + 100):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", cand))
        except OSError:
            continue
        print(cand)
        break
else:
    sys.exit("no free port in %d-%d" % (p, p + 99))
PY
)
hash='#v1&m=llama3.1-70b&i=trn2.48xlarge&c=trn2.48xlarge,p5.48xlarge&n=16&tt=1e12'
say "serving $site on 127.0.0.1 (Ctrl+C stops)"
echo
echo "    http://127.0.0.1:${port}/${hash}"
echo
exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
