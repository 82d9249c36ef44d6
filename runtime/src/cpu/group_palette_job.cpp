#include "sinew/cpu/group_palette_job.h"

#include <string>

namespace sinew::cpu {

Status GroupPaletteJob::Validate() const {
  if (output.empty()) return {Error::kEmptyPalette, "no groups to write", "output"};
  // Every entry, including those past output's end: a bad joints array is bad whichever mesh
  // (group count) it is used with.
  for (size_t g = 0; g < joints.size(); ++g) {
    const int32_t joint = joints[g];
    if (joint == -1) continue;
    if (joint < 0 || static_cast<size_t>(joint) >= bone_palette.size()) {
      return {Error::kJointIndexOutOfRange,
              "group " + std::to_string(g) + " maps to bone " + std::to_string(joint) +
                  " but the bone palette has " + std::to_string(bone_palette.size()) +
                  " entries (-1 is the only negative allowed)",
              "joints/" + std::to_string(g)};
    }
  }
  return {};
}

Status GroupPaletteJob::Run() const {
  if (Status s = Validate(); !s) return s;
  for (size_t g = 0; g < output.size(); ++g) {
    const int32_t joint = g < joints.size() ? joints[g] : -1;
    output[g] = joint == -1 ? Float3x4{} : bone_palette[static_cast<size_t>(joint)];
  }
  return {};
}

}  // namespace sinew::cpu
