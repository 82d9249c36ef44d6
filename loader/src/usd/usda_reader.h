// The state of one ReadUsda call, shared by its two halves: the layer's structure (prims,
// properties, metadata: usda_parser.cpp) and its values (typed values, time samples, metadata
// values, dictionaries, paths: usda_values.cpp). Private to them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sinew/core/error.h"
#include "usd/layer.h"
#include "usd/usda_lexer.h"
#include "usd/usda_parser.h"
#include "usd/value.h"

namespace sinew::loader::usd {

class UsdaReader {
 public:
  // `text` is the whole file; reading starts at byte `start` (after the header).
  UsdaReader(std::string_view text, size_t start, const UsdaOptions& options) noexcept
      : text_(text), lexer_(text, start), options_(options) {}

  // The layer's metadata and prims, to the end of the text (usda_parser.cpp).
  bool ReadLayer(Layer* layer);
  // The first error (code kNone while there is none).
  ErrorInfo& error() noexcept { return error_; }

 private:
  // Where the kept-as-written metadata of one layer, prim or property is, by key (a view into the
  // text) and list-op keyword: an index in its Metadata::entries, which a later value of the same
  // key replaces without a search.
  using KeySet = std::map<std::pair<std::string_view, ListOpKind>, size_t>;
  // What a prim's property name stands for while the prim is read.
  struct PropertyRef {
    bool relationship = false;
    uint32_t index = 0;  // in Prim::attributes or Prim::relationships
    KeySet keys;
  };
  using PropertyMap = std::unordered_map<std::string_view, PropertyRef>;

  // What is written before a property's type or `rel`.
  struct Qualifiers {
    ListOpKind op = ListOpKind::kExplicit;
    bool custom = false;
    Variability variability = Variability::kVarying;
  };

  // Tokens and errors.
  bool Next(Token* token) { return lexer_.Next(token) || LexFailed(); }
  bool Peek(Token* token) { return lexer_.Peek(token) || LexFailed(); }
  bool LexFailed();
  // Records the first error; always false.
  bool Fail(size_t offset, Error code, std::string message);
  // kUsdaSyntax: "expected <what>, found <token>".
  bool Expected(const Token& found, std::string_view what);
  // Where a value of a type was expected: kWrongType when `found` is a value of another kind (a
  // string for a number), else as Expected.
  bool Mismatch(const Token& found, std::string_view what);
  // The next token, which must be of `kind` (`what` names it for the error).
  bool Expect(TokenKind kind, std::string_view what, Token* token = nullptr);
  // kUsdaSyntax for `found` where `what` (default: ',') or the `kind` closing `open` was expected;
  // the message says where `open` is.
  bool Close(TokenKind kind, const Token& open, const Token& found, std::string_view what = {});
  // The items of a list whose `open` token was read, up to the `close` token: `item(first)` reads
  // one from its first token, already read; items are separated by commas, and a comma may follow
  // the last one. (Handing the item its first token, rather than peeking at it, keeps the hot
  // loops over numbers from copying each token out of the lexer just after it was scanned.)
  template <typename Item>
  bool Items(const Token& open, TokenKind close, Item&& item) {
    Token token;
    if (!Next(&token)) return false;
    while (token.kind != close) {
      if (!item(token) || !Next(&token)) return false;
      if (token.kind == close) return true;
      if (token.kind != TokenKind::kComma) return Close(close, open, token);
      if (!Next(&token)) return false;
    }
    return true;
  }
  // `[]` after a type name: sets *array to whether it is there.
  bool ArraySuffix(bool* array);
  // Counts one level of nesting at `offset`; false past options_.max_depth. Leave() undoes it.
  bool Enter(size_t offset);
  void Leave() noexcept { --depth_; }
  bool IsWord(const Token& token, std::string_view word) const noexcept {
    return token.kind == TokenKind::kIdentifier && token.text == word;
  }

  // Structure (usda_parser.cpp).
  bool Prim(Layer* layer, int32_t parent, const Token& specifier);
  // A new prim spec at `path` under `parent` (-1: none) in the layer and its index, its offset
  // `name`'s; null after kInvalidValue at `name` when the path is taken ("<what> <path> is
  // <twice> twice").
  usd::Prim* NewPrim(Layer* layer, const std::string& path, int32_t parent, const Token& name,
                     std::string_view what, std::string_view twice);
  // The optional metadata block, then the `{ body }`, of the prim (or variant's contents) at
  // `index`; `brace` says what the '{' starts, for the error when it is missing.
  bool MetadataAndBody(Layer* layer, uint32_t index, const std::string& path,
                       std::string_view brace);
  // The statements of a prim's body after its `open` brace, to the closing one.
  bool PrimBody(Layer* layer, uint32_t index, const std::string& path, const Token& open);
  // `variantSet "name" = { "variant" (metadata) { body } ... }` after 'variantSet', in the body
  // of the prim at `index`: each variant's contents a Prim of its own (layer.h, Prim).
  bool VariantSetBlock(Layer* layer, uint32_t index, const Token& keyword);
  bool Property(Layer* layer, uint32_t prim, PropertyMap* properties, const Token& first);
  // The property `name` of the prim: found, or added (*added) as a relationship or an attribute.
  // Null (after an error) when the name stands for the other kind of property.
  PropertyRef* Declare(Layer* layer, uint32_t prim, PropertyMap* properties, const Token& name,
                       bool relationship, bool* added);
  bool RelationshipSpec(Layer* layer, uint32_t prim, PropertyMap* properties,
                        const Qualifiers& qualifiers);
  bool AttributeSpec(Layer* layer, uint32_t prim, PropertyMap* properties,
                     const Qualifiers& qualifiers, const Token& type_token);
  // `= [names]` of a reorder statement.
  bool Reorder(std::vector<std::string>* order);
  // A `( ... )` metadata block (the '(' peeked): a string alone sets *doc; for `[op] key = value`
  // Arc reads a composition arc's value, `entry(key, op)` any other. A key written again, here or
  // in a later declaration of the same property, replaces its value.
  template <typename Entry>
  bool MetadataBlock(std::string* doc, Entry&& entry);
  // A composition arc's value after its '=': a prim's references, payloads, variantSets and
  // variants into *arc_prim_ (the prim whose metadata is being read, else null), the layer's
  // subLayers into *sub_layers_; any other arc only when it is empty (`[]`, `{}` or `None`, which
  // writers leave behind), else kUnsupportedFeature at `key`.
  bool Arc(const Token& key, ListOpKind op);
  // `variants = { string set = "variant" ... }` after its '=', into *arc_prim_.
  bool VariantSelections(const Token& key, ListOpKind op);
  // `subLayers = [@a.usda@ (offset = 10; scale = 2), @b.usda@]` after its '='.
  bool SubLayers(const Token& key, ListOpKind op);
  // A layer offset `( offset = 10; scale = 2 )` after a sublayer or a reference (`reference`:
  // customData may be there too), the '(' peeked. kInvalidValue for numbers that are not finite
  // or a scale without a finite inverse; kUnsupportedFeature for a negative scale
  // (LayerOffset::Fault).
  bool LayerOffsetBlock(bool reference, LayerOffset* out);
  bool LayerEntry(Layer* layer, KeySet* keys, const Token& key, ListOpKind op);
  bool PrimEntry(usd::Prim* prim, KeySet* keys, const Token& key, ListOpKind op);
  bool AttributeEntry(Attribute* attribute, KeySet* keys, const Token& key, ListOpKind op);
  bool RelationshipEntry(Relationship* relationship, KeySet* keys, const Token& key, ListOpKind op);
  // Metadata the reader keeps as written.
  bool Generic(Metadata* metadata, KeySet* keys, const Token& key, ListOpKind op);
  // Metadata the reader names: a single value of `type` (no list-op keyword).
  bool Named(const Token& key, ListOpKind op, ValueType type, Value* out);
  bool NamedString(const Token& key, ListOpKind op, std::string* out);
  bool NamedBool(const Token& key, ListOpKind op, std::optional<bool>* out);

  // Values (usda_values.cpp).

  // A value of `type`, an array when `array`: `None` makes a blocked value.
  bool TypedValue(ValueType type, bool array, Value* out);
  // A metadata value whose type the text shows (Value::type says what it found).
  bool UntypedValue(Value* out);
  // `.timeSamples = { time: value, ... }` after the '=': sorted by time; of samples at one time,
  // the last written is kept.
  bool TimeSamples(ValueType type, bool array, std::vector<TimeSample>* out);
  // A path, a list of paths, or `None` (no paths), each made absolute against `anchor` (the
  // property's prim path); replaces *out.
  bool PathList(std::string_view anchor, std::vector<std::string>* out);
  // A list of strings (`["a", "b"]`), one string, or `None`; replaces *out.
  bool StringList(std::vector<std::string>* out);
  // The path token's contents made absolute against `anchor`: `..` and `.` resolved (`..` of a
  // variant's path, "/A{v=x}", is its prim's, "/A", as in Sdf), each prim name an identifier, an
  // optional `.property` (namespaced) at the end.
  bool AbsolutePath(const Token& token, std::string_view anchor, std::string* out);
  // A prim's `inherits` or `specializes` (`key`) list edit of kind `op`, after the '=': None, a
  // path or a list of paths (relative ones anchored at the prim), into Prim::inherits or
  // Prim::specializes.
  bool ClassPaths(const Token& key, ListOpKind op);
  // A string or asset token's contents, its escapes decoded.
  static void AppendContents(const Token& token, std::string* out);
  template <typename T>
  bool Numbers(const ValueTypeInfo& info, bool array, std::vector<T>* out);
  // An element, a tuple and a number from their first token.
  template <typename T>
  bool Element(const ValueTypeInfo& info, const Token& first, std::vector<T>* out);
  template <typename T>
  bool Tuple(const ValueTypeInfo& info, size_t count, const Token& open, std::vector<T>* out);
  template <typename T>
  bool Number(Scalar scalar, const Token& token, std::vector<T>* out);
  // A number token (or inf / nan) as `scalar`, stored as T: kUsdaSyntax when the token is not a
  // number (the lexer leaves that to std::from_chars), kWrongType for a fraction where an integer
  // is declared, kInvalidValue beyond the scalar's range.
  template <typename T>
  bool Convert(const Token& token, Scalar scalar, T* out);
  bool Malformed(const Token& token);
  bool Strings(const ValueTypeInfo& info, bool array, std::vector<std::string>* out);
  bool StringElement(Scalar scalar, const Token& token, std::vector<std::string>* out);
  bool DictionaryValue(Value* out);
  bool UntypedElement(const Token& first, Value* out, bool* typed, size_t* leaves);
  bool UntypedLeaf(const Token& token, Value* out, bool* typed);

  std::string_view text_;
  UsdaLexer lexer_;
  UsdaOptions options_;
  ErrorInfo error_;
  uint32_t depth_ = 0;
  // The prim path that relative paths in values resolve against ("/" outside prims).
  std::string_view anchor_ = "/";
  usd::Prim* arc_prim_ = nullptr;                // the prim whose metadata is read
  std::vector<SubLayer>* sub_layers_ = nullptr;  // the layer's, while its metadata is read
};

}  // namespace sinew::loader::usd
