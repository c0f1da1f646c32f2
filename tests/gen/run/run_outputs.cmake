# run_outputs.cmake: `wherec run` of a kernel with two outputs (cmake -P): one -o per
# output, the same bytes specialized and interpreted, and a wrong count of -o refused.
# -DWHEREC=exe -DSRC=dir (outputs.where, outputs_x.npy) -DWORK=dir
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(ENV{WHEREC_CACHE_DIR} ${WORK}/cache)
foreach(way spec interp)
  set(flag "")
  if(way STREQUAL "interp")
    set(flag --interp)
  endif()
  execute_process(COMMAND ${WHEREC} run ${SRC}/outputs.where hard_swish ${SRC}/outputs_x.npy
                          -o ${WORK}/y_${way}.npy -o ${WORK}/t_${way}.npy ${flag}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run (${way}) exited ${rc}: ${err}")
  endif()
endforeach()
foreach(out y t)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/${out}_spec.npy
                          ${WORK}/${out}_interp.npy RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "output ${out}: specialized and interpreted differ")
  endif()
endforeach()
execute_process(COMMAND ${WHEREC} run ${SRC}/outputs.where hard_swish ${SRC}/outputs_x.npy
                        -o ${WORK}/only.npy RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "has 2 outputs; 1 -o given" OR EXISTS ${WORK}/only.npy)
  message(FATAL_ERROR "one -o for two outputs: exit ${rc}: ${err}")
endif()
