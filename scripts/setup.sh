#!/usr/bin/env bash
# Installs everything traincalc needs to build, serve and test, from Debian's packages and the npm
# registry only. Idempotent; runs as root or through sudo; says what it does.
#   scripts/setup.sh          build + web toolchain + Dear ImGui sources
#   scripts/setup.sh --test   also the test tools (Chromium, playwright-core, clang for fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

say() { printf '[setup] %s\n' "$*"; }
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

# Dear ImGui 1.86 from Debian's source package; the orig tarball's SHA-256 is pinned here.
IMGUI_VERSION=1.86
IMGUI_DEB_VERSION=1.86+ds-1
IMGUI_ORIG=imgui_1.86+ds.orig.tar.xz
IMGUI_SHA256_FILE=scripts/imgui.sha256

packages=(build-essential cmake ninja-build pkg-config git ca-certificates dpkg-dev xz-utils
          nlohmann-json3-dev libglfw3-dev libgl-dev googletest libgtest-dev libbenchmark-dev
          emscripten node-acorn python3)
if [ $want_test -eq 1 ]; then
  packages+=(chromium clang libclang-rt-14-dev llvm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "Debian packages already installed"
fi

if [ ! -f third_party/imgui/imgui.h ]; then
  src_list=/etc/apt/sources.list.d/traincalc-deb-src.sources
  if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    say "adding a deb-src entry ($src_list) to fetch the Dear ImGui source package"
    suite=$(. /etc/os-release; echo "${VERSION_CODENAME:-bookworm}")
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$suite" | $SUDO tee "$src_list" >/dev/null
    $SUDO apt-get update -qq
  fi
  work=$(mktemp -d)
  say "fetching Dear ImGui $IMGUI_VERSION sources (apt-get source imgui)"
  (cd "$work" && apt-get source --download-only -qq "imgui=$IMGUI_DEB_VERSION" >/dev/null)
  say "checking $IMGUI_ORIG against $IMGUI_SHA256_FILE"
  (cd "$work" && sed "s|  .*|  $IMGUI_ORIG|" "$root/$IMGUI_SHA256_FILE" | sha256sum -c --quiet -)
  mkdir -p third_party/imgui
  tar -xJf "$work/$IMGUI_ORIG" -C third_party/imgui --strip-components=1
  rm -rf "$work"
  say "Dear ImGui unpacked in third_party/imgui (ignored by git)"
else
  say "Dear ImGui sources already in third_party/imgui"
fi

if [ $want_test -eq 1 ]; then
  if [ ! -d tests/e2e/node_modules/playwright-core ]; then
    say "installing playwright-core from the npm registry (pinned in tests/e2e/package-lock.json)"
    (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
  else
    say "playwright-core already installed"
  fi
fi
say "done"
