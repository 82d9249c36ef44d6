// The .usda model's pieces that hold logic of their own: the value type table, half rounding,
// Value's accessors, ListOp::Resolved and the layer's lookups by path.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "loader/usda_test_util.h"
#include "usd/layer.h"
#include "usd/value.h"

namespace sinew::loader::usd {
namespace {

using testing::Read;
using testing::Usda;

TEST(UsdValueType, FindsEveryTypeByItsUsdaName) {
  for (int i = 0; i <= int(ValueType::kDictionary); ++i) {
    const auto type = ValueType(i);
    SCOPED_TRACE(Info(type).name);
    ASSERT_FALSE(Info(type).name.empty());
    EXPECT_EQ(FindValueType(Info(type).name), type);
  }
}

TEST(UsdValueType, DoesNotKnowNamesOutsideUsdsTypes) {
  EXPECT_FALSE(FindValueType("float5").has_value());
  EXPECT_FALSE(FindValueType("Float3").has_value());
  EXPECT_FALSE(FindValueType("").has_value());
  EXPECT_FALSE(FindValueType("float3[]").has_value());
}

TEST(UsdValueType, StoresEachTypeWithItsComponentsAndRows) {
  struct Case {
    const char* name;
    Storage storage;
    int components, rows;
  };
  const Case cases[] = {
      {"bool", Storage::kInt32, 1, 0},       {"uchar", Storage::kInt32, 1, 0},
      {"int", Storage::kInt32, 1, 0},        {"int3", Storage::kInt32, 3, 0},
      {"uint", Storage::kInt64, 1, 0},       {"uint64", Storage::kInt64, 1, 0},
      {"half", Storage::kFloat, 1, 0},       {"half3", Storage::kFloat, 3, 0},
      {"float", Storage::kFloat, 1, 0},      {"float3", Storage::kFloat, 3, 0},
      {"point3f", Storage::kFloat, 3, 0},    {"normal3f", Storage::kFloat, 3, 0},
      {"vector3f", Storage::kFloat, 3, 0},   {"color3f", Storage::kFloat, 3, 0},
      {"color4f", Storage::kFloat, 4, 0},    {"texCoord2f", Storage::kFloat, 2, 0},
      {"quatf", Storage::kFloat, 4, 0},      {"quath", Storage::kFloat, 4, 0},
      {"double", Storage::kDouble, 1, 0},    {"timecode", Storage::kDouble, 1, 0},
      {"point3d", Storage::kDouble, 3, 0},   {"quatd", Storage::kDouble, 4, 0},
      {"matrix2d", Storage::kDouble, 4, 2},  {"matrix3d", Storage::kDouble, 9, 3},
      {"matrix4d", Storage::kDouble, 16, 4}, {"frame4d", Storage::kDouble, 16, 4},
      {"token", Storage::kString, 1, 0},     {"string", Storage::kString, 1, 0},
      {"asset", Storage::kString, 1, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto type = FindValueType(c.name);
    ASSERT_TRUE(type.has_value());
    EXPECT_EQ(StorageOf(Info(*type).scalar), c.storage);
    EXPECT_EQ(Info(*type).components, c.components);
    EXPECT_EQ(Info(*type).rows, c.rows);
  }
}

TEST(RoundToHalf, RoundsToTheNearestHalfWithTiesToEven) {
  EXPECT_EQ(RoundToHalf(1.0f), 1.0f);
  EXPECT_EQ(RoundToHalf(-1.5f), -1.5f);
  EXPECT_EQ(RoundToHalf(0.1f), 0.0999755859375f);  // 1638 / 16384
  EXPECT_EQ(RoundToHalf(2049.0f), 2048.0f);        // halfway: to the even 2048
  EXPECT_EQ(RoundToHalf(2051.0f), 2052.0f);        // halfway: to the even 2052
  EXPECT_EQ(RoundToHalf(2050.5f), 2050.0f);
  EXPECT_EQ(RoundToHalf(65504.0f), 65504.0f);  // the largest half
  EXPECT_EQ(RoundToHalf(65519.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(RoundToHalf(65520.0f)));  // halfway to the next power: to infinity
  EXPECT_EQ(RoundToHalf(6.103515625e-05f), 6.103515625e-05f);  // the smallest normal half
  EXPECT_EQ(RoundToHalf(1e-7f), 2.0f / 16777216.0f);           // subnormal: multiples of 2^-24
  EXPECT_EQ(RoundToHalf(1e-9f), 0.0f);
  EXPECT_TRUE(std::isinf(RoundToHalf(-INFINITY)));
  EXPECT_TRUE(std::isnan(RoundToHalf(NAN)));
}

TEST(UsdValue, ReadsASingleNumberOfAnyStorageAsADouble) {
  Value v;
  v.data = std::vector<int32_t>{7};
  EXPECT_EQ(v.AsDouble(), 7.0);
  v.data = std::vector<float>{0.5f};
  EXPECT_EQ(v.AsDouble(), 0.5);
  v.data = std::vector<double>{1.0, 2.0};
  EXPECT_FALSE(v.AsDouble().has_value());  // two elements
  v.data = std::vector<int64_t>{3};
  v.blocked = true;
  EXPECT_FALSE(v.AsDouble().has_value());
}

TEST(UsdValue, CountsElementsOfItsComponents) {
  Value v;
  v.type = ValueType::kFloat3;
  v.components = 3;
  v.data = std::vector<float>{1, 2, 3, 4, 5, 6};
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(v.floats().size(), 6u);
  EXPECT_TRUE(v.doubles().empty());
  EXPECT_TRUE(v.strings().empty());
  EXPECT_EQ(v.dictionary(), nullptr);
}

TEST(UsdListOp, ResolvesPrependedThenAddedThenAppendedItemsOnce) {
  ListOp op;
  op.prepended = {"A", "B"};
  op.added = {"C", "A"};
  op.appended = {"B", "D", "D"};
  op.deleted = {"C"};  // deletes edit weaker layers only
  op.written = 0xff & ~1u;
  EXPECT_EQ(op.Resolved(), (std::vector<std::string>{"A", "C", "B", "D"}));
}

TEST(UsdListOp, KeepsTheExplicitItemsOverEdits) {
  ListOp op;
  op.explicit_items = {"X", "Y", "X"};
  op.prepended = {"A"};
  op.written = 1u << unsigned(ListOpKind::kExplicit) | 1u << unsigned(ListOpKind::kPrepend);
  EXPECT_EQ(op.Resolved(), (std::vector<std::string>{"X", "Y"}));
  EXPECT_TRUE(op.Has(ListOpKind::kPrepend));
  EXPECT_FALSE(op.Has(ListOpKind::kAppend));
}

TEST(UsdLayer, FindsPrimsAndPropertiesByPath) {
  const Layer layer = Read(Usda(R"(
def Xform "A" {
    float x = 1
    rel r = </A/B>
    def Mesh "B" {
        int y = 2
    }
}
)"));
  ASSERT_NE(layer.FindPrim("/A/B"), nullptr);
  EXPECT_EQ(layer.FindPrim("/A/B")->type_name, "Mesh");
  EXPECT_EQ(layer.FindPrim("/A/C"), nullptr);
  EXPECT_EQ(layer.FindPrim("A"), nullptr);
  ASSERT_NE(layer.FindAttribute("/A/B.y"), nullptr);
  EXPECT_EQ(layer.FindAttribute("/A/B.y")->default_value->ints()[0], 2);
  EXPECT_EQ(layer.FindAttribute("/A.r"), nullptr);  // a relationship
  ASSERT_NE(layer.FindRelationship("/A.r"), nullptr);
  EXPECT_EQ(layer.FindRelationship("/A.r")->targets.explicit_items,
            std::vector<std::string>{"/A/B"});
  EXPECT_EQ(layer.FindAttribute("/A"), nullptr);
}

}  // namespace
}  // namespace sinew::loader::usd
