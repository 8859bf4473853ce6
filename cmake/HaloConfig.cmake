# find_package(Halo): the Halo compiler libraries and halo_add_library().
include(CMakeFindDependencyMacro)
find_dependency(LLVM CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
find_dependency(PNG)
find_dependency(OpenMP)
include(${CMAKE_CURRENT_LIST_DIR}/HaloTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/HaloGenerator.cmake)
