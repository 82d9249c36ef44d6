// One small layer per input the .usda reader refuses (docs/usda.md, "What it refuses"): the exact
// error code and its "line L, column C".
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "loader/usda_test_util.h"

namespace sinew::loader::usd {
namespace {

using testing::ExpectError;
using testing::InPrim;
using testing::Usda;

// ---------------------------------------------------------------------------------------------
// The header

TEST(UsdaErrors, RefusesTextWithoutTheHeader) {
  ExpectError("def \"A\" {}\n", Error::kUsdaSyntax, "line 1, column 1",
              "expected the header '#usda 1.0', found 'def \"A\" {}'");
  ExpectError("", Error::kUsdaSyntax, "line 1, column 1");
  ExpectError("\n#usda 1.0\n", Error::kUsdaSyntax, "line 1, column 1");
  ExpectError("#usda1.0\n", Error::kUsdaSyntax, "line 1, column 1");
  // Bytes that are not printable ASCII are shown escaped, not sent to the terminal as they are.
  ExpectError(std::string("PK\x05\x06\xff\xfe", 6), Error::kUsdaSyntax, "line 1, column 1",
              "expected the header '#usda 1.0', found 'PK\\x05\\x06\\xff\\xfe'");
}

TEST(UsdaErrors, RefusesAnotherVersion) {
  ExpectError("#usda 2.0\n", Error::kUnsupportedFeature, "line 1, column 7",
              "usda version '2.0': sinew reads 1.0");
  ExpectError("#usda 1.0.1\n", Error::kUnsupportedFeature, "line 1, column 7");
}

TEST(UsdaErrors, RefusesAnythingAfterTheVersionOnTheHeaderLine) {
  ExpectError("#usda 1.0 x\n", Error::kUsdaSyntax, "line 1, column 11");
}

TEST(UsdaErrors, RefusesABinaryUsdcFile) {
  ExpectError(std::string("PXR-USDC\x00\x08", 10), Error::kUnsupportedFeature, "line 1, column 1",
              "binary USD file (usdc)");
}

// ---------------------------------------------------------------------------------------------
// Tokens

TEST(UsdaErrors, RefusesAnUnterminatedString) {
  ExpectError(InPrim("string s = \"no end"), Error::kUsdaSyntax, "line 3, column 16",
              "unterminated string");
  ExpectError(Usda("(\n  doc = \"\"\"never closed\n)\n"), Error::kUsdaSyntax, "line 3, column 9",
              "before the end of the file");
}

TEST(UsdaErrors, RefusesAMalformedNumber) {
  for (const char* bad : {"1.5.2", "1e", "1e+", "2x", "-", "1_0", "-information", "0x10", "1-2"}) {
    SCOPED_TRACE(bad);
    // As a float, an int and a time code: each is converted by std::from_chars, which refuses it.
    ExpectError(InPrim(std::string("float f = ") + bad), Error::kUsdaSyntax, "line 3, column 15",
                "malformed number '" + std::string(bad) + "'");
    ExpectError(InPrim(std::string("int[] i = [") + bad + "]"), Error::kUsdaSyntax,
                "line 3, column 16", "malformed number");
    ExpectError(InPrim(std::string("float f.timeSamples = { ") + bad + ": 1 }"), Error::kUsdaSyntax,
                "line 3, column 29", "malformed number");
  }
  ExpectError(InPrim("float3 f = (1, 2e, 3)"), Error::kUsdaSyntax, "line 3, column 20",
              "malformed number '2e'");
  ExpectError(Usda("(\n    scale = 1..5\n)\n"), Error::kUsdaSyntax, "line 3, column 13");
}

TEST(UsdaErrors, RefusesAStrayCharacter) {
  ExpectError(InPrim("float f = $1"), Error::kUsdaSyntax, "line 3, column 15",
              "unexpected character '$'");
}

// ---------------------------------------------------------------------------------------------
// Values against their declared types

TEST(UsdaErrors, RefusesATupleOfTheWrongArity) {
  ExpectError(InPrim("float3 f = (1, 2)"), Error::kWrongType, "line 3, column 16",
              "a float3 has 3 numbers, found 2");
  ExpectError(InPrim("point3f[] p = [(1, 2, 3), (4, 5, 6, 7)]"), Error::kWrongType,
              "line 3, column 31", "a point3f has 3 numbers, found 4");
  ExpectError(InPrim("quatf q = ()"), Error::kWrongType, "line 3, column 15",
              "a quatf has 4 numbers, found 0");
}

TEST(UsdaErrors, RefusesAMatrixOfTheWrongShape) {
  ExpectError(InPrim("matrix4d m = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0))"), Error::kWrongType,
              "line 3, column 18", "a matrix4d has 4 rows, found 3");
  ExpectError(InPrim("matrix2d m = ((1, 0), (0, 1, 2))"), Error::kWrongType, "line 3, column 27",
              "a row of a matrix2d has 2 numbers, found 3");
}

TEST(UsdaErrors, RefusesAValueOfAnotherKindThanItsType) {
  ExpectError(InPrim("float f = \"one\""), Error::kWrongType, "line 3, column 15",
              "expected a number, found string \"one\"");
  ExpectError(InPrim("token t = 1"), Error::kWrongType, "line 3, column 15",
              "expected a string, found number 1");
  ExpectError(InPrim("float3 f = 1"), Error::kWrongType, "line 3, column 16",
              "expected '(' to start a float3");
  ExpectError(InPrim("int[] i = 1"), Error::kWrongType, "line 3, column 15",
              "expected '[' to start a int[]");
  ExpectError(InPrim("asset a = \"x.png\""), Error::kWrongType, "line 3, column 15",
              "expected an asset path");
  ExpectError(InPrim("bool b = yes"), Error::kWrongType, "line 3, column 14");
}

TEST(UsdaErrors, RefusesAFractionWhereAnIntegerIsDeclared) {
  ExpectError(InPrim("int[] i = [1, 2.5]"), Error::kWrongType, "line 3, column 19",
              "expected an integer, found number 2.5");
  ExpectError(InPrim("int i = 1e3"), Error::kWrongType, "line 3, column 13");
  ExpectError(InPrim("int i = inf"), Error::kWrongType, "line 3, column 13");
}

TEST(UsdaErrors, RefusesANumberOutsideItsTypesRange) {
  struct Case {
    const char* declaration;
    const char* message;
  };
  const Case cases[] = {
      {"int i = 2147483648", "2147483648 is out of range for int"},
      {"uchar c = 256", "256 is out of range for uchar"},
      {"uint u = -1", "-1 is out of range for uint"},
      {"bool b = 2", "2 is out of range for bool"},
      {"int64 i = 9223372036854775808", "out of range for int64"},
      {"uint64 u = 18446744073709551615", "out of range for uint64"},
      {"float f = 1e39", "1e39 is out of range for float"},
      {"double d = 1e309", "1e309 is out of range for double"},
      {"half h = 65520", "65520 is out of range for half"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.declaration);
    ExpectError(
        Usda(std::string("def \"A\" {\n    ") + c.declaration + "\n}\n"), Error::kInvalidValue,
        "line 3, column " + std::to_string(std::string(c.declaration).find('=') + 7), c.message);
  }
}

TEST(UsdaErrors, RefusesAnUnknownTypeName) {
  ExpectError(InPrim("float5 f = (1, 2, 3, 4, 5)"), Error::kUnsupportedFeature, "line 3, column 5",
              "unknown value type 'float5'");
  ExpectError(InPrim("dictionary d = {}"), Error::kUnsupportedFeature, "line 3, column 5",
              "unknown value type 'dictionary'");
  ExpectError(Usda("(\n    customLayerData = { vec3 v = (1, 2, 3) }\n)\n"),
              Error::kUnsupportedFeature, "line 3, column 25", "unknown value type 'vec3'");
}

TEST(UsdaErrors, RefusesMixedUntypedMetadata) {
  ExpectError(Usda("(\n    things = [1, \"a\"]\n)\n"), Error::kWrongType, "line 3, column 18",
              "expected a double like the value's first, found string \"a\"");
  ExpectError(Usda("(\n    pairs = [(1, 2), (3, 4, 5)]\n)\n"), Error::kWrongType,
              "line 3, column 22", "an element of 3 values in a list whose first element has 2");
}

TEST(UsdaErrors, RefusesATimeSampleAtANonFiniteTime) {
  ExpectError(InPrim("float f.timeSamples = { 1: 2, inf: 3 }"), Error::kInvalidValue,
              "line 3, column 35", "times are finite");
}

// ---------------------------------------------------------------------------------------------
// Structure

TEST(UsdaErrors, RefusesUnbalancedBrackets) {
  ExpectError(InPrim("int[] i = [1, 2"), Error::kUsdaSyntax, "line 4, column 1",
              "expected ',' or ']' to close the '[' at line 3, column 15, found '}'");
  ExpectError(InPrim("float3 f = (1, 2, 3]"), Error::kUsdaSyntax, "line 3, column 24",
              "to close the '(' at line 3, column 16, found ']'");
  ExpectError(Usda("def \"A\" {\n    def \"B\" {\n    }\n"), Error::kUsdaSyntax, "line 5, column 1",
              "expected a prim, a property or '}' to close the '{' at line 2, column 9, found end "
              "of file");
  ExpectError(Usda("def \"A\" {\n}\n}\n"), Error::kUsdaSyntax, "line 4, column 1",
              "expected 'def', 'over' or 'class', found '}'");
  ExpectError(Usda("(\n    upAxis = \"Y\"\n"), Error::kUsdaSyntax, "line 4, column 1",
              "to close the '(' at line 2, column 1, found end of file");
  ExpectError(Usda("def \"A\" {\n    float f.timeSamples = { 1: 2\n"), Error::kUsdaSyntax,
              "line 4, column 1", "to close the '{' at line 3, column 27, found end of file");
}

TEST(UsdaErrors, RefusesATopLevelStatementThatIsNotAPrim) {
  ExpectError(Usda("float f = 1\n"), Error::kUsdaSyntax, "line 2, column 1",
              "expected 'def', 'over' or 'class', found identifier 'float'");
}

TEST(UsdaErrors, RefusesAPrimWithoutANameOrBody) {
  ExpectError(Usda("def Mesh {}\n"), Error::kUsdaSyntax, "line 2, column 10",
              "expected the prim's name (a string), found '{'");
  ExpectError(Usda("def \"A\"\n"), Error::kUsdaSyntax, "line 3, column 1",
              "expected '{' to start the prim's body, found end of file");
}

TEST(UsdaErrors, RefusesAPrimNameThatIsNotAnIdentifier) {
  ExpectError(Usda("def Xform \"a b\" {}\n"), Error::kInvalidValue, "line 2, column 11",
              "prim name \"a b\" is not an identifier");
  ExpectError(Usda("def \"1st\" {}\n"), Error::kInvalidValue, "line 2, column 5");
}

TEST(UsdaErrors, RefusesAPrimDefinedTwice) {
  ExpectError(InPrim("def \"B\" {}\n    over \"B\" {}"), Error::kInvalidValue, "line 4, column 10",
              "prim </A/B> is defined twice (first at line 3, column 5)");
}

TEST(UsdaErrors, RefusesAPropertyRedeclaredWithAnotherType) {
  ExpectError(InPrim("float3[] e = []\n    float3 e.timeSamples = {}"), Error::kInvalidValue,
              "line 4, column 5",
              "attribute 'e' is declared float3[] at line 3, column 14 and float3 here");
  ExpectError(InPrim("int e\n    uniform int e = 1"), Error::kInvalidValue, "line 4, column 13");
}

TEST(UsdaErrors, RefusesANameUsedForAnAttributeAndARelationship) {
  ExpectError(InPrim("float x\n    rel x = </A>"), Error::kInvalidValue, "line 4, column 9",
              "property 'x' is declared as an attribute at line 3, column 11 and as a "
              "relationship here");
}

TEST(UsdaErrors, RefusesAListEditOfSomethingThatIsNotAList) {
  ExpectError(InPrim("prepend float f = 1"), Error::kInvalidValue, "line 3, column 19",
              "list edits apply to its connections");
  ExpectError(Usda("def \"A\" (\n    prepend kind = \"x\"\n) {}\n"), Error::kInvalidValue,
              "line 3, column 13", "'prepend' before 'kind', which is not a list");
  ExpectError(InPrim("prepend rel r"), Error::kUsdaSyntax, "line 4, column 1",
              "expected '=' after 'prepend rel r'");
}

TEST(UsdaErrors, RefusesAnAttributeSuffixItDoesNotRead) {
  ExpectError(InPrim("float f.spline = {}"), Error::kUnsupportedFeature, "line 3, column 13",
              "attribute splines");
  ExpectError(InPrim("float f.default = 1"), Error::kUsdaSyntax, "line 3, column 13",
              "expected 'timeSamples' or 'connect' after '.'");
  ExpectError(InPrim("float f.timeSamples"), Error::kUsdaSyntax, "line 4, column 1",
              "expected '=' after '.timeSamples'");
}

TEST(UsdaErrors, RefusesMalformedPaths) {
  struct Case {
    const char* target;
    Error code;
    const char* message;
  };
  const Case cases[] = {
      {"<>", Error::kInvalidValue, "empty"},
      {"</A//B>", Error::kInvalidValue, "an empty name between slashes"},
      {"<../../..>", Error::kInvalidValue, "'..' above the root"},
      {"</A.x/B>", Error::kInvalidValue, "a property before the last '/'"},
      {"</A/1B>", Error::kInvalidValue, "'1B' is not a prim name"},
      {"</A.x::y>", Error::kInvalidValue, "'x::y' is not a property name"},
      {"</.x>", Error::kInvalidValue, "a property of the root"},
      {"</A{v=x}B>", Error::kUnsupportedFeature, "names a variant or a relationship target"},
      {"</A.rel[/B].x>", Error::kUnsupportedFeature, "names a variant or a relationship target"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.target);
    ExpectError(InPrim(std::string("rel r = ") + c.target), c.code, "line 3, column 13", c.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Composition arcs: sinew composes sublayers, references, payloads, variant sets, inherits and
// specializes (usd_composition_test.cpp), no other

TEST(UsdaErrors, RefusesEveryOtherCompositionArcNamingItAndItsLine) {
  struct Case {
    const char* text;
    const char* where;
    const char* arc;
  };
  const Case cases[] = {
      {"(\n    relocates = { </A>: </B> }\n)\n", "line 3, column 5", "relocates"},
      {"(\n    inherits = </A>\n)\n", "line 3, column 5", "inherits"},
      {"(\n    append specializes = </A>\n)\n", "line 3, column 12", "specializes"},
      {"(\n    variantSets = [\"lod\"]\n)\n", "line 3, column 5", "variantSets"},
      {"def \"A\" {\n    float f (\n        variants = { string a = \"b\" }\n    )\n}\n",
       "line 4, column 9", "variants"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    ExpectError(Usda(c.text), Error::kUnsupportedFeature, c.where,
                "composition arc '" + std::string(c.arc) + "'");
  }
  // references and payloads on anything but a prim
  ExpectError(Usda("(\n    references = @a.usda@\n)\n"), Error::kUnsupportedFeature,
              "line 3, column 5", "composition arc 'references'");
}

// A layer body that the reader refuses with `code` at `where`, its message holding `message`.
struct Refusal {
  const char* text;
  Error code;
  const char* where;
  const char* message;
};

void ExpectRefused(std::initializer_list<Refusal> refusals) {
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.text);
    ExpectError(Usda(r.text), r.code, r.where, r.message);
  }
}

// Variant sets: their names and the variants' are SdfPath's, each variant written once, a
// selection a string.
TEST(UsdaErrors, RefusesVariantSetsThatAreMalformed) {
  ExpectRefused({
      {"def \"A\" {\n    variantSet \"lod\" = {\n        \"hi fi\" {}\n    }\n}\n",
       Error::kInvalidValue, "line 4, column 9", "variant name \"hi fi\""},
      {"def \"A\" {\n    variantSet \"a/b\" = {}\n}\n", Error::kInvalidValue, "line 3, column 16",
       "variant set name \"a/b\""},
      {"def \"A\" {\n    variantSet \"v\" = {\n        \"x\" {}\n        \"x\" {}\n    }\n}\n",
       Error::kInvalidValue, "line 5, column 9", "variant </A{v=x}> is written twice"},
      {"def \"A\" {\n    variantSet \"v\" {}\n}\n", Error::kUsdaSyntax, "line 3, column 20",
       "expected '=' after the variant set's name"},
      {"def \"A\" {\n    variantSet \"v\" = {\n        x {}\n    }\n}\n", Error::kUsdaSyntax,
       "line 4, column 9", "a variant (a string)"},
      {"def \"A\" (\n    variants = { int lod = 1 }\n) {}\n", Error::kInvalidValue,
       "line 3, column 5", "the selection for 'lod' is not a string"},
      {"def \"A\" (\n    variants = { string lod = \"a/b\" }\n) {}\n", Error::kInvalidValue,
       "line 3, column 5", "variants: 'lod' = 'a/b' is not"},
      {"def \"A\" (\n    prepend variants = { string lod = \"a\" }\n) {}\n", Error::kInvalidValue,
       "line 3, column 13", "not a list op"},
      {"def \"A\" (\n    variantSets = [\"a.b\"]\n) {}\n", Error::kInvalidValue,
       "line 3, column 19", "variant set name \"a.b\""},
  });
}

// Inherits (and specializes) name prims: a path (relative ones anchored at the prim), not a
// string, a property, the root or a variant.
TEST(UsdaErrors, RefusesInheritsThatNameNoPrim) {
  ExpectRefused({
      {"def \"A\" (\n    inherits = \"C\"\n) {}\n", Error::kUsdaSyntax, "line 3, column 16",
       "a class's prim path"},
      {"def \"A\" (\n    inherits = </C.x>\n) {}\n", Error::kInvalidValue, "line 3, column 16",
       "inherits names a prim, not a property or the root: </C.x>"},
      {"def \"A\" (\n    inherits = [</C>, <..>]\n) {}\n", Error::kInvalidValue,
       "line 3, column 23", "not a property or the root: </>"},
      {"def \"A\" (\n    inherits = </C{v=a}>\n) {}\n", Error::kUnsupportedFeature,
       "line 3, column 16", "names a variant"},
      {"def \"A\" (\n    specializes = </C.x>\n) {}\n", Error::kInvalidValue, "line 3, column 19",
       "specializes names a prim, not a property or the root: </C.x>"},
  });
  const auto layer =
      ReadUsda(Usda("def \"A\" {\n    def \"B\" (\n        append inherits = <../C>\n"
                    "        prepend inherits = [</D>, <E>]\n    ) {}\n}\n"));
  ASSERT_TRUE(layer.ok()) << layer.error().ToString();
  const Prim* b = layer->FindPrim("/A/B");
  ASSERT_TRUE(b != nullptr && b->inherits != nullptr);
  EXPECT_EQ(b->inherits->Resolved(), (std::vector<std::string>{"/D", "/A/B/E", "/A/C"}));
}

// An empty arc list composes nothing: writers leave them behind, and they are read past.
TEST(UsdaErrors, ReadsPastEmptyCompositionArcs) {
  for (const char* text :
       {"(\n    subLayers = []\n)\ndef \"A\" {}\n", "def \"A\" (\n    inherits = None\n) {}\n",
        "def \"A\" (\n    variants = {}\n    prepend references = []\n) {}\n",
        "def \"A\" (\n    append specializes = [ ]\n    payload = None\n) {}\n"}) {
    SCOPED_TRACE(text);
    const auto layer = ReadUsda(Usda(text));
    ASSERT_TRUE(layer.ok()) << layer.error().ToString();
    EXPECT_TRUE(layer->FindPrim("/A") != nullptr);
  }
}

// ---------------------------------------------------------------------------------------------
// Limits

TEST(UsdaErrors, RefusesPrimsNestedDeeperThanTheLimit) {
  std::string text = "#usda 1.0\n";
  for (int i = 0; i < 5; ++i) text += std::string(size_t(i) * 2, ' ') + "def \"P\" {\n";
  UsdaOptions options;
  options.max_depth = 4;
  ExpectError(text, Error::kUnsupportedFeature, "line 6, column 9",
              "nesting deeper than 4 levels (UsdaOptions::max_depth)", options);
  // The default limit holds against a file of nothing but openings.
  std::string deep = "#usda 1.0\n";
  for (int i = 0; i < 100000; ++i) deep += "def \"P\" {";
  ExpectError(deep, Error::kUnsupportedFeature, "line 2, column 1153");
}

TEST(UsdaErrors, RefusesMetadataNestedDeeperThanTheLimit) {
  UsdaOptions options;
  options.max_depth = 3;
  ExpectError(Usda("(\n    x = ((((1))))\n)\n"), Error::kUnsupportedFeature, "line 3, column 12",
              "nesting deeper than 3 levels", options);
  ExpectError(Usda("(\n    d = { dictionary a = { dictionary b = { dictionary c = {} } } }\n)\n"),
              Error::kUnsupportedFeature, "line 3, column 60", "nesting deeper", options);
  std::string deep = "#usda 1.0\n(x = ";
  deep += std::string(100000, '(');
  ExpectError(deep, Error::kUnsupportedFeature, "line 2, column 134");
}

}  // namespace
}  // namespace sinew::loader::usd
