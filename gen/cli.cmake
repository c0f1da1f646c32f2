# cli.cmake: the `wherec` command line (gen/main.c) and `wherec check` (gen/check.c),
# included from gen/CMakeLists.txt; the generator proper comes in as wherec_gen / WHEREC_GEN_SOURCES.

# `wherec check` as a library of its own, so that tests can link it with a
# stand-in gen_generate. The paths it compiles in are the build tree's; an
# installed wherec overrides them with WHEREC_INCLUDE_DIR, WHEREC_HARNESS and
# WHEREC_RUNTIME_LIB in the environment.
if(WHEREC_SANITIZE)
  set(WHEREC_RUNTIME_SANITIZED 1)    # a sanitized libwherec links only into sanitized programs
else()
  set(WHEREC_RUNTIME_SANITIZED 0)
endif()
add_library(wherec_check STATIC ${CMAKE_CURRENT_LIST_DIR}/check.c)
set_target_properties(wherec_check PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_include_directories(wherec_check PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(wherec_check PRIVATE
  WHEREC_INCLUDE_DIR="${PROJECT_SOURCE_DIR}/include"
  WHEREC_HARNESS_SOURCE="${CMAKE_CURRENT_LIST_DIR}/check_harness.c"
  WHEREC_RUNTIME_ARCHIVE="$<TARGET_FILE:wherec_runtime>"
  WHEREC_RUNTIME_SANITIZED=${WHEREC_RUNTIME_SANITIZED})
target_link_libraries(wherec_check PRIVATE $<BUILD_INTERFACE:wherec_warnings> wherec_spawn wherec_front)
add_dependencies(wherec_check wherec_runtime)      # check links the archive at run time

add_executable(wherec ${CMAKE_CURRENT_LIST_DIR}/main.c ${WHEREC_GEN_SOURCES})
set_target_properties(wherec PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_definitions(wherec PRIVATE
  WHEREC_VERSION="${PROJECT_VERSION}"
  WHEREC_INCLUDE_DIR="${PROJECT_SOURCE_DIR}/include")
target_link_libraries(wherec PRIVATE wherec_check wherec_spawn wherec_front wherec_runtime
                      $<BUILD_INTERFACE:wherec_warnings> ${CMAKE_DL_LIBS})
if(TARGET wherec_gen)
  target_link_libraries(wherec PRIVATE wherec_gen)
endif()
