// First-fit sub-allocation of one range [0, capacity) into aligned blocks, with neighbouring free
// blocks merged on Free. What a SkinCache carves its pools with (meshes, outputs, palette entries,
// morph slots); units are whatever the pool counts (bytes, entries, words).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace sinew::vk::detail {

class RangeAllocator {
 public:
  explicit RangeAllocator(uint64_t capacity = 0);

  // The offset of a free block of `size` units (> 0) at a multiple of `alignment` (> 0), or
  // nothing when no free block holds it.
  std::optional<uint64_t> Allocate(uint64_t size, uint64_t alignment = 1);
  // Returns a block Allocate gave (same offset and size) to the free list.
  void Free(uint64_t offset, uint64_t size);

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }

 private:
  uint64_t capacity_ = 0;
  uint64_t used_ = 0;
  std::map<uint64_t, uint64_t> free_;  // offset -> size, disjoint and never adjacent
};

}  // namespace sinew::vk::detail
