#!/usr/bin/env bash
# Installs everything traincalc needs to build, serve and test, from Debian's packages and the npm
# registry only. Idempotent (a second run changes nothing and downloads nothing); runs as root or
# through sudo; says what it does.
#   scripts/setup.sh          build + web toolchain + Dear ImGui sources (third_party/imgui)
#   scripts/setup.sh --test   also the test tools: Chromium, clang + libFuzzer runtime,
#                             and playwright-core (npm ci in tests/e2e, no browser download)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

want_test=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null; then
  SUDO=(sudo)
  say "not root: using sudo for apt-get"
else
  die "run as root, or install sudo"
fi
apt_get() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }

# Dear ImGui 1.86 from Debian's source package; the orig tarball's SHA-256 is pinned in
# scripts/imgui.sha256 (sha256sum format, checked with sha256sum -c).
IMGUI_DEB_VERSION=1.86+ds-1
IMGUI_ORIG=imgui_1.86+ds.orig.tar.xz
IMGUI_SHA256_FILE=$root/scripts/imgui.sha256
IMGUI_DIR=$root/third_party/imgui
IMGUI_STAMP=$IMGUI_DIR/.traincalc-imgui   # records the checked tarball's hash line

packages=(build-essential cmake ninja-build pkg-config git ca-certificates debian-archive-keyring xz-utils
          nlohmann-json3-dev libglfw3-dev libgl-dev googletest libgtest-dev libbenchmark-dev
          emscripten node-acorn python3)
if [ $want_test -eq 1 ]; then
  # libclang-rt-dev is the distribution's default clang's runtime (libFuzzer, sanitizers): no
  # pinned major version is needed.
  packages+=(xvfb xauth chromium clang libclang-rt-dev llvm)
fi
# Node.js: emscripten pulls in Debian's nodejs; a machine that already has another Node.js (for
# example a nodesource build, which bundles npm) keeps it. Debian's npm only where npm is missing.
command -v node >/dev/null || packages+=(nodejs)
[ $want_test -eq 1 ] && ! command -v npm >/dev/null && packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

imgui_ok() { [ -f "$IMGUI_DIR/imgui.h" ] && [ -f "$IMGUI_STAMP" ] && cmp -s "$IMGUI_STAMP" "$IMGUI_SHA256_FILE"; }

if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get update"
  apt_get update -qq
  say "installing Debian packages: ${missing[*]}"
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages already installed"
fi

if imgui_ok; then
  say "Dear ImGui sources already in third_party/imgui (checked tarball $(cut -c1-12 "$IMGUI_STAMP")...)"
else
  # The source package is fetched through a private apt configuration (its own index and cache in
  # a temporary folder): the machine's sources are neither changed nor duplicated. Its deb-src
  # entries are the machine's own deb entries, so whatever mirror or distribution it is configured
  # for is used and no host is named here; the pinned version and checksum decide what is accepted.
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/parts" "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
  n=0
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    case "$f" in
      *.sources) sed -E 's/^Types:.*/Types: deb-src/' "$f" >"$work/parts/src$n.sources" ;;
      *) sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >"$work/parts/src$n.list" ;;
    esac
  done
  [ $n -gt 0 ] || die "no apt sources configured in /etc/apt (sources.list or sources.list.d)"
  private_apt=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/parts"
               -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache"
               -o APT::Sandbox::User=root -o Debug::NoLocking=1)
  # A configured repository that publishes no sources only warns; the download below decides.
  apt-get "${private_apt[@]}" update -qq || say "some configured sources have no source index (ignored)"
  say "fetching Dear ImGui sources: apt-get source --download-only imgui=$IMGUI_DEB_VERSION (the machine's apt sources as deb-src)"
  (cd "$work/src" && apt-get "${private_apt[@]}" source --download-only -qq "imgui=$IMGUI_DEB_VERSION") ||
    die "no configured apt source offers imgui $IMGUI_DEB_VERSION (Debian bookworm's version): add a bookworm entry to the apt sources, or unpack $IMGUI_ORIG (SHA-256 in scripts/imgui.sha256) into third_party/imgui"
  [ -f "$work/src/$IMGUI_ORIG" ] || die "download of $IMGUI_ORIG failed"
  say "checking $IMGUI_ORIG against the pinned SHA-256 in scripts/imgui.sha256"
  (cd "$work/src" && sha256sum --check --strict --quiet "$IMGUI_SHA256_FILE") || die "SHA-256 mismatch for $IMGUI_ORIG"
  mkdir -p "$work/unpacked"
  tar -xJf "$work/src/$IMGUI_ORIG" -C "$work/unpacked" --strip-components=1
  [ -f "$work/unpacked/imgui.h" ] || die "$IMGUI_ORIG has no imgui.h at its top level"
  cp "$IMGUI_SHA256_FILE" "$work/unpacked/.traincalc-imgui"
  mkdir -p "$(dirname "$IMGUI_DIR")"
  rm -rf "$IMGUI_DIR"
  mv "$work/unpacked" "$IMGUI_DIR"
  say "Dear ImGui unpacked in third_party/imgui (ignored by git)"
fi

if [ $want_test -eq 1 ] && [ -f tests/e2e/package-lock.json ]; then
  locked=$(node -p "require('./tests/e2e/package-lock.json').packages['node_modules/playwright-core'].version")
  have=$(node -p "try { require('./tests/e2e/node_modules/playwright-core/package.json').version } catch (e) { '' }")
  if [ "$have" = "$locked" ]; then
    say "playwright-core $have already installed in tests/e2e"
  else
    say "installing playwright-core $locked from the npm registry (npm ci in tests/e2e; no browser download)"
    (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
say "done"
