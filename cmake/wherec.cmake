# wherec.cmake: wherec_generate(), which runs `wherec gen` on .where specs at build time
# and compiles the generated C into a target. Included by wherecConfig.cmake (installed
# package) and by cmake/install.cmake (wherec built in the same tree, add_subdirectory).
#
#   wherec_generate(TARGET tgt SPECS a.where... [OUTPUT_DIR dir] [OPTIONS opt...])
#
# For each spec, writes <dir>/<prefix>.c and <dir>/<prefix>.h at build time, adds them
# to tgt's sources, adds <dir> to tgt's include path and links wherec::runtime (both
# PRIVATE; call it in the directory that creates tgt). OUTPUT_DIR defaults to
# ${CMAKE_CURRENT_BINARY_DIR}/wherec_generated/<tgt>; a relative one is taken from the
# current binary directory. OPTIONS go to `wherec gen` as they are (--unroll N,
# --prefix P, --templates DIR). Specs are passed relative to the current source
# directory, so the path recorded in the generated header is the same on every machine.
#
# The output names must be known when CMake configures, so the prefix is found the
# way the generator finds it:
#   1. --prefix P in OPTIONS (then SPECS must hold a single spec);
#   2. else the spec's `option prefix = "P";` (read with a regular expression after
#      removing # comments; CMake reconfigures when the spec changes, so an edited
#      prefix is picked up);
#   3. else the spec's file name up to its first '.', every character other than
#      A-Z a-z 0-9 _ replaced by '_', and a leading '_' added when the name does not
#      start with a letter or '_' ("2d-conv.where" -> "_2d_conv").
#
# Regeneration: the command depends on the spec, the wherec executable and every file
# of the templates directory. `wherec gen` rewrites a file only when its content
# changes, which spares recompiling everything that includes an unchanged header; so
# the command's OUTPUT is a stamp file touched after each run, and the .c/.h are
# BYPRODUCTS. Had the .c/.h been the OUTPUT, an edit that leaves them unchanged (a
# comment) would leave them older than the spec and the command would rerun on every
# build; touching them instead would recompile every includer after each such edit.
# Ninja reruns the command when a byproduct is missing; Makefiles do not, so after
# deleting generated files by hand, delete wherec_stamps/ too (or build `clean`).

if(NOT DEFINED WHEREC_TEMPLATES_DIR)
  message(FATAL_ERROR "wherec.cmake: set WHEREC_TEMPLATES_DIR before including it")
endif()
# A global property, not a variable: wherec_generate() may be called from a directory
# that cannot see this file's variables (the parent of an add_subdirectory()).
set_property(GLOBAL PROPERTY WHEREC_TEMPLATES_DIR "${WHEREC_TEMPLATES_DIR}")

# _wherec_spec_prefix(<out> <spec>): the prefix of a spec without --prefix (rules 2, 3).
function(_wherec_spec_prefix out spec)
  file(READ "${spec}" text)
  string(REGEX REPLACE "#[^\n]*" "" text "${text}")      # a prefix never holds '#'
  if(text MATCHES "(^|[;\n\r\t ])option[\n\r\t ]+prefix[\n\r\t ]*=[\n\r\t ]*\"([^\"]*)\"")
    set(${out} "${CMAKE_MATCH_2}" PARENT_SCOPE)
    return()
  endif()
  get_filename_component(name "${spec}" NAME)
  string(FIND "${name}" "." dot)
  if(dot GREATER_EQUAL 0)
    string(SUBSTRING "${name}" 0 ${dot} base)
  else()
    set(base "${name}")
  endif()
  string(REGEX REPLACE "[^A-Za-z0-9_]" "_" prefix "${base}")
  if(NOT name MATCHES "^[A-Za-z_]")
    set(prefix "_${prefix}")
  endif()
  set(${out} "${prefix}" PARENT_SCOPE)
endfunction()

function(wherec_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;OUTPUT_DIR" "SPECS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "wherec_generate: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR "wherec_generate: TARGET must name an existing target (got '${arg_TARGET}')")
  endif()
  if(NOT arg_SPECS)
    message(FATAL_ERROR "wherec_generate: no SPECS given")
  endif()
  if(NOT TARGET wherec::wherec)
    message(FATAL_ERROR "wherec_generate: no wherec::wherec target; "
                        "use find_package(wherec) or add_subdirectory() wherec's source tree")
  endif()
  set(tgt "${arg_TARGET}")

  if(arg_OUTPUT_DIR)
    get_filename_component(dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/wherec_generated/${tgt}")
  endif()
  set(stamp_dir "${CMAKE_CURRENT_BINARY_DIR}/wherec_stamps/${tgt}")

  # What the options decide: the prefix (rule 1) and the templates depended on.
  get_property(templates_dir GLOBAL PROPERTY WHEREC_TEMPLATES_DIR)
  set(forced_prefix "")
  set(pending "")
  foreach(opt IN LISTS arg_OPTIONS)
    if(pending STREQUAL "prefix")
      set(forced_prefix "${opt}")
      set(pending "")
    elseif(pending STREQUAL "templates")
      get_filename_component(templates_dir "${opt}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(pending "")
    elseif(opt STREQUAL "--prefix")
      set(pending prefix)
    elseif(opt STREQUAL "--templates")
      set(pending templates)
    elseif(opt MATCHES "^--prefix=(.*)$")
      set(forced_prefix "${CMAKE_MATCH_1}")
    elseif(opt MATCHES "^--templates=(.*)$")
      get_filename_component(templates_dir "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    endif()
  endforeach()
  list(LENGTH arg_SPECS n_specs)
  if(NOT forced_prefix STREQUAL "" AND n_specs GREATER 1)
    message(FATAL_ERROR "wherec_generate: --prefix would give ${n_specs} specs the same "
                        "output files; call wherec_generate once per spec")
  endif()
  file(GLOB templates CONFIGURE_DEPENDS "${templates_dir}/*")

  set(prefixes "")
  foreach(spec IN LISTS arg_SPECS)
    get_filename_component(spec_abs "${spec}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${spec_abs}")
      message(FATAL_ERROR "wherec_generate: spec not found: ${spec_abs}")
    endif()
    if(NOT forced_prefix STREQUAL "")
      set(prefix "${forced_prefix}")
    else()
      _wherec_spec_prefix(prefix "${spec_abs}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec_abs}")
    endif()
    if(prefix IN_LIST prefixes)
      message(FATAL_ERROR "wherec_generate: two specs of ${tgt} would both write ${prefix}.c; "
                          "give them different `option prefix`")
    endif()
    list(APPEND prefixes "${prefix}")

    # Inside the project: a relative path, recorded as such in the generated header.
    file(RELATIVE_PATH spec_arg "${CMAKE_SOURCE_DIR}" "${spec_abs}")
    if(spec_arg MATCHES "^\\.\\./")
      set(spec_arg "${spec_abs}")
    else()
      file(RELATIVE_PATH spec_arg "${CMAKE_CURRENT_SOURCE_DIR}" "${spec_abs}")
    endif()

    set(stamp "${stamp_dir}/${prefix}.stamp")
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${dir}/${prefix}.c" "${dir}/${prefix}.h"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}" "${stamp_dir}"
      COMMAND wherec::wherec gen "${spec_arg}" -o "${dir}" ${arg_OPTIONS}
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${spec_abs}" "$<TARGET_FILE:wherec::wherec>" ${templates}
      WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      COMMENT "wherec: generating ${prefix}.c and ${prefix}.h from ${spec_arg}"
      VERBATIM)
    target_sources(${tgt} PRIVATE "${stamp}" "${dir}/${prefix}.c" "${dir}/${prefix}.h")
  endforeach()

  target_include_directories(${tgt} PRIVATE "${dir}")
  target_link_libraries(${tgt} PRIVATE wherec::runtime)
endfunction()
