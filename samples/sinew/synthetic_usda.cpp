#include "synthetic_usda.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>

namespace sinew::tool {
namespace {

// Appends text to a string, numbers in their shortest form (as USD writes them).
class UsdaText {
 public:
  explicit UsdaText(std::string* out) : out_(out) {}

  UsdaText& operator<<(std::string_view text) {
    out_->append(text);
    return *this;
  }
  UsdaText& operator<<(float value) { return Number(value); }
  UsdaText& operator<<(double value) { return Number(value); }
  UsdaText& operator<<(uint32_t value) { return Number(value); }
  UsdaText& operator<<(int value) { return Number(value); }

  // `[(a, b, c), ...]`: `count` tuples of `width` values from `value(i, c)`.
  template <typename Fn>
  UsdaText& Tuples(uint32_t count, uint32_t width, Fn&& value) {
    *this << "[";
    for (uint32_t i = 0; i < count; ++i) {
      *this << (i ? ", (" : "(");
      for (uint32_t c = 0; c < width; ++c) *this << (c ? ", " : "") << value(i, c);
      *this << ")";
    }
    return *this << "]";
  }
  // `[a, b, ...]`: `count` values from `value(i)`.
  template <typename Fn>
  UsdaText& List(uint32_t count, Fn&& value) {
    *this << "[";
    for (uint32_t i = 0; i < count; ++i) *this << (i ? ", " : "") << value(i);
    return *this << "]";
  }

 private:
  template <typename T>
  UsdaText& Number(T value) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    out_->append(buffer, size_t(end - buffer));
    return *this;
  }

  std::string* out_;
};

// A joint's name: its path in the chain ("joint0/joint1/...").
std::string JointPath(uint32_t joint) {
  std::string path;
  for (uint32_t j = 0; j <= joint; ++j) path += (j ? "/joint" : "joint") + std::to_string(j);
  return path;
}

void Header(UsdaText& t, const SyntheticUsdaOptions& o) {
  t << "#usda 1.0\n(\n    defaultPrim = \"Crowd\"\n    doc = \"sinew bench --usda: synthetic\"\n"
    << "    endTimeCode = " << o.frames << "\n    metersPerUnit = 0.01\n    startTimeCode = 1\n"
    << "    timeCodesPerSecond = 24\n    upAxis = \"Y\"\n)\n\n"
    << "def SkelRoot \"Crowd\" (\n    kind = \"component\"\n"
    << "    prepend apiSchemas = [\"SkelBindingAPI\"]\n)\n{\n";
}

// The skeleton (a chain of joints 1 apart along y) and its animation: every joint turning about
// z, a sample a frame.
void Skeleton(UsdaText& t, const SyntheticUsdaOptions& o) {
  t << "    def Skeleton \"Skel\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n    )\n"
    << "    {\n        uniform token[] joints = ";
  auto joints = [&](UsdaText& text) {
    text << "[";
    for (uint32_t j = 0; j < o.joints; ++j) text << (j ? ", \"" : "\"") << JointPath(j) << "\"";
    text << "]\n";
  };
  joints(t);
  auto matrices = [&](const char* name, bool world) {
    t << "        uniform matrix4d[] " << name << " = [";
    for (uint32_t j = 0; j < o.joints; ++j) {
      const double y = world ? double(j) : (j ? 1.0 : 0.0);
      t << (j ? ", " : "") << "( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, " << y
        << ", 0, 1) )";
    }
    t << "]\n";
  };
  matrices("bindTransforms", true);
  matrices("restTransforms", false);
  t << "        rel skel:animationSource = <Anim>\n\n        def SkelAnimation \"Anim\"\n"
    << "        {\n            uniform token[] joints = ";
  joints(t);
  t << "            quatf[] rotations.timeSamples = {\n";
  for (uint32_t f = 1; f <= o.frames; ++f) {
    t << "                " << f << ": ";
    t.Tuples(o.joints, 4, [&](uint32_t j, uint32_t c) {
      const float half = 0.02f * float(f) * float(j % 5 + 1);
      return c == 0 ? std::cos(half) : c == 3 ? std::sin(half) : 0.0f;
    });
    t << ",\n";
  }
  t << "            }\n            half3[] scales = ";
  t.Tuples(o.joints, 3, [](uint32_t, uint32_t) { return 1.0f; });
  t << "\n            float3[] translations.timeSamples = {\n";
  for (uint32_t f = 1; f <= o.frames; ++f) {
    t << "                " << f << ": ";
    t.Tuples(o.joints, 3, [&](uint32_t j, uint32_t c) {
      return c == 1 && j ? 1.0f : c == 0 ? 0.001f * float(f) : 0.0f;
    });
    t << ",\n";
  }
  t << "            }\n        }\n    }\n";
}

// Mesh `m`: a wavy grid of quads bound to joints by height, its extent sampled every frame, and
// (one mesh in eight) its points baked at four times, as a baked stage has them.
void Mesh(UsdaText& t, const SyntheticUsdaOptions& o, uint32_t m) {
  const uint32_t n = o.grid, points = n * n, quads = (n - 1) * (n - 1);
  auto point = [&](uint32_t i, uint32_t c, float time) {
    const float x = float(i % n) / float(n - 1), y = float(i / n) / float(n - 1);
    const float wave = 0.05f * std::sin(6.2831853f * (x + 0.37f * float(m)) + time);
    return c == 0 ? x + float(m % 32) : c == 1 ? y * float(o.joints - 1) : wave;
  };
  t << "\n    def Mesh \"Mesh_" << m << "\" (\n        prepend apiSchemas = [\"SkelBindingAPI\"]\n"
    << "    )\n    {\n        float3[] extent.timeSamples = {\n";
  for (uint32_t f = 1; f <= o.frames; ++f) {
    t << "            " << f << ": ";
    t.Tuples(2, 3, [&](uint32_t i, uint32_t c) {
      return i ? point(points - 1, c, 0.0f) + 0.05f : point(0, c, 0.0f) - 0.05f;
    });
    t << ",\n";
  }
  t << "        }\n        int[] faceVertexCounts = ";
  t.List(quads, [](uint32_t) { return 4; });
  t << "\n        int[] faceVertexIndices = ";
  t.List(quads * 4, [&](uint32_t k) {
    const uint32_t q = k / 4, row = q / (n - 1), column = q % (n - 1);
    const uint32_t corner[4] = {0, 1, n + 1, n};
    return row * n + column + corner[k % 4];
  });
  t << "\n        normal3f[] normals = ";
  t.Tuples(points, 3, [&](uint32_t i, uint32_t c) {
    const float slope = 0.05f * 6.2831853f *
                        std::cos(6.2831853f * (float(i % n) / float(n - 1) + 0.37f * float(m)));
    const float length = std::sqrt(1.0f + slope * slope);
    return c == 0 ? -slope / length : c == 1 ? 0.0f : 1.0f / length;
  });
  t << " (\n            interpolation = \"vertex\"\n        )\n        point3f[] points = ";
  t.Tuples(points, 3, [&](uint32_t i, uint32_t c) { return point(i, c, 0.0f); });
  if (m % 8 == 0) {
    t << "\n        point3f[] points.timeSamples = {\n";
    for (uint32_t f = 1; f <= 4; ++f) {
      t << "            " << f << ": ";
      t.Tuples(points, 3, [&](uint32_t i, uint32_t c) { return point(i, c, 0.25f * float(f)); });
      t << ",\n";
    }
    t << "        }";
  }
  const uint32_t k = o.influences;
  t << "\n        matrix4d primvars:skel:geomBindTransform = ( (1, 0, 0, 0), (0, 1, 0, 0), "
    << "(0, 0, 1, 0), (0, 0, 0, 1) )\n        int[] primvars:skel:jointIndices = ";
  t.List(points * k, [&](uint32_t e) {
    const uint32_t base = uint32_t(point(e / k, 1, 0.0f));
    return std::min(base + e % k, o.joints - 1);
  });
  t << " (\n            elementSize = " << k << "\n            interpolation = \"vertex\"\n"
    << "        )\n        float[] primvars:skel:jointWeights = ";
  t.List(points * k, [&](uint32_t e) {
    const float y = point(e / k, 1, 0.0f), fraction = y - std::floor(y);
    const float weights[4] = {0.7f * (1 - fraction), 0.7f * fraction, 0.2f, 0.1f};
    return e % k < 4 ? weights[e % k] : 0.0f;
  });
  t << " (\n            elementSize = " << k << "\n            interpolation = \"vertex\"\n"
    << "        )\n        rel skel:skeleton = </Crowd/Skel>\n"
    << "        uniform token subdivisionScheme = \"none\"\n    }\n";
}

}  // namespace

std::string SyntheticUsda(const SyntheticUsdaOptions& options, SyntheticUsdaCounts* counts) {
  SyntheticUsdaOptions o = options;
  o.grid = std::max(o.grid, 2u);
  o.joints = std::max(o.joints, 1u);
  o.influences = std::max(o.influences, 1u);
  std::string text;
  text.reserve(o.target_bytes + (size_t(1) << 20));
  UsdaText t(&text);
  Header(t, o);
  Skeleton(t, o);
  uint32_t meshes = 0;
  while (text.size() < o.target_bytes) Mesh(t, o, meshes++);
  t << "}\n";
  counts->bytes = text.size();
  counts->meshes = meshes;
  return text;
}

Result<SyntheticUsdaCounts> WriteSyntheticUsda(const std::filesystem::path& path,
                                               const SyntheticUsdaOptions& options) {
  SyntheticUsdaCounts counts;
  const std::string text = SyntheticUsda(options, &counts);
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!file || std::fwrite(text.data(), 1, text.size(), file.get()) != text.size() ||
      std::fclose(file.release()) != 0) {
    return ErrorInfo{Error::kFileReadFailed, "cannot write the synthetic stage", path.string(), 0};
  }
  return counts;
}

}  // namespace sinew::tool
