# reconciled_symbols.cmake: two unnamed dims that ONNX leaves to the runtime to reconcile
# are imported as one extent, and when the caller's tensors bind it two ways (a: [1,3],
# b: [4,3]) wc_run and wc_prepare take the interpreter: wherec check runs those shapes
# (its "binding one extent two ways" trials) against the reference, bit for bit.
# cmake -DCLI=wherec -DCASE=models/unnamed_dims_add -DWORK=dir -P reconciled_symbols.cmake

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CLI} import ${CASE}/model.onnx -o ${WORK}/m.where
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "import failed (${rc}):\n${err}")
endif()
file(READ ${WORK}/m.where spec)
if(NOT spec MATCHES "\\(a: float\\[unk__0,3\\], b: float\\[unk__0,3\\]\\)")
  message(FATAL_ERROR "the two unnamed dims are not one extent:\n${spec}")
endif()
execute_process(COMMAND ${CLI} check ${WORK}/m.where RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check failed (${rc}):\n${out}${err}")
endif()
if(NOT out MATCHES " ([1-9][0-9]*) binding one extent two ways" OR NOT out MATCHES " 0 mismatches")
  message(FATAL_ERROR "no shapes bound unk__0 two ways, or a mismatch:\n${out}")
endif()
message(STATUS "unk__0 bound two ways ${CMAKE_MATCH_1} times: interpreted, equal to the reference")
