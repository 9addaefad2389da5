/**
 * A loaded kernel: shader module, descriptor-set layout (one storage buffer per buffer
 * argument, set 0 binding k, "bindings" addressing only), push-constant range holding the
 * explicit argument block, pipeline layout, compute pipeline (through the runtime's pipeline
 * cache), and a descriptor pool with the one set its dispatches rewrite.
 */
import { LoomError } from "../../core/errors.js";
import { DESCRIPTOR_TYPE_STORAGE_BUFFER, PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS, SHADER_STAGE_COMPUTE, SPIRV_MAGIC, STYPE } from "./constants.js";
import { requireLive, type DeviceContext } from "./context.js";
import { NativeArena } from "./native-arena.js";
import { scanSpirv } from "./spirv-scan.js";
import { check } from "./vk-result.js";
import type { VulkanBuffer } from "./buffer.js";

/** How buffers reach the kernel (language.md §7, SPIR-V rows). */
export type Addressing = "bindings" | "device-address";

/** The kernel's device ABI, as plain data (what the SPIR-V backend records for each kernel). */
export interface KernelLayout {
  /** Bytes of the explicit argument block = push-constant range size; 0 when there are no args. */
  readonly argBlockSize: number;
  /**
   * Block offset of each buffer argument's 16-byte field (address, then byte length), in
   * buffer-argument order: buffer k is binding k in "bindings" addressing.
   */
  readonly bufferOffsets: readonly number[];
  /** Default "bindings". */
  readonly addressing?: Addressing;
  /**
   * The kernel's workgroup size (LocalSize), from the launch config. Optional: without it the
   * module's literal LocalSize for the entry point is used; with it, a module declaring a
   * different LocalSize is rejected. It decides whether a subgroup kernel gets full subgroups.
   */
  readonly workgroupSize?: readonly [number, number, number];
}

/** A layout after validation: defaults filled in. */
export type CheckedLayout = Required<Omit<KernelLayout, "workgroupSize">> & { readonly workgroupSize?: readonly [number, number, number] };

/** Checks a layout against the device before any Vulkan object is made. */
export function validateLayout(ctx: DeviceContext, layout: KernelLayout): CheckedLayout {
  if (layout === null || typeof layout !== "object") throw new LoomError("invalid-argument", "createKernel: layout must be an object");
  const addressing = layout.addressing ?? "bindings";
  if (addressing !== "bindings" && addressing !== "device-address") {
    throw new LoomError("invalid-argument", `createKernel: layout.addressing must be "bindings" or "device-address", got ${String(addressing)}`);
  }
  const size = layout.argBlockSize;
  if (!Number.isSafeInteger(size) || size < 0 || size % 4 !== 0) {
    throw new LoomError("invalid-argument", `createKernel: layout.argBlockSize must be a non-negative multiple of 4, got ${size}`);
  }
  const max = ctx.info.limits.maxPushConstantsSize;
  if (size > max) {
    throw new LoomError("out-of-range", `createKernel: argument block of ${size} bytes exceeds the device's push-constant limit of ${max} bytes`);
  }
  if (!Array.isArray(layout.bufferOffsets)) throw new LoomError("invalid-argument", "createKernel: layout.bufferOffsets must be an array");
  const seen: number[] = [];
  layout.bufferOffsets.forEach((off, k) => {
    if (!Number.isSafeInteger(off) || off < 0 || off % 8 !== 0 || off + 16 > size) {
      throw new LoomError("invalid-argument", `createKernel: layout.bufferOffsets[${k}] = ${off} is not an 8-aligned 16-byte field inside the ${size}-byte block`);
    }
    const clash = seen.findIndex((o) => Math.abs(o - off) < 16);
    if (clash >= 0) throw new LoomError("invalid-argument", `createKernel: layout.bufferOffsets[${k}] overlaps bufferOffsets[${clash}]`);
    seen.push(off);
  });
  if (addressing === "device-address" && !ctx.bufferDeviceAddress) {
    throw new LoomError("failed-precondition", `createKernel: "device-address" addressing needs bufferDeviceAddress, which '${ctx.info.name}' lacks`);
  }
  if (addressing === "bindings" && layout.bufferOffsets.length > ctx.info.limits.maxPerStageDescriptorStorageBuffers) {
    throw new LoomError(
      "out-of-range",
      `createKernel: ${layout.bufferOffsets.length} buffers exceed the device's ${ctx.info.limits.maxPerStageDescriptorStorageBuffers} storage buffers per stage`,
    );
  }
  const workgroupSize = layout.workgroupSize === undefined ? undefined : validateWorkgroupSize(ctx, layout.workgroupSize);
  return { argBlockSize: size, bufferOffsets: [...layout.bufferOffsets], addressing, ...(workgroupSize ? { workgroupSize } : {}) };
}

function validateWorkgroupSize(ctx: DeviceContext, size: unknown): readonly [number, number, number] {
  if (!Array.isArray(size) || size.length !== 3 || !size.every((d) => typeof d === "number" && Number.isSafeInteger(d) && d > 0)) {
    throw new LoomError("invalid-argument", `createKernel: layout.workgroupSize must be three positive integers, got ${JSON.stringify(size)}`);
  }
  const [x, y, z] = size as [number, number, number];
  const { maxComputeWorkGroupSize: max, maxComputeWorkGroupInvocations: flat } = ctx.info.limits;
  if (x > max[0] || y > max[1] || z > max[2] || x * y * z > flat) {
    throw new LoomError(
      "out-of-range",
      `createKernel: layout.workgroupSize [${x}, ${y}, ${z}] exceeds the device's maxComputeWorkGroupSize [${max.join(", ")}] or ${flat} invocations`,
    );
  }
  return Object.freeze([x, y, z] as const);
}

/**
 * Whether the pipeline asks for full subgroups (docs/abi.md): the module uses subgroup
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

export class VulkanKernel {
  readonly entryName: string;
  readonly layout: Readonly<CheckedLayout>;
  /** The workgroup size: the layout's, else the module's literal LocalSize (undefined when neither). */
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
    entryName: string,
    layout: KernelLayout,
    private readonly onDestroy: (k: VulkanKernel) => void,
  ) {
    requireLive(ctx, "createKernel");
    validateSpirv(spirv);
    if (typeof entryName !== "string" || entryName.length === 0 || entryName.includes("\0")) {
      throw new LoomError("invalid-argument", "createKernel: entryName must be a non-empty string without NUL");
    }
    const checked = validateLayout(ctx, layout);
    const scan = scanSpirv(spirv);
    const declared = scan.localSize(entryName);
    if (checked.workgroupSize && declared && declared.some((d, i) => d !== checked.workgroupSize![i])) {
      throw new LoomError(
        "invalid-argument",
        `createKernel: layout.workgroupSize [${checked.workgroupSize.join(", ")}] differs from the LocalSize [${declared.join(", ")}] entry '${entryName}' declares`,
      );
    }
    const workgroupSize = checked.workgroupSize ?? declared;
    const fullSubgroups = wantsFullSubgroups(ctx, scan.usesSubgroups, workgroupSize);
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
      const pipelineLayout = create(
        lib.vk.vkCreatePipelineLayout(
          device,
          arena.struct("VkPipelineLayoutCreateInfo", {
            sType: STYPE.PIPELINE_LAYOUT_CREATE_INFO,
            setLayoutCount: setLayout ? 1 : 0,
            pSetLayouts: setLayout ? arena.handles([setLayout]) : null,
            pushConstantRangeCount: checked.argBlockSize > 0 ? 1 : 0,
            pPushConstantRanges:
              checked.argBlockSize > 0
                ? arena.struct("VkPushConstantRange", { stageFlags: SHADER_STAGE_COMPUTE, offset: 0, size: checked.argBlockSize })
                : null,
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
