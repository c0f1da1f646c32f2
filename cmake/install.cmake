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

# ---- names under which the package exports the targets ----
# The soname counts ABI breaks, not releases: 1 since wc_kernel (the generated
# tables) and wc_plan (caller-owned) gained the fields of kernels with several
# outputs, so a table or plan built against libwherec.so.0 would be misread;
# 2 since wc_param gained `data` (baked constants), which changes the stride of
# every generated parameter array.
set(WHEREC_SOVERSION 2)
set_target_properties(wherec_runtime PROPERTIES
  EXPORT_NAME runtime
  VERSION ${PROJECT_VERSION}
  SOVERSION ${WHEREC_SOVERSION})
set_target_properties(wherec PROPERTIES EXPORT_NAME wherec)
add_executable(wherec::wherec ALIAS wherec)           # the same name in-tree as installed

# ---- the installed wherec finds a shared libwherec ----
# libdir is rarely on the loader's path under a --prefix, so the installed executable
# carries a RUNPATH to it, relative to itself ($ORIGIN) so that the prefix can be moved
# or unpacked anywhere. A directory configured as an absolute path stays absolute. Set
# on wherec only: a bindir-relative path means nothing to a library in libdir, and
# libwherec needs none. A user's CMAKE_INSTALL_RPATH (even empty) is left as it is:
# CMake already gave it to every target. The build tree keeps CMake's own build RPATH,
# which names the build's src/; `cmake --install` rewrites it to this one.
if(BUILD_SHARED_LIBS AND NOT DEFINED CMAKE_INSTALL_RPATH)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(_wherec_rpath "${CMAKE_INSTALL_FULL_LIBDIR}")
  else()
    file(RELATIVE_PATH _wherec_rpath ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
    set(_wherec_rpath "$ORIGIN/${_wherec_rpath}")        # bin, lib -> $ORIGIN/../lib
  endif()
  set_target_properties(wherec PROPERTIES INSTALL_RPATH "${_wherec_rpath}")
endif()

# ---- wherec_generate() for projects that add_subdirectory() the source tree ----
set(WHEREC_TEMPLATES_DIR ${PROJECT_SOURCE_DIR}/templates)
include(${CMAKE_CURRENT_LIST_DIR}/wherec.cmake)

if(NOT WHEREC_INSTALL)
  return()
endif()

# ---- install rules ----
install(TARGETS wherec_runtime EXPORT wherecTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS wherec EXPORT wherecTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/wherec
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/ DESTINATION ${WHEREC_INSTALL_TEMPLATESDIR})
# The check harness and the one header it includes, in the layout of gen/.
install(FILES ${PROJECT_SOURCE_DIR}/gen/check/harness.c DESTINATION ${CMAKE_INSTALL_DATADIR}/wherec/check)
install(FILES ${PROJECT_SOURCE_DIR}/gen/base/exit_status.h DESTINATION ${CMAKE_INSTALL_DATADIR}/wherec/base)

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
