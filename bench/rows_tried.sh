#!/usr/bin/env bash
# bench/rows_tried.sh: what bounds the row kernels (bench/README.md "Row reductions"):
# rows.where's softmax_full, layernorm and rmsnorm as generated, then with the row
# template's pinned float operations (wc_add_f32 ..., NaN-pinning selects on every
# operation) and reduction steps replaced by plain C arithmetic (what element-wise
# kernels run first, redoing a block only when a NaN shows), then with raw exp too
# (wc_exp_raw_f32: a NaN where the exact path is needed, about 1 input in 2^20: not
# wherec's bits; the hashes tell). gcc and clang -O3 -march=native, one thread.
# usage: bench/rows_tried.sh [S] [REPS]   (needs a built wherec: WHEREC_BUILD, default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WHEREC_BUILD:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/gen/wherec" gen bench/rows.where -o "$dir" >/dev/null
raw_ops='s/wc_rsum_step_f32(/WC_RAW_SUM(/g; s/wc_rmean_step_f32(/WC_RAW_SUM(/g;
         s/wc_rmax_step_f32(/WC_RAW_MAX(/g; s/wc_\(add\|sub\|mul\|div\)_f32(/wc_\1_raw_f32(/g'
defs='#define WC_RAW_SUM(a, x) ((a) + (x))\n#define WC_RAW_MAX(a, x) ((a) > (x) ? (a) : (x))'
cp "$dir/rb.c" "$dir/as-generated.c"
sed -e "$raw_ops" -e "s|^#include \"rb.h\"|&\n$defs|" "$dir/rb.c" > "$dir/raw-arithmetic.c"
sed 's/wc_exp_f32(/wc_exp_raw_f32(/g' "$dir/raw-arithmetic.c" > "$dir/raw-arithmetic+exp.c"
for v in as-generated raw-arithmetic raw-arithmetic+exp; do
  for cc in gcc clang; do
    $cc -O3 -march=native -std=c99 -Wall -Wextra -Werror -pedantic -Iinclude -I"$dir" \
        "$dir/$v.c" bench/rows_tried.c -o "$dir/tried"
    printf '%-20s %-6s %s\n' "$v" "$cc" "$("$dir/tried" "${1:-128}" "${2:-20}")"
  done
done
