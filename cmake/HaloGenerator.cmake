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

# halo_add_sweep(<name> GENERATOR <generator> FROM <generator executable target> SIZES <WxH...>
#                [PARAMS param=v1,v2,... ...] [INPUTS name=file.png|name=value ...] [ROUNDS n]
#                [THREADS n] [HEATMAP x,y] [CSV file] [PNG file])
#
# Adds a target <name> (not built by default: `cmake --build . --target <name>`) that runs the
# tile-size sweep of <generator> over every combination of the PARAMS values, and writes
# <name>.csv and <name>.png in the build directory unless CSV/PNG say otherwise.
function(halo_add_sweep name)
  cmake_parse_arguments(ARG "" "GENERATOR;FROM;SIZES;ROUNDS;THREADS;HEATMAP;CSV;PNG" "PARAMS;INPUTS" ${ARGN})
  foreach(required GENERATOR FROM SIZES)
    if(NOT ARG_${required})
      message(FATAL_ERROR "halo_add_sweep(${name}): ${required} is required")
    endif()
  endforeach()
  if(NOT ARG_CSV)
    set(ARG_CSV ${CMAKE_CURRENT_BINARY_DIR}/${name}.csv)
  endif()
  if(NOT ARG_PNG)
    set(ARG_PNG ${CMAKE_CURRENT_BINARY_DIR}/${name}.png)
  endif()
  set(options -g ${ARG_GENERATOR} -r ${ARG_SIZES} --csv ${ARG_CSV} --png ${ARG_PNG})
  if(ARG_ROUNDS)
    list(APPEND options --rounds ${ARG_ROUNDS})
  endif()
  if(ARG_THREADS)
    list(APPEND options --threads ${ARG_THREADS})
  endif()
  if(ARG_HEATMAP)
    list(APPEND options --heatmap ${ARG_HEATMAP})
  endif()
  foreach(input ${ARG_INPUTS})
    list(APPEND options --input ${input})
  endforeach()
  if(TARGET Halo::halo-sweep)
    set(tool Halo::halo-sweep)
  else()
    set(tool halo-sweep)
  endif()
  add_custom_target(${name}
    COMMAND $<TARGET_FILE:${tool}> $<TARGET_FILE:${ARG_FROM}> ${options} ${ARG_PARAMS}
    DEPENDS ${ARG_FROM}
    COMMENT "Sweeping Halo generator ${ARG_GENERATOR} (${ARG_SIZES})"
    VERBATIM USES_TERMINAL)
endfunction()
