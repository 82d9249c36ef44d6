#include "range_allocator.h"

namespace sinew::vk::detail {

RangeAllocator::RangeAllocator(uint64_t capacity) : capacity_(capacity) {
  if (capacity) free_.emplace(0, capacity);
}

std::optional<uint64_t> RangeAllocator::Allocate(uint64_t size, uint64_t alignment) {
  if (size == 0 || alignment == 0) return std::nullopt;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first;
    const uint64_t end = start + it->second;
    const uint64_t aligned = (start + alignment - 1) / alignment * alignment;
    if (aligned > end || end - aligned < size) continue;
    free_.erase(it);
    if (aligned > start) free_.emplace(start, aligned - start);
    if (aligned + size < end) free_.emplace(aligned + size, end - aligned - size);
    used_ += size;
    return aligned;
  }
  return std::nullopt;
}

void RangeAllocator::Free(uint64_t offset, uint64_t size) {
  if (size == 0) return;
  used_ -= size;
  auto next = free_.lower_bound(offset);
  uint64_t start = offset;
  uint64_t end = offset + size;
  if (next != free_.end() && next->first == end) {
    end += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      free_.erase(prev);
    }
  }
  free_.emplace(start, end - start);
}

}  // namespace sinew::vk::detail
