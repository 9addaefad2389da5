/*
 * The C floor for one tiny Vulkan dispatch, for bench/h200.ts: loads a SPIR-V compute module,
 * builds the pipeline the way loom's runtime does (one descriptor set of BUFFERS storage
 * buffers, a push-constant block of PUSH_BYTES), and times, per dispatch, what the runtime does
 * for `dispatch()`: descriptor update, reset + begin of one command buffer, bind, push, dispatch
 * of one workgroup, barrier, end, reset fence, submit, wait. Also the same command buffer
 * recorded once and resubmitted ("prerecorded"). Prints one JSON object (microseconds).
 *
 * No Vulkan SDK needed at run time: the loader is opened with dlopen.
 *   cc -O2 -I<dir holding vulkan/vulkan_core.h> -o vulkan-dispatch bench/c/vulkan-dispatch.c -ldl
 *   ./vulkan-dispatch KERNEL.spv ENTRY BUFFERS PUSH_BYTES [N]
 */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>
#include <dlfcn.h>
#include <string.h>
#include "timing.h"

#define CHECK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { fprintf(stderr, "%s: VkResult %d\n", #x, (int)r_); return 1; } } while (0)

static PFN_vkGetInstanceProcAddr gipa;
static VkInstance instance;
#define FN(name) PFN_##name name = (PFN_##name)gipa(instance, #name); if (!name) { fprintf(stderr, "no %s\n", #name); return 1; }

int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: %s KERNEL.spv ENTRY BUFFERS PUSH_BYTES [N]\n", argv[0]); return 2; }
  const int buffers = atoi(argv[3]);
  const uint32_t push = (uint32_t)atoi(argv[4]);
  const int n = argc > 5 ? atoi(argv[5]) : 2000;
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  uint32_t *code = calloc(1, size + 4);
  if (fread(code, 1, size, f) != (size_t)size) { fclose(f); return 2; }
  fclose(f);

  void *lib = dlopen("libvulkan.so.1", RTLD_NOW);
  if (!lib) { fprintf(stderr, "dlopen libvulkan.so.1: %s\n", dlerror()); return 1; }
  gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
  PFN_vkCreateInstance vkCreateInstance = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_2 };
  VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
  CHECK(vkCreateInstance(&ici, NULL, &instance));
  FN(vkEnumeratePhysicalDevices) FN(vkGetPhysicalDeviceQueueFamilyProperties) FN(vkGetPhysicalDeviceProperties)
  FN(vkGetPhysicalDeviceMemoryProperties) FN(vkCreateDevice) FN(vkGetDeviceQueue) FN(vkCreateBuffer)
  FN(vkGetBufferMemoryRequirements) FN(vkAllocateMemory) FN(vkBindBufferMemory) FN(vkCreateShaderModule)
  FN(vkCreateDescriptorSetLayout) FN(vkCreatePipelineLayout) FN(vkCreateComputePipelines) FN(vkCreateDescriptorPool)
  FN(vkAllocateDescriptorSets) FN(vkUpdateDescriptorSets) FN(vkCreateCommandPool) FN(vkAllocateCommandBuffers)
  FN(vkCreateFence) FN(vkResetCommandBuffer) FN(vkBeginCommandBuffer) FN(vkEndCommandBuffer) FN(vkCmdBindPipeline)
  FN(vkCmdBindDescriptorSets) FN(vkCmdPushConstants) FN(vkCmdDispatch) FN(vkCmdPipelineBarrier) FN(vkResetFences)
  FN(vkQueueSubmit) FN(vkWaitForFences) FN(vkDeviceWaitIdle)

  uint32_t count = 0;
  CHECK(vkEnumeratePhysicalDevices(instance, &count, NULL));
  if (count == 0) { fprintf(stderr, "no Vulkan device\n"); return 1; }
  VkPhysicalDevice devices[16];
  if (count > 16) count = 16;
  CHECK(vkEnumeratePhysicalDevices(instance, &count, devices));
  VkPhysicalDevice phys = devices[0];
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(phys, &props);
  // The queue family loom's runtime picks: compute-only when there is one, else any with compute.
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys, &families, NULL);
  VkQueueFamilyProperties fam[32];
  if (families > 32) families = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(phys, &families, fam);
  int family = -1;
  for (uint32_t i = 0; i < families; i++)
    if ((fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(fam[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) { family = (int)i; break; }
  for (uint32_t i = 0; family < 0 && i < families; i++)
    if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = (int)i;
  if (family < 0) { fprintf(stderr, "no compute queue\n"); return 1; }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = (uint32_t)family, .queueCount = 1, .pQueuePriorities = &priority };
  VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
  VkDevice device;
  CHECK(vkCreateDevice(phys, &dci, NULL, &device));
  VkQueue queue;
  vkGetDeviceQueue(device, (uint32_t)family, 0, &queue);

  // One small device-local buffer bound to every binding.
  VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 256, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
  VkBuffer buffer;
  CHECK(vkCreateBuffer(device, &bci, NULL, &buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, buffer, &req);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(phys, &mem);
  uint32_t type = 0;
  while (type < mem.memoryTypeCount && !(req.memoryTypeBits & (1u << type))) type++;
  VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = type };
  VkDeviceMemory memory;
  CHECK(vkAllocateMemory(device, &mai, NULL, &memory));
  CHECK(vkBindBufferMemory(device, buffer, memory, 0));

  VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (size_t)size, .pCode = code };
  VkShaderModule module;
  CHECK(vkCreateShaderModule(device, &smci, NULL, &module));
  VkDescriptorSetLayoutBinding bindings[16];
  for (int k = 0; k < buffers && k < 16; k++)
    bindings[k] = (VkDescriptorSetLayoutBinding){ .binding = (uint32_t)k, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  if (buffers > 0) {
    VkDescriptorSetLayoutCreateInfo dslci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = (uint32_t)buffers, .pBindings = bindings };
    CHECK(vkCreateDescriptorSetLayout(device, &dslci, NULL, &setLayout));
  }
  VkPushConstantRange range = { .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = push };
  VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = buffers > 0 ? 1 : 0, .pSetLayouts = &setLayout,
                                      .pushConstantRangeCount = push > 0 ? 1 : 0, .pPushConstantRanges = &range };
  VkPipelineLayout pipelineLayout;
  CHECK(vkCreatePipelineLayout(device, &plci, NULL, &pipelineLayout));
  VkComputePipelineCreateInfo cpci = { .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .layout = pipelineLayout,
                                       .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module, .pName = argv[2] } };
  VkPipeline pipeline;
  CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline));
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (buffers > 0) {
    VkDescriptorPoolSize poolSize = { .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = (uint32_t)buffers };
    VkDescriptorPoolCreateInfo dpci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &poolSize };
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(device, &dpci, NULL, &pool));
    VkDescriptorSetAllocateInfo dsai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &setLayout };
    CHECK(vkAllocateDescriptorSets(device, &dsai, &set));
  }
  VkCommandPoolCreateInfo cpoolci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = (uint32_t)family };
  VkCommandPool cpool;
  CHECK(vkCreateCommandPool(device, &cpoolci, NULL, &cpool));
  VkCommandBufferAllocateInfo cbai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = cpool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
  VkCommandBuffer cb;
  CHECK(vkAllocateCommandBuffers(device, &cbai, &cb));
  VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
  VkFence fence;
  CHECK(vkCreateFence(device, &fci, NULL, &fence));

  uint8_t block[256] = { 0 };
  VkDescriptorBufferInfo info = { .buffer = buffer, .offset = 0, .range = VK_WHOLE_SIZE };
  VkWriteDescriptorSet writes[16];
  for (int k = 0; k < buffers && k < 16; k++)
    writes[k] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = (uint32_t)k, .descriptorCount = 1,
                                        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info };
  VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
  VkMemoryBarrier barrier = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                              .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT };
  VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb };

#define RECORD() do { \
    if (buffers > 0) vkUpdateDescriptorSets(device, (uint32_t)buffers, writes, 0, NULL); \
    CHECK(vkResetCommandBuffer(cb, 0)); \
    CHECK(vkBeginCommandBuffer(cb, &begin)); \
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline); \
    if (buffers > 0) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, 1, &set, 0, NULL); \
    if (push > 0) vkCmdPushConstants(cb, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push, block); \
    vkCmdDispatch(cb, 1, 1, 1); \
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier, 0, NULL, 0, NULL); \
    CHECK(vkEndCommandBuffer(cb)); \
  } while (0)
#define SUBMIT_WAIT() do { \
    CHECK(vkResetFences(device, 1, &fence)); \
    CHECK(vkQueueSubmit(queue, 1, &submit, fence)); \
    CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, 60000000000ull)); \
  } while (0)

  for (int i = 0; i < 500; i++) { RECORD(); SUBMIT_WAIT(); }
  double recorded[SAMPLES], prerecorded[SAMPLES];
  for (int s = 0; s < SAMPLES; s++) {
    TIME_PER_ITERATION(&recorded[s], n, RECORD(); SUBMIT_WAIT(), RECORD());
    TIME_PER_ITERATION(&prerecorded[s], n, SUBMIT_WAIT(), (void)0);
  }
  CHECK(vkDeviceWaitIdle(device));
  printf("{\"device\": \"%s\", \"queueFamily\": %d, ", props.deviceName, family);
  print_samples("dispatchUs", recorded);
  printf(", ");
  print_samples("prerecordedUs", prerecorded);
  printf("}\n");
  return 0;
}
