# fuzz.cmake: WHEREC_FUZZ, coverage instrumentation for the libFuzzer targets of tests/fuzz.
# On by default in a sanitized clang build whose clang has libFuzzer (libclang-rt-dev).
# Every library is then compiled with -fsanitize=fuzzer-no-link, so the fuzz targets link
# the same libraries as everything else; the sanitizer runtime supplies the coverage
# hooks for the programs that are not fuzz targets.
include(CheckCSourceCompiles)
set(_wherec_fuzz_default OFF)
if(WHEREC_SANITIZE AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
  check_c_source_compiles([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
]] WHEREC_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(WHEREC_HAVE_LIBFUZZER)
    set(_wherec_fuzz_default ON)
  else()
    message(STATUS "wherec: clang without libFuzzer (libclang-rt-dev); no fuzz targets")
  endif()
endif()
option(WHEREC_FUZZ "Build the libFuzzer targets (needs WHEREC_SANITIZE and clang)" ${_wherec_fuzz_default})
if(WHEREC_FUZZ)
  # Line tables, not full debug information: the sanitizers' and libFuzzer's stack traces
  # name file and line from them, and the sanitizer build compiles 23% faster (interp.c:
  # 55 s against 71 s of CPU)
  add_compile_options(-fsanitize=fuzzer-no-link -gline-tables-only)
endif()
