// Writing a picture as a PNG file (libpng): the engine sample's frames and `sinew render`'s.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace sinew::engine {

// Writes `rgba` (width x height RGBA8, rows top to bottom, sRGB) to `path`; false with `error` set
// when the file cannot be written.
bool WritePng(const std::string& path, uint32_t width, uint32_t height,
              std::span<const uint8_t> rgba, std::string* error);

// `rgba` over an opaque background colour: what is not drawn (alpha 0) becomes `background`.
void OverBackground(std::span<uint8_t> rgba, const uint8_t background[3]);

}  // namespace sinew::engine
