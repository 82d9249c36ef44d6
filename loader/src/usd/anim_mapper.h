// UsdSkel's mapping of values from one joint (or blend-shape) order to another (docs/usda.md,
// "UsdSkel building blocks"): a SkelAnimation's joints onto a Skeleton's, a Skeleton's onto a
// mesh's `skel:joints`, an animation's blend shapes onto a mesh's. Values of target slots the
// source does not write keep what the destination held: the rest-pose fallback.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sinew::loader::usd {

class AnimMapper {
 public:
  // From `source` order to `target` order. Null when either is empty; ordered when the source
  // appears as one run of the target (identity when the run is the whole target); else indexed,
  // each source token to its target index (the last, for a token the target repeats) or nowhere.
  AnimMapper(std::span<const std::string> source, std::span<const std::string> target);

  bool null() const { return target_size_ == 0 || source_size_ == 0; }
  bool identity() const { return ordered_ && offset_ == 0 && source_size_ == target_size_; }
  // True unless every target slot is written by some source value.
  bool sparse() const { return sparse_; }

  // Maps `source` (elements of `element_size` values, in source order) into *target (in target
  // order): *target is resized to the target's size, new elements filled with `fallback`,
  // existing ones kept; then every mapped source element is copied over its target slot.
  template <typename T>
  void Remap(std::span<const T> source, size_t element_size, const T& fallback,
             std::vector<T>* target) const {
    if (identity() && source.size() == target_size_ * element_size) {
      target->assign(source.begin(), source.end());
      return;
    }
    target->resize(target_size_ * element_size, fallback);
    if (null()) return;
    if (ordered_) {
      const size_t room = target_size_ * element_size - offset_ * element_size;
      const size_t n = std::min(source.size(), room);
      std::copy_n(source.begin(), n, target->begin() + ptrdiff_t(offset_ * element_size));
      return;
    }
    for (size_t i = 0; i < index_.size() && (i + 1) * element_size <= source.size(); ++i) {
      if (index_[i] < 0) continue;
      std::copy_n(source.begin() + ptrdiff_t(i * element_size), element_size,
                  target->begin() + ptrdiff_t(size_t(index_[i]) * element_size));
    }
  }

 private:
  size_t source_size_ = 0, target_size_ = 0;
  bool ordered_ = false;
  size_t offset_ = 0;
  std::vector<int32_t> index_;  // indexed maps: target index per source token, or -1
  bool sparse_ = true;
};

}  // namespace sinew::loader::usd
