# halo_add_library(<name> GENERATOR <generator> FROM <generator executable target>
#                  [FUNCTION_NAME <function>] [PARAMS key=value ...] [TARGETS <target>])
#
# Runs the generator executable at build time to compile generator <generator> ahead of time,
# and defines the library target <name>: link it to call <function> (default <name>) declared
# in <function>.h. The library needs only Halo's runtime (and threads) at run time.
function(halo_add_library name)
  cmake_parse_arguments(ARG "" "GENERATOR;FROM;FUNCTION_NAME" "PARAMS;TARGETS" ${ARGN})
  if(NOT ARG_GENERATOR)
    message(FATAL_ERROR "halo_add_library(${name}): GENERATOR <name> is required")
  endif()
  if(NOT ARG_FROM)
    message(FATAL_ERROR "halo_add_library(${name}): FROM <generator executable target> is required")
  endif()
  if(NOT ARG_FUNCTION_NAME)
    set(ARG_FUNCTION_NAME ${name})
  endif()
  if(NOT ARG_TARGETS)
    set(ARG_TARGETS host)
  endif()
  list(LENGTH ARG_TARGETS n_targets)
  if(n_targets GREATER 1)
    message(FATAL_ERROR "halo_add_library(${name}): give one target per library")
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name}.halo)
  set(lib ${dir}/lib${ARG_FUNCTION_NAME}.a)
  set(header ${dir}/${ARG_FUNCTION_NAME}.h)
  # In a sanitized build of Halo (HALO_SANITIZE) the generator runs with the sanitizers' options.
  set(env)
  if(HALO_SANITIZER_ENV)
    set(env ${CMAKE_COMMAND} -E env ${HALO_SANITIZER_ENV})
  endif()
  add_custom_command(
    OUTPUT ${lib} ${header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${env} $<TARGET_FILE:${ARG_FROM}> -g ${ARG_GENERATOR} -o ${dir} -f ${ARG_FUNCTION_NAME}
            -e static_library,h target=${ARG_TARGETS} ${ARG_PARAMS}
    DEPENDS ${ARG_FROM}
    COMMENT "Compiling Halo generator ${ARG_GENERATOR} as ${ARG_FUNCTION_NAME} (${ARG_TARGETS})"
    VERBATIM)
  add_custom_target(${name}.generate DEPENDS ${lib} ${header})
  add_library(${name} INTERFACE)
  add_dependencies(${name} ${name}.generate)
  target_include_directories(${name} INTERFACE ${dir})
  if(TARGET Halo::halo_runtime)
    set(runtime Halo::halo_runtime)
  else()
    set(runtime halo_runtime)
  endif()
  target_link_libraries(${name} INTERFACE ${lib} ${runtime})
endfunction()
