#!/usr/bin/env bash
# Configures the source tree the ways a user builds it, in temporary folders, beside the Ninja
# build that ./test.sh makes: `cmake -S . -B build` (CMake's default generator, Unix Makefiles)
# with every part on, and both generators with LibTorch, Qt and nvcc off. A generator-specific
# refusal (such as a CUDA dialect that CMake has no nvcc flag for, which only the Makefile
# generator checks for a plugin that links CUDA objects) fails here instead of on a user's
# machine. Where the calling build found the CUDA toolkit, each configure must find it too and
# set up the profiler plugin (with our kernels when nvcc is used, else the cuBLAS stand-ins), and
# the Makefile build compiles the kernels with nvcc under the flags it wrote.
#   tests/install/configure_generators_test.sh SOURCE_DIR CMAKE WITH_TORCH WITH_NVCC CUDA_FOUND CUDA_KERNELS
#   (ctest: install.configure; the last four are the calling build's GP_WITH_TORCH, GP_WITH_NVCC,
#   GP_CUDA_FOUND and GP_CUDA_KERNELS)
set -euo pipefail
SRC=$(cd "$1" && pwd)
CMAKE=$2
WITH_TORCH=$3
WITH_NVCC=$4
CUDA_FOUND=$5
CUDA_KERNELS=$6
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "configure test: $*" >&2; exit 1; }
on() { [[ "$1" =~ ^(ON|on|1|TRUE|true|YES|yes)$ ]]; }

# configure NAME GENERATOR EXPECT_KERNELS CMAKE_ARGS...: configures into $TMP/NAME; fails with the
# log's errors when CMake refuses, or when the plugin is missing where the toolkit is found.
configure() {
  local name=$1 generator=$2 expect_kernels=$3
  shift 3
  local dir=$TMP/$name log=$TMP/$name.log
  if ! "$CMAKE" -S "$SRC" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE=Release "$@" >"$log" 2>&1; then
    grep -A6 'CMake Error' "$log" >&2 || tail -20 "$log" >&2
    fail "$name: cmake -G '$generator' $* failed"
  fi
  if on "$CUDA_FOUND"; then
    grep -q "building the GPU profiler plugin (own kernels: $expect_kernels)" "$log" ||
      { grep -i cuda "$log" >&2; fail "$name: the CUDA toolkit was not used as the calling build used it (expected own kernels: $expect_kernels)"; }
  fi
  echo "configure test: $name ($generator, $*): configured"
}

kernels=OFF
on "$CUDA_KERNELS" && kernels=ON
# everything on as the calling build has it (LibTorch and nvcc are on by default)
configure makefiles-all "Unix Makefiles" "$kernels" -DGP_WITH_TORCH="$WITH_TORCH" -DGP_WITH_NVCC="$WITH_NVCC"
configure makefiles-minimal "Unix Makefiles" OFF -DGP_WITH_TORCH=OFF -DGP_WITH_GUI=OFF -DGP_WITH_NVCC=OFF
configure ninja-minimal Ninja OFF -DGP_WITH_TORCH=OFF -DGP_WITH_GUI=OFF -DGP_WITH_NVCC=OFF

if on "$CUDA_KERNELS"; then
  "$CMAKE" --build "$TMP/makefiles-all" --target gp_profile_kernels >"$TMP/kernels.log" 2>&1 ||
    { tail -20 "$TMP/kernels.log" >&2; fail "the kernels do not compile with the Makefile generator's nvcc flags"; }
  echo "configure test: the kernels compile with nvcc under the Makefile generator"
fi
echo "configure test: passed"
