#!/usr/bin/env bash
# Installs what is missing, builds Release, and starts the graphplace desktop app.
# With no arguments it opens the built-in example (zoo:nmt on 4xP100-PCIe, expert placement,
# measured). Any arguments go to the app:  ./run.sh zoo:gnmt --cluster 8xV100-DGX1
# Without a display (no $DISPLAY / $WAYLAND_DISPLAY) it runs under Xvfb and saves a
# screenshot to build/screenshot.png instead of showing a window.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# CMake 3.25's AUTOMOC misses Q_OBJECT headers added to an existing build tree (globbed
# sources): make it rescan (moc still regenerates only what changed).
rm -f build/release/*/*_autogen/timestamp
cmake --build build/release -j"$(nproc)" --target graphplace graphplace-cli
APP=build/release/app/graphplace
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display; running headless and saving build/screenshot.png" >&2
  exec xvfb-run -a -s "-screen 0 1920x1080x24" "$APP" "$@" --screenshot build/screenshot.png
fi
exec "$APP" "$@"
