# Compiles GLSL compute shaders to SPIR-V at build time, validates them with spirv-val and embeds
# them as C arrays (glslangValidator --vn): no .spv file is read at run time.

set(SINEW_SHADER_OUT ${CMAKE_BINARY_DIR}/generated/shaders)
file(MAKE_DIRECTORY ${SINEW_SHADER_OUT})

# sinew_embed_shaders(TARGET <name> SOURCES <a.comp>... DEPENDS <shared.glsl>...
#                     [INCLUDES <dir>...])
# Creates an INTERFACE target whose include directory holds <a>.spv.h, defining
# `const uint32_t sinew_spv_<a>[]`. INCLUDES: more directories #include looks in.
function(sinew_embed_shaders)
  cmake_parse_arguments(ARG "" "TARGET" "SOURCES;DEPENDS;INCLUDES" ${ARGN})
  set(include_flags)
  foreach(dir ${ARG_INCLUDES})
    list(APPEND include_flags -I${dir})
  endforeach()
  set(headers)
  foreach(source ${ARG_SOURCES})
    get_filename_component(name ${source} NAME_WE)
    get_filename_component(abs ${source} ABSOLUTE)
    set(spv ${SINEW_SHADER_OUT}/${name}.spv)
    set(header ${SINEW_SHADER_OUT}/${name}.spv.h)
    add_custom_command(
      OUTPUT ${header} ${spv}
      COMMAND ${SINEW_GLSLANG_VALIDATOR} --quiet --target-env vulkan1.2 -V ${include_flags}
              -o ${spv} ${abs}
      COMMAND ${SINEW_SPIRV_VAL} --target-env vulkan1.2 ${spv}
      COMMAND ${SINEW_GLSLANG_VALIDATOR} --quiet --target-env vulkan1.2 -V ${include_flags}
              --vn sinew_spv_${name} -o ${header} ${abs}
      DEPENDS ${abs} ${ARG_DEPENDS}
      COMMENT "Compiling, validating and embedding shader ${name}"
      VERBATIM)
    list(APPEND headers ${header})
  endforeach()
  add_custom_target(${ARG_TARGET}_compile DEPENDS ${headers})
  add_library(${ARG_TARGET} INTERFACE)
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_compile)
  target_include_directories(${ARG_TARGET} INTERFACE $<BUILD_INTERFACE:${SINEW_SHADER_OUT}>)
endfunction()
