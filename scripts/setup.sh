#!/usr/bin/env bash
# Installs every build, run and test dependency of graphplace from Debian packages, and
# builds QCustomPlot's Debian *source* package against Qt 6 (Debian's binary is Qt 5 only).
# Idempotent: when everything is present it returns in well under a second.
#   scripts/setup.sh            (called by ./run.sh and ./test.sh)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEPS="$ROOT/.deps"                      # fetched third-party sources (git-ignored)

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache git ca-certificates dpkg-dev
  # Qt 6 (widgets, tools for linguist, svg, opengl) and X for headless tests
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  qt6-svg-dev libqt6opengl6-dev libqt6svg6 qt6-qpa-plugins libgl-dev
  qt6-translations-l10n xvfb xauth
  # fonts for the UI and its Chinese and Korean translations (headless screenshots too)
  fonts-dejavu-core fonts-noto-cjk
  # graph layout and import libraries
  libgraphviz-dev graphviz libonnx-dev libprotobuf-dev protobuf-compiler libmetis-dev
  nlohmann-json3-dev libtomlplusplus-dev libyaml-cpp-dev libssl-dev
  libeigen3-dev   # linear algebra: the move ranker's ridge fit (core/sim/move_ranker)
  # TpuGraphs' .npz collections (zip archives) for the learned cost model
  libzip-dev
  # LibTorch (TorchScript import, RL)
  libtorch-dev libopenblas0-pthread   # OpenBLAS: ~4x faster policy passes than the reference BLAS
  libgloo-dev libgoogle-glog-dev   # torch.distributed's ProcessGroupGloo (core/rl/dist_group): Gloo's headers, glog
  # installing: man pages from --help, the desktop entry's check, the .deb (cpack: file, dpkg-shlibdeps)
  help2man desktop-file-utils file
  # fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizers' runtimes, llvm-symbolizer
  clang llvm libclang-rt-14-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  time   # /usr/bin/time: peak memory in scripts/gst-bench.sh
  # fixture generation (tests/data/make_fixtures.py)
  python3 python3-torch python3-torchvision python3-onnx python3-numpy
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
  command -v sudo >/dev/null || { echo "setup: run as root (or install sudo) to install packages" >&2; exit 1; }
fi
export DEBIAN_FRONTEND=noninteractive

missing=()
status=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${PACKAGES[@]}" 2>/dev/null || true)
for p in "${PACKAGES[@]}"; do
  grep -q "^$p ii" <<<"$status" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${#missing[@]} missing packages: ${missing[*]}"
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- QCustomPlot for Qt 6, from Debian's source package -------------------------------------
# Skipped when a Qt 6 build is already installed system-wide (CMake prefers it).
have_qt6_qcp() {
  ls /usr/lib/*/libqcustomplot*qt6* /usr/local/lib/libqcustomplot*qt6* >/dev/null 2>&1
}
QCP="$DEPS/qcustomplot"
if ! have_qt6_qcp && [ ! -f "$QCP/qcustomplot.cpp" ]; then
  if ! grep -rqs '^deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "setup: adding a deb-src entry for apt-get source"
    $SUDO tee /etc/apt/sources.list.d/graphplace-deb-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  $SUDO apt-get update -q >/dev/null  # the Sources lists of the deb-src entry
  (cd "$tmp" && apt-get source -q --download-only qcustomplot >/dev/null && dpkg-source -x --skip-patches qcustomplot_*.dsc src >/dev/null)
  mkdir -p "$QCP"
  cp "$tmp"/src/qcustomplot.h "$tmp"/src/qcustomplot.cpp "$QCP"/
  [ -f "$tmp"/src/GPL.txt ] && cp "$tmp"/src/GPL.txt "$QCP"/
  rm -rf "$tmp"
  # Qt >= 6.4's moc: QCustomPlot 2.1.0 declares `class QCP` to moc (under Q_MOC_RUN) while the
  # compiler sees `namespace QCP`; the generated code then fails to compile. Let moc see the
  # namespace too (Q_NAMESPACE works for namespaces since Qt 5.8).
  sed -i 's/^#ifndef Q_MOC_RUN$/#if 1 \/\/ graphplace: Qt >= 6.4 moc needs the namespace (was: #ifndef Q_MOC_RUN)/' "$QCP/qcustomplot.h"
  echo "setup: QCustomPlot source ready in $QCP"
fi
exit 0
