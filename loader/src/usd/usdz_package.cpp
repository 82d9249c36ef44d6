#include "usd/usdz_package.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "common/load_status.h"

namespace sinew::loader::usd {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kAlignment = 64;

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void Store(std::vector<uint8_t>* out, T v) {
  const size_t at = out->size();
  out->resize(at + sizeof(T));
  std::memcpy(out->data() + at, &v, sizeof(T));
}

uint32_t Crc32(std::span<const uint8_t> bytes) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = ~0u;
  for (uint8_t b : bytes) crc = table[(crc ^ b) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

Status Malformed(std::string message, size_t offset) {
  return Status(Error::kInvalidUsdc, std::move(message), "usdz at byte " + std::to_string(offset));
}

}  // namespace

namespace {

// The entry whose local header starts at byte `at`, and in *next where the byte after its data.
Result<PackagedFile> EntryAt(std::span<const uint8_t> package, size_t at, size_t* next) {
  const auto where = [&](size_t field) { return "usdz at byte " + std::to_string(at + field); };
  if (at > package.size() || package.size() - at < kLocalHeaderSize ||
      Load<uint32_t>(package.data() + at) != kLocalHeader) {
    return Status(
        Error::kInvalidUsdc,
        at == 0 ? "not a zip archive (no local file header at its start)" : "no local file header",
        where(0));
  }
  const uint8_t* h = package.data() + at;
  const uint16_t flags = Load<uint16_t>(h + 6), method = Load<uint16_t>(h + 8);
  const uint32_t size = Load<uint32_t>(h + 18), stored_size = Load<uint32_t>(h + 22);
  const uint16_t name_size = Load<uint16_t>(h + 26), extra_size = Load<uint16_t>(h + 28);
  if (flags & 1u) return Status(Error::kUnsupportedFeature, "an encrypted entry", where(0));
  if (flags & 8u) {
    return Status(Error::kUnsupportedFeature,
                  "an entry whose sizes follow its data (a usdz package gives them in the header)",
                  where(0));
  }
  if (method != 0) {
    return Status(Error::kUnsupportedFeature,
                  "a compressed entry (method " + std::to_string(method) +
                      "): usdz packages store their files uncompressed",
                  where(0));
  }
  if (size != stored_size) return Malformed("a stored entry whose two sizes differ", at + 18);
  const size_t data = at + kLocalHeaderSize + size_t(name_size) + extra_size;
  if (data > package.size() || size > package.size() - data) {
    return Malformed("the entry (" + std::to_string(size) + " bytes at byte " +
                         std::to_string(data) + ") reaches past the end of the package",
                     at);
  }
  PackagedFile out;
  out.name.assign(reinterpret_cast<const char*>(h + kLocalHeaderSize), name_size);
  out.bytes = package.subspan(data, size);
  if (Crc32(out.bytes) != Load<uint32_t>(h + 14)) {
    return Malformed("the entry's CRC-32 does not match its data", at + 14);
  }
  *next = data + size;
  return out;
}

// A package ends with its central directory's end record (22 bytes and a comment of up to 65,535),
// which zip tools, and USD, read first: one cut short before it is refused, though its first
// entry may be whole.
Status RequireEndOfDirectory(std::span<const uint8_t> package) {
  constexpr size_t kRecord = 22;
  if (package.size() >= kRecord) {
    const size_t lowest = package.size() - kRecord > 0xffff ? package.size() - kRecord - 0xffff : 0;
    for (size_t at = package.size() - kRecord + 1; at-- > lowest;) {
      if (Load<uint32_t>(package.data() + at) == kEndOfDirectory &&
          at + kRecord + Load<uint16_t>(package.data() + at + 20) == package.size()) {
        return {};
      }
    }
  }
  return Malformed(
      "no end of central directory record: the package is cut short (zip tools and USD read it "
      "first)",
      package.size());
}

}  // namespace

Result<PackagedFile> UsdzRootLayer(std::span<const uint8_t> package) {
  size_t next = 0;
  SINEW_TRY_ASSIGN(PackagedFile root, EntryAt(package, 0, &next));
  SINEW_TRY(RequireEndOfDirectory(package));
  return root;
}

Result<std::vector<PackagedFile>> UsdzFiles(std::span<const uint8_t> package) {
  std::vector<PackagedFile> files;
  size_t at = 0;
  while (at + 4 <= package.size() && Load<uint32_t>(package.data() + at) == kLocalHeader) {
    size_t next = 0;
    SINEW_TRY_ASSIGN(PackagedFile file, EntryAt(package, at, &next));
    files.push_back(std::move(file));
    at = next;
  }
  if (files.empty()) return EntryAt(package, 0, &at).status();  // says why there is none
  SINEW_TRY(RequireEndOfDirectory(package));
  return files;
}

std::vector<uint8_t> PackageUsdz(std::span<const PackagedFile> files) {
  std::vector<uint8_t> out, directory;
  for (const PackagedFile& f : files) {
    const uint32_t offset = uint32_t(out.size()), crc = Crc32(f.bytes);
    const bool utf8 = std::any_of(f.name.begin(), f.name.end(), [](char c) { return c & 0x80; });
    const size_t unpadded = out.size() + kLocalHeaderSize + f.name.size();
    // Extra field padding (its own header: id 0x1986, as USD's writer uses, and a size).
    size_t padding = (kAlignment - unpadded % kAlignment) % kAlignment;
    if (padding && padding < 4) padding += kAlignment;
    const auto header = [&](std::vector<uint8_t>* to, bool central) {
      Store<uint32_t>(to, central ? kCentralHeader : kLocalHeader);
      if (central) Store<uint16_t>(to, 20);    // made by
      Store<uint16_t>(to, 20);                 // needed to extract
      Store<uint16_t>(to, utf8 ? 0x0800 : 0);  // flags: the name's encoding
      Store<uint16_t>(to, 0);                  // stored
      Store<uint16_t>(to, 0);                  // time 00:00:00
      Store<uint16_t>(to, 0x21);               // date 1980-01-01, DOS's first
      Store<uint32_t>(to, crc);
      Store<uint32_t>(to, uint32_t(f.bytes.size()));
      Store<uint32_t>(to, uint32_t(f.bytes.size()));
      Store<uint16_t>(to, uint16_t(f.name.size()));
      Store<uint16_t>(to, central ? 0 : uint16_t(padding));
      if (central) {
        Store<uint16_t>(to, 0);  // comment length
        Store<uint16_t>(to, 0);  // disk number
        Store<uint16_t>(to, 0);  // internal attributes
        Store<uint32_t>(to, 0);  // external attributes
        Store<uint32_t>(to, offset);
      }
      to->insert(to->end(), f.name.begin(), f.name.end());
    };
    header(&out, false);
    if (padding) {
      Store<uint16_t>(&out, 0x1986);
      Store<uint16_t>(&out, uint16_t(padding - 4));
      out.resize(out.size() + padding - 4);
    }
    out.insert(out.end(), f.bytes.begin(), f.bytes.end());
    header(&directory, true);
  }
  const uint32_t start = uint32_t(out.size());
  out.insert(out.end(), directory.begin(), directory.end());
  Store<uint32_t>(&out, kEndOfDirectory);
  Store<uint32_t>(&out, 0);  // disk numbers
  Store<uint16_t>(&out, uint16_t(files.size()));
  Store<uint16_t>(&out, uint16_t(files.size()));
  Store<uint32_t>(&out, uint32_t(directory.size()));
  Store<uint32_t>(&out, start);
  Store<uint16_t>(&out, 0);  // comment
  return out;
}

}  // namespace sinew::loader::usd
