# find_package(Halo [COMPONENTS compiler runtime]):
#   runtime   Halo::halo_runtime (what ahead-of-time libraries link; needs only threads) and
#             halo_import_library() for libraries generated elsewhere.
#   compiler  Halo::halo, Halo::halo_generator_main and halo_add_library() (needs LLVM 19 and
#             libpng); implies runtime.
# Without COMPONENTS: both.
include(CMakeFindDependencyMacro)
set(_halo_components ${Halo_FIND_COMPONENTS})
if(NOT _halo_components)
  set(_halo_components compiler runtime)
endif()
foreach(_halo_c IN LISTS _halo_components)
  if(NOT _halo_c MATCHES "^(compiler|runtime)$")
    set(Halo_FOUND FALSE)
    set(Halo_NOT_FOUND_MESSAGE "Halo has no component '${_halo_c}' (components: compiler, runtime)")
    return()
  endif()
endforeach()

find_dependency(Threads)
include(${CMAKE_CURRENT_LIST_DIR}/HaloRuntimeTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/HaloRuntime.cmake)
set(Halo_runtime_FOUND TRUE)

if("compiler" IN_LIST _halo_components)
  # LLVM's own package looks for optional libraries (LibEdit, CURL, ...) it does not need
  # here and reports each one missing: keep that out of the user's configure output.
  set(_halo_log_level "${CMAKE_MESSAGE_LOG_LEVEL}")
  set(CMAKE_MESSAGE_LOG_LEVEL NOTICE)
  find_dependency(LLVM CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
  set(CMAKE_MESSAGE_LOG_LEVEL "${_halo_log_level}")
  find_dependency(PNG)
  include(${CMAKE_CURRENT_LIST_DIR}/HaloTargets.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/HaloGenerator.cmake)
  set(Halo_compiler_FOUND TRUE)
endif()
