/* wherec/loop.h: how generated element loops are cut so that every compiler
   and flag set users build with vectorizes them, -O2 included. */
#ifndef WHEREC_LOOP_H
#define WHEREC_LOOP_H

/* ---- blocks of a constant length -------------------------------------------
   A row runs in blocks of WC_LOOP_BLOCK elements, then the rest one by one. gcc's
   -O2 cost model ("very cheap") vectorizes only a loop whose trip count is a
   known multiple of the vector length and that needs no run-time overlap check;
   a block of 64 is a multiple of every vector length up to 64 bytes of bytes.
   clang vectorizes either loop at -O2 but checks for overlap once per loop, so
   per block: with 64 it ran uint8 where 1.5x slower than with 1024 (bench). */
#ifndef WC_LOOP_BLOCK
#if defined(__clang__)
#define WC_LOOP_BLOCK 1024
#else
#define WC_LOOP_BLOCK 64
#endif
#endif
/* Then blocks of WC_LOOP_TAIL: a row's rest, which gcc -O2 would run one
   element at a time (rows of 120 floats: 56 of them), in whole vectors of
   float. */
#ifndef WC_LOOP_TAIL
#define WC_LOOP_TAIL 8
#endif

/* ---- no overlap between iterations ------------------------------------------
   WC_NO_OVERLAP, before a block's loop, says that no iteration writes what
   another reads. Generated kernels may assume it: out is either its own buffer
   or the very buffer of an input of its shape (in place), and element j is read
   before element j is written. Without it gcc checks the pointers for overlap
   at run time, which its -O2 cost model refuses. clang's cost model pays for
   the check at -O2, and its counterpart (vectorize(assume_safety)) would force
   vectorization, warning on loops it cannot vectorize: empty there, as on
   other compilers. */
#if defined(__GNUC__) && !defined(__clang__)
#define WC_NO_OVERLAP _Pragma("GCC ivdep")
#else
#define WC_NO_OVERLAP
#endif

/* ---- a second build of the loops for AVX2 ---------------------------------
   A build for the x86-64 baseline (SSE2: -O2 without -march, as distributions
   and CMake's default flags compile) would run 16-byte vectors on CPUs with
   32-byte ones: 1.5-2.3x slower on in-cache where (bench, gen gcc-O2). There a
   kernel's loops are built twice, for any CPU and for AVX2 (a target attribute:
   the same C, no intrinsics), and K_range takes the AVX2 build when the CPU has
   it. The bits are the same either way: the loops do integer blends and IEEE
   arithmetic, never contracted (FMA is in the target, with AVX2 on every CPU
   that has it, for the correctly rounded functions, whose bounds hold with or
   without it: clang contracts them, 1.2-1.5x faster; exp.h). A build with
   -mavx2 or -march=native already has it; define WC_NO_CLONES to build for
   the baseline alone. */
#if !defined(WC_NO_CLONES) && !defined(__AVX2__) && defined(__x86_64__) && \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 6))
#define WC_CLONES 1
#define WC_TARGET_AVX2 __attribute__((target("avx2,fma")))
static inline int wc_cpu_avx2(void) {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
#define WC_CLONES 0
#endif

#endif
