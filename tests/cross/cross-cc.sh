#!/bin/sh
# tests/cross/cross-cc.sh: the `--cc` that `wherec check` is given for a cross target.
# Compiles with $WHEREC_CROSS_CC; a link (no -c) is made static, written to OUT.bin,
# and OUT becomes a launcher that runs OUT.bin under $WHEREC_CROSS_RUN (qemu-user),
# so check's harness runs on the emulated CPU. An empty WHEREC_CROSS_RUN: the host's.
set -eu
: "${WHEREC_CROSS_CC:?set WHEREC_CROSS_CC to the (cross) compiler}"
link=1 out=""
prev=""
for a in "$@"; do
  [ "$a" = "-c" ] && link=0
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
if [ "$link" = 0 ] || [ -z "$out" ] || [ -z "${WHEREC_CROSS_RUN:-}" ]; then
  exec "$WHEREC_CROSS_CC" "$@"
fi
# the link: the same arguments with -o OUT.bin, and -static
n=$#
i=0
prev=""
for a in "$@"; do
  i=$((i + 1))
  if [ "$prev" = "-o" ]; then set -- "$@" "$out.bin"; else set -- "$@" "$a"; fi
  prev=$a
done
shift "$n"
"$WHEREC_CROSS_CC" -static "$@"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$WHEREC_CROSS_RUN" "$out.bin" > "$out"
chmod +x "$out"
