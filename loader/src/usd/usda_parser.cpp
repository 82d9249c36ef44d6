// The structure half of the .usda reader (usda_reader.h): the header, layer metadata, prims,
// properties and metadata blocks. Values are read by usda_values.cpp.
#include "usd/usda_parser.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sinew/loader/file.h"
#include "usd/usda_reader.h"

namespace sinew::loader::usd {
namespace {

std::optional<ListOpKind> ListOpKeyword(std::string_view word) noexcept {
  if (word == "prepend") return ListOpKind::kPrepend;
  if (word == "append") return ListOpKind::kAppend;
  if (word == "delete") return ListOpKind::kDelete;
  if (word == "add") return ListOpKind::kAdd;
  if (word == "reorder") return ListOpKind::kReorder;
  return std::nullopt;
}

// Metadata that composes other layers or prims in (UsdaReader::Arc).
bool IsCompositionArc(std::string_view key) noexcept {
  return key == "references" || key == "payload" || key == "inherits" || key == "specializes" ||
         key == "variantSets" || key == "variants" || key == "subLayers" || key == "relocates";
}

bool IsSpecifier(const Token& token) noexcept {
  return token.kind == TokenKind::kIdentifier &&
         (token.text == "def" || token.text == "over" || token.text == "class");
}

// Checks the `#usda 1.0` line and sets *start to the byte after it.
Status Header(std::string_view text, size_t* start) {
  const std::string_view first_line = text.substr(0, text.find('\n'));
  if (text.substr(0, 8) == "PXR-USDC") {
    return {Error::kUnsupportedFeature,
            "a binary USD file (usdc): sinew reads USD's text form, .usda (usdcat converts)",
            Where(text, 0)};
  }
  constexpr std::string_view kMagic = "#usda ";
  if (text.substr(0, kMagic.size()) != kMagic) {
    std::string_view shown = first_line.substr(0, 40);
    if (!shown.empty() && shown.back() == '\r') shown.remove_suffix(1);
    // Shown as printable ASCII, other bytes as \xNN: a binary file's first bytes would otherwise
    // go to the terminal as they are.
    std::string found;
    for (const char ch : shown) {
      const auto byte = static_cast<unsigned char>(ch);
      if (byte >= 0x20 && byte < 0x7f) {
        found += ch;
      } else {
        constexpr char kHex[] = "0123456789abcdef";
        found += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
      }
    }
    return {Error::kUsdaSyntax, "expected the header '#usda 1.0', found '" + found + "'",
            Where(text, 0)};
  }
  size_t end = kMagic.size();
  while (end < first_line.size() && first_line[end] != ' ' && first_line[end] != '\t' &&
         first_line[end] != '\r') {
    ++end;
  }
  const std::string_view version = first_line.substr(kMagic.size(), end - kMagic.size());
  if (version != "1.0") {
    return {Error::kUnsupportedFeature,
            "usda version '" + std::string(version.substr(0, 20)) + "': sinew reads 1.0",
            Where(text, kMagic.size())};
  }
  for (size_t i = end; i < first_line.size(); ++i) {
    if (first_line[i] != ' ' && first_line[i] != '\t' && first_line[i] != '\r') {
      return {Error::kUsdaSyntax, "expected the end of the header line after '#usda 1.0'",
              Where(text, i)};
    }
  }
  *start = first_line.size();
  return {};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Tokens and errors

bool UsdaReader::LexFailed() {
  if (error_.code == Error::kNone) error_ = lexer_.error();
  return false;
}

bool UsdaReader::Fail(size_t offset, Error code, std::string message) {
  if (error_.code == Error::kNone) {
    error_ = ErrorInfo{code, std::move(message), Where(text_, offset), 0};
  }
  return false;
}

bool UsdaReader::Expected(const Token& found, std::string_view what) {
  return Fail(found.offset, Error::kUsdaSyntax,
              "expected " + std::string(what) + ", found " + Describe(found));
}

bool UsdaReader::Mismatch(const Token& found, std::string_view what) {
  switch (found.kind) {
    case TokenKind::kIdentifier:
    case TokenKind::kNumber:
    case TokenKind::kString:
    case TokenKind::kAsset:
    case TokenKind::kPath:
      return Fail(found.offset, Error::kWrongType,
                  "expected " + std::string(what) + ", found " + Describe(found));
    default:
      return Expected(found, what);
  }
}

bool UsdaReader::Expect(TokenKind kind, std::string_view what, Token* token) {
  Token local;
  Token* t = token ? token : &local;
  if (!Next(t)) return false;
  return t->kind == kind || Expected(*t, what);
}

bool UsdaReader::Close(TokenKind kind, const Token& open, const Token& found,
                       std::string_view what) {
  const char* closer = kind == TokenKind::kRightParen     ? ")"
                       : kind == TokenKind::kRightBracket ? "]"
                                                          : "}";
  return Fail(found.offset, Error::kUsdaSyntax,
              "expected " + (what.empty() ? std::string("','") : std::string(what)) + " or '" +
                  closer + "' to close the '" + std::string(open.text) + "' at " +
                  Where(text_, open.offset) + ", found " + Describe(found));
}

bool UsdaReader::ArraySuffix(bool* array) {
  Token token;
  if (!Peek(&token)) return false;
  *array = token.kind == TokenKind::kLeftBracket;
  if (!*array) return true;
  Next(&token);
  return Expect(TokenKind::kRightBracket, "']' after '['");
}

bool UsdaReader::Enter(size_t offset) {
  if (++depth_ <= options_.max_depth) return true;
  return Fail(offset, Error::kUnsupportedFeature,
              "nesting deeper than " + std::to_string(options_.max_depth) +
                  " levels (UsdaOptions::max_depth)");
}

// ---------------------------------------------------------------------------------------------
// Metadata

template <typename Entry>
bool UsdaReader::MetadataBlock(std::string* doc, Entry&& entry) {
  Token open, token;
  if (!Next(&open)) return false;  // the caller saw the '('
  while (true) {
    if (!Next(&token)) return false;
    if (token.kind == TokenKind::kRightParen) return true;
    if (token.kind == TokenKind::kSemicolon) continue;
    if (token.kind == TokenKind::kString) {  // A string alone is the documentation.
      doc->clear();
      AppendContents(token, doc);
      continue;
    }
    if (token.kind != TokenKind::kIdentifier) {
      return Close(TokenKind::kRightParen, open, token, "a metadata key");
    }
    ListOpKind op = ListOpKind::kExplicit;
    Token key = token;
    if (const auto kind = ListOpKeyword(token.text)) {
      if (!Peek(&key)) return false;
      if (key.kind != TokenKind::kIdentifier) {
        return Expected(key, "a metadata key after '" + std::string(token.text) + "'");
      }
      op = *kind;
      Next(&key);
    }
    if (!Expect(TokenKind::kEquals, "'=' after '" + std::string(key.text) + "'")) return false;
    if (IsCompositionArc(key.text)) {
      if (!Arc(key, op)) return false;
      continue;
    }
    if (!entry(key, op)) return false;
  }
}

bool UsdaReader::Arc(const Token& key, ListOpKind op) {
  const bool reference =
      (key.text == "references" || key.text == "payload") && arc_prim_ != nullptr;
  const bool sub_layers = key.text == "subLayers" && sub_layers_ != nullptr;
  Token token;
  if (!Peek(&token)) return false;
  if (sub_layers) return SubLayers(key, op);
  if (arc_prim_ != nullptr && key.text == "variantSets") {
    ListOp& sets = arc_prim_->MakeVariants().sets;
    sets.written |= uint8_t(1u << unsigned(op));
    std::vector<std::string>& names = sets.Items(op);
    if (!StringList(&names)) return false;
    for (const std::string& name : names) {
      if (!IsIdentifier(name)) {
        return Fail(token.offset, Error::kInvalidValue,
                    "variant set name \"" + name.substr(0, 40) + "\" is not an identifier");
      }
    }
    return true;
  }
  if (arc_prim_ != nullptr && key.text == "variants") return VariantSelections(key, op);
  if (arc_prim_ != nullptr && (key.text == "inherits" || key.text == "specializes")) {
    return ClassPaths(key, op);
  }
  if (!reference) {
    // Empty ([], {} or None) it composes nothing: read past it. Anything else is refused.
    if (IsWord(token, "None")) return Next(&token);
    if (token.kind == TokenKind::kLeftBracket || token.kind == TokenKind::kLeftBrace) {
      const TokenKind close =
          token.kind == TokenKind::kLeftBracket ? TokenKind::kRightBracket : TokenKind::kRightBrace;
      Token open = token, next;
      if (!Next(&open) || !Peek(&next)) return false;
      if (next.kind == close) return Next(&next);
    }
    return Fail(key.offset, Error::kUnsupportedFeature,
                "composition arc '" + std::string(key.text) +
                    "': sinew composes sublayers, references, payloads, variant sets, inherits "
                    "and specializes only "
                    "(usdcat --flatten writes a layer without arcs)");
  }
  ReferenceList& list = key.text == "payload" ? arc_prim_->payloads : arc_prim_->references;
  std::vector<Reference> items;
  const auto item = [&](const Token& first) {
    Reference& r = items.emplace_back();
    r.offset = first.offset;
    Token path = first;
    bool has_path = true;
    if (first.kind == TokenKind::kAsset) {
      AppendContents(first, &r.asset);
      if (r.asset.empty()) return Fail(first.offset, Error::kInvalidValue, "an empty asset path");
      if (!Peek(&path)) return false;
      has_path = path.kind == TokenKind::kPath;
      if (has_path) Next(&path);
    } else if (first.kind != TokenKind::kPath) {
      return Expected(first, "a reference (@asset@, <path> or both)");
    }
    if (has_path) {
      if (!AbsolutePath(path, anchor_, &r.prim)) return false;
      if (r.prim.find('.') != std::string::npos) {
        return Fail(path.offset, Error::kInvalidValue,
                    "a reference names a prim, not a property: <" + r.prim + ">");
      }
    }
    Token after;
    if (!Peek(&after)) return false;
    return after.kind != TokenKind::kLeftParen || LayerOffsetBlock(true, &r.time);
  };
  if (IsWord(token, "None")) {
    list.Set(op, {});
    return Next(&token);
  }
  Next(&token);
  const bool read = token.kind != TokenKind::kLeftBracket
                        ? item(token)
                        : Items(token, TokenKind::kRightBracket, item);
  if (read) list.Set(op, std::move(items));
  return read;
}

bool UsdaReader::ClassPaths(const Token& key, ListOpKind op) {
  std::shared_ptr<ListOp>& list =
      key.text == "inherits" ? arc_prim_->inherits : arc_prim_->specializes;
  if (!list) list = std::make_shared<ListOp>();
  list->written |= uint8_t(1u << unsigned(op));
  std::vector<std::string>& paths = list->Items(op);
  paths.clear();  // a later statement of the same kind replaces an earlier one
  Token token;
  if (!Peek(&token)) return false;
  if (IsWord(token, "None")) return Next(&token);
  const auto item = [&](const Token& path) {
    if (path.kind != TokenKind::kPath) return Expected(path, "a class's prim path (<path>)");
    std::string& out = paths.emplace_back();
    if (!AbsolutePath(path, anchor_, &out)) return false;
    if (out.find('.') != std::string::npos || out == "/") {
      return Fail(
          path.offset, Error::kInvalidValue,
          std::string(key.text) + " names a prim, not a property or the root: <" + out + ">");
    }
    return true;
  };
  Next(&token);
  return token.kind != TokenKind::kLeftBracket ? item(token)
                                               : Items(token, TokenKind::kRightBracket, item);
}

bool UsdaReader::VariantSelections(const Token& key, ListOpKind op) {
  if (op != ListOpKind::kExplicit) {
    return Fail(key.offset, Error::kInvalidValue,
                "'" + std::string(Keyword(op)) + "' before 'variants', which is not a list op");
  }
  std::vector<VariantSelection>& selections = arc_prim_->MakeVariants().selections;
  selections.clear();  // a later statement replaces an earlier one
  Token token;
  if (!Peek(&token)) return false;
  if (IsWord(token, "None")) return Next(&token);
  Value value;
  if (!TypedValue(ValueType::kDictionary, false, &value)) return false;
  for (const DictionaryEntry& e : *value.dictionary()) {
    const Value& v = e.value;
    if ((v.type != ValueType::kString && v.type != ValueType::kToken) || v.array || v.blocked ||
        v.strings().size() != 1) {
      return Fail(key.offset, Error::kInvalidValue,
                  "variants: the selection for '" + e.key.substr(0, 40) + "' is not a string");
    }
    const std::string& variant = v.strings()[0];
    if (!IsIdentifier(e.key) || (!variant.empty() && !IsVariantName(variant))) {
      return Fail(key.offset, Error::kInvalidValue,
                  "variants: '" + e.key.substr(0, 40) + "' = '" + variant.substr(0, 40) +
                      "' is not a variant set's name and a variant's (or \"\")");
    }
    selections.push_back({e.key, variant});
  }
  std::sort(selections.begin(), selections.end(),
            [](const VariantSelection& a, const VariantSelection& b) { return a.set < b.set; });
  return true;
}

bool UsdaReader::SubLayers(const Token& key, ListOpKind op) {
  if (op != ListOpKind::kExplicit) {
    return Fail(key.offset, Error::kInvalidValue,
                "'" + std::string(Keyword(op)) + "' before 'subLayers', which is not a list op");
  }
  sub_layers_->clear();  // a later statement replaces an earlier one
  Token open;
  if (!Peek(&open)) return false;
  if (IsWord(open, "None")) return Next(&open);
  if (!Expect(TokenKind::kLeftBracket, "'[' and the sublayers' asset paths", &open)) return false;
  return Items(open, TokenKind::kRightBracket, [&](const Token& first) {
    if (first.kind != TokenKind::kAsset) return Expected(first, "a sublayer (@file.usda@)");
    SubLayer& sub = sub_layers_->emplace_back();
    sub.offset = first.offset;
    AppendContents(first, &sub.asset);
    if (sub.asset.empty()) return Fail(first.offset, Error::kInvalidValue, "an empty asset path");
    Token after;
    if (!Peek(&after)) return false;
    return after.kind != TokenKind::kLeftParen || LayerOffsetBlock(false, &sub.time);
  });
}

bool UsdaReader::LayerOffsetBlock(bool reference, LayerOffset* out) {
  Token open, token;
  Next(&open);
  while (true) {
    if (!Next(&token)) return false;
    if (token.kind == TokenKind::kRightParen) break;
    if (token.kind == TokenKind::kSemicolon) continue;
    const std::string_view what =
        reference ? "'offset', 'scale' or 'customData'" : "'offset' or 'scale'";
    if (token.kind != TokenKind::kIdentifier)
      return Close(TokenKind::kRightParen, open, token, what);
    const Token key = token;
    if (!Expect(TokenKind::kEquals, "'=' after '" + std::string(key.text) + "'")) return false;
    if (reference && key.text == "customData") {
      Value unread;  // nothing sinew reads
      if (!UntypedValue(&unread)) return false;
      continue;
    }
    if (key.text != "offset" && key.text != "scale") return Expected(key, what);
    Value value;
    if (!TypedValue(ValueType::kDouble, false, &value)) return false;
    const std::optional<double> number = value.AsDouble();
    if (!number) {
      return Fail(key.offset, Error::kInvalidValue,
                  "a layer offset's '" + std::string(key.text) + "' is None");
    }
    (key.text == "offset" ? out->offset : out->scale) = *number;
  }
  Error code = Error::kNone;
  if (const char* fault = out->Fault(&code)) return Fail(open.offset, code, fault);
  return true;
}

bool UsdaReader::Generic(Metadata* metadata, KeySet* keys, const Token& key, ListOpKind op) {
  const auto [it, added] = keys->try_emplace({key.text, op}, metadata->entries.size());
  if (!added) return UntypedValue(&metadata->entries[it->second].value);
  MetadataEntry& entry = metadata->entries.emplace_back();
  entry.key = key.text;
  entry.op = op;
  entry.offset = key.offset;
  return UntypedValue(&entry.value);
}

bool UsdaReader::Named(const Token& key, ListOpKind op, ValueType type, Value* out) {
  if (op != ListOpKind::kExplicit) {
    return Fail(key.offset, Error::kInvalidValue,
                "'" + std::string(Keyword(op)) + "' before '" + std::string(key.text) +
                    "', which is not a list");
  }
  return TypedValue(type, false, out);
}

bool UsdaReader::NamedString(const Token& key, ListOpKind op, std::string* out) {
  Value value;
  if (!Named(key, op, ValueType::kString, &value)) return false;
  *out = value.AsString();
  return true;
}

bool UsdaReader::NamedBool(const Token& key, ListOpKind op, std::optional<bool>* out) {
  Value value;
  if (!Named(key, op, ValueType::kBool, &value)) return false;
  out->reset();
  if (const auto v = value.AsDouble()) *out = *v != 0;
  return true;
}

bool UsdaReader::LayerEntry(Layer* layer, KeySet* keys, const Token& key, ListOpKind op) {
  const std::string_view k = key.text;
  std::optional<double>* number = k == "timeCodesPerSecond" ? &layer->time_codes_per_second
                                  : k == "framesPerSecond"  ? &layer->frames_per_second
                                  : k == "startTimeCode"    ? &layer->start_time_code
                                  : k == "endTimeCode"      ? &layer->end_time_code
                                  : k == "metersPerUnit"    ? &layer->meters_per_unit
                                                            : nullptr;
  if (number) {
    Value value;
    if (!Named(key, op, ValueType::kDouble, &value)) return false;
    *number = value.AsDouble();
    return true;
  }
  if (k == "upAxis") return NamedString(key, op, &layer->up_axis);
  if (k == "defaultPrim") return NamedString(key, op, &layer->default_prim);
  if (k == "doc") return NamedString(key, op, &layer->doc);
  return Generic(&layer->metadata, keys, key, op);
}

bool UsdaReader::PrimEntry(usd::Prim* prim, KeySet* keys, const Token& key, ListOpKind op) {
  const std::string_view k = key.text;
  if (k == "kind") return NamedString(key, op, &prim->kind);
  if (k == "active") return NamedBool(key, op, &prim->active);
  if (k == "instanceable") return NamedBool(key, op, &prim->instanceable);
  if (k == "doc" || k == "documentation") return NamedString(key, op, &prim->doc);
  if (k == "apiSchemas") {
    prim->api_schemas.written |= uint8_t(1u << unsigned(op));
    return StringList(&prim->api_schemas.Items(op));
  }
  return Generic(&prim->metadata, keys, key, op);
}

bool UsdaReader::AttributeEntry(Attribute* attribute, KeySet* keys, const Token& key,
                                ListOpKind op) {
  const std::string_view k = key.text;
  if (k == "interpolation") return NamedString(key, op, &attribute->interpolation);
  if (k == "doc" || k == "documentation") return NamedString(key, op, &attribute->doc);
  if (k == "elementSize") {
    Value value;
    if (!Named(key, op, ValueType::kInt, &value)) return false;
    attribute->element_size.reset();
    if (const auto v = value.AsDouble()) attribute->element_size = int32_t(*v);
    return true;
  }
  if (k == "weight") {
    Value value;
    if (!Named(key, op, ValueType::kFloat, &value)) return false;
    attribute->weight.reset();
    if (!value.floats().empty()) attribute->weight = value.floats()[0];
    return true;
  }
  return Generic(&attribute->metadata, keys, key, op);
}

bool UsdaReader::RelationshipEntry(Relationship* relationship, KeySet* keys, const Token& key,
                                   ListOpKind op) {
  if (key.text == "doc" || key.text == "documentation") {
    return NamedString(key, op, &relationship->doc);
  }
  return Generic(&relationship->metadata, keys, key, op);
}

// ---------------------------------------------------------------------------------------------
// Layer, prims and properties

bool UsdaReader::ReadLayer(Layer* layer) {
  Token token;
  if (!Peek(&token)) return false;
  if (token.kind == TokenKind::kLeftParen) {
    KeySet keys;
    auto entry = [&](const Token& key, ListOpKind op) { return LayerEntry(layer, &keys, key, op); };
    sub_layers_ = &layer->sub_layers;
    const bool read = MetadataBlock(&layer->doc, entry);
    sub_layers_ = nullptr;
    if (!read) return false;
  }
  while (true) {
    if (!Next(&token)) return false;
    if (token.kind == TokenKind::kEnd) return true;
    if (token.kind == TokenKind::kSemicolon) continue;
    if (IsSpecifier(token)) {
      if (!Prim(layer, -1, token)) return false;
    } else if (IsWord(token, "reorder")) {
      if (!Expect(TokenKind::kIdentifier, "'rootPrims' after 'reorder'", &token)) return false;
      if (token.text != "rootPrims") return Expected(token, "'rootPrims' after 'reorder'");
      if (!Reorder(&layer->root_order)) return false;
    } else {
      return Expected(token, "'def', 'over' or 'class'");
    }
  }
}

bool UsdaReader::Reorder(std::vector<std::string>* order) {
  return Expect(TokenKind::kEquals, "'=' after the reorder statement's name") && StringList(order);
}

bool UsdaReader::Prim(Layer* layer, int32_t parent, const Token& specifier) {
  if (!Enter(specifier.offset)) return false;
  Token token;
  if (!Next(&token)) return false;
  std::string type_name;
  if (token.kind == TokenKind::kIdentifier) {
    type_name = token.text;
    if (!Next(&token)) return false;
  }
  if (token.kind != TokenKind::kString) return Expected(token, "the prim's name (a string)");
  std::string name;
  AppendContents(token, &name);
  if (!IsIdentifier(name)) {
    return Fail(token.offset, Error::kInvalidValue,
                "prim name \"" + name.substr(0, 40) + "\" is not an identifier");
  }
  std::string path = (parent < 0 ? std::string() : layer->prims[size_t(parent)].path) + "/" + name;
  const uint32_t index = uint32_t(layer->prims.size());
  {
    usd::Prim* prim = NewPrim(layer, path, parent, token, "prim", "defined");
    if (!prim) return false;
    prim->specifier = specifier.text == "def"    ? Specifier::kDef
                      : specifier.text == "over" ? Specifier::kOver
                                                 : Specifier::kClass;
    prim->type_name = std::move(type_name);
    prim->name = std::move(name);
    prim->offset = specifier.offset;
  }
  if (parent < 0) {
    layer->roots.push_back(index);
  } else {
    layer->prims[size_t(parent)].children.push_back(index);
  }
  if (!MetadataAndBody(layer, index, path, "'{' to start the prim's body")) return false;
  Leave();
  return true;
}

usd::Prim* UsdaReader::NewPrim(Layer* layer, const std::string& path, int32_t parent,
                               const Token& name, std::string_view what, std::string_view twice) {
  const uint32_t index = uint32_t(layer->prims.size());
  if (const auto [it, added] = layer->prim_index.emplace(path, index); !added) {
    Fail(name.offset, Error::kInvalidValue,
         std::string(what) + " <" + path + "> is " + std::string(twice) + " twice (first at " +
             Where(text_, layer->prims[it->second].offset) + ")");
    return nullptr;
  }
  usd::Prim& prim = layer->prims.emplace_back();
  prim.path = path;
  prim.parent = parent;
  prim.offset = name.offset;
  return &prim;
}

bool UsdaReader::MetadataAndBody(Layer* layer, uint32_t index, const std::string& path,
                                 std::string_view brace) {
  Token token;
  if (!Peek(&token)) return false;
  if (token.kind == TokenKind::kLeftParen) {
    KeySet keys;
    anchor_ = path;
    usd::Prim& prim = layer->prims[index];
    auto entry = [&](const Token& key, ListOpKind op) { return PrimEntry(&prim, &keys, key, op); };
    arc_prim_ = &prim;
    const bool read = MetadataBlock(&prim.doc, entry);
    arc_prim_ = nullptr;
    if (!read) return false;
  }
  Token open;
  return Expect(TokenKind::kLeftBrace, brace, &open) && PrimBody(layer, index, path, open);
}

bool UsdaReader::PrimBody(Layer* layer, uint32_t index, const std::string& path,
                          const Token& open) {
  PropertyMap properties;
  Token token;
  while (true) {
    anchor_ = path;  // a child prim read before this property moved it
    if (!Next(&token)) return false;
    if (token.kind == TokenKind::kRightBrace) return true;
    if (token.kind == TokenKind::kSemicolon) continue;
    if (token.kind != TokenKind::kIdentifier) {
      return Close(TokenKind::kRightBrace, open, token, "a prim, a property");
    }
    if (IsSpecifier(token)) {
      if (!Prim(layer, int32_t(index), token)) return false;
      continue;
    }
    if (IsWord(token, "variantSet")) {
      if (!VariantSetBlock(layer, index, token)) return false;
      continue;
    }
    if (IsWord(token, "reorder")) {
      Token what;
      if (!Peek(&what)) return false;
      if (IsWord(what, "nameChildren") || IsWord(what, "properties")) {
        Next(&what);
        usd::Prim& prim = layer->prims[index];
        if (!Reorder(what.text == "properties" ? &prim.property_order : &prim.child_order)) {
          return false;
        }
        continue;
      }
    }
    if (!Property(layer, index, &properties, token)) return false;
  }
}

bool UsdaReader::VariantSetBlock(Layer* layer, uint32_t index, const Token& keyword) {
  if (!Enter(keyword.offset)) return false;
  Token token, open;
  if (!Expect(TokenKind::kString, "the variant set's name (a string)", &token)) return false;
  std::string set;
  AppendContents(token, &set);
  if (!IsIdentifier(set)) {
    return Fail(token.offset, Error::kInvalidValue,
                "variant set name \"" + set.substr(0, 40) + "\" is not an identifier");
  }
  if (!Expect(TokenKind::kEquals, "'=' after the variant set's name")) return false;
  if (!Expect(TokenKind::kLeftBrace, "'{' to start the variant set", &open)) return false;
  while (true) {
    if (!Next(&token)) return false;
    if (token.kind == TokenKind::kRightBrace) break;
    if (token.kind != TokenKind::kString)
      return Close(TokenKind::kRightBrace, open, token, "a variant (a string)");
    std::string name;
    AppendContents(token, &name);
    if (!IsVariantName(name)) {
      return Fail(token.offset, Error::kInvalidValue,
                  "variant name \"" + name.substr(0, 40) +
                      "\" is not a variant name (letters, digits, '_', '|' and '-')");
    }
    const std::string path = VariantPath(layer->prims[index].path, set, name);
    const uint32_t variant = uint32_t(layer->prims.size());
    {
      usd::Prim* prim = NewPrim(layer, path, int32_t(index), token, "variant", "written");
      if (!prim) return false;
      prim->specifier = Specifier::kOver;
      prim->name = name;
    }
    layer->prims[index].MakeVariants().contents.push_back(variant);
    if (!MetadataAndBody(layer, variant, path, "'{' to start the variant's contents")) {
      return false;
    }
  }
  Leave();
  return true;
}

bool UsdaReader::Property(Layer* layer, uint32_t prim, PropertyMap* properties,
                          const Token& first) {
  Token token = first;
  ListOpKind op = ListOpKind::kExplicit;
  if (const auto kind = ListOpKeyword(token.text)) {
    op = *kind;
    if (!Next(&token)) return false;
  }
  bool custom = false;
  if (IsWord(token, "custom")) {
    custom = true;
    if (!Next(&token)) return false;
  }
  Variability variability = Variability::kVarying;
  if (IsWord(token, "uniform") || IsWord(token, "config") || IsWord(token, "varying")) {
    variability = token.text == "uniform"  ? Variability::kUniform
                  : token.text == "config" ? Variability::kConfig
                                           : Variability::kVarying;
    if (!Next(&token)) return false;
  }
  if (IsWord(token, "rel")) {
    return RelationshipSpec(layer, prim, properties, {op, custom, variability});
  }
  if (token.kind != TokenKind::kIdentifier) return Expected(token, "a value type or 'rel'");
  return AttributeSpec(layer, prim, properties, {op, custom, variability}, token);
}

UsdaReader::PropertyRef* UsdaReader::Declare(Layer* layer, uint32_t prim, PropertyMap* properties,
                                             const Token& name, bool relationship, bool* added) {
  usd::Prim& p = layer->prims[prim];
  auto [it, inserted] = properties->try_emplace(name.text);
  PropertyRef& ref = it->second;
  *added = inserted;
  if (inserted) {
    ref.relationship = relationship;
    if (relationship) {
      ref.index = uint32_t(p.relationships.size());
      Relationship& r = p.relationships.emplace_back();
      r.name = name.text;
      r.offset = name.offset;
    } else {
      ref.index = uint32_t(p.attributes.size());
      Attribute& a = p.attributes.emplace_back();
      a.name = name.text;
      a.offset = name.offset;
    }
    return &ref;
  }
  if (ref.relationship == relationship) return &ref;
  const size_t first =
      ref.relationship ? p.relationships[ref.index].offset : p.attributes[ref.index].offset;
  Fail(name.offset, Error::kInvalidValue,
       "property '" + std::string(name.text) + "' is declared as " +
           (ref.relationship ? "a relationship" : "an attribute") + " at " + Where(text_, first) +
           " and as " + (relationship ? "a relationship" : "an attribute") + " here");
  return nullptr;
}

bool UsdaReader::RelationshipSpec(Layer* layer, uint32_t prim, PropertyMap* properties,
                                  const Qualifiers& qualifiers) {
  Token name, token;
  if (!Expect(TokenKind::kIdentifier, "the relationship's name", &name)) return false;
  bool added = false;
  PropertyRef* ref = Declare(layer, prim, properties, name, true, &added);
  if (!ref) return false;
  Relationship& relationship = layer->prims[prim].relationships[ref->index];
  relationship.custom |= qualifiers.custom;
  if (added) relationship.variability = qualifiers.variability;
  const ListOpKind op = qualifiers.op;
  if (!Peek(&token)) return false;
  if (token.kind == TokenKind::kEquals) {
    Next(&token);
    relationship.targets.written |= uint8_t(1u << unsigned(op));
    if (!PathList(layer->prims[prim].path, &relationship.targets.Items(op))) return false;
    if (!Peek(&token)) return false;
  } else if (op != ListOpKind::kExplicit) {
    return Expected(
        token, "'=' after '" + std::string(Keyword(op)) + " rel " + std::string(name.text) + "'");
  }
  if (token.kind != TokenKind::kLeftParen) return true;
  auto entry = [&](const Token& key, ListOpKind key_op) {
    return RelationshipEntry(&relationship, &ref->keys, key, key_op);
  };
  return MetadataBlock(&relationship.doc, entry);
}

bool UsdaReader::AttributeSpec(Layer* layer, uint32_t prim, PropertyMap* properties,
                               const Qualifiers& qualifiers, const Token& type_token) {
  const std::optional<ValueType> type = FindValueType(type_token.text);
  if (!type || *type == ValueType::kPath || *type == ValueType::kDictionary) {
    return Fail(type_token.offset, Error::kUnsupportedFeature,
                "unknown value type '" + std::string(type_token.text.substr(0, 40)) + "'");
  }
  Token name, token;
  bool array = false;
  if (!ArraySuffix(&array)) return false;
  if (!Expect(TokenKind::kIdentifier, "the attribute's name", &name)) return false;
  // What the declaration writes: a default, `.timeSamples` or `.connect`.
  enum class Part { kDefault, kTimeSamples, kConnect } part = Part::kDefault;
  if (!Peek(&token)) return false;
  if (token.kind == TokenKind::kDot) {
    Next(&token);
    if (!Next(&token)) return false;
    if (IsWord(token, "timeSamples")) {
      part = Part::kTimeSamples;
    } else if (IsWord(token, "connect")) {
      part = Part::kConnect;
    } else if (IsWord(token, "spline")) {
      return Fail(token.offset, Error::kUnsupportedFeature, "attribute splines ('.spline')");
    } else {
      return Expected(token, "'timeSamples' or 'connect' after '.'");
    }
  }
  if (qualifiers.op != ListOpKind::kExplicit && part != Part::kConnect) {
    return Fail(name.offset, Error::kInvalidValue,
                "'" + std::string(Keyword(qualifiers.op)) +
                    "' before an attribute: list edits apply to its connections ('.connect')");
  }
  bool added = false;
  PropertyRef* ref = Declare(layer, prim, properties, name, false, &added);
  if (!ref) return false;
  Attribute& attribute = layer->prims[prim].attributes[ref->index];
  if (added) {
    attribute.type = *type;
    attribute.array = array;
    attribute.variability = qualifiers.variability;
  } else if (attribute.type != *type || attribute.array != array ||
             attribute.variability != qualifiers.variability) {
    auto declared = [](ValueType t, bool a, Variability v) {
      return std::string(v == Variability::kUniform  ? "uniform "
                         : v == Variability::kConfig ? "config "
                                                     : "") +
             std::string(Info(t).name) + (a ? "[]" : "");
    };
    return Fail(type_token.offset, Error::kInvalidValue,
                "attribute '" + attribute.name + "' is declared " +
                    declared(attribute.type, attribute.array, attribute.variability) + " at " +
                    Where(text_, attribute.offset) + " and " +
                    declared(*type, array, qualifiers.variability) + " here");
  }
  attribute.custom |= qualifiers.custom;
  if (!Peek(&token)) return false;
  if (token.kind == TokenKind::kEquals) {
    Next(&token);
    // A later declaration's value replaces an earlier one's, as USD reads a layer.
    switch (part) {
      case Part::kDefault:
        if (!TypedValue(*type, array, &attribute.default_value.emplace())) return false;
        break;
      case Part::kTimeSamples:
        attribute.has_time_samples = true;
        attribute.time_samples.clear();
        if (!TimeSamples(*type, array, &attribute.time_samples)) return false;
        break;
      case Part::kConnect: {
        ListOp& connections = attribute.connections;
        connections.written |= uint8_t(1u << unsigned(qualifiers.op));
        if (!PathList(layer->prims[prim].path, &connections.Items(qualifiers.op))) return false;
        break;
      }
    }
    if (!Peek(&token)) return false;
  } else if (part != Part::kDefault) {
    return Expected(
        token,
        "'=' after '." + std::string(part == Part::kConnect ? "connect" : "timeSamples") + "'");
  }
  if (token.kind != TokenKind::kLeftParen) return true;
  auto entry = [&](const Token& key, ListOpKind op) {
    return AttributeEntry(&attribute, &ref->keys, key, op);
  };
  return MetadataBlock(&attribute.doc, entry);
}

// ---------------------------------------------------------------------------------------------

Result<Layer> ReadUsda(std::string_view text, const UsdaOptions& options) {
  size_t start = 0;
  if (Status header = Header(text, &start); !header) return header.error();
  Layer layer;
  UsdaReader reader(text, start, options);
  if (!reader.ReadLayer(&layer)) return std::move(reader.error());
  layer.IndexProperties();
  return layer;
}

Result<Layer> ReadUsdaFile(const std::filesystem::path& path, const UsdaOptions& options) {
  auto bytes = ReadFile(path);
  if (!bytes) return bytes.error();
  return ReadUsda(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size),
                  options);
}

}  // namespace sinew::loader::usd
