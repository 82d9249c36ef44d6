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

if(SINEW_BUILD_TESTS)
  find_package(GTest QUIET)
  sinew_require(GTest_FOUND "GoogleTest" googletest)
endif()
