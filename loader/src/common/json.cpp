#include "common/json.h"

#include <cmath>

namespace sinew::loader {

void Path::AppendTo(std::string* out) const {
  if (parent_) parent_->AppendTo(out);
  switch (kind_) {
    case Kind::kRoot:
      break;
    case Kind::kText:
      *out += text_;
      break;
    case Kind::kKey:
      *out += '/';
      for (const char c : text_) {
        if (c == '~') {
          *out += "~0";
        } else if (c == '/') {
          *out += "~1";
        } else {
          *out += c;
        }
      }
      break;
    case Kind::kIndex:
      *out += '/';
      *out += std::to_string(index_);
      break;
  }
}

std::string Path::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

namespace detail {

LoadStatus WrongType(const Path& parent, std::string_view key, const char* expected) {
  return {Error::kWrongType, std::string("expected ") + expected, Path(parent, key).ToString()};
}

LoadStatus Missing(const Path& parent, std::string_view key) {
  return {Error::kMissingProperty, "required", Path(parent, key).ToString()};
}

LoadStatus BadIndex(const Path& parent, std::string_view key, uint64_t value, size_t size) {
  return {Error::kInvalidReference,
          "index " + std::to_string(value) + " but there are " + std::to_string(size),
          Path(parent, key).ToString()};
}

LoadStatus NotANumber(const Path& parent, std::string_view key, size_t i) {
  const Path at(parent, key);
  return {Error::kWrongType, "expected a number", Path(at, i).ToString()};
}

LoadStatus NotFinite(const Path& parent, std::string_view key, size_t i) {
  const Path at(parent, key);
  return {Error::kInvalidValue, "not finite", Path(at, i).ToString()};
}

LoadStatus CountMismatch(const Path& parent, std::string_view key, size_t count, size_t found) {
  return {Error::kInvalidValue,
          "expected " + std::to_string(count) + " numbers, found " + std::to_string(found),
          Path(parent, key).ToString()};
}

}  // namespace detail

LoadStatus NotAnObject(const Path& where) {
  return {Error::kWrongType, "expected an object", where.ToString()};
}

LoadStatus OptionalNumber(const Field& f, const Path& parent, double* out, bool* present) {
  if (present) *present = f.present;
  if (!f.present) return {};
  double v = 0;
  if (!f.value.GetDouble(&v)) {
    return {Error::kWrongType, "expected a number", Path(parent, f.key).ToString()};
  }
  if (!std::isfinite(v))
    return {Error::kInvalidValue, "not finite", Path(parent, f.key).ToString()};
  *out = v;
  return {};
}

LoadStatus OptionalNumbers(const Field& f, const Path& parent, size_t count,
                           std::vector<double>* out, bool* present) {
  TapeArray array;
  bool found = false;
  SINEW_TRY(OptionalArray(f, parent, &array, &found));
  if (present) *present = found;
  if (!found) return {};
  const size_t size = array.size();
  if (count != 0 && size != count) return detail::CountMismatch(parent, f.key, count, size);
  out->resize(size);
  double* data = out->data();
  return detail::ReadNumbers(array, parent, f.key, [data](size_t i, double v) { data[i] = v; });
}

LoadStatus OptionalIndices(const Field& f, const Path& parent, size_t size,
                           std::vector<uint32_t>* out, bool* present) {
  TapeArray array;
  bool found = false;
  SINEW_TRY(OptionalArray(f, parent, &array, &found));
  if (present) *present = found;
  if (!found) return {};
  out->resize(array.size());
  uint32_t* data = out->data();
  size_t i = 0;
  for (const TapeValue e : array) {
    uint64_t v = 0;
    if (!GetUint(e, &v)) {
      const Path at(parent, f.key);
      return {Error::kWrongType, "expected a non-negative integer", Path(at, i).ToString()};
    }
    if (v >= size) {
      const Path at(parent, f.key);
      return {Error::kInvalidReference,
              "index " + std::to_string(v) + " but there are " + std::to_string(size),
              Path(at, i).ToString()};
    }
    data[i] = static_cast<uint32_t>(v);
    ++i;
  }
  return {};
}

LoadStatus OptionalStrings(const Field& f, const Path& parent, std::vector<std::string_view>* out,
                           bool* present) {
  TapeArray array;
  bool found = false;
  SINEW_TRY(OptionalArray(f, parent, &array, &found));
  if (present) *present = found;
  out->clear();
  if (!found) return {};
  size_t i = 0;
  for (const TapeValue e : array) {
    std::string_view v;
    if (!e.GetString(&v)) {
      const Path at(parent, f.key);
      return {Error::kWrongType, "expected a string", Path(at, i).ToString()};
    }
    out->push_back(v);
    ++i;
  }
  return {};
}

size_t ArraySize(TapeObject o, std::string_view key) {
  const Field f = FindField(o, key);
  TapeArray array;
  return f.present && GetArray(f.value, &array) ? array.size() : 0;
}

}  // namespace sinew::loader
