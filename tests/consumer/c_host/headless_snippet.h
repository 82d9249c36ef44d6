// docs/embedding.md's headless snippet, run on `path` at `time` seconds of its first clip: the
// first drawn primitive's outputs as the GPU skinned them, in `result`. False where a step of it
// failed.
#pragma once

#include <filesystem>

#include "sinew/cpu/deform_primitive.h"

bool HeadlessSnippet(const std::filesystem::path& path, float time,
                     sinew::cpu::DeformedPrimitive* result);
