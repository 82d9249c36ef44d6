// Links sinew::runtime and sinew::loader built as a subproject, with the Vulkan loader's own
// prototypes visible (sinew defines no VK_NO_PROTOTYPES for its users), and runs the CPU
// reference on the procedural character.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <vector>

#include "sinew/cpu/skin_mesh.h"
#include "sinew/loader/load_asset.h"
#include "sinew/procedural/character.h"
#include "sinew/procedural/crowd.h"

#ifdef VK_NO_PROTOTYPES
#error "sinew must not define VK_NO_PROTOTYPES for its users"
#endif
using CreateInstance = decltype(&vkCreateInstance);  // the loader's prototype is declared

int main() {
  sinew::procedural::CharacterOptions options;
  options.vertex_count = 300;
  auto character = sinew::procedural::MakeCharacter(options);
  if (!character) return 1;
  const sinew::Primitive* mesh = &character->mesh;
  std::vector<sinew::Float3x4> palette(character->skeleton.joint_count());
  if (!sinew::procedural::CrowdPalette(character->skeleton, 0.5f, 0, palette)) return 1;
  std::vector<float> positions(mesh->positions.size()), normals(mesh->normals.size()),
      tangents(mesh->tangents.size());
  if (!sinew::cpu::SkinMesh(*mesh, palette, {}, positions, normals, tangents)) return 1;
  // The loader's error path, without a file.
  if (sinew::loader::LoadAsset("no such file.gltf").code() != sinew::Error::kFileNotFound) return 1;
  std::printf("subdir consumer: %zu vertices skinned on the CPU\n", mesh->vertex_count());
  return 0;
}
