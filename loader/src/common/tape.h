// Direct reads of a document that simdjson's DOM parser has parsed: its tape, in simdjson's
// documented tape format (simdjson doc/tape.md), through simdjson::dom::document's `tape` and
// `string_buf` (public members, though simdjson marks them as internal).
//
// Why: the glTF loader's hot passes read tens of thousands of small objects. simdjson's element
// API reaches each value through the document (element -> document -> tape, per call) and returns
// it through simdjson_result; reading the tape words directly made the accessor pass alone ~5% of
// a whole load faster (`sinew bench --loader`, crowd). The rules are simdjson's own: every getter
// accepts exactly what the matching dom::element getter accepts (tests/loader/tape_test.cpp walks
// documents both ways and compares every value, which also guards against a simdjson whose tape
// differs).
//
// Tape words: the top 8 bits are the type character, the low 56 bits the payload.
//   '{' '['  payload low 32 bits: the index just after the matching '}' or ']'; bits 32..55: the
//            number of fields or entries, saturated at 0xFFFFFF (as dom::array::size())
//   '"'      payload: offset in string_buf of a 32-bit little-endian length, then the bytes
//   'l' 'u' 'd'  int64 / uint64 / double, in the next word
//   't' 'f' 'n'  true / false / null
// A successful parse leaves a well-formed tape, so every index below stays within it.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

namespace sinew::loader {

// One value of a parsed document. Cheap to copy; valid while the document is (until the parser
// parses again).
class TapeValue {
 public:
  TapeValue() = default;
  TapeValue(const uint64_t* tape, const uint8_t* strings, size_t index)
      : tape_(tape), strings_(strings), index_(index) {}
  // The root value of the document `parser` parsed last (which must have succeeded).
  static TapeValue Root(const simdjson::dom::parser& parser) {
    return TapeValue(parser.doc.tape.get(), parser.doc.string_buf.get(), 1);
  }

  char type() const { return static_cast<char>(tape_[index_] >> 56); }
  // The index of the value after this one (past its whole content for an object or array).
  size_t next() const {
    const char t = type();
    if (t == '{' || t == '[') return static_cast<uint32_t>(tape_[index_]);
    if (t == 'l' || t == 'u' || t == 'd') return index_ + 2;
    return index_ + 1;
  }
  TapeValue at(size_t index) const { return TapeValue(tape_, strings_, index); }
  size_t index() const { return index_; }

  // The getters: false (and *out untouched) for a value of another type, as simdjson's.
  bool GetInt64(int64_t* out) const {  // element::get_int64
    const char t = type();
    if (t == 'l') {
      std::memcpy(out, &tape_[index_ + 1], sizeof(int64_t));
      return true;
    }
    if (t == 'u' && tape_[index_ + 1] <= uint64_t(std::numeric_limits<int64_t>::max())) {
      *out = static_cast<int64_t>(tape_[index_ + 1]);
      return true;
    }
    return false;
  }
  bool GetUint64(uint64_t* out) const {  // element::get_uint64
    const char t = type();
    if (t == 'u') {
      *out = tape_[index_ + 1];
      return true;
    }
    if (t == 'l') {
      int64_t v = 0;
      std::memcpy(&v, &tape_[index_ + 1], sizeof(int64_t));
      if (v < 0) return false;
      *out = static_cast<uint64_t>(v);
      return true;
    }
    return false;
  }
  bool GetDouble(double* out) const {  // element::get_double: any number
    const char t = type();
    if (t == 'd') {
      std::memcpy(out, &tape_[index_ + 1], sizeof(double));
      return true;
    }
    if (t == 'l') {
      int64_t v = 0;
      std::memcpy(&v, &tape_[index_ + 1], sizeof(int64_t));
      *out = static_cast<double>(v);
      return true;
    }
    if (t == 'u') {
      *out = static_cast<double>(tape_[index_ + 1]);
      return true;
    }
    return false;
  }
  bool GetBool(bool* out) const {
    const char t = type();
    if (t != 't' && t != 'f') return false;
    *out = t == 't';
    return true;
  }
  bool GetString(std::string_view* out) const {
    if (type() != '"') return false;
    *out = StringAt(index_);
    return true;
  }

  // For TapeObject / TapeArray.
  std::string_view StringAt(size_t index) const {
    const uint8_t* p = strings_ + (tape_[index] & simdjson::internal::JSON_VALUE_MASK);
    uint32_t length = 0;
    std::memcpy(&length, p, sizeof(length));
    return {reinterpret_cast<const char*>(p + sizeof(length)), length};
  }
  uint32_t Count() const {
    return static_cast<uint32_t>(tape_[index_] >> 32) & simdjson::internal::JSON_COUNT_MASK;
  }
  // The index of the closing '}' or ']' of an object or array.
  size_t End() const { return static_cast<uint32_t>(tape_[index_]) - 1; }

 private:
  const uint64_t* tape_ = nullptr;
  const uint8_t* strings_ = nullptr;
  size_t index_ = 0;
};

// A field of a TapeObject: its key and value.
struct TapeKeyValue {
  std::string_view key;
  TapeValue value;
};

// The entries of an array or object: the count its tape word holds, or, at 0xFFFFFF (the most a
// word holds), the entries counted one by one.
template <typename Range>
size_t CountEntries(const Range& range, size_t tape_count) {
  if (tape_count < simdjson::internal::JSON_COUNT_MASK) return tape_count;
  size_t n = 0;
  for (auto it = range.begin(); it != range.end(); ++it) ++n;
  return n;
}

// An array: its entries in order.
class TapeArray {
 public:
  TapeArray() = default;
  explicit TapeArray(TapeValue array) : array_(array) {}

  class Iterator {
   public:
    explicit Iterator(TapeValue at) : at_(at) {}
    TapeValue operator*() const { return at_; }
    Iterator& operator++() {
      at_ = at_.at(at_.next());
      return *this;
    }
    bool operator!=(const Iterator& other) const { return at_.index() != other.at_.index(); }

   private:
    TapeValue at_;
  };
  Iterator begin() const { return Iterator(array_.at(array_.index() + 1)); }
  Iterator end() const { return Iterator(array_.at(array_.End())); }
  // Entries. The tape holds the count up to 0xFFFFFF (where simdjson::dom::array::size() stops);
  // a larger array is counted, so that callers may size their output by it.
  size_t size() const { return CountEntries(*this, array_.Count()); }

 private:
  TapeValue array_;
};

// An object: its fields in order (duplicate keys included, as simdjson keeps them).
class TapeObject {
 public:
  TapeObject() = default;
  explicit TapeObject(TapeValue object) : object_(object) {}

  class Iterator {
   public:
    explicit Iterator(TapeValue key) : key_(key) {}
    TapeKeyValue operator*() const {
      return {key_.StringAt(key_.index()), key_.at(key_.index() + 1)};
    }
    Iterator& operator++() {
      key_ = key_.at(key_.at(key_.index() + 1).next());
      return *this;
    }
    bool operator!=(const Iterator& other) const { return key_.index() != other.key_.index(); }

   private:
    TapeValue key_;  // The key's word; the value follows it.
  };
  Iterator begin() const { return Iterator(object_.at(object_.index() + 1)); }
  Iterator end() const { return Iterator(object_.at(object_.End())); }
  TapeValue value() const { return object_; }
  // Fields (counted past 0xFFFFFF, as TapeArray::size()).
  size_t size() const { return CountEntries(*this, object_.Count()); }

 private:
  TapeValue object_;
};

// A value as an object or an array: false (and *out untouched) for a value of another type.
inline bool GetObject(TapeValue v, TapeObject* out) {
  if (v.type() != '{') return false;
  *out = TapeObject(v);
  return true;
}
inline bool GetArray(TapeValue v, TapeArray* out) {
  if (v.type() != '[') return false;
  *out = TapeArray(v);
  return true;
}

}  // namespace sinew::loader
