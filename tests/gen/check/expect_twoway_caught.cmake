# expect_twoway_caught.cmake: runs the harness linked with lenient_dispatch.c (cmake -P,
# HARNESS=path): a dispatcher that takes the specialized path for shapes binding one
# extent two ways must be caught by the harness's trials of such shapes, and only by them.
execute_process(COMMAND ${HARNESS} --unroll 4 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 3)
  message(FATAL_ERROR "expected exit status 3, got '${rc}'")
endif()
if(NOT out MATCHES "mismatch in kernel 'pick', path wc_run-unfit, binding N=[0-9]+, [cxy] dim 0 set to 1: N bound two ways \\(1 and [0-9]+\\):\n +wc_run-unfit took the specialized path; shapes do not fit the pattern")
  message(FATAL_ERROR "the report does not name kernel pick and the extent bound two ways")
endif()
# kernels where no extent can be bound two ways (one occurrence each, or where_v1) pass
foreach(k leaky coords nz v1 clamp)
  if(NOT out MATCHES "\n${k} [^\n]* 0\n")
    message(FATAL_ERROR "kernel ${k} should have no mismatches")
  endif()
endforeach()
foreach(k rows names cplx)
  if(out MATCHES "\n${k} [^\n]* 0\n")
    message(FATAL_ERROR "kernel ${k} binds an extent two ways: the harness should catch it")
  endif()
endforeach()
