// The JSON layer's array walk (ObjectArray, loader/src/common/json.h), which every pass of both
// loaders uses, and Path, which formats the pointers its errors carry.
#include "common/json.h"

#include <gtest/gtest.h>

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

namespace sinew::loader {
namespace {

// A parsed document; Root() valid while it lives.
class Doc {
 public:
  explicit Doc(std::string_view json) {
    EXPECT_EQ(parser_.parse(json.data(), json.size()).error(), simdjson::SUCCESS) << json;
  }
  TapeObject Root() const {
    TapeObject root;
    EXPECT_TRUE(GetObject(TapeValue::Root(parser_), &root));
    return root;
  }

 private:
  simdjson::dom::parser parser_;
};

// The "id" of each object of root[key] and the pointer it was read at.
struct Seen {
  std::vector<std::string> pointers;
  std::vector<uint64_t> ids;
  std::vector<size_t> indices;
};

LoadStatus Walk(TapeObject root, std::string_view key, Seen* seen) {
  ObjectArray array;
  SINEW_TRY(RootObjects(root, key, &array));
  return array.ForEach([&](TapeObject o, const Path& where, size_t i) -> LoadStatus {
    uint64_t id = 0;
    SINEW_TRY(RequireUint(FindField(o, "id"), where, &id));
    seen->pointers.push_back(where.ToString());
    seen->ids.push_back(id);
    seen->indices.push_back(i);
    return {};
  });
}

// The walk of root.nodes failed with `code` at `where`, saying `message`, having read `read` ids.
void ExpectWalkFails(std::string_view json, Error code, const std::string& where,
                     const std::string& message, const std::vector<uint64_t>& read) {
  const Doc doc(json);
  Seen seen;
  const LoadStatus s = Walk(doc.Root(), "nodes", &seen);
  ASSERT_FALSE(s.ok()) << json;
  EXPECT_EQ(s.error().code, code) << json;
  EXPECT_EQ(s.error().where, where) << json;
  EXPECT_EQ(s.error().message, message) << json;
  EXPECT_EQ(seen.ids, read) << json;
}

TEST(ObjectArray, WalksEachObjectInOrderWithItsPointerAndIndex) {
  const Doc doc(R"({"nodes": [{"id": 7}, {"id": 8}, {"id": 9}]})");
  Seen seen;
  ASSERT_TRUE(Walk(doc.Root(), "nodes", &seen).ok());
  EXPECT_EQ(seen.pointers, (std::vector<std::string>{"/nodes/0", "/nodes/1", "/nodes/2"}));
  EXPECT_EQ(seen.ids, (std::vector<uint64_t>{7, 8, 9}));
  EXPECT_EQ(seen.indices, (std::vector<size_t>{0, 1, 2}));
}

TEST(ObjectArray, ReadsNothingForAnAbsentArray) {
  const Doc doc(R"({"meshes": []})");
  Seen seen;
  EXPECT_TRUE(Walk(doc.Root(), "nodes", &seen).ok());
  EXPECT_TRUE(seen.ids.empty());
  ObjectArray array;
  ASSERT_TRUE(RootObjects(doc.Root(), "nodes", &array).ok());
  EXPECT_EQ(array.size(), 0u);
}

TEST(ObjectArray, ReportsAnArrayThatIsNotOneAtItsKey) {
  ExpectWalkFails(R"({"nodes": {"id": 1}})", Error::kWrongType, "/nodes", "expected an array", {});
}

TEST(ObjectArray, ReportsAnEntryThatIsNotAnObjectAtItsPointerAfterReadingTheOnesBefore) {
  ExpectWalkFails(R"({"nodes": [{"id": 1}, 5, {"id": 3}]})", Error::kWrongType, "/nodes/1",
                  "expected an object", {1});
}

TEST(ObjectArray, StopsAtTheReadersFirstFailure) {
  ExpectWalkFails(R"({"nodes": [{"id": 1}, {"id": -2}, {}]})", Error::kWrongType, "/nodes/1/id",
                  "expected a non-negative integer", {1});
}

TEST(ObjectArray, RequiresANestedArrayAndPointsBelowItsParent) {
  const Doc doc(R"({"meshes": [{"primitives": [{"id": 4}]}, {}]})");
  ObjectArray meshes;
  ASSERT_TRUE(RootObjects(doc.Root(), "meshes", &meshes).ok());
  std::vector<std::string> pointers;
  const LoadStatus s = meshes.ForEach([&](TapeObject mesh, const Path& where, size_t) {
    ObjectArray primitives;
    SINEW_TRY(RequireObjects(FindField(mesh, "primitives"), where, &primitives));
    return primitives.ForEach([&](TapeObject, const Path& pw, size_t) -> LoadStatus {
      pointers.push_back(pw.ToString());
      return {};
    });
  });
  EXPECT_EQ(pointers, (std::vector<std::string>{"/meshes/0/primitives/0"}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Error::kMissingProperty);
  EXPECT_EQ(s.error().where, "/meshes/1/primitives");
}

TEST(ObjectArray, ReadIntoSizesTheOutputToTheEntriesAndFillsEachInPlace) {
  const Doc doc(R"({"skins": [{"id": 3}, {"id": 4}]})");
  ObjectArray skins;
  ASSERT_TRUE(RootObjects(doc.Root(), "skins", &skins).ok());
  std::vector<uint64_t> ids(7, 99);
  ASSERT_TRUE(
      skins
          .ReadInto(&ids, [](TapeObject o, const Path& where,
                             uint64_t* id) { return RequireUint(FindField(o, "id"), where, id); })
          .ok());
  EXPECT_EQ(ids, (std::vector<uint64_t>{3, 4}));
}

TEST(Path, FormatsKeysAndIndicesFromTheRootDownEscapingTildeAndSlash) {
  const Path meshes(kDocumentRoot, "meshes"), mesh(meshes, 2), extras(mesh, "a/b~c");
  EXPECT_EQ(kDocumentRoot.ToString(), "");
  EXPECT_EQ(mesh.ToString(), "/meshes/2");
  EXPECT_EQ(extras.ToString(), "/meshes/2/a~1b~0c");
  const Path formatted("/accessors/3"), count(formatted, "count");
  EXPECT_EQ(count.ToString(), "/accessors/3/count");
}

}  // namespace
}  // namespace sinew::loader
