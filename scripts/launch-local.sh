#!/usr/bin/env bash
# Starts N ranks of a distributed run on this machine (loopback only), as torchrun would: each
# process gets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1 and MASTER_PORT (the
# environment's, else a free port). Rank r's output goes to stdout / stderr with "[rank r] " in
# front. Waits for every rank; when one exits non-zero the others are stopped (SIGTERM, SIGKILL
# after 10 s) and the script exits with that rank's code, naming it on stderr.
# Usage: scripts/launch-local.sh N CMD [ARGS...]   (CMD reads the variables: core/optimize/dist_env.h)
#   scripts/launch-local.sh 2 build/release/tests/gp_dist_rank allreduce 30000
# docs/distributed.md says what the variables mean and how ranks on several machines meet.
set -uo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]] || [ "$1" -lt 1 ]; then
  echo "usage: scripts/launch-local.sh N CMD [ARGS...]   (N >= 1 ranks on this machine)" >&2
  exit 2
fi
N=$1
shift
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  echo 29500
}
PORT=${MASTER_PORT:-$(free_port)}
pids=()
for ((r = 0; r < N; r++)); do
  RANK=$r WORLD_SIZE=$N LOCAL_RANK=$r LOCAL_WORLD_SIZE=$N MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT \
    "$@" > >(sed -u "s/^/[rank $r] /") 2> >(sed -u "s/^/[rank $r] /" >&2) &
  pids+=($!)
done
stop_all() {
  kill -TERM "${pids[@]}" 2>/dev/null
  for _ in $(seq 1 100); do
    local alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2>/dev/null
}
trap 'stop_all; exit 130' INT TERM
left=$N
declare -A done_rank=()
while [ "$left" -gt 0 ]; do
  for ((r = 0; r < N; r++)); do
    [ -n "${done_rank[$r]:-}" ] && continue
    if ! kill -0 "${pids[$r]}" 2>/dev/null; then
      wait "${pids[$r]}"
      code=$?
      done_rank[$r]=1
      left=$((left - 1))
      if [ "$code" -ne 0 ]; then
        echo "launch-local: rank $r exited with code $code; stopping the other ranks" >&2
        stop_all
        wait 2>/dev/null
        exit "$code"
      fi
    fi
  done
  sleep 0.1
done
wait 2>/dev/null
exit 0
