// The LZ4 framing USD's crate files use for their compressed sections and arrays: one byte giving
// the number of chunks, then either (0) one LZ4 block holding everything, or that many chunks,
// each an int32 size followed by an LZ4 block. LZ4 itself is Debian's liblz4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sinew::loader::usd {

// Decompresses `in` into `out`: exactly out.size() bytes when `written` is null, else at most
// out.size() bytes, their count in *written. False, with *why set, when the framing or a block is
// malformed, or the blocks do not fill `out` as asked.
bool Lz4Decompress(std::span<const uint8_t> in, std::span<uint8_t> out, std::string* why,
                   size_t* written = nullptr);

// `in` framed and compressed: one block, or chunks when it is larger than one LZ4 block takes.
std::vector<uint8_t> Lz4Compress(std::span<const uint8_t> in);

}  // namespace sinew::loader::usd
