# run_entry.cmake: one entry of the bad-input catalogue (cmake -P), run from the catalogue
# directory: `wherec gen specs/NAME.where` or `wherec import onnx/NAME.onnx` must exit 1,
# print exactly NAME.expected on stderr and nothing on stdout, and write no output.
# -DWHEREC=exe -DCATALOGUE=dir -DKIND=specs|onnx -DNAME=NNN-short-name -DSCRATCH=dir
# With WHEREC_UPDATE_CATALOGUE=1 in the environment the .expected file is rewritten instead.
set(expected ${CATALOGUE}/${KIND}/${NAME}.expected)
set(got ${SCRATCH}/${NAME}.stderr)
file(MAKE_DIRECTORY ${SCRATCH})
if(KIND STREQUAL "specs")
  set(out ${SCRATCH}/${NAME}.out)
  set(command gen specs/${NAME}.where -o ${out})
else()
  set(out ${SCRATCH}/${NAME}.where)
  set(command import onnx/${NAME}.onnx -o ${out})
endif()
file(REMOVE_RECURSE ${out})
execute_process(
  COMMAND ${WHEREC} ${command}
  WORKING_DIRECTORY ${CATALOGUE}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE stdout
  ERROR_FILE ${got})
if(DEFINED ENV{WHEREC_UPDATE_CATALOGUE})
  file(COPY_FILE ${got} ${expected})
endif()
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "${NAME}: exit status ${rc}, expected 1")
endif()
if(NOT stdout STREQUAL "")
  message(FATAL_ERROR "${NAME}: wrote to stdout:\n${stdout}")
endif()
if(EXISTS ${out})
  message(FATAL_ERROR "${NAME}: ${out} was written although the input is bad")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${got} ${expected} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  file(READ ${got} text)
  message(FATAL_ERROR "${NAME}: diagnostics differ from ${expected}; got (${got}):\n${text}")
endif()
