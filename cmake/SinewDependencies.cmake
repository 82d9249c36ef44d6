# Every dependency comes from a Debian 12 package; nothing is downloaded. A missing one is a
# configure error that names the package to install (scripts/build.sh installs them all).

function(sinew_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "sinew needs ${what}: apt-get install ${package}")
  endif()
endfunction()

find_package(Vulkan QUIET)
sinew_require(Vulkan_FOUND "the Vulkan headers and loader" libvulkan-dev)

find_program(SINEW_GLSLANG_VALIDATOR glslangValidator)
sinew_require(SINEW_GLSLANG_VALIDATOR "glslangValidator" glslang-tools)

find_program(SINEW_SPIRV_VAL spirv-val)
sinew_require(SINEW_SPIRV_VAL "spirv-val" spirv-tools)

find_package(simdjson CONFIG QUIET)
sinew_require(simdjson_FOUND "simdjson" libsimdjson-dev)

find_package(zstd CONFIG QUIET)
sinew_require(zstd_FOUND "zstd (Zstd-encoded G4MF chunks)" libzstd-dev)

# LZ4 ships no CMake package: the loader links it by name (-llz4), which the installed package's
# consumers resolve the same way.
find_path(SINEW_LZ4_INCLUDE_DIR lz4.h)
find_library(SINEW_LZ4_LIBRARY lz4)
sinew_require(SINEW_LZ4_LIBRARY "LZ4 (compressed .usdc sections)" liblz4-dev)
sinew_require(SINEW_LZ4_INCLUDE_DIR "LZ4's headers" liblz4-dev)

if(SINEW_BUILD_TESTS)
  find_package(GTest QUIET)
  sinew_require(GTest_FOUND "GoogleTest" googletest)
endif()
