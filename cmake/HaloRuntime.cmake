# halo_import_library(<name> DIR <dir> [FUNCTION_NAME <function>])
#
# A library compiled ahead of time elsewhere (by halo_add_library or a generator executable's
# -e static_library,h): <dir> holds lib<function>.a and <function>.h (default function: <name>).
# Defines the target <name>; linking it gives the header and Halo's runtime, nothing of LLVM.
function(halo_import_library name)
  cmake_parse_arguments(ARG "" "DIR;FUNCTION_NAME" "" ${ARGN})
  if(NOT ARG_DIR)
    message(FATAL_ERROR "halo_import_library(${name}): DIR <directory with lib<function>.a and <function>.h> is required")
  endif()
  if(NOT ARG_FUNCTION_NAME)
    set(ARG_FUNCTION_NAME ${name})
  endif()
  foreach(file lib${ARG_FUNCTION_NAME}.a ${ARG_FUNCTION_NAME}.h)
    if(NOT EXISTS ${ARG_DIR}/${file})
      message(FATAL_ERROR "halo_import_library(${name}): ${ARG_DIR}/${file} does not exist; "
                          "generate it with -e static_library,h (or give FUNCTION_NAME)")
    endif()
  endforeach()
  add_library(${name} STATIC IMPORTED)
  set_target_properties(${name} PROPERTIES IMPORTED_LOCATION ${ARG_DIR}/lib${ARG_FUNCTION_NAME}.a)
  target_include_directories(${name} INTERFACE ${ARG_DIR})
  if(TARGET Halo::halo_runtime)
    target_link_libraries(${name} INTERFACE Halo::halo_runtime)
  else()
    target_link_libraries(${name} INTERFACE halo_runtime)
  endif()
endfunction()
