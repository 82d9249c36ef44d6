// The files the GPU suites run on: every shared skinned or morphing glTF asset and binary USD
// package (under SINEW_TEST_ASSETS) and Pixar's UsdSkel scenes (under SINEW_TEST_CONFORMANCE,
// "usdskel/..."), and where a parameter's file is.
#pragma once

#include <filesystem>
#include <string_view>

#include "test_assets.h"

namespace sinew::testing {

inline constexpr const char* kSkinnedOrMorphingAssets[] = {
    "Fox/Fox.glb",
    "CesiumMan/CesiumMan.glb",
    "SimpleSkin/SimpleSkin.gltf",
    "three_RobotExpressive/RobotExpressive.glb",
    "assimp_simple_skin/quad_skin.glb",
    "assimp_simple_skin/simple_skin.gltf",
    "synthetic/SimpleSkin_interp_bindpose.gltf",
    "synthetic/quad_skin_posed.glb",
    "MorphStressTest/MorphStressTest.gltf",
    "MorphStressTest_embedded/MorphStressTest.gltf",
    "AnimatedMorphSphere/AnimatedMorphSphere.gltf",
    "AnimatedMorphCube/AnimatedMorphCube.gltf",
    "MorphPrimitivesTest/MorphPrimitivesTest.gltf",
    "SimpleMorph/SimpleMorph.gltf",
};

// lbs.usda's linearly skinned meshes and curves, dqs.usda's skinned with dual quaternions, and the
// blend-shape planes (in-betweens, normal offsets).
inline constexpr const char* kUsdSkelScenes[] = {
    "usdskel/lbs.usda",
    "usdskel/dqs.usda",
    "usdskel/blendshapes.usda",
    "usdskel/blendshapesWithNormals.usda",
};

// The real binary USD packages (crate 0.8.0 .usdc inside .usdz, written by a common converter).
inline constexpr const char* kUsdPackages[] = {
    "usd/RiggedSimple.usdz",
    "usd/AnimatedMorphCube.usdz",
    "usd/AnimatedMorphSphere.usdz",
};

// A parameter's file: under the shared assets, or for "usdskel/..." among Pixar's UsdSkel scenes in
// the conformance data.
inline std::filesystem::path SharedAssetPath(std::string_view param) {
  return param.starts_with("usdskel/") ? TestConformance() / param : TestAssets() / param;
}

}  // namespace sinew::testing
