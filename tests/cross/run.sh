#!/usr/bin/env bash
# tests/cross/run.sh: the same kernels on x86-64, aarch64, s390x (big-endian) and
# riscv64, bit for bit. ctest's cross_cpus_match_x86_64 runs it (tests/cross/CMakeLists.txt).
#
#   run.sh WORK SRC WHEREC HOST_CC HOST_LIBWHEREC RUNTIME_C,... TARGET... -- SPEC...
#   TARGET: ARCH=CC=QEMU (an empty CC or QEMU: not found)
#
# For each target: libwherec cross-built static once (-O2); then per spec the generated
# code and digest.c linked against it and run under qemu-user, printing one digest of
# each kernel's outputs on fixed inputs (digest.c), and on s390x `wherec check SPEC --cc
# cross-cc.sh`, whose harness runs under qemu too (compiled once per target and linked
# with each spec's table: cross-cc.sh; check_on below says which). The x86-64 digests (host compiler,
# no emulation) must equal every target's. Exit 0: all equal and every check passed;
# 1: a digest differed or a build or check failed; 77 (ctest: skipped): nothing
# differed, but a target's compiler, static C library or qemu is missing.
set -uo pipefail

work=$1 src=$2 wherec=$3 host_cc=$4 host_lib=$5 runtime_sources=$6
shift 6
targets=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do targets+=("$1"); shift; done
shift
specs=("$@")
IFS=',' read -ra runtime_srcs <<<"$runtime_sources"
here=$(cd "$(dirname "$0")" && pwd)
jobs=${WHEREC_CROSS_JOBS:-2}
warn=(-Wall -Wextra -Werror -pedantic)
# FMA contraction allowed everywhere (aarch64, s390x and riscv64 have FMA): no result
# may depend on it. libwherec at -O2; check's kernels at its default -O2; the digests'
# kernels at -O3 on aarch64, whose NEON -O3 vectorizes for, at -O2 on s390x and riscv64,
# whose defaults (arch9 without -mvx, rv64gc) have no vector unit: there -O3 only
# unrolls, and s390x's gcc took 7x as long with it (33 s for rows.where's kernels against
# 4.5 s). x86-64's, the baseline, at -O0 (crmath.where's kernels in 7 s, against 30 s at
# -O3 -march=native): the digest program finds them equal to the reference whatever the
# flags, and the check tests compare the host's -O2 and -O3 -march=native builds with it.
lib_flags=(-O2 -ffp-contract=fast "${warn[@]}")
digest_flags=(-ffp-contract=fast "${warn[@]}")
digest_opt() { case $1 in aarch64) echo -O3 ;; x86_64) echo -O0 ;; *) echo -O2 ;; esac; }

rm -rf "$work"
mkdir -p "$work/gen"
start=$SECONDS

# ---- generate each spec once (host wherec); names: <folder>_<file> ----
names=()
for spec in "${specs[@]}"; do
  name=$(basename "$(dirname "$spec")")_$(basename "$spec" .where)
  "$wherec" gen "$spec" -o "$work/gen/$name" >/dev/null || { echo "cross: wherec gen $spec failed"; exit 1; }
  names+=("$name")
done

# Does `wherec check` run SPEC's kernels on the emulated ARCH? It compiles them a second
# time (at check's -O2) and runs its trials under qemu: what the CPU decides there (each
# operation's bits) the digest program already compares on every CPU (the specialized
# path, the interpreter and the reference at its inputs, and the digests x86-64's); what
# check adds (split ranges, the walk of extents) is the same code on every CPU. So check
# runs on s390x alone (big-endian, the CPU least like x86-64), and there for two specs:
# operators.where (every operation on every dtype) and coords.where (the coordinate
# kernels, whose outputs' layout is the runtime's); the other specs' checks took 150 s
# of CPU under qemu (crmath.where's 90 s, rows.where's 50 s).
check_on() { [ "$1" = s390x ] && { [ "$2" = check_operators ] || [ "$2" = check_coords ]; }; }

# prefix of a generated folder: its one header
prefix_of() { basename "$(ls "$1"/*.h)" .h; }

# build_arch ARCH CC QEMU: runtime, digests, checks; writes $work/ARCH/status
build_arch() {
  local arch=$1 cc=$2 qemu=$3 dir=$work/$1 run=() static=()
  mkdir -p "$dir/obj"
  [ -n "$qemu" ] && run=("$qemu") && static=(-static)
  local t0=$SECONDS
  # libwherec for the target, static; x86-64: the build's own when it is an archive
  if [ -z "$qemu" ] && [ "${host_lib%.a}" != "$host_lib" ]; then
    cp "$host_lib" "$dir/libwherec.a"
  else
    for s in "${runtime_srcs[@]}"; do
      local o; o=$dir/obj/$(echo "${s#"$src"/}" | tr '/' '_').o
      "$cc" -std=c11 "${lib_flags[@]}" -I"$src/include" -I"$src/src" -I"$src/generated" \
        -c "$s" -o "$o" 2>>"$dir/build.log" || { echo "failed: building libwherec ($s)" >"$dir/status"; return; }
    done
    local ar=ar
    case $cc in *-gcc) ar=${cc%gcc}ar ;; esac # the target's binutils write its archive index
    "$ar" rcs "$dir/libwherec.a" "$dir"/obj/*.o || { echo "failed: ar" >"$dir/status"; return; }
  fi
  local t1=$SECONDS kernels=0 trials=0 mism=0 dflags=("$(digest_opt "$arch")" "${digest_flags[@]}")
  for name in "${names[@]}"; do
    local g=$work/gen/$name p; p=$(prefix_of "$g")
    "$cc" -std=c99 "${dflags[@]}" -I"$src/include" -c "$g/$p.c" -o "$dir/$name.o" 2>>"$dir/build.log" &&
      "$cc" -std=c11 "${dflags[@]}" -I"$src/include" -I"$g" -DWC_CHECK_TABLE="${p}_table" \
        -DWC_CHECK_HEADER="\"$p.h\"" -c "$here/digest.c" -o "$dir/$name.digest.o" 2>>"$dir/build.log" &&
      "$cc" "${static[@]}" "$dir/$name.digest.o" "$dir/$name.o" "$dir/libwherec.a" -lm \
        -o "$dir/$name.digest" 2>>"$dir/build.log" ||
      { echo "failed: building the digest of $name (see $dir/build.log)" >"$dir/status"; return; }
    if ! "${run[@]}" "$dir/$name.digest" >"$dir/$name.txt" 2>&1; then
      echo "failed: the digest of $name on $arch:" >"$dir/status"
      grep -v ' in=.* out=' "$dir/$name.txt" | head -20 >>"$dir/status"
      return
    fi
    kernels=$((kernels + $(wc -l <"$dir/$name.txt")))
    if [ -n "$qemu" ] && check_on "$arch" "$name"; then # wherec check on the emulated CPU
      if ! WHEREC_CROSS_CC=$cc WHEREC_CROSS_RUN=$qemu WHEREC_RUNTIME_LIB=$dir/libwherec.a \
        WHEREC_CROSS_SHARE=$dir/share TMPDIR=$dir "$wherec" check "${specs[$(index_of "$name")]}" --cc "$here/cross-cc.sh" \
        >"$dir/$name.check" 2>&1; then
        echo "failed: wherec check ${specs[$(index_of "$name")]} on $arch:" >"$dir/status"
        tail -20 "$dir/$name.check" >>"$dir/status"
        return
      fi
      local line; line=$(grep -E '^[0-9]+ kernels, [0-9]+ trials, [0-9]+ mismatches$' "$dir/$name.check")
      read -r _ _ t _ m _ <<<"$line"
      trials=$((trials + t)) mism=$((mism + m))
    fi
  done
  rm -rf "$dir/obj" "$dir/share" "$dir"/*.o "$dir"/*.digest "$dir/libwherec.a" # keep the digests and tables
  echo "ok $kernels $trials $mism $((t1 - t0)) $((SECONDS - t1))" >"$dir/status"
}

joined() { local IFS=';'; local s="$*"; echo "${s//;/; }"; }
index_of() { local i; for i in "${!names[@]}"; do [ "${names[$i]}" = "$1" ] && echo "$i"; done; }

# ---- which targets can run: compiler, static libc and qemu, tried on a tiny program ----
missing=()
ready=()
mkdir -p "$work/probe"
printf '#include <stdio.h>\nint main(void) { return puts("ok") < 0; }\n' >"$work/probe/p.c"
for t in "${targets[@]}"; do
  IFS='=' read -r arch cc qemu <<<"$t"
  if [ -z "$cc" ] || [ -z "$qemu" ]; then
    missing+=("$arch (${cc:-no ${arch}-linux-gnu-gcc}${qemu:+, $qemu}${qemu:-, no qemu-$arch})")
  elif ! "$cc" -static "$work/probe/p.c" -o "$work/probe/$arch" 2>/dev/null; then
    missing+=("$arch ($cc cannot link statically: its libc6-dev-*-cross missing?)")
  elif [ "$("$qemu" "$work/probe/$arch" 2>/dev/null)" != ok ]; then
    missing+=("$arch ($qemu does not run a static $arch program)")
  else
    ready+=("$t")
  fi
done
ready+=("x86_64==") # last: the emulated targets take longest
if [ ${#ready[@]} -eq 1 ]; then
  echo "cross: skipped: no target can run: $(joined "${missing[@]}")"
  echo "cross: install gcc-aarch64-linux-gnu gcc-s390x-linux-gnu gcc-riscv64-linux-gnu, their libc6-dev-*-cross, and qemu-user (scripts/deps.sh)"
  exit 77
fi

# ---- every target (and x86-64 with the host compiler), $jobs at a time ----
for t in "${ready[@]}"; do
  IFS='=' read -r arch cc qemu <<<"$t"
  [ "$arch" = x86_64 ] && cc=$host_cc
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  build_arch "$arch" "$cc" "$qemu" &
done
wait

# ---- compare ----
fail=0
total=0
for name in "${names[@]}"; do
  [ -f "$work/x86_64/$name.txt" ] && total=$((total + $(wc -l <"$work/x86_64/$name.txt")))
done
for t in "${ready[@]}"; do
  arch=${t%%=*}
  read -r state kernels trials mism tlib trest <"$work/$arch/status" || state=failed
  if [ "$state" != ok ]; then
    cat "$work/$arch/status"
    fail=1
    continue
  fi
  [ "$arch" = x86_64 ] && { echo "cross: x86_64: $kernels kernels digested (in ${trest} s)"; continue; }
  differ=0
  for name in "${names[@]}"; do
    if ! cmp -s "$work/x86_64/$name.txt" "$work/$arch/$name.txt"; then
      echo "cross: $arch: $name: digests differ from x86-64's:"
      diff "$work/x86_64/$name.txt" "$work/$arch/$name.txt" | grep '^[<>]' | head -20
      differ=$((differ + 1))
    fi
  done
  [ $differ -gt 0 ] && fail=1
  checked="wherec check: $trials trials, $mism mismatches"
  [ "$trials" = 0 ] && checked="wherec check: not run here (check_on)"
  echo "cross: $arch: $kernels kernels, digests $([ $differ -eq 0 ] && echo "equal to x86-64's" || echo "differ in $differ specs");" \
       "$checked (runtime built in ${tlib} s, digests and checks in ${trest} s)"
done
echo "cross: ${#specs[@]} specs, $total kernels, $((${#ready[@]} - 1)) targets, $((SECONDS - start)) s"
[ $fail -ne 0 ] && exit 1
if [ ${#missing[@]} -gt 0 ]; then
  echo "cross: skipped (the targets above matched): cannot run $(joined "${missing[@]}")"
  exit 77
fi
exit 0
