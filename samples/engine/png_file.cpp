#include "png_file.h"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace sinew::engine {

bool WritePng(const std::string& path, uint32_t width, uint32_t height,
              std::span<const uint8_t> rgba, std::string* error) {
  if (rgba.size() != size_t(width) * height * 4 || width == 0 || height == 0) {
    *error = "the picture is not width x height RGBA8";
    return false;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    *error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  // A picture that could not be written whole is not left behind, truncated.
  errno = 0;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    const int failure = errno;
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
    std::remove(path.c_str());
    *error = "cannot write " + path +
             (failure != 0 ? std::string(": ") + std::strerror(failure)
                           : std::string(" (libpng failed)"));
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_write_info(png, info);
  for (uint32_t row = 0; row < height; ++row) {
    png_write_row(png, rgba.data() + size_t(row) * width * 4);
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fclose(f) != 0) {
    const int failure = errno;
    std::remove(path.c_str());
    *error = "cannot write " + path + ": " + std::strerror(failure);
    return false;
  }
  return true;
}

void OverBackground(std::span<uint8_t> rgba, const uint8_t background[3]) {
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    if (rgba[i + 3] != 0) continue;
    rgba[i] = background[0];
    rgba[i + 1] = background[1];
    rgba[i + 2] = background[2];
    rgba[i + 3] = 255;
  }
}

}  // namespace sinew::engine
