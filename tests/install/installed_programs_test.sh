#!/usr/bin/env bash
# `cmake --install` of a built tree into a temporary prefix, then the installed programs run from
# an unrelated folder in a clean environment: the CLI evaluates the built-in example and the app
# saves a screenshot of it (offscreen Qt), each taking its data and plugins from the prefix
# through its own location; a copy of the CLI outside the prefix falls back to the source tree
# the build was configured from. Also checks the desktop entry, icon and man pages.
#   tests/install/installed_programs_test.sh BUILD_DIR [CMAKE]      (ctest: install.programs)
set -euo pipefail
BUILD=$(cd "$1" && pwd)
CMAKE=${2:-cmake}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }

P=$TMP/prefix
"$CMAKE" --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; fail "cmake --install failed"; }

expected=(bin/graphplace bin/graphplace-cli share/graphplace/clusters/4xP100-PCIe.json
          share/graphplace/policies/gdp_default.pt share/graphplace/costmodels/cpu_kernel.pt
          share/graphplace/costmodels/cpu_roofline.json share/applications/graphplace.desktop
          share/icons/hicolor/scalable/apps/graphplace.svg share/mime/packages/graphplace.xml
          share/doc/graphplace/copyright share/doc/graphplace/changelog.gz)
command -v help2man >/dev/null && expected+=(share/man/man1/graphplace.1.gz share/man/man1/graphplace-cli.1.gz)
for so in "$BUILD"/lib/*.so; do [ -e "$so" ] && expected+=("lib/graphplace/$(basename "$so")"); done
for f in "${expected[@]}"; do [ -s "$P/$f" ] || fail "not installed: $f"; done
ls "$P"/share/graphplace/published/*.json >/dev/null 2>&1 || fail "not installed: share/graphplace/published/*.json"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$P/share/applications/graphplace.desktop" || fail "desktop entry does not validate"
fi
if command -v dpkg-parsechangelog >/dev/null; then
  zcat "$P/share/doc/graphplace/changelog.gz" >"$TMP/changelog"
  [ "$(dpkg-parsechangelog -l "$TMP/changelog" -S Source 2>&1)" = graphplace ] ||
    fail "changelog.gz is not a Debian changelog of graphplace: $(dpkg-parsechangelog -l "$TMP/changelog" 2>&1 | head -3)"
fi
if command -v help2man >/dev/null; then
  zgrep -q 'evaluate MODEL' "$P/share/man/man1/graphplace-cli.1.gz" || fail "graphplace-cli.1.gz lacks the usage"
  zgrep -q 'screenshot' "$P/share/man/man1/graphplace.1.gz" || fail "graphplace.1.gz lacks the options"
fi

# A clean environment in an empty folder: no GP_RESOURCE_DIR, no plugin variables, no source tree.
mkdir -p "$TMP/work" "$TMP/home"
cd "$TMP/work"
run() { env -i PATH=/usr/bin:/bin HOME="$TMP/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$@"; }

out=$(run "$P/bin/graphplace-cli" evaluate zoo:nmt --cluster 4xP100-PCIe 2>&1) || fail "installed CLI failed: $out"
grep -q 'step time' <<<"$out" || fail "installed CLI printed no step time: $out"
# A preset that exists only in the installed tree: the data come from share/graphplace, not from
# the source tree the build was configured from.
cp "$P/share/graphplace/clusters/4xP100-PCIe.json" "$P/share/graphplace/clusters/installed-only.json"
out=$(run "$P/bin/graphplace-cli" evaluate zoo:nmt --cluster installed-only 2>&1) ||
  fail "installed CLI did not read share/graphplace/clusters: $out"

# A program outside both the prefix and the source tree (as in a build folder anywhere) finds the
# data in the source tree it was configured from.
mkdir -p "$TMP/elsewhere/bin" && cp "$P/bin/graphplace-cli" "$TMP/elsewhere/bin/"
out=$(run "$TMP/elsewhere/bin/graphplace-cli" evaluate zoo:nmt --cluster 4xP100-PCIe 2>&1) ||
  fail "a program outside the prefix did not find the configured source tree's data: $out"

# The optimizer plugin (LibTorch builds) loads from lib/graphplace, not from the build tree.
if [ -e "$P/lib/graphplace/libgp_rl.so" ]; then
  run LD_DEBUG=files "$P/bin/graphplace-cli" optimize zoo:nmt --cluster 4xP100-PCIe --iterations 1 \
    >"$TMP/optimize.log" 2>&1 || { tail -5 "$TMP/optimize.log"; fail "installed CLI could not optimize"; }
  grep -q "file=$P/lib/graphplace/libgp_rl.so .*dynamically loaded" "$TMP/optimize.log" ||
    fail "the installed CLI did not load lib/graphplace/libgp_rl.so: $(grep -m1 'libgp_rl.so' "$TMP/optimize.log")"
fi

# The GPU profiler plugin (CUDA builds) has no search path of its own once installed: the dynamic
# linker finds the CUDA libraries in its configured folders, as for any program.
if [ -e "$P/lib/graphplace/libgp_profile.so" ]; then
  dynamic=$(readelf -d "$P/lib/graphplace/libgp_profile.so")
  ! grep -qE '\((RPATH|RUNPATH)\)' <<<"$dynamic" ||
    fail "the installed libgp_profile.so sets a library search path: $(grep -E 'RPATH|RUNPATH' <<<"$dynamic")"
  missing=$(run ldd "$P/lib/graphplace/libgp_profile.so" | grep 'not found' || true)
  [ -z "$missing" ] || fail "the installed libgp_profile.so cannot find $(tr -s " \t\n" " " <<<"$missing"): put the CUDA toolkit's library folder in /etc/ld.so.conf.d and run ldconfig"
fi

run "$P/bin/graphplace" --screenshot "$TMP/work/shot.png" --size 1024x640 >"$TMP/app.log" 2>&1 ||
  { cat "$TMP/app.log"; fail "installed app could not take a screenshot of the built-in example"; }
size=$(stat -c %s "$TMP/work/shot.png" 2>/dev/null || echo 0)
[ "$size" -gt 20000 ] || fail "screenshot is missing or blank ($size bytes)"
echo "install test: installed programs ran from $P (step time: $(grep -m1 'step time' <<<"$out"), screenshot $size bytes)"
