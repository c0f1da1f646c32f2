#!/usr/bin/env bash
# run_long.sh: builds the libFuzzer targets with clang and runs each for a while (default 600 s),
# on a copy of its committed corpus; prints executions and coverage, fails if any input failed.
#
# usage: tests/fuzz/run_long.sh [SECONDS] [TARGET...]
#   TARGET: fuzz_spec fuzz_runtime fuzz_npy fuzz_onnx fuzz_ep_manifest (default: all five)
# environment:
#   WHEREC_FUZZ_BUILD  build directory (default: build-fuzz-long at the top of the tree); an
#                      existing configured one is reused as it is
#   WHEREC_FUZZ_JOBS   targets run at once (default: the number of processors)
#   WHEREC_FUZZ_KEEP_GOING=1  libFuzzer's fork mode: the run goes on after a failing input
#                      and keeps them all (slower: each job reloads the corpus)
# A failing input (crash, leak, UB, timeout > 10 s, more than 2 GB) is kept under
# $WHEREC_FUZZ_BUILD/fuzz-long/<target>/artifacts/, the run's log beside it.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-600}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_spec fuzz_runtime fuzz_npy fuzz_onnx fuzz_ep_manifest)
build=${WHEREC_FUZZ_BUILD:-$root/build-fuzz-long}
jobs=${WHEREC_FUZZ_JOBS:-$(nproc)}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DWHEREC_SANITIZE=ON \
        -DWHEREC_ONNX_NODE_TESTS=OFF -DWHEREC_BUILD_BENCH=OFF
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

out=$build/fuzz-long
run_one() {
  local t=$1 exe opts=()
  exe=$(find "$build" -type f -name "$t" -perm -u+x | head -n 1)
  [ -n "$exe" ] || { echo "$t: not built (is the compiler clang with libFuzzer?)" >&2; return 1; }
  rm -rf "${out:?}/$t"
  mkdir -p "$out/$t/corpus" "$out/$t/artifacts"
  cp "$root/tests/fuzz/corpus/$t/"* "$out/$t/corpus/" 2>/dev/null || true
  [ -f "$root/tests/fuzz/$t.dict" ] && opts=(-dict="$root/tests/fuzz/$t.dict")
  [ "${WHEREC_FUZZ_KEEP_GOING:-0}" = 1 ] && opts+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
  (cd "$out/$t" && "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 -artifact_prefix="$out/$t/artifacts/" "${opts[@]}" "$out/$t/corpus" \
     > "$out/$t/log" 2>&1) || true
}

running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

status=0
printf '%-14s %12s %8s %8s %8s %s\n' target executions cov ft corpus failures
for t in "${targets[@]}"; do
  log=$out/$t/log
  # progress lines read "#<executions> <event> cov: <n> ft: <n> corp: <n>/..." (fork mode:
  # "#<executions>: cov: ..."); the last one counts
  last=$(grep -E '^#[0-9]+:?[[:space:]].*cov: ' "$log" 2>/dev/null | tail -n 1 || true)
  execs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
  cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<<"$last")
  ft=$(sed -E 's/.* ft: ([0-9]+).*/\1/' <<<"$last")
  corp=$(sed -E 's/.* corp: ([0-9]+).*/\1/' <<<"$last")
  done_line=$(grep -c -E '^#[0-9]+[[:space:]]+DONE |^INFO: exiting: 0 ' "$log" 2>/dev/null || true)
  failures=$(find "$out/$t/artifacts" -type f 2>/dev/null | wc -l)
  printf '%-14s %12s %8s %8s %8s %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$failures"
  if [ -z "$last" ] || [ "$failures" -gt 0 ] || [ "${done_line:-0}" -eq 0 ]; then
    status=1
    echo "  $t: see $log and $out/$t/artifacts/" >&2
  fi
done
exit $status
