#include "common/json.h"

#include <cmath>

namespace sinew::loader {
namespace {

Status WrongType(std::string_view where, std::string_view key, const char* expected) {
  return {Error::kWrongType, std::string("expected ") + expected, Pointer(where, key)};
}

// Looks `key` up: kNone when present (*value set), kMissingProperty when absent.
bool Find(Object o, std::string_view key, Element* value) {
  return o.at_key(key).get(*value) == simdjson::SUCCESS;
}

}  // namespace

std::string Pointer(std::string_view parent, std::string_view key) {
  std::string out(parent);
  out += '/';
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Pointer(std::string_view parent, size_t index) {
  std::string out(parent);
  out += '/';
  out += std::to_string(index);
  return out;
}

void Path::AppendTo(std::string* out) const {
  if (parent_) parent_->AppendTo(out);
  switch (kind_) {
    case Kind::kRoot:
      break;
    case Kind::kText:
      *out += text_;
      break;
    case Kind::kKey:
      *out += Pointer("", text_);
      break;
    case Kind::kIndex:
      *out += Pointer("", index_);
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

}  // namespace detail

LoadStatus NotAnObject(const Path& where) {
  return {Error::kWrongType, "expected an object", where.ToString()};
}

LoadStatus detail::NotANumber(const Path& parent, std::string_view key, size_t i) {
  const Path at(parent, key);
  return {Error::kWrongType, "expected a number", Path(at, i).ToString()};
}

LoadStatus detail::NotFinite(const Path& parent, std::string_view key, size_t i) {
  const Path at(parent, key);
  return {Error::kInvalidValue, "not finite", Path(at, i).ToString()};
}

LoadStatus detail::CountMismatch(const Path& parent, std::string_view key, size_t count,
                                 size_t found) {
  return {Error::kInvalidValue,
          "expected " + std::to_string(count) + " numbers, found " + std::to_string(found),
          Path(parent, key).ToString()};
}

template <typename V>
LoadStatus OptionalNumbers(const BasicField<V>& f, const Path& parent, size_t count,
                           std::vector<double>* out, bool* present) {
  ArrayOf<V> array;
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

template <typename V>
LoadStatus OptionalIndices(const BasicField<V>& f, const Path& parent, size_t size,
                           std::vector<uint32_t>* out, bool* present) {
  ArrayOf<V> array;
  bool found = false;
  SINEW_TRY(OptionalArray(f, parent, &array, &found));
  if (present) *present = found;
  if (!found) return {};
  out->resize(array.size());
  uint32_t* data = out->data();
  size_t i = 0;
  for (const auto e : array) {
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

LoadStatus OptionalNumber(const TapeField& f, const Path& parent, double* out, bool* present) {
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

LoadStatus OptionalStrings(const TapeField& f, const Path& parent,
                           std::vector<std::string_view>* out, bool* present) {
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
  const TapeField f = FindField(o, key);
  TapeArray array;
  return f.present && GetArray(f.value, &array) ? array.size() : 0;
}

// The hot-path getters' out-of-line parts, for the tape (no caller reads them from a simdjson
// element; instantiate them here if one comes).
template LoadStatus OptionalNumbers(const TapeField&, const Path&, size_t, std::vector<double>*,
                                    bool*);
template LoadStatus OptionalIndices(const TapeField&, const Path&, size_t, std::vector<uint32_t>*,
                                    bool*);

Status AsObject(Element value, std::string_view where, Object* out) {
  if (value.get_object().get(*out) != simdjson::SUCCESS) {
    return {Error::kWrongType, "expected an object", std::string(where)};
  }
  return {};
}

Status OptionalObject(Object o, std::string_view key, std::string_view where, Object* out,
                      bool* present) {
  Element value;
  *present = Find(o, key, &value);
  if (*present && value.get_object().get(*out) != simdjson::SUCCESS) {
    return WrongType(where, key, "an object");
  }
  return {};
}

Status OptionalArray(Object o, std::string_view key, std::string_view where, Array* out,
                     bool* present) {
  Element value;
  *present = Find(o, key, &value);
  if (*present && value.get_array().get(*out) != simdjson::SUCCESS) {
    return WrongType(where, key, "an array");
  }
  return {};
}

Status RequireArray(Object o, std::string_view key, std::string_view where, Array* out) {
  bool present = false;
  SINEW_TRY(OptionalArray(o, key, where, out, &present));
  if (!present) return {Error::kMissingProperty, "required", Pointer(where, key)};
  return {};
}

Status OptionalUint(Object o, std::string_view key, std::string_view where, uint64_t* out,
                    bool* present) {
  Element value;
  const bool found = Find(o, key, &value);
  if (present) *present = found;
  if (found && !GetUint(value, out)) return WrongType(where, key, "a non-negative integer");
  return {};
}

Status RequireUint(Object o, std::string_view key, std::string_view where, uint64_t* out) {
  bool present = false;
  SINEW_TRY(OptionalUint(o, key, where, out, &present));
  if (!present) return {Error::kMissingProperty, "required", Pointer(where, key)};
  return {};
}

Status OptionalIndex(Object o, std::string_view key, std::string_view where, size_t size,
                     int32_t* out) {
  uint64_t value = 0;
  bool present = false;
  SINEW_TRY(OptionalUint(o, key, where, &value, &present));
  if (!present) return {};
  if (value >= size) {
    return {Error::kInvalidReference,
            "index " + std::to_string(value) + " but there are " + std::to_string(size),
            Pointer(where, key)};
  }
  *out = static_cast<int32_t>(value);
  return {};
}

Status RequireIndex(Object o, std::string_view key, std::string_view where, size_t size,
                    uint32_t* out) {
  int32_t value = -1;
  SINEW_TRY(OptionalIndex(o, key, where, size, &value));
  if (value < 0) return {Error::kMissingProperty, "required", Pointer(where, key)};
  *out = static_cast<uint32_t>(value);
  return {};
}

Status OptionalBool(Object o, std::string_view key, std::string_view where, bool* out) {
  Element value;
  if (Find(o, key, &value) && value.get_bool().get(*out) != simdjson::SUCCESS) {
    return WrongType(where, key, "a boolean");
  }
  return {};
}

Status OptionalString(Object o, std::string_view key, std::string_view where, std::string_view* out,
                      bool* present) {
  Element value;
  const bool found = Find(o, key, &value);
  if (present) *present = found;
  if (found && value.get_string().get(*out) != simdjson::SUCCESS) {
    return WrongType(where, key, "a string");
  }
  return {};
}

Status RequireString(Object o, std::string_view key, std::string_view where,
                     std::string_view* out) {
  bool present = false;
  SINEW_TRY(OptionalString(o, key, where, out, &present));
  if (!present) return {Error::kMissingProperty, "required", Pointer(where, key)};
  return {};
}

Status OptionalStrings(Object o, std::string_view key, std::string_view where,
                       std::vector<std::string_view>* out, bool* present) {
  Array array;
  bool found = false;
  SINEW_TRY(OptionalArray(o, key, where, &array, &found));
  if (present) *present = found;
  out->clear();
  if (!found) return {};
  size_t i = 0;
  for (Element e : array) {
    std::string_view v;
    if (e.get_string().get(v) != simdjson::SUCCESS) {
      return {Error::kWrongType, "expected a string", Pointer(Pointer(where, key), i)};
    }
    out->push_back(v);
    ++i;
  }
  return {};
}

size_t ArraySize(Object o, std::string_view key) {
  Array array;
  return o.at_key(key).get_array().get(array) == simdjson::SUCCESS ? array.size() : 0;
}

Status OptionalNumber(Object o, std::string_view key, std::string_view where, double* out,
                      bool* present) {
  Element e;
  const bool found = o.at_key(key).get(e) == simdjson::SUCCESS;
  if (present) *present = found;
  if (!found) return {};
  double v = 0;
  if (e.get_double().get(v) != simdjson::SUCCESS) {
    return {Error::kWrongType, "expected a number", Pointer(where, key)};
  }
  if (!std::isfinite(v)) return {Error::kInvalidValue, "not finite", Pointer(where, key)};
  *out = v;
  return {};
}

Status OptionalNumbers(Object o, std::string_view key, std::string_view where, size_t count,
                       std::vector<double>* out, bool* present) {
  Array array;
  bool found = false;
  SINEW_TRY(OptionalArray(o, key, where, &array, &found));
  if (present) *present = found;
  if (!found) return {};
  const Path parent(where);
  if (count != 0 && array.size() != count) {
    return detail::CountMismatch(parent, key, count, array.size());
  }
  out->resize(array.size());
  double* data = out->data();
  return detail::ReadNumbers(array, parent, key, [data](size_t i, double v) { data[i] = v; });
}

Status OptionalIndices(Object o, std::string_view key, std::string_view where, size_t size,
                       std::vector<uint32_t>* out, bool* present) {
  Array array;
  bool found = false;
  SINEW_TRY(OptionalArray(o, key, where, &array, &found));
  if (present) *present = found;
  if (!found) return {};
  out->clear();
  out->reserve(array.size());
  size_t i = 0;
  for (Element e : array) {
    uint64_t v = 0;
    if (!GetUint(e, &v)) {
      return {Error::kWrongType, "expected a non-negative integer",
              Pointer(Pointer(where, key), i)};
    }
    if (v >= size) {
      return {Error::kInvalidReference,
              "index " + std::to_string(v) + " but there are " + std::to_string(size),
              Pointer(Pointer(where, key), i)};
    }
    out->push_back(static_cast<uint32_t>(v));
    ++i;
  }
  return {};
}

}  // namespace sinew::loader
