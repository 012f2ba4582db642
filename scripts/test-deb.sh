#!/usr/bin/env bash
# Builds graphplace's .deb (cpack) and installs it on a fresh minimal Debian 12 (debootstrap,
# chroot) with apt, which pulls its dependencies from the Debian mirror; then the installed
# programs open the built-in example: graphplace-cli evaluates it and runs one optimizer
# iteration (the LibTorch plugin), the app saves a screenshot of it under offscreen Qt.
# Before that, lintian checks the package against Debian policy: any error or warning fails the
# run, except the tags accepted below, each with its reason.
# Needs root and the Debian mirror; a run takes minutes (apt fetches ~220 MB). Not part of ./test.sh.
#   scripts/test-deb.sh [--lint-only] [BUILD_DIR]   (default build/release, configured already,
#                                                    either generator; --lint-only: stop after lintian)
# Screenshot: BUILD_DIR/deb-test/shot.png; the chroot's log: BUILD_DIR/deb-test/chroot.log.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
lint_only=0
[ "${1:-}" = --lint-only ] && { lint_only=1; shift; }
BUILD=$(cd "${1:-$SRC/build/release}" && pwd)
BASE=${GP_FRESH_BASE:-/tmp/fresh-base}          # pristine Debian 12, made once (as ../shared/tools/fresh-machine.sh does)
CHROOT=${GP_DEB_CHROOT:-/tmp/graphplace-deb-root}  # a new copy of it for every run
OUT=$BUILD/deb-test
[ "$(id -u)" -eq 0 ] || { echo "test-deb: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
start=$(date +%s)

echo "== build what the package holds"
# the targets this build has (a build folder of either generator)
has_target() {
  if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' "$BUILD/CMakeCache.txt"; then
    ninja -C "$BUILD" -t query "$1" >/dev/null 2>&1
  else
    make -C "$BUILD" help 2>/dev/null | grep -qx "\.\.\. $1"
  fi
}
targets=()
for t in graphplace graphplace-cli gp_rl gp_torchscript gp_profile graphplace_man graphplace-cli_man \
         graphplace_deb_changelog; do
  has_target "$t" && targets+=("$t")
done
cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]}"
echo "== cpack -G DEB"
rm -f "$BUILD"/graphplace_*.deb
(cd "$BUILD" && cpack -G DEB >/dev/null) || { echo "test-deb: cpack failed" >&2; exit 1; }
deb=$(ls "$BUILD"/graphplace_*.deb)
dpkg-deb --field "$deb" Package Version Maintainer Depends Recommends

echo "== lintian"
command -v lintian >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends lintian >/dev/null
accepted=(
  # CPack (3.25) writes postinst and postrm that run ldconfig whenever a shared object lies below
  # /usr/lib, and has no setting to leave them out or to declare a dpkg trigger instead. Ours are
  # plugins in the private folder /usr/lib/graphplace, which ldconfig never reads: the calls are
  # unneeded but harmless (ldconfig rebuilds the cache of the standard folders).
  maintscript-calls-ldconfig
)
lintian --fail-on error,warning --suppress-tags "$(IFS=,; echo "${accepted[*]}")" "$deb" ||
  { echo "test-deb: lintian reports errors or warnings (above)" >&2; exit 1; }
echo "lintian: no errors or warnings (accepted: ${accepted[*]})"
[ "$lint_only" -eq 1 ] && exit 0

echo "== fresh Debian 12 in $CHROOT"
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
if [ ! -x "$BASE/bin/bash" ]; then
  debootstrap --variant=minbase --include=ca-certificates bookworm "$BASE" http://deb.debian.org/debian \
    >"$BUILD/deb-debootstrap.log" 2>&1 || { echo "test-deb: debootstrap failed: $BUILD/deb-debootstrap.log" >&2; exit 1; }
fi
unmount() { for d in dev/pts dev sys proc; do umount "$CHROOT/$d" 2>/dev/null || true; done; }
unmount
rm -rf "$CHROOT" && cp -a "$BASE" "$CHROOT"
trap unmount EXIT
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
cp "$deb" "$CHROOT/root/"
for d in proc sys dev dev/pts; do mountpoint -q "$CHROOT/$d" || mount --bind "/$d" "$CHROOT/$d"; done

mkdir -p "$OUT"
rm -f "$OUT/shot.png"
rc=0
chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 /bin/bash -euc '
  set -o pipefail
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends /root/graphplace_*.deb
  mkdir -p /tmp/work && cd /tmp/work
  echo "== graphplace-cli evaluate zoo:nmt --cluster 4xP100-PCIe"
  graphplace-cli evaluate zoo:nmt --cluster 4xP100-PCIe
  echo "== graphplace-cli optimize zoo:nmt --cluster 4xP100-PCIe --iterations 1 (the LibTorch plugin)"
  graphplace-cli optimize zoo:nmt --cluster 4xP100-PCIe --iterations 1 | tail -3
  echo "== graphplace --screenshot (offscreen)"
  QT_QPA_PLATFORM=offscreen graphplace --screenshot /tmp/work/shot.png --size 1280x800
  test -s /tmp/work/shot.png
  ls /usr/share/man/man1/graphplace.1.gz /usr/share/man/man1/graphplace-cli.1.gz /usr/share/applications/graphplace.desktop
' >"$OUT/chroot.log" 2>&1 || rc=$?
cp "$CHROOT/tmp/work/shot.png" "$OUT/shot.png" 2>/dev/null || true
grep -A4 '^== graphplace' "$OUT/chroot.log" | grep -v propagateSizeHints || true
echo "test-deb: $(basename "$deb") on a fresh Debian 12: exit $rc after $(( $(date +%s) - start )) s (log: $OUT/chroot.log)"
exit $rc
