#include "sinew/loader/file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

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
