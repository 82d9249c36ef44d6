#include "sinew/loader/file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
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
