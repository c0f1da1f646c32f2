# io.cmake: `wherec run` and `wherec import` for the tests of tests/npy and tests/onnx:
# their sources as a library, a stand-in CLI, and WHEREC_IO_CLI (the program the tests run).
# Included from both directories: the targets once, the variable in each.
if(NOT TARGET wherec_io)
add_library(wherec_io STATIC
  ${PROJECT_SOURCE_DIR}/gen/npy.c
  ${PROJECT_SOURCE_DIR}/gen/run.c
  ${PROJECT_SOURCE_DIR}/gen/onnx.c
  ${PROJECT_SOURCE_DIR}/gen/import.c
  ${PROJECT_SOURCE_DIR}/gen/errbuf.c)
target_compile_definitions(wherec_io PRIVATE
  WHEREC_VERSION="${PROJECT_VERSION}"
  WHEREC_INCLUDE_DIR="${PROJECT_SOURCE_DIR}/include"
  WHEREC_TEMPLATES_DIR="${PROJECT_SOURCE_DIR}/templates")
target_include_directories(wherec_io PUBLIC ${PROJECT_SOURCE_DIR}/gen)
target_link_libraries(wherec_io PRIVATE wherec_warnings wherec_spawn PUBLIC wherec_gen ${CMAKE_DL_LIBS})

# Until gen/main.c dispatches `run` and `import`, a stand-in main calls them.
add_executable(wherec_io_cli ${CMAKE_CURRENT_LIST_DIR}/wherec_io_main.c)
target_link_libraries(wherec_io_cli PRIVATE wherec_io wherec_warnings)
endif()

# The real CLI once it holds run.c (gen/cli.cmake); else the stand-in.
set(WHEREC_IO_CLI $<TARGET_FILE:wherec_io_cli>)
if(TARGET wherec)
  get_target_property(_wherec_sources wherec SOURCES)
  if(_wherec_sources MATCHES "run\\.c")
    set(WHEREC_IO_CLI $<TARGET_FILE:wherec>)
  endif()
endif()
