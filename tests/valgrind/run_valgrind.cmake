# run_valgrind.cmake: runs each program under valgrind memcheck (cmake -P); any error,
# invalid access or leak fails the test. -DVALGRIND=exe -DPROGRAMS=a|b|c
string(REPLACE "|" ";" programs "${PROGRAMS}")
set(failed "")
foreach(p IN LISTS programs)
  execute_process(
    COMMAND ${VALGRIND} -q --error-exitcode=1 --leak-check=full ${p}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message("${p}: exit status ${rc}\n${out}\n${err}")
    list(APPEND failed ${p})
  else()
    message("${p}: clean under valgrind")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "failed under valgrind: ${failed}")
endif()
