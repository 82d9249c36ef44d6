#include "usd/anim_mapper.h"

#include <string_view>
#include <unordered_map>

namespace sinew::loader::usd {

AnimMapper::AnimMapper(std::span<const std::string> source, std::span<const std::string> target)
    : source_size_(source.size()), target_size_(target.size()) {
  if (null()) return;
  // Ordered: the source is target[pos, pos + n) for the first position of source[0].
  const auto first = std::find(target.begin(), target.end(), source[0]);
  if (first != target.end()) {
    const size_t pos = size_t(first - target.begin());
    if (pos + source.size() <= target.size() &&
        std::equal(source.begin(), source.end(), target.begin() + ptrdiff_t(pos))) {
      ordered_ = true;
      offset_ = pos;
      sparse_ = !(pos == 0 && source.size() == target.size());
      return;
    }
  }
  std::unordered_map<std::string_view, int32_t> where;  // target token -> its last index
  for (size_t t = 0; t < target.size(); ++t) where[target[t]] = int32_t(t);
  index_.resize(source.size(), -1);
  std::vector<bool> written(target.size(), false);
  for (size_t s = 0; s < source.size(); ++s) {
    if (const auto it = where.find(source[s]); it != where.end()) {
      index_[s] = it->second;
      written[size_t(it->second)] = true;
    }
  }
  sparse_ = std::find(written.begin(), written.end(), false) != written.end();
}

}  // namespace sinew::loader::usd
