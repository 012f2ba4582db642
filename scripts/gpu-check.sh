#!/usr/bin/env bash
# GPU checks of graphplace's profiler (docs/profiling.md), prepared to run in a few minutes on a
# machine with an NVIDIA GPU:
#   1. build (Release, with CUDA) graphplace-cli, the profiler plugin, gp_gpu_tests and
#      gp_core_tests only;
#   2. run the GPU tests (gp_gpu_tests: ctest label gpu; none may skip) and the loader tests;
#   3. run `graphplace-cli profile --quick --model zoo:resnet50` and print the key figures (GEMM
#      TFLOP/s per dtype, memory bandwidth, launch overhead, peer links);
#   4. re-measure single-GPU plans on the GPU (`graphplace-cli measure`): resnet50 with the
#      profiled cluster and its per-op calibration, rnnlm with the profiled cluster only; each
#      prints simulated vs measured step time and writes the measured timeline (Perfetto);
#   5. run `graphplace-cli fidelity` with the profiled cluster and calibration (rows of the
#      published corpus on this GPU's kind run on it) and print its summary.
#   The files land in --out.
#
# usage:
#   scripts/gpu-check.sh [--out DIR] [--build-dir DIR] [--full]
#       build here and run (the machine needs the GPU driver, the CUDA toolkit with CUPTI, cuBLAS
#       and cuDNN, and graphplace's Debian build dependencies)
#   scripts/gpu-check.sh --pack DIR [--build-dir DIR]
#       on a machine WITHOUT a GPU: build the same and copy the programs, the plugin and the
#       non-system, non-CUDA libraries they load into DIR (stripped; ~30 MB), for a GPU machine
#       that has CUDA but not the build dependencies (such as a lent H200)
#   scripts/gpu-check.sh --run-packed DIR [--out DIR] [--full]
#       run steps 2 and 3 from such a DIR (finds the CUDA, CUPTI and cuDNN libraries there)
#
# --full profiles with every size (slower) instead of --quick; GP_JOBS=N limits build jobs
# (default: all cores). Exit: 0 all passed, 1 a check failed, 2 no usable GPU / driver, 3 build
# failed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=build
pack_dir=""
out_dir=""
build_dir="$here/build/gpu-check"
quick="--quick"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --pack) mode=pack; pack_dir="${2:?--pack needs a folder}"; shift 2 ;;
    --run-packed) mode=packed; pack_dir="${2:?--run-packed needs a folder}"; shift 2 ;;
    --out) out_dir="${2:?--out needs a folder}"; shift 2 ;;
    --build-dir) build_dir="${2:?--build-dir needs a folder}"; shift 2 ;;
    --full) quick=""; shift ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown argument '$1' (try --help)" >&2; exit 1 ;;
  esac
done
[[ -n "$out_dir" ]] || out_dir="$(mktemp -d /tmp/gpu-check.XXXXXX)"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"
jobs="${GP_JOBS:-$(nproc 2>/dev/null || echo 2)}"
t0=$(date +%s)
say() { echo "gpu-check [$(( $(date +%s) - t0 ))s] $*"; }

need_gpu() {
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    echo "gpu-check: nvidia-smi not found: no NVIDIA driver here; run this on a machine with an NVIDIA GPU (or use --pack here and --run-packed there)" >&2
    exit 2
  fi
  if ! nvidia-smi -L >"$out_dir/nvidia-smi.txt" 2>&1 || ! grep -q '^GPU ' "$out_dir/nvidia-smi.txt"; then
    echo "gpu-check: nvidia-smi finds no working GPU: $(head -1 "$out_dir/nvidia-smi.txt")" >&2
    exit 2
  fi
  say "GPUs:"; sed 's/^/  /' "$out_dir/nvidia-smi.txt"
  nvidia-smi --query-gpu=driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv 2>/dev/null | sed 's/^/  /' || true
}

build() {  # configure + build only what the checks need, with CUDA
  local nvcc_opt=()
  if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    nvcc_opt=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
  fi
  local gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  say "configuring $build_dir"
  if ! cmake -S "$here" -B "$build_dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DGP_WITH_CUDA=ON -DGP_WITH_TORCH=OFF \
      -DGP_WITH_GUI=OFF -DGP_BUILD_BENCHMARKS=OFF "${nvcc_opt[@]}" >"$out_dir/configure.log" 2>&1; then
    tail -20 "$out_dir/configure.log" >&2
    echo "gpu-check: configure failed (log: $out_dir/configure.log); without graphplace's build dependencies here, build with --pack on a machine that has them and use --run-packed" >&2
    exit 3
  fi
  if ! grep -q 'building the GPU profiler plugin' "$out_dir/configure.log"; then
    grep -i cuda "$out_dir/configure.log" >&2 || true
    echo "gpu-check: CMake did not find the CUDA toolkit with CUPTI, cuBLAS and cuDNN: the profiler plugin cannot be built" >&2
    exit 3
  fi
  say "building graphplace-cli, gp_profile, gp_gpu_tests, gp_core_tests (-j$jobs)"
  if ! cmake --build "$build_dir" -j "$jobs" --target graphplace-cli gp_profile gp_gpu_tests gp_core_tests \
      >"$out_dir/build.log" 2>&1; then
    grep -E 'error|Error' "$out_dir/build.log" | head -20 >&2
    echo "gpu-check: build failed (log: $out_dir/build.log)" >&2
    exit 3
  fi
}

# Directories holding the CUDA libraries the plugin needs, for LD_LIBRARY_PATH (packed runs).
cuda_lib_path() {
  local dirs=() lib found roots=(/usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/extras/CUPTI/lib64
                                  /usr/local/cuda/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu)
  local py
  py="$(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null || true)"
  for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcupti.so.13 libcudnn.so.9; do
    found=""
    for r in "${roots[@]}"; do [[ -e "$r/$lib" ]] && { found="$r"; break; }; done
    if [[ -z "$found" ]]; then
      # pip wheels (nvidia-cudnn-cu13, nvidia-cuda-cupti, ...) and other toolkits
      # shellcheck disable=SC2086
      found="$(find /usr/local/cuda* /opt $py -maxdepth 10 -name "$lib" 2>/dev/null | head -1 | xargs -r dirname)"
    fi
    if [[ -z "$found" ]]; then echo "gpu-check: warning: $lib not found; the plugin may not load" >&2; continue; fi
    [[ " ${dirs[*]} " == *" $found "* ]] || dirs+=("$found")
  done
  local IFS=:
  echo "${dirs[*]}"
}

run_checks() {  # $1 gp_gpu_tests, $2 gp_core_tests, $3 graphplace-cli, $4 gp_core_tests filter
  local gpu_tests="$1" core_tests="$2" cli="$3" filter="$4" rc=0 gpu_filter=()
  # the two-GPU test cannot run on one GPU (a single H200): leave it out there instead of skipping
  if [[ $(grep -c '^GPU ' "$out_dir/nvidia-smi.txt") -lt 2 ]]; then
    gpu_filter=(--gtest_filter='-ExecutorGpu.PeerCopiesOfATwoDevicePlanAreTransfers')
    say "one GPU: the two-GPU test (peer copies as transfers) is left out"
  fi
  say "GPU tests (gp_gpu_tests, label gpu)"
  set +e
  timeout 900 "$gpu_tests" --gtest_color=no "${gpu_filter[@]}" 2>&1 | tee "$out_dir/gpu-tests.log"
  rc=${PIPESTATUS[0]}
  set -e
  if [[ $rc -ne 0 ]]; then echo "gpu-check: GPU tests FAILED (log: $out_dir/gpu-tests.log)" >&2; return 1; fi
  if grep -q '^\[  SKIPPED \]' "$out_dir/gpu-tests.log"; then
    grep '^\[  SKIPPED \]' "$out_dir/gpu-tests.log" >&2
    echo "gpu-check: a GPU test was SKIPPED although nvidia-smi sees a GPU (see the reasons above)" >&2
    return 1
  fi
  say "loader tests ($filter)"
  if ! timeout 300 "$core_tests" --gtest_filter="$filter" --gtest_color=no >"$out_dir/core-tests.log" 2>&1; then
    tail -30 "$out_dir/core-tests.log" >&2
    echo "gpu-check: loader tests FAILED (log: $out_dir/core-tests.log)" >&2
    return 1
  fi
  say "graphplace-cli profile ${quick:---full} --model zoo:resnet50"
  set +e
  timeout 900 "$cli" profile $quick --model zoo:resnet50 --out "$out_dir/cluster.json" \
    --calibration "$out_dir/calibration.json" --report "$out_dir/report.json" \
    --name "profiled-$(hostname -s 2>/dev/null || echo local)" 2>&1 | tee "$out_dir/profile.log"
  rc=${PIPESTATUS[0]}
  set -e
  if [[ $rc -ne 0 ]]; then echo "gpu-check: profile FAILED (exit $rc)" >&2; return 1; fi
  say "cluster file $out_dir/cluster.json:"
  cat "$out_dir/cluster.json"
  local model cal
  for model in resnet50 rnnlm; do
    cal=()
    [[ $model == resnet50 ]] && cal=(--calibration "$out_dir/calibration.json")
    say "graphplace-cli measure zoo:$model on gpu0 (single-GPU plan${cal:+, calibrated per op})"
    set +e
    timeout 600 "$cli" measure "zoo:$model" --cluster "$out_dir/cluster.json" "${cal[@]}" --method single \
      --trace "$out_dir/measured-$model.trace.json" --json >"$out_dir/measure-$model.json" 2>"$out_dir/measure-$model.log"
    rc=$?
    set -e
    cat "$out_dir/measure-$model.log"
    if [[ $rc -ne 0 ]]; then echo "gpu-check: measure zoo:$model FAILED (exit $rc)" >&2; return 1; fi
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("  simulated %.2f ms, measured %.2f ms (%+.1f %%)" % (r["simulated_ms"], r["measured_ms"], r["difference_percent"]))' \
      "$out_dir/measure-$model.json" 2>/dev/null || cat "$out_dir/measure-$model.json"
  done
  say "graphplace-cli fidelity --cluster cluster.json --calibration calibration.json"
  set +e
  timeout 300 "$cli" fidelity --cluster "$out_dir/cluster.json" --calibration "$out_dir/calibration.json" --json \
    >"$out_dir/fidelity-profiled.json" 2>"$out_dir/fidelity.log"
  rc=$?
  set -e
  if [[ $rc -ne 0 ]]; then cat "$out_dir/fidelity.log"; echo "gpu-check: fidelity FAILED (exit $rc)" >&2; return 1; fi
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; c=s["check"]; print("  %d rows on the profiled cluster; check rows: median ratio %.2f, worst x%.2f (%s)" % (s["rows_on_profiled"], c["median_ratio"], c["worst_factor"], c["worst_row"]))' \
    "$out_dir/fidelity-profiled.json" 2>/dev/null || true
  say "all GPU checks passed; files in $out_dir (cluster.json, calibration.json, report.json, measure-*.json, measured-*.trace.json, fidelity-profiled.json, *.log)"
}

case "$mode" in
  build)
    need_gpu
    build
    run_checks "$build_dir/tests/gp_gpu_tests" "$build_dir/tests/gp_core_tests" "$build_dir/app/graphplace-cli" \
      'ProfileLoader*:CliProfile*:CliMeasure*' || exit 1
    ;;
  pack)
    build
    mkdir -p "$pack_dir/lib"
    pack_dir="$(cd "$pack_dir" && pwd)"
    cp "$build_dir/app/graphplace-cli" "$build_dir/tests/gp_core_tests" "$build_dir/tests/gp_gpu_tests" \
      "$build_dir/lib/libgp_profile.so" "$pack_dir/"
    strip --strip-unneeded "$pack_dir/graphplace-cli" "$pack_dir/gp_core_tests" "$pack_dir/gp_gpu_tests" \
      "$pack_dir/libgp_profile.so" 2>/dev/null || true
    # non-system libraries (protobuf, onnx, graphviz, metis, ...); glibc, libstdc++ and CUDA stay behind
    for f in "$pack_dir/graphplace-cli" "$pack_dir/gp_core_tests" "$pack_dir/gp_gpu_tests"; do
      ldd "$f" | awk '/=> \// {print $3}'
    done | sort -u | while read -r lib; do
      case "$(basename "$lib")" in
        libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|ld-linux*|libpthread.so*|libdl.so*|librt.so*|libcud*|libcupti*|libcublas*|libnv*) ;;
        *) cp -L "$lib" "$pack_dir/lib/" ;;
      esac
    done
    strip --strip-unneeded "$pack_dir"/lib/* 2>/dev/null || true
    # the cluster presets and the published corpus the fidelity check reads ($GP_RESOURCE_DIR)
    mkdir -p "$pack_dir/resources"
    cp -r "$here/resources/clusters" "$here/tests/data/published" "$pack_dir/resources/"
    echo "packed into $pack_dir ($(du -sh "$pack_dir" | cut -f1)); on the GPU machine: scripts/gpu-check.sh --run-packed $pack_dir --out OUTDIR"
    ;;
  packed)
    need_gpu
    pack_dir="$(cd "$pack_dir" && pwd)"
    [[ -x "$pack_dir/gp_gpu_tests" && -f "$pack_dir/libgp_profile.so" ]] || { echo "gpu-check: $pack_dir holds no packed build (make one with --pack)" >&2; exit 1; }
    cuda_dirs="$(cuda_lib_path)"
    export LD_LIBRARY_PATH="$pack_dir/lib${cuda_dirs:+:$cuda_dirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    [[ -d "$pack_dir/resources" ]] && export GP_RESOURCE_DIR="$pack_dir/resources"
    export GP_PROFILE_PLUGIN="$pack_dir/libgp_profile.so"
    say "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    if ldd "$GP_PROFILE_PLUGIN" | grep -q 'not found'; then
      ldd "$GP_PROFILE_PLUGIN" | grep 'not found' >&2
      echo "gpu-check: the profiler plugin's libraries are missing here (above)" >&2
      exit 2
    fi
    # the CLI tests need the CLI at its build path, which a packed build does not have
    export GP_CLI="$pack_dir/graphplace-cli"
    run_checks "$pack_dir/gp_gpu_tests" "$pack_dir/gp_core_tests" "$pack_dir/graphplace-cli" 'ProfileLoader*' || exit 1
    ;;
esac
