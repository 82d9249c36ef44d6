#!/usr/bin/env bash
# Installs what sinew needs from Debian 12 packages (only what is missing; apt-get update once),
# configures and builds, then runs the job asked for:
#
#   scripts/build.sh bench [sinew bench options]   build, then run `sinew bench` (procedural crowd)
#   scripts/build.sh test  [ctest options]         build, then run every test
#   scripts/build.sh build                         build only
#
# Environment: SINEW_BUILD_DIR (default: build), SINEW_BUILD_TYPE (default: Release),
# SINEW_TEST_ASSETS (default: ../shared/assets beside the checkout), SINEW_TEST_CONFORMANCE
# (default: ../shared/conformance beside the checkout).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
job=${1:-}
[ $# -gt 0 ] && shift
case "$job" in
  bench|test|build) ;;
  *) echo "usage: scripts/build.sh bench|test|build [options]" >&2; exit 2 ;;
esac

packages=(
  cmake ninja-build g++ pkg-config          # toolchain
  libvulkan-dev                             # Vulkan headers (incl. Vulkan-Hpp) + loader
  libvulkan-volk-dev                        # volk, for the volk-host consumer test
  glslang-tools spirv-tools                 # GLSL -> SPIR-V at build time, spirv-val
  libsimdjson-dev                           # the loader's JSON parser
  libzstd-dev                               # Zstd-encoded G4MF binary chunks
  liblz4-dev                                # LZ4-compressed .usdc (crate) sections
  libpng-dev                                # PNG pictures (sinew render, the engine sample)
  googletest libgtest-dev                   # tests
  mesa-vulkan-drivers                       # lavapipe: Vulkan on the CPU
  vulkan-validationlayers                   # VK_LAYER_KHRONOS_validation for the GPU tests
  clang libclang-rt-14-dev                  # libFuzzer + ASan/UBSan for the fuzz targets
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "sinew: installing Debian packages: ${missing[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
fi

build=${SINEW_BUILD_DIR:-$root/build}
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${SINEW_BUILD_TYPE:-Release}" \
  ${SINEW_TEST_ASSETS:+-DSINEW_TEST_ASSETS="$SINEW_TEST_ASSETS"} \
  ${SINEW_TEST_CONFORMANCE:+-DSINEW_TEST_CONFORMANCE="$SINEW_TEST_CONFORMANCE"} \
  "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$(nproc)"

case "$job" in
  bench) exec "$build/samples/sinew/sinew" bench "$@" ;;
  test) exec ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" "$@" ;;
  build) ;;
esac
