#include "usd/lz4_blocks.h"

#include <lz4.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace sinew::loader::usd {

bool Lz4Decompress(std::span<const uint8_t> in, std::span<uint8_t> out, std::string* why,
                   size_t* written) {
  if (in.empty()) {
    *why = "empty LZ4 stream";
    return false;
  }
  const auto block = [&](std::span<const uint8_t> src, size_t at) -> long {
    if (src.size() > size_t(std::numeric_limits<int>::max()) ||
        out.size() - at > size_t(std::numeric_limits<int>::max())) {
      *why = "LZ4 block over 2 GB";
      return -1;
    }
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src.data()),
                                      reinterpret_cast<char*>(out.data() + at), int(src.size()),
                                      int(out.size() - at));
    if (n < 0) *why = "malformed LZ4 block";
    return n;
  };
  const size_t chunks = in[0];
  if (chunks == 0) {
    const long n = block(in.subspan(1), 0);
    if (n < 0) return false;
    if (written) *written = size_t(n);
    if (!written && size_t(n) != out.size()) {
      *why = "LZ4 data decompresses to " + std::to_string(n) + " bytes, expected " +
             std::to_string(out.size());
      return false;
    }
    return true;
  }
  size_t pos = 1, total = 0;
  for (size_t c = 0; c < chunks; ++c) {
    int32_t size = 0;
    if (in.size() - pos < sizeof(size)) {
      *why = "LZ4 chunk " + std::to_string(c) + " header past the end";
      return false;
    }
    std::memcpy(&size, in.data() + pos, sizeof(size));
    pos += sizeof(size);
    if (size < 0 || size_t(size) > in.size() - pos) {
      *why = "LZ4 chunk " + std::to_string(c) + " past the end";
      return false;
    }
    const long n = block(in.subspan(pos, size_t(size)), total);
    if (n < 0) return false;
    total += size_t(n);
    pos += size_t(size);
  }
  if (written) *written = total;
  if (!written && total != out.size()) {
    *why = "LZ4 chunks decompress to " + std::to_string(total) + " bytes, expected " +
           std::to_string(out.size());
    return false;
  }
  return true;
}

std::vector<uint8_t> Lz4Compress(std::span<const uint8_t> in) {
  // One block when LZ4 takes the input whole; else chunks of LZ4's largest input, each an int32
  // size and a block, after their count.
  const size_t chunk = LZ4_MAX_INPUT_SIZE;
  const size_t chunks = in.size() <= chunk ? 0 : (in.size() + chunk - 1) / chunk;
  std::vector<uint8_t> out(1, uint8_t(chunks));
  const auto block = [&](std::span<const uint8_t> part, bool sized) {
    const size_t at = out.size() + (sized ? 4 : 0);
    out.resize(at + size_t(LZ4_compressBound(int(part.size()))));
    const int n = LZ4_compress_default(reinterpret_cast<const char*>(part.data()),
                                       reinterpret_cast<char*>(out.data() + at), int(part.size()),
                                       int(out.size() - at));
    out.resize(at + size_t(n > 0 ? n : 0));
    if (sized) {
      const int32_t size = n;
      std::memcpy(out.data() + at - 4, &size, 4);
    }
  };
  if (chunks == 0) {
    block(in, false);
  } else {
    for (size_t c = 0; c < chunks; ++c)
      block(in.subspan(c * chunk, std::min(chunk, in.size() - c * chunk)), true);
  }
  return out;
}

}  // namespace sinew::loader::usd
