// Typed reads of a parsed JSON document, off simdjson's tape (common/tape.h), with errors that
// carry a JSON pointer (RFC 6901): the one way the loaders (glTF, its extensions, G4MF) read JSON.
// simdjson appears only inside the loader.
//
// An object's properties are gathered in one pass over its fields (Fields) instead of one key
// lookup per property; a getter takes the gathered Field and the object's Path, a pointer that is
// formatted only for an error or a warning; a success costs no string (LoadStatus). Arrays of
// objects are walked with ObjectArray::ForEach, which reports an entry that is not an object the
// same way in every pass. The loaders call these in loops over tens of thousands of objects (the
// glTF loader's speed target: BENCHMARKS.md), hence the inlining.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/load_status.h"
#include "common/tape.h"
#include "sinew/core/error.h"

namespace sinew::loader {

// A JSON pointer that is formatted only when an error or a warning needs it: a link to its parent
// (on the caller's stack) plus a key or an index. A loader passes these down instead of building a
// std::string per object and property. The parent must outlive the Path (pass temporaries down,
// never store them).
class Path {
 public:
  constexpr Path() = default;  // The document root: "".
  // A pointer that is already formatted (and escaped), e.g. "/accessors/3".
  constexpr explicit Path(std::string_view formatted) : text_(formatted), kind_(Kind::kText) {}
  constexpr Path(const Path& parent, std::string_view key)
      : parent_(&parent), text_(key), kind_(Kind::kKey) {}
  constexpr Path(const Path& parent, size_t index)
      : parent_(&parent), index_(index), kind_(Kind::kIndex) {}

  // The pointer: "/" + each key or index from the root down, keys escaped ('~' -> "~0",
  // '/' -> "~1").
  std::string ToString() const;

 private:
  enum class Kind : uint8_t { kRoot, kText, kKey, kIndex };
  void AppendTo(std::string* out) const;

  const Path* parent_ = nullptr;
  std::string_view text_;
  size_t index_ = 0;
  Kind kind_ = Kind::kRoot;
};

// The document root's pointer (""), for properties and arrays of the root object.
inline constexpr Path kDocumentRoot;

// The helpers below cost a few instructions on success, and the loaders call them in loops over
// thousands of objects, inside functions large enough that GCC's inliner would give up on them.
// SINEW_ALWAYS_INLINE also goes on a hot pass's lambda for ObjectArray::ForEach, between its
// parameters and its return type: GCC inlines that call, once per pass, only while the lambda is
// small (the accessors pass's lambda left out of line made a crowd load ~5% slower, A/B).
// SINEW_NEVER_INLINE keeps a rare path (an error's or a warning's) out of a hot one.
#if defined(__GNUC__)
#define SINEW_ALWAYS_INLINE __attribute__((always_inline))
#define SINEW_NEVER_INLINE __attribute__((noinline))
#else
#define SINEW_ALWAYS_INLINE
#define SINEW_NEVER_INLINE
#endif
#define SINEW_JSON_INLINE inline SINEW_ALWAYS_INLINE

// One property of an object as Fields or FindField found it: its key (also when absent, for
// errors) and, when present, its value.
struct Field {
  std::string_view key;
  TapeValue value;
  bool present = false;
};

// The first field of `o` named `key` (for an object read for one or two properties).
inline Field FindField(TapeObject o, std::string_view key) {
  for (const TapeKeyValue field : o) {
    if (field.key == key) return {key, field.value, true};
  }
  return {key, TapeValue(), false};
}

namespace detail {
template <typename T>
SINEW_JSON_INLINE T LoadWord(const char* p) {
  T word;
  std::memcpy(&word, p, sizeof(T));
  return word;
}
}  // namespace detail

// a == b for two strings of the same length n. The short keys of a JSON format compare as two
// overlapping words each: cheaper than a call to memcmp, which a runtime length would need.
SINEW_JSON_INLINE bool SameBytes(const char* a, const char* b, size_t n) {
  using detail::LoadWord;
  if (n >= 8 && n <= 16) {
    return LoadWord<uint64_t>(a) == LoadWord<uint64_t>(b) &&
           LoadWord<uint64_t>(a + n - 8) == LoadWord<uint64_t>(b + n - 8);
  }
  if (n >= 4 && n < 8) {
    return LoadWord<uint32_t>(a) == LoadWord<uint32_t>(b) &&
           LoadWord<uint32_t>(a + n - 4) == LoadWord<uint32_t>(b + n - 4);
  }
  if (n < 4) {
    for (size_t i = 0; i < n; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  return std::memcmp(a, b, n) == 0;
}

// a == b, for the short names of a JSON format. Put the constant name second: its size picks
// SameBytes's branch at compile time.
SINEW_JSON_INLINE bool Equals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && SameBytes(a.data(), b.data(), b.size());
}

// An object's fields named in `keys`, looked up in one pass over its fields, instead of one scan
// per key: (*this)[k] is the first field named keys[k] (as FindField finds it). Other fields are
// ignored. `keys` is a static table of distinct names, at most 32.
template <size_t N>
class Fields {
  static_assert(N <= 32);

 public:
  SINEW_JSON_INLINE Fields(TapeObject o, const std::string_view (&keys)[N])
      : keys_(keys), origin_(o.value()) {
    for (const TapeKeyValue field : o) {
#pragma GCC unroll 32
      for (size_t k = 0; k < N; ++k) {
        if (Equals(field.key, keys[k])) {
          if (!(present_ & (1u << k))) {
            indices_[k] = field.value.index();
            present_ |= 1u << k;
          }
          break;
        }
      }
    }
  }

  Field operator[](size_t k) const {
    const bool present = (present_ & (1u << k)) != 0;
    return {keys_[k], present ? origin_.at(indices_[k]) : TapeValue(), present};
  }

 private:
  const std::string_view* keys_;
  TapeValue origin_;  // The object: the values' tape.
  // A value is kept as its tape index alone: one word to store per field (a whole TapeValue,
  // stored from the iterator and loaded back as one, stalls on store forwarding).
  size_t indices_[N];
  uint32_t present_ = 0;  // Bit k: keys[k] was found.
};

// A number written with a fraction part of zero (1.0, 1e0) is an integer: JSON Schema's
// "integer", which glTF's schema uses, is any number without a fractional part. Up to 2^53, where
// every integer is a double. false for anything else, *out then untouched.
inline bool IntegralDouble(double d, uint64_t* out) {
  if (!(d >= 0.0 && d <= 9007199254740992.0) || d != std::floor(d)) return false;
  *out = static_cast<uint64_t>(d);
  return true;
}

// A non-negative integer (IntegralDouble's spellings too). false for anything else, *out then
// untouched.
SINEW_JSON_INLINE bool GetUint(TapeValue v, uint64_t* out) {
  if (v.GetUint64(out)) return true;
  double d = 0;
  return v.type() == 'd' && v.GetDouble(&d) && IntegralDouble(d, out);
}

// The errors of the getters below, built out of line (only a failure calls them).
namespace detail {
LoadStatus WrongType(const Path& parent, std::string_view key, const char* expected);
LoadStatus Missing(const Path& parent, std::string_view key);
LoadStatus BadIndex(const Path& parent, std::string_view key, uint64_t value, size_t size);
LoadStatus NotANumber(const Path& parent, std::string_view key, size_t i);
LoadStatus NotFinite(const Path& parent, std::string_view key, size_t i);
LoadStatus CountMismatch(const Path& parent, std::string_view key, size_t count, size_t found);
}  // namespace detail

// kWrongType "expected an object" at `where`.
LoadStatus NotAnObject(const Path& where);

// The getters: a Field of the object at `parent`. Each: a missing optional field leaves *out
// untouched and sets *present (when given) to false; a present field of the wrong JSON type is
// kWrongType at parent/key (parent/key/i for an array entry); Require* turn a missing field into
// kMissingProperty at parent/key.
SINEW_JSON_INLINE LoadStatus AsObject(TapeValue value, const Path& where, TapeObject* out) {
  if (!GetObject(value, out)) return NotAnObject(where);
  return {};
}

SINEW_JSON_INLINE LoadStatus OptionalObject(const Field& f, const Path& parent, TapeObject* out,
                                            bool* present) {
  *present = f.present;
  if (f.present && !GetObject(f.value, out)) return detail::WrongType(parent, f.key, "an object");
  return {};
}

SINEW_JSON_INLINE LoadStatus OptionalArray(const Field& f, const Path& parent, TapeArray* out,
                                           bool* present) {
  *present = f.present;
  if (f.present && !GetArray(f.value, out)) return detail::WrongType(parent, f.key, "an array");
  return {};
}

SINEW_JSON_INLINE LoadStatus OptionalUint(const Field& f, const Path& parent, uint64_t* out,
                                          bool* present = nullptr) {
  if (present) *present = f.present;
  if (f.present && !GetUint(f.value, out)) {
    return detail::WrongType(parent, f.key, "a non-negative integer");
  }
  return {};
}

SINEW_JSON_INLINE LoadStatus RequireUint(const Field& f, const Path& parent, uint64_t* out) {
  if (!f.present) return detail::Missing(parent, f.key);
  return OptionalUint(f, parent, out);
}

// An index into an array of `size` objects: kInvalidReference when >= size.
SINEW_JSON_INLINE LoadStatus OptionalIndex(const Field& f, const Path& parent, size_t size,
                                           int32_t* out) {
  if (!f.present) return {};
  uint64_t value = 0;
  if (!GetUint(f.value, &value)) return detail::WrongType(parent, f.key, "a non-negative integer");
  if (value >= size) return detail::BadIndex(parent, f.key, value, size);
  *out = static_cast<int32_t>(value);
  return {};
}

SINEW_JSON_INLINE LoadStatus RequireIndex(const Field& f, const Path& parent, size_t size,
                                          uint32_t* out) {
  if (!f.present) return detail::Missing(parent, f.key);
  int32_t value = -1;
  SINEW_TRY(OptionalIndex(f, parent, size, &value));
  // An index that does not fit int32_t reads as missing.
  if (value < 0) return detail::Missing(parent, f.key);
  *out = static_cast<uint32_t>(value);
  return {};
}

SINEW_JSON_INLINE LoadStatus OptionalBool(const Field& f, const Path& parent, bool* out) {
  if (f.present && !f.value.GetBool(out)) return detail::WrongType(parent, f.key, "a boolean");
  return {};
}

SINEW_JSON_INLINE LoadStatus OptionalString(const Field& f, const Path& parent,
                                            std::string_view* out, bool* present = nullptr) {
  if (present) *present = f.present;
  if (f.present && !f.value.GetString(out)) return detail::WrongType(parent, f.key, "a string");
  return {};
}

// The same, copied into *out (untouched when absent): an object's name, say.
SINEW_JSON_INLINE LoadStatus OptionalString(const Field& f, const Path& parent, std::string* out) {
  std::string_view value;
  bool present = false;
  SINEW_TRY(OptionalString(f, parent, &value, &present));
  if (present) out->assign(value);
  return {};
}

SINEW_JSON_INLINE LoadStatus RequireString(const Field& f, const Path& parent,
                                           std::string_view* out) {
  if (!f.present) return detail::Missing(parent, f.key);
  return OptionalString(f, parent, out);
}

// A finite number (kInvalidValue "not finite" at parent/key otherwise).
LoadStatus OptionalNumber(const Field& f, const Path& parent, double* out, bool* present = nullptr);

// A number array of exactly `count` entries (any count when count == 0), finite.
LoadStatus OptionalNumbers(const Field& f, const Path& parent, size_t count,
                           std::vector<double>* out, bool* present = nullptr);

namespace detail {
// Reads a number array's entries into out(i, value); kWrongType / kInvalidValue at parent/key/i.
template <typename Out>
SINEW_JSON_INLINE LoadStatus ReadNumbers(TapeArray array, const Path& parent, std::string_view key,
                                         Out&& out) {
  size_t i = 0;
  for (const TapeValue e : array) {
    double v = 0;
    if (!e.GetDouble(&v)) return NotANumber(parent, key, i);
    if (!std::isfinite(v)) return NotFinite(parent, key, i);
    out(i, v);
    ++i;
  }
  return {};
}

// OptionalNumbers into a span, for a present field (kWrongType / kInvalidValue at parent/key/i).
SINEW_JSON_INLINE LoadStatus PresentNumbers(const Field& f, const Path& parent,
                                            std::span<double> out) {
  TapeArray array;
  if (!GetArray(f.value, &array)) return WrongType(parent, f.key, "an array");
  if (array.size() != out.size()) return CountMismatch(parent, f.key, out.size(), array.size());
  double* data = out.data();
  return ReadNumbers(array, parent, f.key, [data](size_t i, double v) { data[i] = v; });
}
}  // namespace detail

// A number array of exactly out.size() entries, finite, into `out` (no allocation). Inline for
// the common absent field (a node's scale and matrix, say).
SINEW_JSON_INLINE LoadStatus OptionalNumbers(const Field& f, const Path& parent,
                                             std::span<double> out, bool* present) {
  *present = f.present;
  if (!f.present) return {};
  return detail::PresentNumbers(f, parent, out);
}

// An array of indices, each < size.
LoadStatus OptionalIndices(const Field& f, const Path& parent, size_t size,
                           std::vector<uint32_t>* out, bool* present = nullptr);

// An array of strings (views into the parsed document); *out is cleared first, also when absent.
LoadStatus OptionalStrings(const Field& f, const Path& parent, std::vector<std::string_view>* out,
                           bool* present = nullptr);

// The length of the array o[key]; 0 when absent or not an array (its own pass reports that).
size_t ArraySize(TapeObject o, std::string_view key);

// An array of objects as every loader pass walks one: a top-level array ("/nodes") or one inside
// an object (a mesh's "primitives"). An entry that is not an object is kWrongType ("expected an
// object") at its pointer, the same in every pass. Refers to its parent's Path: it must not
// outlive it.
class ObjectArray {
 public:
  ObjectArray() = default;

  // Entries; 0 for an absent array.
  size_t size() const { return present_ ? array_.size() : 0; }

  // Calls read(object, where, i) for each entry i in order (where = parent/key/i; read returns a
  // LoadStatus); returns the first failure, of an entry that is not an object or of read.
  template <typename Read>
  SINEW_JSON_INLINE LoadStatus ForEach(Read&& read) const {
    if (!present_) return {};
    const Path path(*parent_, key_);
    size_t i = 0;
    for (const TapeValue e : array_) {
      const Path where(path, i);
      TapeObject o;
      SINEW_TRY(AsObject(e, where, &o));
      SINEW_TRY(read(o, where, i));
      ++i;
    }
    return {};
  }

  // Resizes *out to size() entries and calls read(object, where, &(*out)[i]) for each, as ForEach
  // does: for a pass that reads each object into the same entry of an output array.
  template <typename T, typename Read>
  SINEW_JSON_INLINE LoadStatus ReadInto(std::vector<T>* out, Read&& read) const {
    out->resize(size());
    return ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
      return read(o, where, &(*out)[i]);
    });
  }

 private:
  friend LoadStatus OptionalObjects(const Field& f, const Path& parent, ObjectArray* out,
                                    bool* present);

  TapeArray array_;
  const Path* parent_ = nullptr;
  std::string_view key_;
  bool present_ = false;
};

// f (a field of the object at parent) as an array of objects: kWrongType at parent/key when it is
// not an array; absent, an empty ObjectArray.
SINEW_JSON_INLINE LoadStatus OptionalObjects(const Field& f, const Path& parent, ObjectArray* out,
                                             bool* present = nullptr) {
  if (present) *present = f.present;
  out->parent_ = &parent;
  out->key_ = f.key;
  out->present_ = f.present;
  if (f.present && !GetArray(f.value, &out->array_)) {
    return detail::WrongType(parent, f.key, "an array");
  }
  return {};
}

// The same, kMissingProperty at parent/key when absent.
SINEW_JSON_INLINE LoadStatus RequireObjects(const Field& f, const Path& parent, ObjectArray* out) {
  if (!f.present) return detail::Missing(parent, f.key);
  return OptionalObjects(f, parent, out);
}

// root[key], a top-level array of objects ("/key").
SINEW_JSON_INLINE LoadStatus RootObjects(TapeObject root, std::string_view key, ObjectArray* out) {
  return OptionalObjects(FindField(root, key), kDocumentRoot, out);
}

#undef SINEW_JSON_INLINE

}  // namespace sinew::loader
