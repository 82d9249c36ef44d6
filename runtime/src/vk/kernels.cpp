#include "kernels.h"

#include <algorithm>
#include <array>
#include <bit>
#include <iterator>
#include <span>
#include <string>

#include "enumerate.h"
#include "functions.h"
#include "shaders.h"
#include "sinew/vk/gpu_layout.h"
#include "skin_records.h"

namespace sinew::vk::detail {

namespace {

// The specialization constants of a kernel (Kernels::Get's `values`) in words, for its pipeline's
// name: " K=4 normals tangents joints8 ...", only the choices that are set.
std::string ChoiceNames(std::span<const uint32_t> values) {
  static constexpr const char* kFlags[] = {
      "normals",       "tangents",    "morph-normals",  "morph-tangents", "joint-normals",
      nullptr,         "weights16",   "weights8",       "joints8",        "joints32",
      "octahedral",    "snorm10",     "out-octahedral", "out-snorm10",    "positions16",
      "morph-half",    "interleaved", nullptr,          "morphs",         nullptr,
      "joints-by-slot"};
  std::string out;
  if (values[5] != 0) out += " K=" + std::to_string(values[5]);
  for (size_t id = 0; id < std::size(kFlags) && id < values.size(); ++id) {
    if (kFlags[id] && values[id]) out += std::string(" ") + kFlags[id];
  }
  return out;
}

}  // namespace

Kernels::~Kernels() {
  const Functions& f = Fn(context_);
  const VkDevice device = context_.device();
  for (const auto& [key, pipeline] : pipelines_) {
    if (pipeline.handle) f.vkDestroyPipeline(device, pipeline.handle, context_.allocator());
  }
  if (layout_) f.vkDestroyPipelineLayout(device, layout_, context_.allocator());
  if (set_layout_) f.vkDestroyDescriptorSetLayout(device, set_layout_, context_.allocator());
}

Status Kernels::CreateLayouts() {
  const Functions& f = Fn(context_);
  const VkDevice device = context_.device();
  std::array<VkDescriptorSetLayoutBinding, kSkinBindingCount> bindings{};
  for (uint32_t b = 0; b < kSkinBindingCount; ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = kSkinBindingCount;
  set_info.pBindings = bindings.data();
  if (VkResult r =
          f.vkCreateDescriptorSetLayout(device, &set_info, context_.allocator(), &set_layout_);
      r != VK_SUCCESS) {
    return VulkanError("vkCreateDescriptorSetLayout", r);
  }
  SetName(context_, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, set_layout_, "sinew skinning set layout");
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(SkinPushConstants)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  if (VkResult r = f.vkCreatePipelineLayout(device, &layout_info, context_.allocator(), &layout_);
      r != VK_SUCCESS) {
    return VulkanError("vkCreatePipelineLayout", r);
  }
  SetName(context_, VK_OBJECT_TYPE_PIPELINE_LAYOUT, layout_, "sinew skinning pipeline layout");
  return {};
}

Result<Kernel> Kernels::Layouts() {
  std::lock_guard lock(mutex_);
  if (!layout_) {
    if (Status s = CreateLayouts(); !s) return s;
  }
  return Kernel{VK_NULL_HANDLE, layout_, set_layout_};
}

Result<Kernel> Kernels::Get(uint32_t variant, uint32_t workgroup_size) {
  if (variant >= kKernelVariants) {
    return Status(Error::kInvalidArgument, "kernel variant " + std::to_string(variant), "variant");
  }
  if (workgroup_size < kMinSkinWorkgroupSize || workgroup_size > kMaxSkinWorkgroupSize ||
      !std::has_single_bit(workgroup_size)) {
    return Status(Error::kInvalidArgument, "workgroup size " + std::to_string(workgroup_size),
                  "workgroup_size");
  }
  const uint32_t size_index = uint32_t(std::countr_zero(workgroup_size / kMinSkinWorkgroupSize));
  std::lock_guard lock(mutex_);
  if (!layout_) {
    if (Status s = CreateLayouts(); !s) return s;
  }
  const KernelKind kind = KernelOf(variant);
  const uint32_t key = variant + kKernelVariants * size_index;
  Pipeline& entry = pipelines_[key];
  VkPipeline& pipeline = entry.handle;
  if (!pipeline) {
    const Functions& f = Fn(context_);
    const VkDevice device = context_.device();
    const bool shared_instance = InstanceInSharedMemoryLocked(kind);
    const std::span<const uint32_t> code = shaders::Skin(kind, shared_instance);
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = code.size_bytes();
    module_info.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = f.vkCreateShaderModule(device, &module_info, context_.allocator(), &module);
        r != VK_SUCCESS) {
      return VulkanError("vkCreateShaderModule", r);
    }
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    // The choices as the shaders' specialization constants: five booleans (constant_id = bit
    // index), K (constant_id 5, a uint; 0 reads the record's), then two booleans per format
    // (constant_id 6 to 13: the field's value 1 or 2), unorm16 positions (14), half morph deltas
    // (15), interleaved outputs (16), the output stride in words (17), morph targets (18); the
    // workgroup size (19, local_size_x_id); joint indices by slot (20: K of 12 or more in unorm16
    // weights).
    const uint32_t choices = ChoicesOf(variant);
    const auto field = [&](uint32_t shift, uint32_t bits) {
      return (choices >> shift) & ((1u << bits) - 1u);
    };
    std::array<uint32_t, 21> values{};
    for (uint32_t id = 0; id < 5; ++id) values[id] = field(id, 1);
    values[5] = 4u * field(kChoiceInfluencesShift, 3);
    uint32_t id = 6;
    for (const uint32_t shift : {kChoiceWeightsShift, kChoiceJointBitsShift, kChoiceDirectionsShift,
                                 kChoiceOutDirectionsShift}) {
      values[id++] = field(shift, 2) == 1 ? 1u : 0u;
      values[id++] = field(shift, 2) == 2 ? 1u : 0u;
    }
    values[14] = (choices & kChoicePositions16) ? 1u : 0u;
    values[15] = (choices & kChoiceMorphHalf) ? 1u : 0u;
    values[16] = (choices & kChoiceInterleaved) ? 1u : 0u;
    // Words from one vertex's position to the next's: 3, or the whole interleaved vertex.
    VertexFormats outputs;
    outputs.output_directions = DirectionFormat(field(kChoiceOutDirectionsShift, 2));
    outputs.outputs = values[16] ? OutputLayout::kInterleaved : OutputLayout::kSeparate;
    values[17] = OutputStridesOf(values[0] != 0, values[1] != 0, outputs).positions / 4;
    values[18] = (choices & kChoiceMorphs) ? 1u : 0u;
    values[19] = workgroup_size;
    values[20] = values[5] >= 12u && values[6] != 0u ? 1u : 0u;
    std::array<VkSpecializationMapEntry, values.size()> entries{};
    for (uint32_t e = 0; e < entries.size(); ++e) {
      entries[e] = {e, uint32_t(e * sizeof(uint32_t)), sizeof(uint32_t)};
    }
    VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(), sizeof(values),
                                        values.data()};
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout_;
    if (context_.kernel_statistics_enabled()) {
      info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    }
    const VkResult r = f.vkCreateComputePipelines(device, context_.pipeline_cache(), 1, &info,
                                                  context_.allocator(), &pipeline);
    f.vkDestroyShaderModule(device, module, context_.allocator());
    if (r != VK_SUCCESS) {
      pipeline = VK_NULL_HANDLE;
      return VulkanError("vkCreateComputePipelines", r);
    }
    entry.name = std::string(shaders::SkinName(kind)) + ChoiceNames(values) +
                 (shared_instance ? " shared-instance" : "") + " workgroup " +
                 std::to_string(workgroup_size);
    SetName(context_, VK_OBJECT_TYPE_PIPELINE, pipeline, entry.name.c_str());
  }
  return Kernel{pipeline, layout_, set_layout_};
}

bool Kernels::InstanceInSharedMemory(KernelKind kind) const {
  std::lock_guard lock(mutex_);
  return InstanceInSharedMemoryLocked(kind);
}

bool Kernels::InstanceInSharedMemoryLocked(KernelKind kind) const {
  if (!shaders::HasSharedInstanceForm(kind)) return false;
  if (shared_instance_for_tests_) return *shared_instance_for_tests_;
  return !context_.cpu_device();
}

Status Kernels::SetInstanceInSharedMemoryForTests(bool shared) {
  std::lock_guard lock(mutex_);
  if (PipelinesCreatedLocked() > 0) {
    return Status(Error::kInvalidArgument, "a pipeline exists already", "Kernels");
  }
  shared_instance_for_tests_ = shared;
  return {};
}

std::vector<std::string> Kernels::PipelineNames() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [key, pipeline] : pipelines_) {
    if (pipeline.handle) names.push_back(pipeline.name);
  }
  return names;
}

uint32_t Kernels::pipelines_created() const {
  std::lock_guard lock(mutex_);
  return PipelinesCreatedLocked();
}

uint32_t Kernels::PipelinesCreatedLocked() const {
  uint32_t n = 0;
  for (const auto& [key, pipeline] : pipelines_) n += pipeline.handle ? 1 : 0;
  return n;
}

namespace {

// A statistic's value as a double, whatever its format.
double StatisticValue(const VkPipelineExecutableStatisticKHR& s) {
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      return s.value.b32 ? 1.0 : 0.0;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      return double(s.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      return double(s.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
      return s.value.f64;
    default:
      return 0.0;
  }
}

}  // namespace

Result<std::vector<KernelStatistics>> Kernels::Statistics() const {
  const Functions& f = Fn(context_);
  const VkDevice device = context_.device();
  std::lock_guard lock(mutex_);
  std::vector<KernelStatistics> out;
  for (const auto& [key, pipeline] : pipelines_) {
    if (!pipeline.handle) continue;
    VkPipelineInfoKHR pipeline_info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pipeline_info.pipeline = pipeline.handle;
    std::vector<VkPipelineExecutablePropertiesKHR> executables;
    if (VkResult r = Enumerate(executables, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR},
                               [&](uint32_t* count, VkPipelineExecutablePropertiesKHR* items) {
                                 return f.vkGetPipelineExecutablePropertiesKHR(
                                     device, &pipeline_info, count, items);
                               });
        r != VK_SUCCESS) {
      return VulkanError("vkGetPipelineExecutablePropertiesKHR", r);
    }
    for (uint32_t e = 0; e < executables.size(); ++e) {
      VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
      executable.pipeline = pipeline.handle;
      executable.executableIndex = e;
      std::vector<VkPipelineExecutableStatisticKHR> values;
      if (VkResult r = Enumerate(values, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR},
                                 [&](uint32_t* count, VkPipelineExecutableStatisticKHR* items) {
                                   return f.vkGetPipelineExecutableStatisticsKHR(
                                       device, &executable, count, items);
                                 });
          r != VK_SUCCESS) {
        return VulkanError("vkGetPipelineExecutableStatisticsKHR", r);
      }
      KernelStatistics kernel;
      kernel.kernel = pipeline.name;
      kernel.executable = executables[e].name;
      for (const VkPipelineExecutableStatisticKHR& value : values) {
        kernel.statistics.push_back({value.name, value.description, StatisticValue(value)});
      }
      out.push_back(std::move(kernel));
    }
  }
  return out;
}

}  // namespace sinew::vk::detail
