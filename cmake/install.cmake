# install.cmake: install rules, the CMake package (wherecConfig.cmake, exported targets
# wherec::wherec and wherec::runtime), wherec.pc, and wherec_generate() for in-tree use.
# Included last by the top-level CMakeLists.txt, once every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# A project that add_subdirectory()s wherec usually ships its own package; it can
# still ask for wherec's install rules with -DWHEREC_INSTALL=ON.
if(CMAKE_SOURCE_DIR STREQUAL PROJECT_SOURCE_DIR)
  set(_wherec_is_top_level ON)
else()
  set(_wherec_is_top_level OFF)
endif()
option(WHEREC_INSTALL "Generate wherec's install rules" ${_wherec_is_top_level})

set(WHEREC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/wherec)
set(WHEREC_INSTALL_TEMPLATESDIR ${CMAKE_INSTALL_DATADIR}/wherec/templates)

# ---- the installed layout as seen from the installed executable (gen/paths.c) ----
# Relative paths from bin/ to what `wherec gen` and `wherec check` read at run time,
# so an install works wherever it is unpacked (cmake --install --prefix, DESTDIR, a
# moved tree). The build tree's copies stay the fallback for the uninstalled wherec.
# A directory configured as an absolute path stays absolute (not relocatable).
function(_wherec_rel_from_bindir out path)
  if(IS_ABSOLUTE "${path}")
    set(rel "${path}")
  else()
    file(RELATIVE_PATH rel ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_PREFIX}/${path})
  endif()
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()

_wherec_rel_from_bindir(_wherec_rel_templates ${WHEREC_INSTALL_TEMPLATESDIR})
_wherec_rel_from_bindir(_wherec_rel_include ${CMAKE_INSTALL_INCLUDEDIR})
_wherec_rel_from_bindir(_wherec_rel_harness ${CMAKE_INSTALL_DATADIR}/wherec/check_harness.c)
_wherec_rel_from_bindir(_wherec_rel_libdir ${CMAKE_INSTALL_LIBDIR})

if(TARGET wherec_gen OR TARGET wherec_check)
  add_library(wherec_paths STATIC ${PROJECT_SOURCE_DIR}/gen/paths.c)
  set_target_properties(wherec_paths PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  target_include_directories(wherec_paths PUBLIC ${PROJECT_SOURCE_DIR}/gen)
  target_compile_definitions(wherec_paths PRIVATE
    WHEREC_TEMPLATES_DIR="${PROJECT_SOURCE_DIR}/templates"
    WHEREC_REL_TEMPLATES="${_wherec_rel_templates}"
    WHEREC_REL_INCLUDE="${_wherec_rel_include}"
    WHEREC_REL_HARNESS="${_wherec_rel_harness}"
    WHEREC_REL_RUNTIME="${_wherec_rel_libdir}/$<TARGET_LINKER_FILE_NAME:wherec_runtime>")
  target_link_libraries(wherec_paths PRIVATE $<BUILD_INTERFACE:wherec_warnings>)
  foreach(_wherec_user wherec_gen wherec_check)
    if(TARGET ${_wherec_user})
      target_link_libraries(${_wherec_user} PRIVATE wherec_paths)
    endif()
  endforeach()
endif()

# ---- names under which the package exports the targets ----
set_target_properties(wherec_runtime PROPERTIES
  EXPORT_NAME runtime
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR})
if(TARGET wherec)
  set_target_properties(wherec PROPERTIES EXPORT_NAME wherec)
  if(NOT TARGET wherec::wherec)
    add_executable(wherec::wherec ALIAS wherec)       # the same name in-tree as installed
  endif()
  if(BUILD_SHARED_LIBS)                               # an installed wherec finds ../lib/libwherec.so
    set_target_properties(wherec PROPERTIES INSTALL_RPATH "$ORIGIN/${_wherec_rel_libdir}")
  endif()
endif()

# ---- wherec_generate() for projects that add_subdirectory() the source tree ----
if(TARGET wherec)
  set(WHEREC_TEMPLATES_DIR ${PROJECT_SOURCE_DIR}/templates)
  include(${CMAKE_CURRENT_LIST_DIR}/wherec.cmake)
endif()

if(NOT WHEREC_INSTALL)
  return()
endif()

# ---- install rules ----
install(TARGETS wherec_runtime EXPORT wherecTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET wherec)
  install(TARGETS wherec EXPORT wherecTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/wherec
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
if(TARGET wherec)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/ DESTINATION ${WHEREC_INSTALL_TEMPLATESDIR})
  if(EXISTS ${PROJECT_SOURCE_DIR}/gen/check_harness.c)
    install(FILES ${PROJECT_SOURCE_DIR}/gen/check_harness.c DESTINATION ${CMAKE_INSTALL_DATADIR}/wherec)
  endif()
endif()

# The package: targets, wherec_generate(), the templates directory, a version file.
install(EXPORT wherecTargets
  NAMESPACE wherec::
  FILE wherecTargets.cmake
  DESTINATION ${WHEREC_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/wherecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/wherecConfig.cmake
  INSTALL_DESTINATION ${WHEREC_INSTALL_CMAKEDIR}
  PATH_VARS WHEREC_INSTALL_TEMPLATESDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/wherecConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/wherecConfig.cmake
  ${PROJECT_BINARY_DIR}/wherecConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/wherec.cmake
  DESTINATION ${WHEREC_INSTALL_CMAKEDIR})

# pkg-config: paths relative to the .pc file itself (${pcfiledir}), so the file
# holds no absolute path and stays right under any --prefix or DESTDIR.
set(_wherec_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH WHEREC_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${_wherec_pcdir} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" WHEREC_PC_TO_PREFIX "${WHEREC_PC_TO_PREFIX}")
foreach(_wherec_dir LIBDIR INCLUDEDIR BINDIR DATADIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_wherec_dir}}")
    set(WHEREC_PC_${_wherec_dir} "${CMAKE_INSTALL_${_wherec_dir}}")
  else()
    set(WHEREC_PC_${_wherec_dir} "\${prefix}/${CMAKE_INSTALL_${_wherec_dir}}")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/wherec.pc.in ${PROJECT_BINARY_DIR}/wherec.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/wherec.pc DESTINATION ${_wherec_pcdir})
