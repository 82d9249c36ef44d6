// Composing .usda text in the loader tests: a stage read from text, with the layers it names
// taken from a map of texts, and the float a composed attribute holds.
#pragma once

#include <cmath>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/load_status.h"
#include "sinew/loader/usd.h"
#include "usd/compose_stage.h"
#include "usd/usda_parser.h"

namespace sinew::loader {

// The float at `property` ("/prim.name") of `layer`; NaN where there is none.
inline float FloatAt(const usd::Layer& layer, const std::string& property) {
  const usd::Attribute* a = layer.FindAttribute(property);
  if (a == nullptr || a->UnblockedDefault() == nullptr) return std::nanf("");
  const std::span<const float> floats = a->UnblockedDefault()->floats();
  return floats.empty() ? std::nanf("") : floats[0];
}

// The specs that compose the prim at `prim`, strongest first, by the names they give themselves:
// each spec of a stage written for it names itself in `append rel stack = </Prim/name>`, so the
// composed targets list the prim's specs, weakest first. "(no stack at /Prim)" where no spec of
// the prim names itself.
inline std::vector<std::string> StackOf(const usd::Layer& composed, const std::string& prim) {
  const usd::Relationship* r = composed.FindRelationship(prim + ".stack");
  if (r == nullptr) return {"(no stack at " + prim + ")"};
  const std::vector<std::string> targets = r->targets.Resolved();
  std::vector<std::string> names;
  for (auto t = targets.rbegin(); t != targets.rend(); ++t) {
    if (!t->starts_with(prim + "/")) return {"(" + *t + " lies outside " + prim + ")"};
    names.push_back(t->substr(prim.size() + 1));
  }
  return names;
}

// `text` with every prim spec and variant naming itself for StackOf: the line
// `append rel stack = </Prim/Path/<prefix>_<name>>` opens each one's body, where name is the
// spec's path with '/' written '_' and a variant selection {set=sel} written _set_sel
// (Tagged("model", ...) names the spec /Model{complexity=high}Class
// model_Model_complexity_high_Class). Braces inside metadata parentheses, strings and
// comments are passed over; a brace block that is neither a prim nor a variant (a dictionary,
// time samples) is left as it is.
inline std::string Tagged(std::string_view prefix, std::string_view text) {
  enum class Block { kPrim, kVariantSet, kVariant, kOther };
  struct Open {
    Block block;
    std::string name;  // the prim's name, or "set_variant"; empty otherwise
  };
  std::vector<Open> open;
  std::string out;
  std::string statement;  // what has come since the last brace or line end outside parentheses
  int parentheses = 0;
  const auto quoted = [](const std::string& s) {  // the first "…" in s
    const size_t a = s.find('"');
    const size_t b = a == std::string::npos ? a : s.find('"', a + 1);
    return b == std::string::npos ? std::string() : s.substr(a + 1, b - a - 1);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '#') {  // a string or a comment, copied whole
      const size_t end = c == '"' ? text.find('"', i + 1) : text.find('\n', i);
      const size_t stop = end == std::string_view::npos ? text.size() : end + (c == '"');
      out.append(text.substr(i, stop - i));
      statement.append(text.substr(i, stop - i));
      i = stop - 1;
      continue;
    }
    out.push_back(c);
    if (c == '(' || c == '[') ++parentheses;
    if (c == ')' || c == ']') --parentheses;
    if (parentheses > 0 || (c != '{' && c != '}' && c != '\n')) {
      statement.push_back(c);
      continue;
    }
    if (c == '}' && !open.empty()) open.pop_back();
    if (c == '{') {
      const size_t first = statement.find_first_not_of(" \t");
      const std::string head = first == std::string::npos ? "" : statement.substr(first);
      Open block{Block::kOther, ""};
      if (!open.empty() && open.back().block == Block::kVariantSet && head.starts_with('"')) {
        block = {Block::kVariant, open.back().name + "_" + quoted(head)};
      } else if (head.starts_with("variantSet ")) {
        block = {Block::kVariantSet, quoted(head)};
      } else if (head.starts_with("def ") || head.starts_with("over ") ||
                 head.starts_with("class ")) {
        block = {Block::kPrim, quoted(head)};
      }
      open.push_back(block);
      if (block.block == Block::kPrim || block.block == Block::kVariant) {
        std::string path, name(prefix);
        for (const Open& o : open) {
          if (o.block == Block::kPrim) path.append("/").append(o.name);
          if (o.block == Block::kPrim || o.block == Block::kVariant)
            name.append("_").append(o.name);
        }
        out.append("\n").append(4 * open.size(), ' ').append("append rel stack = <");
        out.append(path).append("/").append(name).append(">");
        if (i + 1 < text.size() && text[i + 1] == '}') {
          out.append("\n").append(4 * (open.size() - 1), ' ');
        }
      }
    }
    statement.clear();
  }
  return out;
}

// The names of the composed children of `path` ("" for the root prims), in order; "(no prim at
// /Path)" where no prim composes.
inline std::vector<std::string> ChildNames(const usd::Layer& composed, const std::string& path) {
  const usd::Prim* prim = path.empty() ? nullptr : composed.FindPrim(path);
  if (!path.empty() && prim == nullptr) return {"(no prim at " + path + ")"};
  std::vector<std::string> names;
  for (const uint32_t c : prim != nullptr ? prim->children : composed.roots) {
    names.push_back(composed.prims[c].name);
  }
  return names;
}

// `text` read and its references composed (within itself).
inline Result<usd::Layer> Composed(std::string_view text, const UsdOptions& options = {}) {
  auto layer = usd::ReadUsda(text);
  if (!layer.ok()) return layer.status();
  return usd::ComposeStage(std::move(*layer), "", {}, options);
}

// `text` read as the layer "shot.usda" and composed, the files it names taken from `files`.
inline Result<usd::Layer> ComposedWith(std::string_view text,
                                       const std::map<std::string, std::string>& files,
                                       const UsdOptions& options = {}) {
  auto layer = usd::ReadUsda(text);
  if (!layer.ok()) return layer.status();
  const usd::LayerOpener open = [&](const std::string& name) -> Result<usd::OpenedLayer> {
    const auto it = files.find(name);
    if (it == files.end()) return Status(Error::kFileNotFound, "no such file", name);
    SINEW_TRY_ASSIGN(usd::Layer read, usd::ReadUsda(it->second));
    return usd::OpenedLayer{std::move(read), name};
  };
  return usd::ComposeStage(std::move(*layer), "shot.usda", open, options);
}

}  // namespace sinew::loader
