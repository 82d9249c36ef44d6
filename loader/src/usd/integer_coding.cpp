#include "usd/integer_coding.h"

#include <cstring>
#include <limits>
#include <map>
#include <type_traits>

namespace sinew::loader::usd {
namespace {

// The signed integer of T's width, and the three widths a difference is stored in.
template <size_t kWidth>
struct Widths;
template <>
struct Widths<4> {
  using Signed = int32_t;
  using Small = int8_t;
  using Medium = int16_t;
};
template <>
struct Widths<8> {
  using Signed = int64_t;
  using Small = int16_t;
  using Medium = int32_t;
};

template <typename S, typename N>
bool Fits(S v) noexcept {
  return v >= S(std::numeric_limits<N>::min()) && v <= S(std::numeric_limits<N>::max());
}

}  // namespace

size_t MaxEncodedIntegersSize(size_t count, size_t width) noexcept {
  return width + (count * 2 + 7) / 8 + count * width;
}

template <typename T>
bool DecodeIntegers(std::span<const uint8_t> in, std::span<T> out, std::string* why) {
  using W = Widths<sizeof(T)>;
  using U = std::make_unsigned_t<T>;
  const size_t codes = (out.size() * 2 + 7) / 8;
  if (in.size() < sizeof(T) + codes) {
    *why = "compressed integers end before their codes";
    return false;
  }
  typename W::Signed common;
  std::memcpy(&common, in.data(), sizeof(common));
  const uint8_t* code = in.data() + sizeof(T);
  size_t pos = sizeof(T) + codes;
  U previous = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const unsigned c = (code[i / 4] >> (2 * (i % 4))) & 3u;
    typename W::Signed delta = common;
    const auto take = [&](auto sample) {
      using N = decltype(sample);
      if (in.size() - pos < sizeof(N)) return false;
      N n;
      std::memcpy(&n, in.data() + pos, sizeof(N));
      pos += sizeof(N);
      delta = n;
      return true;
    };
    bool ok = true;
    if (c == 1) ok = take(typename W::Small{});
    if (c == 2) ok = take(typename W::Medium{});
    if (c == 3) ok = take(typename W::Signed{});
    if (!ok) {
      *why = "compressed integers end at integer " + std::to_string(i) + " of " +
             std::to_string(out.size());
      return false;
    }
    previous = U(previous + U(delta));  // wraps, as the encoder's difference did
    std::memcpy(&out[i], &previous, sizeof(T));
  }
  return true;
}

template <typename T>
std::vector<uint8_t> EncodeIntegers(std::span<const T> values) {
  using W = Widths<sizeof(T)>;
  using S = typename W::Signed;
  using U = std::make_unsigned_t<T>;
  std::vector<S> deltas(values.size());
  U previous = 0;
  std::map<S, size_t> counts;
  for (size_t i = 0; i < values.size(); ++i) {
    const U v = U(values[i]);
    const U d = U(v - previous);
    std::memcpy(&deltas[i], &d, sizeof(S));
    previous = v;
    ++counts[deltas[i]];
  }
  // The most common difference (the largest of equally common ones, as USD picks it).
  S common = 0;
  size_t best = 0;
  for (const auto& [delta, count] : counts) {
    if (count >= best) common = delta, best = count;
  }
  std::vector<uint8_t> out(sizeof(S) + (values.size() * 2 + 7) / 8);
  std::memcpy(out.data(), &common, sizeof(S));
  for (size_t i = 0; i < deltas.size(); ++i) {
    const S d = deltas[i];
    unsigned c = 3;
    const auto put = [&](auto n) {
      const size_t at = out.size();
      out.resize(at + sizeof(n));
      std::memcpy(out.data() + at, &n, sizeof(n));
    };
    if (d == common) {
      c = 0;
    } else if (Fits<S, typename W::Small>(d)) {
      c = 1, put(typename W::Small(d));
    } else if (Fits<S, typename W::Medium>(d)) {
      c = 2, put(typename W::Medium(d));
    } else {
      put(d);
    }
    out[sizeof(S) + i / 4] |= uint8_t(c << (2 * (i % 4)));
  }
  return out;
}

template bool DecodeIntegers(std::span<const uint8_t>, std::span<int32_t>, std::string*);
template bool DecodeIntegers(std::span<const uint8_t>, std::span<uint32_t>, std::string*);
template bool DecodeIntegers(std::span<const uint8_t>, std::span<int64_t>, std::string*);
template bool DecodeIntegers(std::span<const uint8_t>, std::span<uint64_t>, std::string*);
template std::vector<uint8_t> EncodeIntegers(std::span<const int32_t>);
template std::vector<uint8_t> EncodeIntegers(std::span<const uint32_t>);
template std::vector<uint8_t> EncodeIntegers(std::span<const int64_t>);
template std::vector<uint8_t> EncodeIntegers(std::span<const uint64_t>);

}  // namespace sinew::loader::usd
