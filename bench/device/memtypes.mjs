const { VulkanRuntime } = await import(process.cwd() + "/dist/src/runtime/vulkan/index.js");
const rt = VulkanRuntime.create();
console.log(JSON.stringify({ name: rt.deviceInfo().name, memoryTypes: rt.ctx.memoryTypes }));
rt.destroy();
