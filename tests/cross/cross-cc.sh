#!/bin/sh
# tests/cross/cross-cc.sh: the `--cc` that `wherec check` is given for a cross target.
# Compiles with $WHEREC_CROSS_CC; a link (no -c) is made static, written to OUT.bin,
# and OUT becomes a launcher that runs OUT.bin under $WHEREC_CROSS_RUN (qemu-user),
# so check's harness runs on the emulated CPU. An empty WHEREC_CROSS_RUN: the host's.
#
# With WHEREC_CROSS_SHARE (a directory of the target's own, run.sh sets it), check's
# harness is compiled once for all the specs: harness.c depends on a spec only through
# its table's name (WC_CHECK_TABLE, declared by WC_CHECK_HEADER), so it is compiled
# against a header declaring a pointer to the table instead, and each spec's link gets
# a one-line file that points it at that spec's table. A harness compile whose other
# arguments differ from the first one's is compiled on its own, as without sharing.
set -eu
: "${WHEREC_CROSS_CC:?set WHEREC_CROSS_CC to the (cross) compiler}"
link=1 out="" harness=0 table=""
prev=""
for a in "$@"; do
  [ "$a" = "-c" ] && link=0
  [ "$prev" = "-o" ] && out=$a
  case $a in
    */harness.c) harness=1 ;;
    -DWC_CHECK_TABLE=*) table=${a#-DWC_CHECK_TABLE=} ;;
  esac
  prev=$a
done
share=${WHEREC_CROSS_SHARE:-}

# ---- check's harness, compiled once per target ----
if [ "$link" = 0 ] && [ "$harness" = 1 ] && [ -n "$share" ] && [ -n "$table" ] && [ -n "$out" ]; then
  mkdir -p "$share"
  # the arguments but the output, the spec's directory and its table and header
  n=$#
  key="" prev="" incs=""
  for a in "$@"; do
    case $a in
      -DWC_CHECK_TABLE=* | -DWC_CHECK_HEADER=* | "-I$(dirname "$out")" | -o) ;;
      *) [ "$prev" = "-o" ] || { set -- "$@" "$a"; key="$key $a"; } ;;
    esac
    case $a in -I*) [ "$a" = "-I$(dirname "$out")" ] || incs="$incs $a" ;; esac
    prev=$a
  done
  shift "$n"
  if [ ! -f "$share/harness.o" ]; then
    printf '#include <wherec/wherec.h>\nextern const wc_kernel_table *const wc_cross_check_table;\n' \
      >"$share/cross_check_table.h"
    "$WHEREC_CROSS_CC" "$@" -I"$share" '-DWC_CHECK_TABLE=(*wc_cross_check_table)' \
      '-DWC_CHECK_HEADER="cross_check_table.h"' -o "$share/harness.o"
    printf '%s\n' "$key" >"$share/harness.key"
  fi
  if [ "$(cat "$share/harness.key")" = "$key" ]; then
    cp "$share/harness.o" "$out"
    # what the link needs: the table's name and the include directories
    printf '%s\n%s\n' "$table" "$incs" >"$out.table"
    exit 0
  fi
  exec "$WHEREC_CROSS_CC" "$@" "-I$(dirname "$out")" "-DWC_CHECK_TABLE=$table" \
    "-DWC_CHECK_HEADER=\"${table%_table}.h\"" -o "$out"
fi

if [ "$link" = 0 ] || [ -z "$out" ] || [ -z "${WHEREC_CROSS_RUN:-}" ]; then
  exec "$WHEREC_CROSS_CC" "$@"
fi
# the link: the same arguments with -o OUT.bin, and -static; a shared harness's object
# (OBJ.table beside it) gets its pointer to the spec's table
extra=""
for a in "$@"; do
  if [ -f "$a.table" ]; then
    t=$(sed -n 1p "$a.table")
    incs=$(sed -n 2p "$a.table")
    printf '#include <wherec/wherec.h>\nextern const wc_kernel_table %s;\nconst wc_kernel_table *const wc_cross_check_table = &%s;\n' \
      "$t" "$t" >"$out.table.c"
    # shellcheck disable=SC2086 # the include directories are words
    "$WHEREC_CROSS_CC" -std=c11 $incs -c "$out.table.c" -o "$out.table.o"
    extra=$out.table.o
  fi
done
n=$#
i=0
prev=""
for a in "$@"; do
  i=$((i + 1))
  if [ "$prev" = "-o" ]; then set -- "$@" "$out.bin"; else set -- "$@" "$a"; fi
  prev=$a
done
shift "$n"
# shellcheck disable=SC2086 # empty, or one object
"$WHEREC_CROSS_CC" -static "$@" $extra
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$WHEREC_CROSS_RUN" "$out.bin" > "$out"
chmod +x "$out"
