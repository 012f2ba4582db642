#!/usr/bin/env bash
# Installs what is missing, builds Release, and starts graphplace on a built-in example model.
# Until the desktop app lands (issue 4), this runs the CLI on the example instead.
# Usage: ./run.sh [MODEL]     (default: zoo:gnmt, the 8-layer GNMT training step)
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc)" --target graphplace-cli
MODEL=${1:-zoo:gnmt}
exec build/release/app/graphplace-cli info "$MODEL"
