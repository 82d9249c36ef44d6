// The constants of USD's binary "crate" layer format (.usdc), shared by its reader (crate_reader.h)
// and writer (crate_writer.h): the bootstrap header, the value types, how a ValueRep packs a value
// and the spec types. docs/usdc.md describes the whole file.
#pragma once

#include <cstdint>

#include "usd/layer.h"

namespace sinew::loader::usd::crate {

// The bootstrap: "PXR-USDC", eight version bytes (major, minor, patch, 0...), the table of
// contents' offset, eight reserved int64s.
inline constexpr char kMagic[8] = {'P', 'X', 'R', '-', 'U', 'S', 'D', 'C'};
inline constexpr uint64_t kBootstrapSize = 88;
// A section's entry in the table of contents: 16 name bytes (NUL-padded), int64 start and size.
inline constexpr uint64_t kSectionEntrySize = 32;

// Versions as one number: (major << 16) | (minor << 8) | patch.
constexpr uint32_t Version(uint32_t major, uint32_t minor, uint32_t patch) noexcept {
  return (major << 16) | (minor << 8) | patch;
}
// The oldest version read: the structural sections are compressed from 0.4.0 on.
inline constexpr uint32_t kOldestVersion = Version(0, 4, 0);
// The newest version read. OpenUSD writes 0.8.0 unless the content needs a newer type; 0.9.0 to
// 0.12.0 added TimeCode (read), PathExpression, Relocates and Spline (refused or skipped: none is
// UsdSkel's). 0.13.0 extends splines and 0.14.0 adds a ValueRep flag (array edits): not read.
inline constexpr uint32_t kNewestVersion = Version(0, 12, 0);
// What the writer emits: the version the packages in the wild use.
inline constexpr uint32_t kWrittenVersion = Version(0, 8, 0);

// Value types, by the number the file stores.
enum class Type : uint8_t {
  kInvalid = 0,
  kBool = 1,
  kUChar = 2,
  kInt = 3,
  kUInt = 4,
  kInt64 = 5,
  kUInt64 = 6,
  kHalf = 7,
  kFloat = 8,
  kDouble = 9,
  kString = 10,
  kToken = 11,
  kAssetPath = 12,
  kMatrix2d = 13,
  kMatrix3d = 14,
  kMatrix4d = 15,
  kQuatd = 16,
  kQuatf = 17,
  kQuath = 18,
  kVec2d = 19,
  kVec2f = 20,
  kVec2h = 21,
  kVec2i = 22,
  kVec3d = 23,
  kVec3f = 24,
  kVec3h = 25,
  kVec3i = 26,
  kVec4d = 27,
  kVec4f = 28,
  kVec4h = 29,
  kVec4i = 30,
  kDictionary = 31,
  kTokenListOp = 32,
  kStringListOp = 33,
  kPathListOp = 34,
  kReferenceListOp = 35,
  kIntListOp = 36,
  kInt64ListOp = 37,
  kUIntListOp = 38,
  kUInt64ListOp = 39,
  kPathVector = 40,
  kTokenVector = 41,
  kSpecifier = 42,
  kPermission = 43,
  kVariability = 44,
  kVariantSelectionMap = 45,
  kTimeSamples = 46,
  kPayload = 47,
  kDoubleVector = 48,
  kLayerOffsetVector = 49,
  kStringVector = 50,
  kValueBlock = 51,
  kValue = 52,
  kUnregisteredValue = 53,
  kUnregisteredValueListOp = 54,
  kPayloadListOp = 55,
  kTimeCode = 56,
};

// A ValueRep is 64 bits: flags in the top three, the type in the next byte, and a 48-bit payload
// that is the value itself (inlined) or the file offset where it is.
inline constexpr uint64_t kArrayBit = 1ull << 63;
inline constexpr uint64_t kInlinedBit = 1ull << 62;
inline constexpr uint64_t kCompressedBit = 1ull << 61;
inline constexpr uint64_t kPayloadMask = (1ull << 48) - 1;

constexpr Type TypeOf(uint64_t rep) noexcept { return Type((rep >> 48) & 0xff); }
constexpr uint64_t Payload(uint64_t rep) noexcept { return rep & kPayloadMask; }
constexpr uint64_t MakeRep(Type type, uint64_t payload, uint64_t flags = 0) noexcept {
  return flags | (uint64_t(type) << 48) | (payload & kPayloadMask);
}

// Sdf's spec types, by the number the SPECS section stores.
enum class SpecType : uint32_t {
  kUnknown = 0,
  kAttribute = 1,
  kConnection = 2,
  kExpression = 3,
  kMapper = 4,
  kMapperArg = 5,
  kPrim = 6,
  kPseudoRoot = 7,
  kRelationship = 8,
  kRelationshipTarget = 9,
  kVariant = 10,
  kVariantSet = 11,
};

// A list op's header byte: which of its lists follow, written in the order explicit, added,
// prepended, appended, deleted, ordered.
inline constexpr uint8_t kListOpIsExplicit = 1 << 0;
inline constexpr uint8_t kListOpHasExplicit = 1 << 1;
inline constexpr uint8_t kListOpHasAdded = 1 << 2;
inline constexpr uint8_t kListOpHasDeleted = 1 << 3;
inline constexpr uint8_t kListOpHasOrdered = 1 << 4;
inline constexpr uint8_t kListOpHasPrepended = 1 << 5;
inline constexpr uint8_t kListOpHasAppended = 1 << 6;
// A list op's lists in the order the file writes them, each with its header bit.
struct ListOpList {
  uint8_t bit;
  ListOpKind kind;
};
inline constexpr ListOpList kListOpLists[] = {
    {kListOpHasExplicit, ListOpKind::kExplicit}, {kListOpHasAdded, ListOpKind::kAdd},
    {kListOpHasPrepended, ListOpKind::kPrepend}, {kListOpHasAppended, ListOpKind::kAppend},
    {kListOpHasDeleted, ListOpKind::kDelete},    {kListOpHasOrdered, ListOpKind::kReorder}};

// The writer compresses integer arrays of at least this many elements, as USD does.
inline constexpr uint64_t kMinCompressedArraySize = 16;

}  // namespace sinew::loader::usd::crate
