/**
 * A loaded kernel: shader module, descriptor-set layout (one storage buffer per buffer
 * argument, as the kernel-interface record's bindings say), push-constant range holding the
 * explicit argument block, pipeline layout, compute pipeline (through the runtime's pipeline
 * cache), and a descriptor pool with the one set its dispatches rewrite. Everything it needs
 * to know about the module comes from the record the compiler wrote (docs/abi.md); it never
 * parses the SPIR-V.
 */
import {
  BUFFER_DESCRIPTOR_SET,
  InterfaceRecordError,
  pushConstantRange,
  checkExecutableInterface,
  describesExecutable,
  type ExecutableInterface,
  type KernelInterface,
} from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";
import { DESCRIPTOR_TYPE_STORAGE_BUFFER, PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS, SHADER_STAGE_COMPUTE, SPIRV_MAGIC, STYPE } from "./constants.js";
import { requireLive, type DeviceContext } from "./context.js";
import { NativeArena } from "./native-arena.js";
import { settle } from "./submit.js";
import { check } from "./vk-result.js";
import type { VulkanBuffer } from "./buffer.js";

/** How buffers reach the kernel (docs/abi.md, SPIR-V rows). */
export type Addressing = "bindings" | "device-address";

/** The kernel's device ABI as the runtime uses it, derived from its interface record. */
export interface KernelLayout {
  /** Bytes of the explicit argument block = push-constant range size; 0 when there are no args. */
  readonly argBlockSize: number;
  /**
   * Block offset of each buffer argument's 16-byte field (address, then byte length), in
   * buffer-argument order: buffer k is binding k in "bindings" addressing.
   */
  readonly bufferOffsets: readonly number[];
  readonly addressing: Addressing;
  /** The workgroup size baked into the module (undefined when the record leaves it to the launch). */
  readonly workgroupSize?: readonly [number, number, number];
}

/** The record of `entryName` (or of the only kernel) in `record`, checked against the bytes and the device. */
export function kernelRecordFor(ctx: DeviceContext, spirv: Uint8Array, record: ExecutableInterface, entryName: string | undefined): KernelInterface {
  if (record === undefined || record === null) {
    throw new LoomError("invalid-argument", "createKernel: the kernel-interface record is missing (pass the 'interface' artifact emitModule returns next to the SPIR-V, parsed)");
  }
  try {
    checkExecutableInterface(record);
  } catch (e) {
    if (e instanceof InterfaceRecordError) throw new LoomError("invalid-argument", `createKernel: ${e.message}`);
    throw e;
  }
  if (record.format !== "spirv") throw new LoomError("invalid-argument", `createKernel: the record describes a '${record.format}' executable, not SPIR-V`);
  if (!describesExecutable(record, spirv)) {
    throw new LoomError(
      "invalid-argument",
      `createKernel: the kernel-interface record describes '${record.identifier}' (${record.executable.byteLength} bytes, crc32 ${record.executable.crc32.toString(16)}), not this SPIR-V module (${spirv.byteLength} bytes): the record and the module disagree`,
    );
  }
  if (entryName !== undefined && (typeof entryName !== "string" || entryName.length === 0 || entryName.includes("\0"))) {
    throw new LoomError("invalid-argument", "createKernel: entryName must be a non-empty string without NUL");
  }
  const names = record.kernels.map((k) => k.entryName);
  if (entryName === undefined && record.kernels.length !== 1) {
    throw new LoomError("invalid-argument", `createKernel: '${record.identifier}' holds ${record.kernels.length} kernels (${names.join(", ")}); name the entry point`);
  }
  const kernel = entryName === undefined ? record.kernels[0] : record.kernels.find((k) => k.entryName === entryName);
  if (!kernel) throw new LoomError("not-found", `createKernel: '${record.identifier}' has no kernel '${entryName}' (has: ${names.join(", ") || "none"})`);
  const missing = kernel.requiredFeatures.filter((f) => (ctx.info.features as Readonly<Record<string, boolean | undefined>>)[f] !== true);
  if (missing.length > 0) {
    throw new LoomError("failed-precondition", `createKernel: kernel '${kernel.entryName}' needs the Vulkan feature(s) ${missing.join(", ")}, which '${ctx.info.name}' lacks`);
  }
  const ops = kernel.subgroup.operations.filter((op) => !ctx.info.subgroupOperations.includes(op));
  if (ops.length > 0) {
    throw new LoomError("failed-precondition", `createKernel: kernel '${kernel.entryName}' uses the subgroup operations ${ops.join(", ")}, which '${ctx.info.name}' lacks in compute shaders`);
  }
  return kernel;
}

/** Checks a kernel's record against the device's limits before any Vulkan object is made. */
export function layoutOf(ctx: DeviceContext, kernel: KernelInterface): KernelLayout {
  const addressing = kernel.bufferAddressing;
  if (addressing !== "bindings" && addressing !== "device-address") {
    throw new LoomError("invalid-argument", `createKernel: kernel '${kernel.entryName}' passes buffers by ${addressing}, which Vulkan does not`);
  }
  const size = kernel.argumentBlockBytes;
  if (size % 4 !== 0) throw new LoomError("invalid-argument", `createKernel: argument block of ${size} bytes is not a multiple of 4 (push constants)`);
  const max = ctx.info.limits.maxPushConstantsSize;
  if (size > max) {
    throw new LoomError("out-of-range", `createKernel: argument block of ${size} bytes exceeds the device's push-constant limit of ${max} bytes`);
  }
  const bufferOffsets = kernel.arguments.filter((a) => a.type === "buffer").map((a) => a.offset);
  if (addressing === "bindings") {
    // The descriptor-set layout below is bindings 0…B−1 of set 0, one per buffer argument.
    const expected = kernel.arguments.flatMap((a, argument) => (a.type === "buffer" ? [argument] : []));
    const bindings = [...kernel.bindings].sort((a, b) => a.binding - b.binding);
    const ok = bindings.length === expected.length && bindings.every((b, k) => b.set === BUFFER_DESCRIPTOR_SET && b.binding === k && b.argument === expected[k]);
    if (!ok) throw new LoomError("invalid-argument", `createKernel: kernel '${kernel.entryName}' has bindings the runtime does not follow (buffer k must be set 0, binding k)`);
  }
  if (addressing === "device-address" && !ctx.bufferDeviceAddress) {
    throw new LoomError("failed-precondition", `createKernel: "device-address" addressing needs bufferDeviceAddress, which '${ctx.info.name}' lacks`);
  }
  if (addressing === "bindings" && bufferOffsets.length > ctx.info.limits.maxPerStageDescriptorStorageBuffers) {
    throw new LoomError(
      "out-of-range",
      `createKernel: ${bufferOffsets.length} buffers exceed the device's ${ctx.info.limits.maxPerStageDescriptorStorageBuffers} storage buffers per stage`,
    );
  }
  const workgroupSize = kernel.workgroupSize === "launch-config" ? undefined : validateWorkgroupSize(ctx, kernel.workgroupSize);
  return { argBlockSize: size, bufferOffsets, addressing, ...(workgroupSize ? { workgroupSize } : {}) };
}

function validateWorkgroupSize(ctx: DeviceContext, size: readonly [number, number, number]): readonly [number, number, number] {
  const [x, y, z] = size;
  const { maxComputeWorkGroupSize: max, maxComputeWorkGroupInvocations: flat } = ctx.info.limits;
  if (x > max[0] || y > max[1] || z > max[2] || x * y * z > flat) {
    throw new LoomError(
      "out-of-range",
      `createKernel: workgroup size [${x}, ${y}, ${z}] exceeds the device's maxComputeWorkGroupSize [${max.join(", ")}] or ${flat} invocations`,
    );
  }
  return Object.freeze([x, y, z] as const);
}

/**
 * Whether the pipeline asks for full subgroups (docs/abi.md): the kernel uses subgroup
 * operations, the device enabled computeFullSubgroups, and the workgroup's x extent is a
 * multiple of the largest subgroup size (Vulkan's condition for the flag).
 */
export function wantsFullSubgroups(ctx: DeviceContext, usesSubgroups: boolean, workgroupSize: readonly [number, number, number] | undefined): boolean {
  return usesSubgroups && ctx.info.features.computeFullSubgroups && workgroupSize !== undefined && workgroupSize[0] % ctx.info.subgroupSizeRange.max === 0;
}

function validateSpirv(spirv: Uint8Array): void {
  if (!(spirv instanceof Uint8Array)) throw new LoomError("invalid-argument", "createKernel: spirv must be a Uint8Array");
  if (spirv.byteLength < 20 || spirv.byteLength % 4 !== 0) {
    throw new LoomError("invalid-argument", `createKernel: SPIR-V must be a whole number of 32-bit words with a 5-word header, got ${spirv.byteLength} bytes`);
  }
  const magic = new DataView(spirv.buffer, spirv.byteOffset, 4).getUint32(0, true);
  if (magic !== SPIRV_MAGIC) {
    throw new LoomError("invalid-argument", `createKernel: not little-endian SPIR-V (first word 0x${magic.toString(16).padStart(8, "0")})`);
  }
}

/** A compute pipeline made from a SPIR-V kernel and its interface record, ready to dispatch. */
export class VulkanKernel {
  readonly entryName: string;
  /** The kernel's interface record, as the compiler wrote it. */
  readonly record: KernelInterface;
  readonly layout: Readonly<KernelLayout>;
  /** The workgroup size baked into the module (undefined when the record leaves it to the launch). */
  readonly workgroupSize: readonly [number, number, number] | undefined;
  /** The pipeline was created with REQUIRE_FULL_SUBGROUPS (see wantsFullSubgroups). */
  readonly fullSubgroups: boolean;
  /** @internal */ readonly pipeline: bigint;
  /** @internal */ readonly pipelineLayout: bigint;
  /** @internal 0n without buffer bindings. */ readonly descriptorSet: bigint;
  private readonly shaderModule: bigint;
  private readonly setLayout: bigint;
  private readonly descriptorPool: bigint;
  private destroyed = false;

  /** @internal Use VulkanRuntime.createKernel. */
  constructor(
    /** @internal */ readonly ctx: DeviceContext,
    spirv: Uint8Array,
    record: ExecutableInterface,
    requestedEntry: string | undefined,
    private readonly onDestroy: (k: VulkanKernel) => void,
  ) {
    requireLive(ctx, "createKernel");
    validateSpirv(spirv);
    const kernel = kernelRecordFor(ctx, spirv, record, requestedEntry);
    const checked = layoutOf(ctx, kernel);
    const entryName = kernel.entryName;
    const workgroupSize = checked.workgroupSize;
    const fullSubgroups = wantsFullSubgroups(ctx, kernel.subgroup.fullSubgroups, workgroupSize);
    const { lib, device } = ctx;
    const arena = new NativeArena(lib);
    const cleanup: (() => void)[] = [];
    const out = arena.bytes(8);
    const create = (result: number, what: string, destroy: (h: bigint) => void): bigint => {
      check(result, what);
      const handle = arena.readU64(out);
      cleanup.push(() => destroy(handle));
      return handle;
    };
    try {
      const shaderModule = create(
        lib.vk.vkCreateShaderModule(
          device,
          arena.struct("VkShaderModuleCreateInfo", { sType: STYPE.SHADER_MODULE_CREATE_INFO, codeSize: spirv.byteLength, pCode: arena.copy(spirv) }),
          null,
          out,
        ),
        "vkCreateShaderModule",
        (h) => lib.vk.vkDestroyShaderModule(device, h, null),
      );
      const bufferCount = checked.addressing === "bindings" ? checked.bufferOffsets.length : 0;
      const bindings = Array.from({ length: bufferCount }, (_, k) => ({
        binding: k,
        descriptorType: DESCRIPTOR_TYPE_STORAGE_BUFFER,
        descriptorCount: 1,
        stageFlags: SHADER_STAGE_COMPUTE,
      }));
      const setLayout =
        bufferCount > 0
          ? create(
              lib.vk.vkCreateDescriptorSetLayout(
                device,
                arena.struct("VkDescriptorSetLayoutCreateInfo", {
                  sType: STYPE.DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                  bindingCount: bufferCount,
                  pBindings: arena.structs("VkDescriptorSetLayoutBinding", bindings),
                }),
                null,
                out,
              ),
              "vkCreateDescriptorSetLayout",
              (h) => lib.vk.vkDestroyDescriptorSetLayout(device, h, null),
            )
          : 0n;
      const pushRange = pushConstantRange(checked.argBlockSize);
      const pipelineLayout = create(
        lib.vk.vkCreatePipelineLayout(
          device,
          arena.struct("VkPipelineLayoutCreateInfo", {
            sType: STYPE.PIPELINE_LAYOUT_CREATE_INFO,
            setLayoutCount: setLayout ? 1 : 0,
            pSetLayouts: setLayout ? arena.handles([setLayout]) : null,
            pushConstantRangeCount: pushRange ? 1 : 0,
            pPushConstantRanges: pushRange ? arena.struct("VkPushConstantRange", { stageFlags: SHADER_STAGE_COMPUTE, ...pushRange }) : null,
          }),
          null,
          out,
        ),
        "vkCreatePipelineLayout",
        (h) => lib.vk.vkDestroyPipelineLayout(device, h, null),
      );
      const pipeline = create(
        lib.vk.vkCreateComputePipelines(
          device,
          ctx.pipelineCache,
          1,
          arena.struct("VkComputePipelineCreateInfo", {
            sType: STYPE.COMPUTE_PIPELINE_CREATE_INFO,
            stage: {
              sType: STYPE.PIPELINE_SHADER_STAGE_CREATE_INFO,
              flags: fullSubgroups ? PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS : 0,
              stage: SHADER_STAGE_COMPUTE,
              module: shaderModule,
              pName: arena.cstring(entryName),
            },
            layout: pipelineLayout,
            basePipelineIndex: -1,
          }),
          null,
          out,
        ),
        `vkCreateComputePipelines (entry '${entryName}')`,
        (h) => lib.vk.vkDestroyPipeline(device, h, null),
      );
      let descriptorPool = 0n;
      let descriptorSet = 0n;
      if (setLayout) {
        descriptorPool = create(
          lib.vk.vkCreateDescriptorPool(
            device,
            arena.struct("VkDescriptorPoolCreateInfo", {
              sType: STYPE.DESCRIPTOR_POOL_CREATE_INFO,
              maxSets: 1,
              poolSizeCount: 1,
              pPoolSizes: arena.struct("VkDescriptorPoolSize", { type: DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount: bufferCount }),
            }),
            null,
            out,
          ),
          "vkCreateDescriptorPool",
          (h) => lib.vk.vkDestroyDescriptorPool(device, h, null),
        );
        check(
          lib.vk.vkAllocateDescriptorSets(
            device,
            arena.struct("VkDescriptorSetAllocateInfo", {
              sType: STYPE.DESCRIPTOR_SET_ALLOCATE_INFO,
              descriptorPool,
              descriptorSetCount: 1,
              pSetLayouts: arena.handles([setLayout]),
            }),
            out,
          ),
          "vkAllocateDescriptorSets",
        );
        descriptorSet = arena.readU64(out); // freed with the pool
      }
      this.entryName = entryName;
      this.record = kernel;
      this.workgroupSize = workgroupSize;
      this.fullSubgroups = fullSubgroups;
      this.layout = Object.freeze({ ...checked, bufferOffsets: Object.freeze([...checked.bufferOffsets]) });
      this.shaderModule = shaderModule;
      this.setLayout = setLayout;
      this.pipelineLayout = pipelineLayout;
      this.pipeline = pipeline;
      this.descriptorPool = descriptorPool;
      this.descriptorSet = descriptorSet;
      cleanup.length = 0;
    } finally {
      for (const undo of cleanup.reverse()) undo();
      arena.free();
    }
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal */
  requireUsable(what: string): void {
    if (this.destroyed) throw new LoomError("failed-precondition", `${what}: kernel '${this.entryName}' was destroyed`);
    requireLive(this.ctx, what);
  }

  /**
   * The value to pack for a buffer argument of this kernel: its byte length, and its address
   * in "device-address" addressing (0 in "bindings" addressing, per the ABI).
   */
  bufferArgument(buffer: VulkanBuffer): { address: bigint; byteLength: number } {
    return { address: this.layout.addressing === "device-address" ? buffer.deviceAddress : 0n, byteLength: buffer.byteLength };
  }

  /** Frees the kernel's Vulkan objects (no-op when already destroyed). */
  destroy(): void {
    if (this.destroyed) return;
    if (this.ctx.state === "live") settle(this.ctx);
    this.destroyed = true;
    this.onDestroy(this);
    if (this.ctx.state !== "live") return;
    const { lib, device } = this.ctx;
    if (this.descriptorPool) lib.vk.vkDestroyDescriptorPool(device, this.descriptorPool, null);
    lib.vk.vkDestroyPipeline(device, this.pipeline, null);
    lib.vk.vkDestroyPipelineLayout(device, this.pipelineLayout, null);
    if (this.setLayout) lib.vk.vkDestroyDescriptorSetLayout(device, this.setLayout, null);
    lib.vk.vkDestroyShaderModule(device, this.shaderModule, null);
  }
}
