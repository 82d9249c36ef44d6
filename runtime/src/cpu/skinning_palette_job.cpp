#include "sinew/cpu/skinning_palette_job.h"

#include <string>

namespace sinew::cpu {

Status SkinningPaletteJob::Validate() const {
  if (models.empty()) return {Error::kEmptyPalette, "no joint matrices", "models"};
  if (inverse_binds.size() != models.size()) {
    return {Error::kSizeMismatch,
            "inverse_binds has " + std::to_string(inverse_binds.size()) + " entries for " +
                std::to_string(models.size()) + " joints",
            "inverse_binds"};
  }
  if (output.size() != models.size()) {
    return {Error::kSizeMismatch,
            "output has " + std::to_string(output.size()) + " entries for " +
                std::to_string(models.size()) + " joints",
            "output"};
  }
  return {};
}

Status SkinningPaletteJob::Run() const {
  if (Status s = Validate(); !s) return s;
  for (size_t i = 0; i < models.size(); ++i) {
    output[i] = ToFloat3x4(Multiply(models[i], inverse_binds[i]));
  }
  return {};
}

}  // namespace sinew::cpu
