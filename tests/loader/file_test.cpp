#include "sinew/loader/file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "sinew/loader/load_asset.h"

namespace sinew::loader {
namespace {

TEST(ReadFile, ReturnsTheBytesFollowedByZeroPadding) {
  const auto path = std::filesystem::temp_directory_path() / "sinew_read_file_test.bin";
  {
    std::ofstream f(path, std::ios::binary);
    f << "{\"asset\":1}";
  }
  auto bytes = ReadFile(path);
  ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
  ASSERT_EQ(bytes->size, 11u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size),
            "{\"asset\":1}");
  ASSERT_GE(bytes->storage.size(), bytes->size + ReadPadding());
  EXPECT_GE(ReadPadding(), 32u);
  for (size_t i = bytes->size; i < bytes->storage.size(); ++i) EXPECT_EQ(bytes->storage[i], 0);
  std::filesystem::remove(path);
}

TEST(ReadFile, ReportsAMissingFileWithItsPath) {
  auto bytes = ReadFile("/nonexistent/dir/model.gltf");
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.code(), Error::kFileNotFound);
  EXPECT_EQ(bytes.error().where, "/nonexistent/dir/model.gltf");
}

TEST(ReadFile, ReportsADirectoryAsNotAFile) {
  auto bytes = ReadFile(std::filesystem::temp_directory_path());
  EXPECT_EQ(bytes.code(), Error::kFileNotFound);
  EXPECT_EQ(bytes.error().message, "a directory, not a file");
  EXPECT_EQ(bytes.error().where, std::filesystem::temp_directory_path().string());
}

// A link that leads round in a loop is not a missing file: the system's reason is said.
TEST(ReadFile, SaysWhyAFileThatIsThereCannotBeReached) {
  const auto dir = std::filesystem::temp_directory_path() / "sinew_link_loop";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::create_symlink(dir / "b.gltf", dir / "a.gltf");
  std::filesystem::create_symlink(dir / "a.gltf", dir / "b.gltf");
  auto bytes = ReadFile(dir / "a.gltf");
  EXPECT_EQ(bytes.code(), Error::kFileReadFailed);
  EXPECT_EQ(bytes.error().where, (dir / "a.gltf").string());
  EXPECT_NE(bytes.error().message.find("symbolic link"), std::string::npos)
      << bytes.error().message;
  std::filesystem::remove_all(dir);
}

// A file system that gives no size (Linux's /proc) still gives the file's bytes.
TEST(ReadFile, ReadsAFileWhoseSizeTheFileSystemDoesNotGive) {
  if (!std::filesystem::exists("/proc/self/status")) GTEST_SKIP() << "no /proc here";
  ASSERT_EQ(std::filesystem::file_size("/proc/self/status"), 0u);
  auto bytes = ReadFile("/proc/self/status");
  ASSERT_TRUE(bytes.ok()) << bytes.error().ToString();
  EXPECT_GT(bytes->size, 0u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes->data()), 5), "Name:");
  for (size_t i = bytes->size; i < bytes->storage.size(); ++i) ASSERT_EQ(bytes->storage[i], 0);
}

// An empty file has no header or text to tell its format by, and nothing for a reader to point
// at: LoadAsset says it is empty, with the code of the format its name gives.
TEST(LoadAsset, SaysAnEmptyFileIsEmptyInTheTermsOfItsExtension) {
  const auto dir = std::filesystem::temp_directory_path() / "sinew_empty_files";
  std::filesystem::create_directories(dir);
  const std::pair<const char*, Error> cases[] = {
      {"a.gltf", Error::kJsonSyntax},  {"a.glb", Error::kInvalidGlb},
      {"a.g4tf", Error::kJsonSyntax},  {"a.G4B", Error::kInvalidG4b},
      {"a.usda", Error::kUsdaSyntax},  {"a.usdc", Error::kInvalidUsdc},
      {"a.usdz", Error::kInvalidUsdc},
  };
  for (const auto& [name, code] : cases) {
    { std::ofstream f(dir / name, std::ios::binary); }
    const auto loaded = LoadAsset(dir / name);
    EXPECT_EQ(loaded.code(), code) << name;
    EXPECT_EQ(loaded.error().message, "the file is empty (0 bytes)") << name;
    EXPECT_EQ(loaded.error().where, (dir / name).string()) << name;
  }
  std::filesystem::remove_all(dir);
}

// Exporters on case-insensitive file systems write ".G4TF" or ".Usda": an extension names the same
// format whatever its case, so a G4MF text file (which has no magic to tell it by) still loads as
// G4MF.
TEST(LoadAsset, TellsTheFormatByTheExtensionWhateverItsCase) {
  EXPECT_EQ(DetectAssetFormat("a.G4TF", {}), AssetFormat::kG4mf);
  EXPECT_EQ(DetectAssetFormat("a.G4b", {}), AssetFormat::kG4mf);
  EXPECT_EQ(DetectAssetFormat("a.Usda", {}), AssetFormat::kUsda);
  EXPECT_EQ(DetectAssetFormat("a.USDC", {}), AssetFormat::kUsdc);
  EXPECT_EQ(DetectAssetFormat("a.USDZ", {}), AssetFormat::kUsdz);
  EXPECT_EQ(DetectAssetFormat("a.usd", {}), AssetFormat::kUsda);  // a crate has its magic
  EXPECT_EQ(DetectAssetFormat("a.GLTF", {}), AssetFormat::kGltf);
  // G4MF's asset has a dimension and no version: the glTF loader would refuse it.
  const auto dir = std::filesystem::temp_directory_path() / "sinew_upper_case_extension";
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir / "TWO_BONES.G4TF", std::ios::binary);
    f << R"({"asset":{"dimension":3},"nodes":[{"name":"Root"}]})";
  }
  const auto loaded = LoadAsset(dir / "TWO_BONES.G4TF");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->format, AssetFormat::kG4mf);
  ASSERT_EQ(loaded->loaded.asset.nodes.size(), 1u);
  EXPECT_EQ(loaded->loaded.asset.nodes[0].name, "Root");
  std::filesystem::remove_all(dir);
}

// A file named .usdz that is not a zip archive (an empty archive's end record, bytes of anything
// else) is refused as no package at byte 0, not read as .usda text. (Content that is another
// format's, such as "#usda 1.0", is read as that format: content decides first.)
TEST(LoadAsset, RefusesAUsdzThatIsNotAZipArchive) {
  const auto dir = std::filesystem::temp_directory_path() / "sinew_not_a_zip";
  std::filesystem::create_directories(dir);
  for (const std::string& bytes : {std::string("PK\x05\x06", 4) + std::string(18, '\0'),
                                   std::string("QK\x03\x04 not a package")}) {
    {
      std::ofstream f(dir / "a.usdz", std::ios::binary);
      f << bytes;
    }
    const auto loaded = LoadAsset(dir / "a.usdz");
    EXPECT_EQ(loaded.code(), Error::kInvalidUsdc);
    EXPECT_EQ(loaded.error().where, "byte 0");
  }
  std::filesystem::remove_all(dir);
}

TEST(ReadFile, ReadsAnEmptyFile) {
  const auto path = std::filesystem::temp_directory_path() / "sinew_read_file_empty.bin";
  { std::ofstream f(path, std::ios::binary); }
  auto bytes = ReadFile(path);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->size, 0u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace sinew::loader
