// USD's implied classes (docs/usda.md, "Inherits and specializes"): a class that a referenced
// prim inherits or specializes is a class of the referencing layer stack too, at its path mapped
// across the reference, and what that stack writes there composes in the order Pcp gives it.
// The stages below have the shapes of Pcp's museum cases for these rules; each spec names itself
// in `append rel stack`, so that the composed targets list a prim's specs, weakest first, and
// StackOf reads its prim stack back.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sinew/loader/usd.h"
#include "usd_compose_test_util.h"

namespace sinew::loader {
namespace {

using Names = std::vector<std::string>;

// A shot references a group of models, each of which inherits the global class _class_Model;
// the group and the shot write that class too. Every layer stack's class ranks right after that
// stack's own opinion of the instance and above everything the stack references, through both
// references: the shot's class is stronger than the group's own opinion of an instance.
TEST(UsdImpliedClasses, AShotsClassOverridesEveryModelItReferencesThroughEveryReference) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {
    append rel stack = </Model/model>
}
class "_class_Model" {
    append rel stack = </_class_Model/model_class>
    float v = 1
}
)";
  const std::string group = R"(#usda 1.0
def "Group" {
    def "Model_1" (references = @./model.usda@</Model>) {}
    def "Model_2" (references = @./model.usda@</Model>) {}
    def "Special" (references = @./model.usda@</Model>) {
        append rel stack = </Group/Special/group>
        float v = 2
    }
}
class "_class_Model" {
    append rel stack = </_class_Model/group_class>
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Group" (references = @group.usda@</Group>) {
    over "Model_2" {
        append rel stack = </Group/Model_2/shot>
    }
}
class "_class_Model" {
    append rel stack = </_class_Model/shot_class>
    float v = 3
}
)",
                                                   {{"group.usda", group}, {"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Group/Model_1"),
            (Names{"shot_class", "group_class", "model", "model_class"}));
  EXPECT_EQ(StackOf(*composed, "/Group/Model_2"),
            (Names{"shot", "shot_class", "group_class", "model", "model_class"}));
  EXPECT_EQ(StackOf(*composed, "/Group/Special"),
            (Names{"shot_class", "group", "group_class", "model", "model_class"}));
  EXPECT_EQ(FloatAt(*composed, "/Group/Special.v"), 3.0f);
  // The shot's class prim itself holds the shot's opinions only.
  EXPECT_EQ(StackOf(*composed, "/_class_Model"), (Names{"shot_class"}));
}

// A prim inherits a class whose child inherits a sibling class that references a prim, below
// which a prim inherits a global class and its child a local one. The local class lands, across
// the reference and both classes, at /Root/B/C/_Z, where the root layer's opinion composes right
// after the prim's own; an internal reference to the whole brings the same stacks again.
TEST(UsdImpliedClasses, ALocalClassCarriesAcrossAReferenceAndTwoClassesToWhereItsPrimLands) {
  const std::string ref = R"(#usda 1.0
def "Ref" {
    append rel stack = </Ref/ref_Ref>
    def "C" (append inherits = </_G>) {
        append rel stack = </Ref/C/ref_C>
        class "_Z" {
            append rel stack = </Ref/C/_Z/ref_Z>
        }
        def "D" (append inherits = <../_Z>) {
            append rel stack = </Ref/C/D/ref_D>
        }
    }
}
class "_G" {}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Root" (inherits = </_X>) {
    append rel stack = </Root/root_Root>
    over "B" {
        append rel stack = </Root/B/root_B>
        over "C" {
            append rel stack = </Root/B/C/root_C>
            over "_Z" {
                append rel stack = </Root/B/C/_Z/root_Z>
            }
            over "D" {
                append rel stack = </Root/B/C/D/root_D>
            }
        }
    }
}
class "_X" {
    append rel stack = </_X/root_X>
    class "_Y" (append references = @ref.usda@</Ref>) {
        append rel stack = </_X/_Y/root_Y>
    }
    def "B" (append inherits = <../_Y>) {
        append rel stack = </_X/B/root_XB>
    }
}
def "RefToRoot" (references = </Root>) {
    append rel stack = </RefToRoot/root_RefToRoot>
}
)",
                                                   {{"ref.usda", ref}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  for (const std::string root : {"/Root", "/RefToRoot"}) {
    SCOPED_TRACE(root);
    EXPECT_EQ(StackOf(*composed, root + "/B/C/D"), (Names{"root_D", "root_Z", "ref_D", "ref_Z"}));
    EXPECT_EQ(StackOf(*composed, root + "/B/C/_Z"), (Names{"root_Z", "ref_Z"}));
    EXPECT_EQ(StackOf(*composed, root + "/B/C"), (Names{"root_C", "ref_C"}));
    EXPECT_EQ(StackOf(*composed, root + "/B"), (Names{"root_B", "root_XB", "root_Y", "ref_Ref"}));
  }
  EXPECT_EQ(StackOf(*composed, "/RefToRoot"), (Names{"root_RefToRoot", "root_Root", "root_X"}));
}

// A model inherits a global class that holds a local class nested in another; the referencing
// layer writes the model's local classes under its own prim. Each layer stack's specs rank
// together, the instance's own before the classes it implies (the deeper arc first), and the
// referencing layer's before the model's.
TEST(UsdImpliedClasses, LocalClassesNestedInAGlobalClassTakeTheReferencingLayersOpinions) {
  const std::string model = R"(#usda 1.0
def "Model" (add inherits = </_class_Model>) {
    over "_class_Nested" {
        over "Sym" {
            append rel stack = </Model/_class_Nested/Sym/m_NestedSym>
        }
        over "Left" {
            append rel stack = </Model/_class_Nested/Left/m_NestedLeft>
        }
    }
    over "Instance" {
        over "Sym" {
            append rel stack = </Model/Instance/Sym/m_Sym>
        }
        over "Left" {
            append rel stack = </Model/Instance/Left/m_Left>
        }
    }
}
class "_class_Model" {
    over "_class_Nested" {
        over "Sym" {
            append rel stack = </_class_Model/_class_Nested/Sym/c_NestedSym>
        }
        over "Left" (add inherits = </_class_Model/_class_Nested/Sym>) {
            append rel stack = </_class_Model/_class_Nested/Left/c_NestedLeft>
        }
    }
    over "Instance" (add inherits = </_class_Model/_class_Nested>) {
        over "Sym" {
            append rel stack = </_class_Model/Instance/Sym/c_Sym>
        }
        over "Left" {
            append rel stack = </_class_Model/Instance/Left/c_Left>
        }
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Model_1" (add references = @./model.usda@</Model>) {
    over "_class_Nested" {
        over "Sym" {
            append rel stack = </Model_1/_class_Nested/Sym/r_NestedSym>
        }
        over "Left" {
            append rel stack = </Model_1/_class_Nested/Left/r_NestedLeft>
        }
    }
    over "Instance" {
        over "Sym" {
            append rel stack = </Model_1/Instance/Sym/r_Sym>
        }
        over "Left" {
            append rel stack = </Model_1/Instance/Left/r_Left>
        }
    }
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(
      StackOf(*composed, "/Model_1/Instance/Left"),
      (Names{"r_Left", "r_Sym", "r_NestedLeft", "r_NestedSym", "m_Left", "m_Sym", "m_NestedLeft",
             "m_NestedSym", "c_Left", "c_Sym", "c_NestedLeft", "c_NestedSym"}));
  EXPECT_EQ(StackOf(*composed, "/Model_1/Instance/Sym"),
            (Names{"r_Sym", "r_NestedSym", "m_Sym", "m_NestedSym", "c_Sym", "c_NestedSym"}));
  EXPECT_EQ(StackOf(*composed, "/Model_1/_class_Nested/Left"),
            (Names{"r_NestedLeft", "r_NestedSym", "m_NestedLeft", "m_NestedSym", "c_NestedLeft",
                   "c_NestedSym"}));
}

// Under a reference, a hand inherits a symmetric hand that inherits a class which references the
// rig, whose finger inherits a local class; the referencing layer writes every level. The
// finger's stack holds each layer stack's six specs together, level by level, each finger before
// its local class.
TEST(UsdImpliedClasses, ClassesThatInheritClassesUnderAReferenceRankLevelByLevel) {
  const std::string hand = R"(#usda 1.0
def "HandRig" {
    def "IndexRig" (inherits = </HandRig/_Class_FingerRig>) {
        append rel stack = </HandRig/IndexRig/hand_IndexRig>
    }
    over "_Class_FingerRig" {
        append rel stack = </HandRig/_Class_FingerRig/hand_FingerRig>
    }
}
)";
  // Every level's two children, each naming itself <prefix>_<level>_<child>; with `arcs`, each
  // level's arcs as the rig writes them.
  const auto levels = [](const std::string& root, const std::string& prefix, bool arcs) {
    std::string text;
    for (const std::string level : {"LHandRig", "SymHandRig", "_Class_HandRig"}) {
      const std::string at = root + "/" + level;
      std::string arc;
      if (arcs && level == "LHandRig") arc = " (inherits = </HandsRig/SymHandRig>)";
      if (arcs && level == "SymHandRig") arc = " (inherits = </HandsRig/_Class_HandRig>)";
      if (arcs && level == "_Class_HandRig") arc = " (references = @./HandRig.usda@</HandRig>)";
      text += "over \"" + level + "\"" + arc + " {\n";
      for (const std::string child : {"IndexRig", "_Class_FingerRig"}) {
        const std::string name = child == "IndexRig" ? "IndexRig" : "FingerRig";
        text += "    over \"" + child + "\" {\n        append rel stack = <" + at + "/" + child +
                "/" + prefix + "_" + level + "_" + name + ">\n    }\n";
      }
      text += "}\n";
    }
    return text;
  };
  const std::string hands =
      "#usda 1.0\ndef \"HandsRig\" {\n" + levels("/HandsRig", "hands", true) + "}\n";
  const Result<usd::Layer> composed = ComposedWith(
      "#usda 1.0\ndef \"CharRig\" {\n    def \"Rig\" {\n        def \"HandsRig\" (references = "
      "@./HandsRig.usda@</HandsRig>) {\n" +
          levels("/CharRig/Rig/HandsRig", "root", false) + "}\n    }\n}\n",
      {{"HandsRig.usda", hands}, {"HandRig.usda", hand}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  Names expected;
  for (const std::string prefix : {"root", "hands"}) {
    for (const std::string level : {"LHandRig", "SymHandRig", "_Class_HandRig"}) {
      expected.push_back(prefix + "_" + level + "_IndexRig");
      expected.push_back(prefix + "_" + level + "_FingerRig");
    }
  }
  expected.push_back("hand_IndexRig");
  expected.push_back("hand_FingerRig");
  EXPECT_EQ(StackOf(*composed, "/CharRig/Rig/HandsRig/LHandRig/IndexRig"), expected);
}

// A reference to a prim below one that inherits and specializes classes: the classes' paths
// lie outside the referenced prim and keep them across the reference, so the referencing layer's
// opinions there compose, the implied inherit right after the prim's own and the implied
// specialize after everything the reference brings, before the specialized class itself.
TEST(UsdImpliedClasses, ASubrootReferenceCarriesItsAncestorsClassesByTheirOwnPaths) {
  const std::string set = R"(#usda 1.0
class "Inherit" {
    over "Model" {
        append rel stack = </Inherit/Model/set_Inherit>
    }
}
class "Specializes" {
    over "Model" {
        append rel stack = </Specializes/Model/set_Specializes>
    }
}
def "Set" (
    inherits = </Inherit>
    specializes = </Specializes>
) {
    def "Model" {
        append rel stack = </Set/Model/set_Model>
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
over "Inherit" {
    over "Model" {
        append rel stack = </Inherit/Model/root_Inherit>
    }
}
over "Specializes" {
    over "Model" {
        append rel stack = </Specializes/Model/root_Specializes>
    }
}
def "SubrootRef" (references = @./set.usda@</Set/Model>) {
    append rel stack = </SubrootRef/root>
}
)",
                                                   {{"set.usda", set}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/SubrootRef"),
            (Names{"root", "root_Inherit", "set_Model", "set_Inherit", "root_Specializes",
                   "set_Specializes"}));
}

// A referenced prim's child specializes a sibling that the referencing layer writes too (the
// implied specialize is weaker than everything the reference brings and stronger than the
// class it implies); within one layer stack the internal reference's specialized class is met
// once; a prim that specializes a prim with a reference of its own ranks that reference below.
TEST(UsdImpliedClasses, AnImpliedSpecializeRanksBelowTheReferenceAndAboveTheClassItImplies) {
  const std::string ref = R"(#usda 1.0
def "Ref" {
    def "Metal" {
        append rel stack = </Ref/Metal/ref_Metal>
    }
    def "Brass" (specializes = </Ref/Metal>) {
        append rel stack = </Ref/Brass/ref_Brass>
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "InternalRef" {
    def "Metal" {
        append rel stack = </InternalRef/Metal/in_Metal>
    }
    def "Brass" (specializes = </InternalRef/Metal>) {
        append rel stack = </InternalRef/Brass/in_Brass>
    }
}
def "InternalRefAndSpecializes" (references = </InternalRef>) {
    over "Metal" {
        append rel stack = </InternalRefAndSpecializes/Metal/root_Metal>
    }
    over "Brass" {
        append rel stack = </InternalRefAndSpecializes/Brass/root_Brass>
    }
}
def "RemoteRefAndSpecializes" (references = @./ref.usda@</Ref>) {
    over "Metal" {
        append rel stack = </RemoteRefAndSpecializes/Metal/root_Metal>
    }
    over "Brass" {
        append rel stack = </RemoteRefAndSpecializes/Brass/root_Brass>
    }
}
def "Look" {
    append rel stack = </Look/look>
}
def "Bindings" {
    def "Shiny" (append references = </Look>) {
        append rel stack = </Bindings/Shiny/shiny>
    }
    def "Blue" (specializes = </Bindings/Shiny>) {
        append rel stack = </Bindings/Blue/blue>
    }
}
)",
                                                   {{"ref.usda", ref}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/RemoteRefAndSpecializes/Brass"),
            (Names{"root_Brass", "ref_Brass", "root_Metal", "ref_Metal"}));
  EXPECT_EQ(StackOf(*composed, "/InternalRefAndSpecializes/Brass"),
            (Names{"root_Brass", "in_Brass", "root_Metal", "in_Metal"}));
  EXPECT_EQ(StackOf(*composed, "/Bindings/Blue"), (Names{"blue", "shiny", "look"}));
}

// A referenced prim inherits a class below a prim with a variant set: the implied class in the
// referencing layer stack takes the variant that stack selects there, not the one the
// referenced layer selects.
TEST(UsdImpliedClasses, AnImpliedClassBelowAVariantSetTakesTheReferencingLayersSelection) {
  const std::string group = R"(#usda 1.0
def "Group" (
    variants = { string v = "y" }
    variantSets = "v"
) {
    variantSet "v" = {
        "x" {
            over "Model" {
                append rel stack = </Group/Model/group_x>
            }
        }
        "y" {
            over "Model" {
                append rel stack = </Group/Model/group_y>
            }
        }
    }
}
def "SubrootInherit" (inherits = </Group/Model>) {}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
over "Group" (
    variants = { string v = "z" }
    variantSets = "v"
) {
    variantSet "v" = {
        "y" {
            over "Model" {
                append rel stack = </Group/Model/root_y>
            }
        }
        "z" {
            over "Model" {
                append rel stack = </Group/Model/root_z>
            }
        }
    }
}
def "SubrootInheritRef" (references = @./group.usda@</SubrootInherit>) {
    append rel stack = </SubrootInheritRef/root>
}
)",
                                                   {{"group.usda", group}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/SubrootInheritRef"), (Names{"root", "root_z", "group_y"}));
}

// What a shot's class override writes below the class reaches every instance: a child no model
// has (and its properties), and a value the skinned character's own layer holds. The character
// loads skinned with the shot's value.
TEST(UsdImpliedClasses, AShotsClassOverrideAddsChildrenAndValuesToEveryInstance) {
  const std::string model = R"(#usda 1.0
(
    defaultPrim = "Model"
)
def "Model" (inherits = </_class_Model>) {
    def "Geom" {
        float size = 1
    }
}
class "_class_Model" {}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "A" (references = @model.usda@) {}
def "B" (references = @model.usda@) {}
class "_class_Model" {
    over "Geom" {
        float size = 2
    }
    def "Extra" {
        float e = 3
    }
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  for (const std::string at : {"/A", "/B"}) {
    EXPECT_EQ(FloatAt(*composed, at + "/Geom.size"), 2.0f) << at;
    const usd::Prim* extra = composed->FindPrim(at + "/Extra");
    ASSERT_NE(extra, nullptr) << at;
    EXPECT_EQ(extra->specifier, usd::Specifier::kDef) << at;
    EXPECT_EQ(FloatAt(*composed, at + "/Extra.e"), 3.0f) << at;
  }
}

// A variant of the referencing prim that references the model: the shot's class override still
// reaches the model through the variant's reference, and through a reference to that prim.
TEST(UsdImpliedClasses, AClassOverrideReachesAModelAVariantReferences) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {
    float m = 1
}
class "_class_Model" {
    float v = 1
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "A" (
    variants = { string rig = "full" }
    variantSets = "rig"
) {
    variantSet "rig" = {
        "full" (references = @model.usda@</Model>) {
        }
    }
}
def "B" (references = </A>) {}
class "_class_Model" {
    float v = 2
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  for (const std::string at : {"/A", "/B"}) {
    EXPECT_EQ(FloatAt(*composed, at + ".m"), 1.0f) << at;
    EXPECT_EQ(FloatAt(*composed, at + ".v"), 2.0f) << at;
  }
}

// A class met inside a variant of a referenced prim (a look variant that gives the geometry a
// class) is implied on the referencing stack once the variant is chosen: the shot's opinion of
// the class ranks right after the instance's own, above the model and its variant; a specialize
// met there is implied below everything the reference brings.
TEST(UsdImpliedClasses, AClassMetInsideAReferencedVariantIsImpliedOnceTheVariantIsChosen) {
  const std::string model = R"(#usda 1.0
def "Model" (
    variants = { string look = "red" }
    variantSets = "look"
) {
    variantSet "look" = {
        "red" {
            over "Geom" (
                inherits = </_class_Geom>
                specializes = </_Look>
            ) {
                append rel stack = </Model/Geom/model_red>
            }
        }
    }
    def "Geom" {
        append rel stack = </Model/Geom/model>
    }
}
class "_class_Geom" {
    append rel stack = </_class_Geom/model_class>
    float v = 1
}
class "_Look" {
    append rel stack = </_Look/model_look>
}
)";
  const std::string shot = R"(#usda 1.0
def "A" (references = @model.usda@</Model>) {}
)";
  const Result<usd::Layer> quiet = ComposedWith(shot, {{"model.usda", model}});
  ASSERT_TRUE(quiet.ok()) << quiet.error().ToString();
  EXPECT_EQ(StackOf(*quiet, "/A/Geom"), (Names{"model", "model_red", "model_class", "model_look"}));
  const Result<usd::Layer> composed = ComposedWith(shot + R"(
class "_class_Geom" {
    append rel stack = </_class_Geom/shot_class>
    float v = 2
}
class "_Look" {
    append rel stack = </_Look/shot_look>
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/A/Geom"),
            (Names{"shot_class", "model", "model_red", "model_class", "shot_look", "model_look"}));
  EXPECT_EQ(FloatAt(*composed, "/A/Geom.v"), 2.0f);
}

// A shot references a group that references a model whose own class is implied on the group's
// stack as the group is read, and whose variant adds a class that is implied on both stacks
// once chosen: each stack's classes stay with its own opinions, in Pcp's order (the class the
// model inherits itself before the one its variant adds).
TEST(UsdImpliedClasses, ClassesImpliedBeforeAndAfterAVariantIsChosenKeepTheirStacksPlaces) {
  const std::string model = R"(#usda 1.0
def "Model" (
    inherits = </_class_Model>
    variants = { string look = "red" }
    variantSets = "look"
) {
    append rel stack = </Model/model>
    variantSet "look" = {
        "red" (inherits = </_class_Extra>) {
            append rel stack = </Model/model_red>
        }
    }
}
class "_class_Model" {
    append rel stack = </_class_Model/model_class>
}
class "_class_Extra" {
    append rel stack = </_class_Extra/model_extra>
}
)";
  const std::string group = R"(#usda 1.0
def "Group" {
    def "M" (references = @./model.usda@</Model>) {
        append rel stack = </Group/M/group>
    }
}
class "_class_Model" {
    append rel stack = </_class_Model/group_class>
}
class "_class_Extra" {
    append rel stack = </_class_Extra/group_extra>
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Group" (references = @group.usda@</Group>) {}
class "_class_Extra" {
    append rel stack = </_class_Extra/shot_extra>
}
)",
                                                   {{"group.usda", group}, {"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Group/M"),
            (Names{"shot_extra", "group", "group_class", "group_extra", "model", "model_class",
                   "model_red", "model_extra"}));
}

// Two classes implied at one depth rank by the arcs they came through (the child's own
// reference before its ancestor's), as Pcp ranks them by their origins; a class the prim
// specializes that a reference implies as an inherit composes as the inherit, the stronger.
TEST(UsdImpliedClasses, ImpliedClassesRankByTheArcsTheyCameThrough) {
  const std::string a = R"(#usda 1.0
def "A" {
    def "Hero" (inherits = </_ca>) {}
}
class "_ca" {}
)";
  const std::string b = R"(#usda 1.0
def "B" (inherits = </_cb>) {}
class "_cb" {}
)";
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_c>) {
    float x = 1
}
class "_c" {}
)";
  const Result<usd::Layer> composed =
      ComposedWith(R"(#usda 1.0
def "World" (references = @./a.usda@</A>) {
    over "Hero" (references = @./b.usda@</B>) {}
}
class "_ca" {
    float x = 1
}
class "_cb" {
    float x = 2
}
def "Hero" (
    references = @./model.usda@</Model>
    specializes = </_c>
) {}
class "_c" {
    float x = 2
}
)",
                   {{"a.usda", a}, {"b.usda", b}, {"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/World/Hero.x"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Hero.x"), 2.0f);
}

// A class the prim's own variant inherits that its reference implies as well keeps the implied
// class's place (Pcp adds the implied arc before the variant's); a class that a specialized
// class inherits ranks as specialized, below the prim's own opinions.
TEST(UsdImpliedClasses, AnImpliedClassKeepsItsPlaceAndASpecializedClassesClassStaysBelow) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {
    float x = 1
}
class "_class_Model" {}
)";
  const std::string ref = R"(#usda 1.0
def "Ref" {
    def "A" (specializes = </Ref/B>) {
        float x = 2
    }
    class "B" (inherits = </Ref/C>) {}
    class "C" {}
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Hero" (
    references = @./model.usda@</Model>
    variants = { string v = "a" }
    prepend variantSets = "v"
) {
    variantSet "v" = {
        "a" (inherits = </_class_Model>) {
            float x = 3
        }
    }
}
class "_class_Model" {
    float x = 2
}
def "Other" (references = @./ref.usda@</Ref>) {
    over "C" {
        float x = 1
    }
}
)",
                                                   {{"model.usda", model}, {"ref.usda", ref}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Hero.x"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Other/A.x"), 2.0f);
}

// A variant of the prim references a model whose geometry inherits a local class: the class
// lands under the variant's prim, where the stage's opinion outside the variant composes.
TEST(UsdImpliedClasses, AModelsLocalClassCarriesPastTheVariantThatReferencesIt) {
  const std::string model = R"(#usda 1.0
def "Model" {
    class "_class_Geom" {
        float x = 1
        float y = 1
    }
    def "Geom" (inherits = </Model/_class_Geom>) {}
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Hero" (
    variants = { string rig = "full" }
    prepend variantSets = "rig"
) {
    variantSet "rig" = {
        "full" (references = @./model.usda@</Model>) {}
    }
    over "_class_Geom" {
        float x = 2
    }
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Hero/Geom.x"), 2.0f);
  EXPECT_EQ(FloatAt(*composed, "/Hero/Geom.y"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/Hero/_class_Geom.x"), 2.0f);
}

// Across a reference, A specializes B, B inherits C and C specializes D; the root layer speaks
// of all four. What B inherits is specialized with it: the root's C ranks right after the
// root's B, both below everything of A, and D (specialized by C) below all of B's and C's.
TEST(UsdImpliedClasses, AClassASpecializedClassInheritsRanksRightAfterItAndBelowThePrim) {
  const std::string ref = R"(#usda 1.0
def "Ref" {
    def "A" (specializes = </Ref/B>) {
        append rel stack = </Ref/A/ref_A>
    }
    class "B" (inherits = </Ref/C>) {
        append rel stack = </Ref/B/ref_B>
    }
    class "C" (specializes = </Ref/D>) {
        append rel stack = </Ref/C/ref_C>
    }
    class "D" {
        append rel stack = </Ref/D/ref_D>
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Model" (references = @ref.usda@</Ref>) {
    over "A" {
        append rel stack = </Model/A/root_A>
    }
    over "B" {
        append rel stack = </Model/B/root_B>
    }
    over "C" {
        append rel stack = </Model/C/root_C>
    }
    over "D" {
        append rel stack = </Model/D/root_D>
    }
}
)",
                                                   {{"ref.usda", ref}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Model/A"),
            (Names{"root_A", "ref_A", "root_B", "root_C", "ref_B", "ref_C", "root_D", "ref_D"}));
  EXPECT_EQ(StackOf(*composed, "/Model/B"),
            (Names{"root_B", "root_C", "ref_B", "ref_C", "root_D", "ref_D"}));
  EXPECT_EQ(StackOf(*composed, "/Model/C"), (Names{"root_C", "ref_C", "root_D", "ref_D"}));
  const usd::Prim* a = composed->FindPrim("/Model/A");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->specifier, usd::Specifier::kDef);
}

// Two references deep, a prim specializes a class whose child references a prim that inherits
// a global class. Each stack's global class ranks right after that stack's specialized child,
// the weaker stacks' pairs below it, the class's own stack last.
TEST(UsdImpliedClasses, AClassReachedThroughASpecializedChildRanksAfterEachStacksChild) {
  const std::string ref3 = R"(#usda 1.0
def "Ref3" (inherits = </NestedClass>) {
    append rel stack = </Ref3/ref3_Ref3>
}
class "NestedClass" {
    append rel stack = </NestedClass/ref3_NestedClass>
}
)";
  const std::string ref2 = R"(#usda 1.0
class "NestedClass" {
    append rel stack = </NestedClass/ref2_NestedClass>
}
class "Specializes" {
    def "Nested" (references = @ref3.usda@</Ref3>) {
        append rel stack = </Specializes/Nested/ref2_Specializes_Nested>
    }
}
def "Ref2" (specializes = </Specializes>) {
    over "Nested" {
        append rel stack = </Ref2/Nested/ref2_Nested>
    }
}
)";
  const std::string ref = R"(#usda 1.0
over "NestedClass" {
    append rel stack = </NestedClass/ref_NestedClass>
}
over "Specializes" {
    over "Nested" {
        append rel stack = </Specializes/Nested/ref_Specializes_Nested>
    }
}
def "Ref" (references = @ref2.usda@</Ref2>) {
    over "Nested" {
        append rel stack = </Ref/Nested/ref_Nested>
    }
}
)";
  const Result<usd::Layer> composed =
      ComposedWith(R"(#usda 1.0
over "NestedClass" {
    append rel stack = </NestedClass/root_NestedClass>
}
over "Specializes" {
    over "Nested" {
        append rel stack = </Specializes/Nested/root_Specializes_Nested>
    }
}
def "Root" (references = @ref.usda@</Ref>) {
    over "Nested" {
        append rel stack = </Root/Nested/root_Nested>
    }
}
)",
                   {{"ref.usda", ref}, {"ref2.usda", ref2}, {"ref3.usda", ref3}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(
      StackOf(*composed, "/Root/Nested"),
      (Names{"root_Nested", "ref_Nested", "ref2_Nested", "root_Specializes_Nested",
             "root_NestedClass", "ref_Specializes_Nested", "ref_NestedClass",
             "ref2_Specializes_Nested", "ref2_NestedClass", "ref3_Ref3", "ref3_NestedClass"}));
  const usd::Prim* nested = composed->FindPrim("/Root/Nested");
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->specifier, usd::Specifier::kDef);
}

// A referenced prim specializes a class whose child references a prim inheriting a global
// class: the child's ancestral specialize carries that class, which ranks right after each
// stack's specialized child.
TEST(UsdImpliedClasses, AClassBelowAnAncestralSpecializeRanksAfterEachStacksSpecializedChild) {
  const std::string ref2 = R"(#usda 1.0
def "Ref2" (inherits = </Class>) {
    append rel stack = </Ref2/ref2_Ref2>
}
class "Class" {
    append rel stack = </Class/ref2_Class>
}
)";
  const std::string ref = R"(#usda 1.0
def "ChildRef" (references = @ref2.usda@</Ref2>) {
    append rel stack = </ChildRef/ref_ChildRef>
}
def "Specializes" {
    def "Child" (references = </ChildRef>) {
        append rel stack = </Specializes/Child/ref_Specializes_Child>
    }
}
over "Class" {
    append rel stack = </Class/ref_Class>
}
def "Ref" (specializes = </Specializes>) {
    over "Child" {
        append rel stack = </Ref/Child/ref_Child>
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
over "Specializes" {
    over "Child" {
        append rel stack = </Specializes/Child/root_Specializes_Child>
    }
}
over "Class" {
    append rel stack = </Class/root_Class>
}
def "AncestralReference" (references = @ref.usda@</Ref>) {
    over "Child" {
        append rel stack = </AncestralReference/Child/root_Child>
    }
}
)",
                                                   {{"ref.usda", ref}, {"ref2.usda", ref2}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(
      StackOf(*composed, "/AncestralReference/Child"),
      (Names{"root_Child", "ref_Child", "root_Specializes_Child", "root_Class",
             "ref_Specializes_Child", "ref_ChildRef", "ref_Class", "ref2_Ref2", "ref2_Class"}));
}

// The children of a specialized class hierarchy keep its order: a child of the prim ranks the
// root layer's child of the specialized class, then that of the class it inherits, above the
// referenced layer's.
TEST(UsdImpliedClasses, ChildrenOfASpecializedClassesHierarchyRankAsTheClassesDo) {
  const std::string ref = R"(#usda 1.0
def "Ref" {
    def "A" (specializes = </Ref/B>) {
        def "X" {
            append rel stack = </Ref/A/X/ref_AX>
        }
    }
    class "B" (inherits = </Ref/C>) {
        def "X" {
            append rel stack = </Ref/B/X/ref_BX>
        }
    }
    class "C" {
        def "X" {
            append rel stack = </Ref/C/X/ref_CX>
        }
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Model" (references = @ref.usda@</Ref>) {
    over "A" {
        over "X" {
            append rel stack = </Model/A/X/root_AX>
        }
    }
    over "B" {
        over "X" {
            append rel stack = </Model/B/X/root_BX>
        }
    }
    over "C" {
        over "X" {
            append rel stack = </Model/C/X/root_CX>
        }
    }
}
)",
                                                   {{"ref.usda", ref}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Model/A/X"),
            (Names{"root_AX", "ref_AX", "root_BX", "root_CX", "ref_BX", "ref_CX"}));
}

// A model specializes a global class that inherits another; the shot writes both classes, but
// only the inherited one's child. That child still composes, in the place of the specialized
// class's child the shot does not write, above the model's.
TEST(UsdImpliedClasses, AChildOfAClassUnderASpecializedClassTheShotLacksStillComposes) {
  const std::string model = R"(#usda 1.0
def "Model" (specializes = </_B>) {
    def "X" {
        append rel stack = </Model/X/model_X>
    }
}
class "_B" (inherits = </_C>) {
    append rel stack = </_B/model_B>
    def "X" {
        append rel stack = </_B/X/model_BX>
    }
}
class "_C" {
    append rel stack = </_C/model_C>
    def "X" {
        append rel stack = </_C/X/model_CX>
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Hero" (references = @model.usda@</Model>) {}
over "_B" {
    append rel stack = </_B/shot_B>
}
over "_C" {
    append rel stack = </_C/shot_C>
    over "X" {
        append rel stack = </_C/X/shot_CX>
    }
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Hero"), (Names{"shot_B", "shot_C", "model_B", "model_C"}));
  EXPECT_EQ(StackOf(*composed, "/Hero/X"), (Names{"model_X", "shot_CX", "model_BX", "model_CX"}));
}

// A model inherits _class_Model; the group that references it writes _class_Model inheriting
// _class_Base; the shot writes both classes. The shot's _class_Base is implied on each instance
// too, right after the shot's _class_Model, above everything the group brings.
TEST(UsdImpliedClasses, AClassAMiddleStacksImpliedClassInheritsIsImpliedFurtherUp) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {
    append rel stack = </Model/model>
}
class "_class_Model" {
    append rel stack = </_class_Model/model_class>
}
)";
  const std::string group = R"(#usda 1.0
def "Group" {
    def "M" (references = @./model.usda@</Model>) {}
}
class "_class_Model" (inherits = </_class_Base>) {
    append rel stack = </_class_Model/group_class>
}
class "_class_Base" {
    append rel stack = </_class_Base/group_base>
    float v = 2
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Group" (references = @group.usda@</Group>) {}
class "_class_Model" {
    append rel stack = </_class_Model/shot_class>
}
class "_class_Base" {
    append rel stack = </_class_Base/shot_base>
    float v = 3
}
)",
                                                   {{"group.usda", group}, {"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Group/M"), (Names{"shot_class", "shot_base", "group_class",
                                                   "group_base", "model", "model_class"}));
  EXPECT_EQ(FloatAt(*composed, "/Group/M.v"), 3.0f);
}

// A prim under one that inherits a class references a model's child, whose ancestor inherits a
// global class the shot writes too. That implied class is met where the reference is, at the
// prim's own depth, so it ranks above the class the prim's ancestor inherits.
TEST(UsdImpliedClasses, AClassAboveASubrootReferencesTargetRanksAtTheReferencesDepth) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {
    def "Geo" {
        append rel stack = </Model/Geo/model_geo>
    }
}
class "_class_Model" {
    def "Geo" {
        append rel stack = </_class_Model/Geo/model_class_geo>
    }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "World" (inherits = </_W>) {
    def "Hero" (references = @model.usda@</Model/Geo>) {
        append rel stack = </World/Hero/shot_hero>
    }
}
class "_W" {
    over "Hero" {
        append rel stack = </_W/Hero/shot_w_hero>
    }
}
class "_class_Model" {
    over "Geo" {
        append rel stack = </_class_Model/Geo/shot_class_geo>
    }
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/World/Hero"),
            (Names{"shot_hero", "shot_class_geo", "shot_w_hero", "model_geo", "model_class_geo"}));
}

// A payload implies the classes of what it brings as a reference does: the shot's class ranks
// right after the shot's own opinion of the instance, above everything the payload brings.
TEST(UsdImpliedClasses, APayloadImpliesTheClassesOfWhatItBrings) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {
    append rel stack = </Model/model>
}
class "_class_Model" {
    append rel stack = </_class_Model/model_class>
    float v = 1
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Hero" (payload = @model.usda@</Model>) {
    append rel stack = </Hero/shot>
}
class "_class_Model" {
    append rel stack = </_class_Model/shot_class>
    float v = 2
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(StackOf(*composed, "/Hero"), (Names{"shot", "shot_class", "model", "model_class"}));
  EXPECT_EQ(FloatAt(*composed, "/Hero.v"), 2.0f);
}

// An implied class's opinions keep their own stack's time: the group's class samples move by the
// shot's offset of the group only, the model's by both offsets.
TEST(UsdImpliedClasses, AnImpliedClassesSamplesMoveByItsOwnStacksOffsetOnly) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {}
class "_class_Model" {
    float m.timeSamples = { 0: 1, 10: 2 }
}
)";
  const std::string group = R"(#usda 1.0
def "Group" {
    def "M" (references = @./model.usda@</Model> (offset = 100)) {}
}
class "_class_Model" {
    float g.timeSamples = { 0: 1, 10: 2 }
}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Group" (references = @group.usda@</Group> (offset = 5)) {}
)",
                                                   {{"group.usda", group}, {"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  const auto times = [&](const std::string& property) {
    std::vector<double> out;
    if (const usd::Attribute* a = composed->FindAttribute(property)) {
      for (const usd::TimeSample& t : a->time_samples) out.push_back(t.time);
    }
    return out;
  };
  EXPECT_EQ(times("/Group/M.g"), (std::vector<double>{5, 15}));
  EXPECT_EQ(times("/Group/M.m"), (std::vector<double>{105, 115}));
}

// A model specializes a global class, which the shot writes with a child the model's class
// lacks; the shot's prim also specializes a class of its own. The shot's implied class ranks
// above the prim's own on the prim and on its child alike, though nothing of the model's class
// reaches the child.
TEST(UsdImpliedClasses, AnImpliedSpecializeKeepsItsRankOnAChildItsOriginDoesNotWrite) {
  const std::string model = R"(#usda 1.0
def "Model" (specializes = </_x>) {}
class "_x" {}
)";
  const Result<usd::Layer> composed = ComposedWith(R"(#usda 1.0
def "Shot" (
    references = @model.usda@</Model>
    specializes = </_y>
) {
    def "Child" {}
}
class "_x" {
    float b = 1
    def "Child" {
        float a = 1
    }
}
class "_y" {
    float b = 2
    def "Child" {
        float a = 2
    }
}
)",
                                                   {{"model.usda", model}});
  ASSERT_TRUE(composed.ok()) << composed.error().ToString();
  EXPECT_EQ(FloatAt(*composed, "/Shot.b"), 1.0f);
  EXPECT_EQ(FloatAt(*composed, "/Shot/Child.a"), 1.0f);
}

// What sinew does not compose: a class met inside a variant of a prim that an implied class
// references. Where the stage writes that class too, it is refused, naming both paths.
TEST(UsdImpliedClasses, AClassMetInsideAVariantBelowAnImpliedClassIsRefusedWhereItIsWritten) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_Model>) {}
class "_class_Model" {}
)";
  const std::string look = R"(#usda 1.0
def "Look" (
    variants = { string shade = "matte" }
    variantSets = "shade"
) {
    variantSet "shade" = {
        "matte" (inherits = </_class_Matte>) {}
    }
}
class "_class_Matte" {
    float roughness = 1
}
)";
  const std::string shot = R"(#usda 1.0
def "A" (references = @model.usda@</Model>) {}
class "_class_Model" (references = @look.usda@</Look>) {}
)";
  const std::map<std::string, std::string> files{{"model.usda", model}, {"look.usda", look}};
  const Result<usd::Layer> quiet = ComposedWith(shot, files);
  ASSERT_TRUE(quiet.ok()) << quiet.error().ToString();
  EXPECT_EQ(FloatAt(*quiet, "/A.roughness"), 1.0f);
  const Result<usd::Layer> refused =
      ComposedWith(shot + "class \"_class_Matte\" {\n    float roughness = 2\n}\n", files);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.code(), Error::kUnsupportedFeature);
  EXPECT_EQ(refused.error().where, "/A");
  EXPECT_NE(refused.error().message.find("inherits </_class_Matte>, and the layer stack that the "
                                         "variant's prim lands in writes </_class_Matte>"),
            std::string::npos)
      << refused.error().ToString();
}

// A class implied at the referencing prim itself or at one of its ancestors is a cycle, refused
// at the prim (Pcp reports it and drops the arc).
TEST(UsdImpliedClasses, AClassImpliedAtThePrimItselfOrAnAncestorIsRefused) {
  const std::string model = R"(#usda 1.0
def "Model" (inherits = </_class_X>) {}
class "_class_X" {}
)";
  for (const char* shot : {"#usda 1.0\ndef \"_class_X\" (references = @model.usda@</Model>) {}\n",
                           "#usda 1.0\ndef \"_class_X\" {\n    def \"Hero\" (references = "
                           "@model.usda@</Model>) {}\n}\n"}) {
    SCOPED_TRACE(shot);
    const Result<usd::Layer> refused = ComposedWith(shot, {{"model.usda", model}});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.code(), Error::kInvalidReference);
    EXPECT_NE(refused.error().message.find("lands at </_class_X>"), std::string::npos)
        << refused.error().ToString();
  }
}

}  // namespace
}  // namespace sinew::loader
