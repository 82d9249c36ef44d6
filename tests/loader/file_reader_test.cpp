// Loading through an engine's own file reader (sinew/loader/file.h, FileReader): every file the
// loaders read, the asset's own and those beside it, comes from the reader by the path the loader
// resolved it to, in glTF, G4MF and USD alike, and nothing comes from the file system; the
// reader's errors are the load's.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "g4mf_fixture.h"
#include "sinew/loader/file.h"
#include "sinew/loader/g4mf.h"
#include "sinew/loader/gltf.h"
#include "sinew/loader/load_asset.h"
#include "sinew/loader/usd.h"
#include "test_assets.h"

namespace sinew::loader {
namespace {

// Where the archive's files are: a folder the file system does not have.
const std::filesystem::path kArchive = "/sinew-archive-that-is-not-on-disk";

// An archive in memory, as an engine's pak file would be: files by path, and the paths it was
// asked for, in order.
class Archive {
 public:
  void Add(const std::filesystem::path& path, std::string_view bytes) {
    files_[path] = std::string(bytes);
  }
  // The file at `from` on disk, put at `path`.
  void AddFromDisk(const std::filesystem::path& path, const std::filesystem::path& from) {
    auto file = ReadFile(from);
    ASSERT_TRUE(file.ok()) << file.error().ToString();
    Add(path, std::string_view(reinterpret_cast<const char*>(file->data()), file->size));
  }
  FileReader Reader() {
    return [this](const std::filesystem::path& path) -> Result<FileBytes> {
      asked_.push_back(path);
      const auto it = files_.find(path);
      if (it == files_.end()) {
        return ErrorInfo{Error::kFileNotFound, "not in the archive", path.string(), 0};
      }
      return FileBytesOf(
          std::span(reinterpret_cast<const uint8_t*>(it->second.data()), it->second.size()));
    };
  }
  const std::vector<std::filesystem::path>& asked() const { return asked_; }

 private:
  std::map<std::filesystem::path, std::string> files_;
  std::vector<std::filesystem::path> asked_;
};

// A glTF whose mesh and clip are in two .bin files beside it loads from the archive as from disk,
// through LoadGltf and LoadAsset, each file asked for once, the buffers listed as the files read.
TEST(FileReader, AGltfAndItsBuffersComeFromTheReader) {
  ASSERT_FALSE(std::filesystem::exists(kArchive));
  const std::filesystem::path disk = sinew::testing::TestAssets() / "SimpleMorph";
  Archive archive;
  for (const char* name :
       {"SimpleMorph.gltf", "simpleMorphGeometry.bin", "simpleMorphAnimation.bin"}) {
    archive.AddFromDisk(kArchive / "SimpleMorph" / name, disk / name);
  }
  const auto from_disk = LoadGltf(disk / "SimpleMorph.gltf");
  ASSERT_TRUE(from_disk.ok()) << from_disk.error().ToString();

  GltfOptions gltf;
  gltf.read_file = archive.Reader();
  const auto loaded = LoadGltf(kArchive / "SimpleMorph" / "SimpleMorph.gltf", gltf);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  AssetOptions options;
  options.read_file = archive.Reader();
  const auto detected = LoadAsset(kArchive / "SimpleMorph" / "SimpleMorph.gltf", options);
  ASSERT_TRUE(detected.ok()) << detected.error().ToString();

  const std::vector<std::filesystem::path> buffers = {
      kArchive / "SimpleMorph" / "simpleMorphGeometry.bin",
      kArchive / "SimpleMorph" / "simpleMorphAnimation.bin"};
  for (const LoadedAsset* l : {&*loaded, &detected->loaded}) {
    EXPECT_EQ(l->external_files, buffers);
    ASSERT_EQ(l->asset.meshes.size(), from_disk->asset.meshes.size());
    EXPECT_EQ(l->asset.meshes[0].primitives[0].positions,
              from_disk->asset.meshes[0].primitives[0].positions);
    EXPECT_EQ(l->asset.meshes[0].primitives[0].targets.size(), 2u);
    EXPECT_EQ(l->asset.animations.size(), 1u);
  }
  std::vector<std::filesystem::path> asked = {kArchive / "SimpleMorph" / "SimpleMorph.gltf"};
  asked.insert(asked.end(), buffers.begin(), buffers.end());
  const std::vector<std::filesystem::path> once = asked;
  asked.insert(asked.end(), once.begin(), once.end());  // twice: LoadGltf, then LoadAsset
  EXPECT_EQ(archive.asked(), asked);
}

// A buffer's URI that climbs out of the glTF's folder reaches the reader with `..` folded away;
// bytes a reader gives without padding are padded before simdjson parses them; LoadAsset reads
// the file itself with the reader of the format its extension names when no reader for every
// format is given.
TEST(FileReader, TheReaderGetsFoldedPathsAndItsBytesArePadded) {
  const std::filesystem::path disk = sinew::testing::TestAssets() / "SimpleMorph";
  auto gltf = ReadFile(disk / "SimpleMorph.gltf");
  ASSERT_TRUE(gltf.ok()) << gltf.error().ToString();
  std::string text(reinterpret_cast<const char*>(gltf->data()), gltf->size);
  for (const char* name : {"simpleMorphGeometry.bin", "simpleMorphAnimation.bin"}) {
    const size_t at = text.find(std::string("\"") + name + "\"");
    ASSERT_NE(at, std::string::npos) << name;
    text.insert(at + 1, "../bins/");
  }
  std::map<std::filesystem::path, std::string> files;
  files[kArchive / "models" / "morph.gltf"] = text;
  for (const char* name : {"simpleMorphGeometry.bin", "simpleMorphAnimation.bin"}) {
    auto bin = ReadFile(disk / name);
    ASSERT_TRUE(bin.ok()) << bin.error().ToString();
    files[kArchive / "bins" / name] =
        std::string(reinterpret_cast<const char*>(bin->data()), bin->size);
  }
  std::vector<std::filesystem::path> asked;
  AssetOptions options;
  options.gltf.read_file = [&](const std::filesystem::path& path) -> Result<FileBytes> {
    asked.push_back(path);
    const auto it = files.find(path);
    if (it == files.end()) return ErrorInfo{Error::kFileNotFound, "no", path.string(), 0};
    FileBytes bytes;  // exactly the file: no padding
    bytes.storage.assign(it->second.begin(), it->second.end());
    bytes.size = it->second.size();
    return bytes;
  };
  const auto loaded = LoadAsset(kArchive / "models" / "morph.gltf", options);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(asked,
            (std::vector<std::filesystem::path>{kArchive / "models" / "morph.gltf",
                                                kArchive / "bins" / "simpleMorphGeometry.bin",
                                                kArchive / "bins" / "simpleMorphAnimation.bin"}));
  EXPECT_EQ(loaded->loaded.external_files,
            (std::vector<std::filesystem::path>(asked.begin() + 1, asked.end())));
  EXPECT_EQ(loaded->loaded.asset.meshes[0].primitives[0].targets.size(), 2u);
}

// A G4MF document whose buffer is a file beside it, in .g4tf text: through LoadG4mf and
// LoadAsset, whose per-format reader wins over the one for every format.
TEST(FileReader, AG4mfDocumentAndItsBufferComeFromTheReader) {
  g4mf_testing::Character c = g4mf_testing::ValidCharacter();
  auto inline_data = g4mf_testing::Load(c.doc);
  ASSERT_TRUE(inline_data.ok()) << inline_data.error().ToString();
  c.doc.buffers = {c.doc.DataBuffer().Set("uri", R"("body.bin")")};
  Archive archive;
  archive.Add(kArchive / "g4mf" / "body.g4tf", c.doc.Json());
  archive.Add(
      kArchive / "g4mf" / "body.bin",
      std::string_view(reinterpret_cast<const char*>(c.doc.data.data()), c.doc.data.size()));
  G4mfOptions g4mf;
  g4mf.read_file = archive.Reader();
  const auto loaded = LoadG4mf(kArchive / "g4mf" / "body.g4tf", g4mf);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->external_files,
            std::vector<std::filesystem::path>{kArchive / "g4mf" / "body.bin"});
  EXPECT_EQ(loaded->asset.meshes[0].primitives[0].positions,
            inline_data->asset.meshes[0].primitives[0].positions);

  AssetOptions options;
  options.g4mf.read_file = archive.Reader();
  options.read_file = [](const std::filesystem::path& path) -> Result<FileBytes> {
    if (path.extension() == ".bin") ADD_FAILURE() << "the reader for every format read " << path;
    return ErrorInfo{Error::kFileNotFound, "not here", path.string(), 0};
  };
  // (The document itself is LoadAsset's to read, through the reader for every format.)
  const auto unread = LoadAsset(kArchive / "g4mf" / "body.g4tf", options);
  ASSERT_FALSE(unread.ok());
  EXPECT_EQ(unread.code(), Error::kFileNotFound);
  options.read_file = archive.Reader();
  const auto detected = LoadAsset(kArchive / "g4mf" / "body.g4tf", options);
  ASSERT_TRUE(detected.ok()) << detected.error().ToString();
  EXPECT_EQ(detected->loaded.external_files, loaded->external_files);
}

// A USD shot that sublayers a layer and references Pixar's lbs.usda: every layer comes from the
// reader (UsdOptions' alone, for LoadUsd and LoadAsset), the referenced character loads skinned,
// and the layers are the files read.
TEST(FileReader, AUsdStageAndTheLayersItNamesComeFromTheReader) {
  Archive archive;
  archive.AddFromDisk(kArchive / "usd" / "chars" / "lbs.usda",
                      sinew::testing::TestConformance() / "usdskel" / "lbs.usda");
  archive.Add(kArchive / "usd" / "shot.usda",
              "#usda 1.0\n(\n    subLayers = [@./lights.usda@]\n)\n"
              "def \"World\" (\n    references = @./chars/lbs.usda@</Root>\n) {}\n");
  archive.Add(kArchive / "usd" / "lights.usda", "#usda 1.0\ndef Xform \"Lights\" {}\n");
  UsdOptions usd;
  usd.read_file = archive.Reader();
  const auto loaded = LoadUsd(kArchive / "usd" / "shot.usda", usd);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  AssetOptions options;  // USD's reader alone: it reads the shot too (its extension is USD's)
  options.usd.read_file = archive.Reader();
  const auto detected = LoadAsset(kArchive / "usd" / "shot.usda", options);
  ASSERT_TRUE(detected.ok()) << detected.error().ToString();
  for (const LoadedAsset* l : {&*loaded, &detected->loaded}) {
    EXPECT_EQ(l->external_files,
              (std::vector<std::filesystem::path>{kArchive / "usd" / "lights.usda",
                                                  kArchive / "usd" / "chars" / "lbs.usda"}));
    ASSERT_EQ(l->asset.meshes.size(), 4u);
    EXPECT_EQ(l->asset.meshes[0].name.substr(0, 7), "/World/");
    EXPECT_EQ(l->asset.skins.size(), 7u);  // as lbs.usda has from disk
  }
  // A layer named .usd is USD's too, text or crate, and so is its reader.
  archive.AddFromDisk(kArchive / "usd" / "chars" / "lbs.usd",
                      sinew::testing::TestConformance() / "usdskel" / "lbs.usda");
  const auto usd_named = LoadAsset(kArchive / "usd" / "chars" / "lbs.usd", options);
  ASSERT_TRUE(usd_named.ok()) << usd_named.error().ToString();
  EXPECT_EQ(usd_named->format, AssetFormat::kUsda);
}

// What the reader cannot give fails the load, saying what named it; a reader's bytes without
// padding are padded, and one that claims more bytes than it holds is refused.
TEST(FileReader, TheReadersErrorsAreTheLoadsAndItsBytesAreChecked) {
  Archive archive;
  archive.Add(kArchive / "broken" / "shot.usda",
              "#usda 1.0\ndef \"World\" (\n    references = @./missing.usda@\n) {}\n");
  archive.AddFromDisk(kArchive / "broken" / "SimpleMorph.gltf",
                      sinew::testing::TestAssets() / "SimpleMorph" / "SimpleMorph.gltf");
  AssetOptions options;
  options.read_file = archive.Reader();
  const auto layer = LoadAsset(kArchive / "broken" / "shot.usda", options);
  ASSERT_FALSE(layer.ok());
  EXPECT_EQ(layer.code(), Error::kFileNotFound);
  EXPECT_NE(layer.error().message.find("/World references @./missing.usda@"), std::string::npos)
      << layer.error().ToString();
  const auto buffer = LoadAsset(kArchive / "broken" / "SimpleMorph.gltf", options);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.code(), Error::kFileNotFound);
  EXPECT_EQ(buffer.error().where, "/buffers/0/uri") << buffer.error().ToString();
  EXPECT_NE(buffer.error().message.find("simpleMorphGeometry.bin"), std::string::npos)
      << buffer.error().ToString();

  const std::string text = "#usda 1.0\ndef Xform \"Lights\" {}\n";
  options.read_file = [&](const std::filesystem::path&) -> Result<FileBytes> {
    FileBytes bytes;  // no padding
    bytes.storage.assign(text.begin(), text.end());
    bytes.size = text.size();
    return bytes;
  };
  EXPECT_TRUE(LoadAsset(kArchive / "lights.usda", options).ok());
  // What the loaders get from such a reader is padded as ReadFile's bytes are.
  auto padded = ReadFileWith(options.read_file, kArchive / "lights.usda");
  ASSERT_TRUE(padded.ok()) << padded.error().ToString();
  EXPECT_EQ(padded->size, text.size());
  EXPECT_EQ(padded->storage.size(), text.size() + ReadPadding());
  EXPECT_EQ(std::string(padded->storage.begin(), padded->storage.begin() + 8), text.substr(0, 8));
  options.read_file = [&](const std::filesystem::path&) -> Result<FileBytes> {
    FileBytes bytes = FileBytesOf(std::span(reinterpret_cast<const uint8_t*>(text.data()), 4));
    bytes.size = bytes.storage.size() + 1;
    return bytes;
  };
  const auto lying = LoadAsset(kArchive / "lights.usda", options);
  ASSERT_FALSE(lying.ok());
  EXPECT_EQ(lying.code(), Error::kFileReadFailed);
}

}  // namespace
}  // namespace sinew::loader
