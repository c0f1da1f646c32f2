# sanitize.cmake: WHEREC_SANITIZE: ON (or address) builds everything with AddressSanitizer
# and UBSan; thread builds it with ThreadSanitizer (clang), for the parallel paths.
string(TOLOWER "${WHEREC_SANITIZE}" _wherec_sanitize)
if(_wherec_sanitize STREQUAL "thread")
  set(WHEREC_SANITIZE_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
elseif(WHEREC_SANITIZE)
  set(WHEREC_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
endif()
if(WHEREC_SANITIZE_FLAGS)
  add_compile_options(${WHEREC_SANITIZE_FLAGS})
  add_link_options(${WHEREC_SANITIZE_FLAGS})
endif()
