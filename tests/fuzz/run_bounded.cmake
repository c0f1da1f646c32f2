# run_bounded.cmake: one bounded libFuzzer run for ctest (cmake -P): the committed
# corpus is copied to a scratch directory, which the run may grow; the tree stays as it is.
# -DFUZZER=exe -DCORPUS=dir -DSCRATCH=dir -DSECONDS=n [-DEXTRA=-dict=file]
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus ${SCRATCH}/artifacts)
file(GLOB seeds ${CORPUS}/*)
if(seeds)
  file(COPY ${seeds} DESTINATION ${SCRATCH}/corpus)
endif()
set(extra "")
if(EXTRA)
  set(extra ${EXTRA})
endif()
execute_process(
  COMMAND ${FUZZER} -max_total_time=${SECONDS} -timeout=10 -print_final_stats=1
          -artifact_prefix=${SCRATCH}/artifacts/ ${extra} ${SCRATCH}/corpus
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${rc}); the input that failed is in ${SCRATCH}/artifacts")
endif()
