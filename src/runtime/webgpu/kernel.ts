/**
 * A compute pipeline for one kernel of a WGSL module, laid out from its kernel-interface record
 * (docs/abi.md, WGSL): buffer argument k at `@group(0) @binding(k)` as a storage buffer
 * (read-only where the record says so), then the explicit argument block as one uniform
 * buffer at the binding after the last buffer. The WGSL is never parsed:
 * Tint checks it against this layout when the pipeline is made.
 */
import { LoomError } from "../../core/errors.js";
import { checkExecutableInterface, describesExecutable, type ExecutableInterface, type KernelInterface } from "../../abi/index.js";
import { BUFFER_USAGE, SHADER_STAGE_COMPUTE, limitOf, type GpuBindGroupLayoutLike, type GpuBufferBindingLayout, type GpuBufferLike, type GpuComputePipelineLike, type GpuCompilationMessageLike, type GpuDeviceLike } from "./gpu.js";
import { WebGpuError, scoped } from "./errors.js";
import type { BufferArgument } from "./args.js";
import type { WebGpuBuffer } from "./buffer.js";

/** The executable format the record must name. */
const WGSL_FORMAT = "wgsl";


/** The bind-group layout a kernel was made with. */
export interface KernelLayout {
  /** Per buffer argument k (binding k): whether the kernel only reads it. */
  readonly buffers: readonly { readonly binding: number; readonly argument: number; readonly readOnly: boolean }[];
  /** The argument block's uniform binding (the buffer count); absent for an empty block. */
  readonly argumentBlock?: { readonly binding: number; readonly bytes: number };
}

/** What a kernel needs from its runtime. */
export interface KernelHost {
  readonly device: GpuDeviceLike;
  requireLive(what: string): void;
}

/** `readOnly: true` marks a buffer the kernel only reads (docs/abi.md, WGSL); absent = read-write. */
interface WgslBindingExtras {
  readonly readOnly?: boolean;
}

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

/**
 * A compiled WGSL kernel on the runtime's device: its interface record, the binding layout the
 * runtime derived from it and the static workgroup size. Made by `WebGpuRuntime.createKernel`;
 * dispatch it with `WebGpuRuntime.dispatch`.
 */
export class WebGpuKernel {
  #destroyed = false;

  /** @internal */
  constructor(
    /** @internal */ readonly host: KernelHost,
    readonly record: KernelInterface,
    readonly layout: KernelLayout,
    readonly workgroupSize: readonly [number, number, number],
    /** Tint's warnings and notes for the module (errors fail `createKernel`). */
    readonly compilationMessages: readonly GpuCompilationMessageLike[],
    /** @internal */ readonly bindGroupLayout: GpuBindGroupLayoutLike,
    /** @internal */ readonly pipeline: GpuComputePipelineLike,
    /** @internal */ readonly blockBuffer: GpuBufferLike | undefined,
  ) {}

  get destroyed(): boolean {
    return this.#destroyed;
  }

  /** @internal */
  requireLive(what: string): void {
    if (this.#destroyed) throw new LoomError("failed-precondition", `${what}: the kernel was destroyed`);
    this.host.requireLive(what);
  }

  /** The block field of a buffer argument: address 0 (buffers are bindings) and its byte length. */
  bufferArgument(buffer: WebGpuBuffer): BufferArgument {
    return { address: 0, byteLength: buffer.byteLength };
  }

  /** Frees the kernel's argument-block buffer; later dispatches of it fail, a second `destroy` does nothing. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.blockBuffer?.destroy();
  }
}

/** The record's kernel `entry` (or its only kernel), checked against the bytes and the device. */
export function selectKernel(wgsl: Uint8Array, record: ExecutableInterface, entry: string | undefined, device: GpuDeviceLike): KernelInterface {
  if (record === undefined || record === null) throw new LoomError("invalid-argument", "createKernel: a kernel-interface record is required (the 'interface' artifact)");
  try {
    checkExecutableInterface(record);
  } catch (e) {
    throw new LoomError("invalid-argument", `createKernel: ${(e as Error).message}`);
  }
  if (record.format !== WGSL_FORMAT) throw new LoomError("invalid-argument", `createKernel: the record describes a '${record.format}' executable, not WGSL`);
  if (!describesExecutable(record, wgsl)) throw new LoomError("invalid-argument", `createKernel: the record and the module disagree (record: ${record.executable.byteLength} bytes, CRC ${record.executable.crc32}; module: ${wgsl.byteLength} bytes)`);
  const names = record.kernels.map((k) => k.entryName);
  const kernel = entry === undefined ? (record.kernels.length === 1 ? record.kernels[0] : undefined) : record.kernels.find((k) => k.entryName === entry);
  if (!kernel) {
    throw new LoomError(entry === undefined ? "invalid-argument" : "not-found", entry === undefined ? `createKernel: the module has ${names.length} kernels (${names.join(", ")}); name one` : `createKernel: the record has no entry '${entry}' (has: ${names.join(", ") || "none"})`);
  }
  if (kernel.bufferAddressing !== "bindings") throw new LoomError("invalid-argument", `createKernel: WebGPU binds buffers; the record says '${kernel.bufferAddressing}'`);
  const missing = kernel.requiredFeatures.filter((f) => !device.features.has(f));
  if (missing.length > 0) throw new LoomError("failed-precondition", `createKernel: '${kernel.entryName}' needs the WebGPU feature(s) ${missing.join(", ")}, which the device lacks`);
  return kernel;
}

/** The bind-group layout the record implies; checks it against the device limits. */
export function kernelLayout(kernel: KernelInterface, device: GpuDeviceLike): KernelLayout {
  const buffers = kernel.bindings.map((b, k) => {
    if (b.set !== 0 || b.binding !== k) throw new LoomError("invalid-argument", `createKernel: binding ${k} of '${kernel.entryName}' is set ${b.set}, binding ${b.binding}; WebGPU kernels bind buffer k at group 0, binding k`);
    const extras = b as typeof b & WgslBindingExtras;
    return { binding: k, argument: b.argument, readOnly: extras.readOnly === true };
  });
  const bufferArguments = kernel.arguments.filter((a) => a.type === "buffer").length;
  if (buffers.length !== bufferArguments) throw new LoomError("invalid-argument", `createKernel: '${kernel.entryName}' has ${bufferArguments} buffer arguments but ${buffers.length} bindings`);
  const maxStorage = limitOf(device.limits, "maxStorageBuffersPerShaderStage") ?? 8;
  if (buffers.length > maxStorage) throw new LoomError("out-of-range", `createKernel: '${kernel.entryName}' binds ${buffers.length} storage buffers; the device allows ${maxStorage} per stage`);
  const argumentBlock = kernel.argumentBlockBytes > 0 ? { binding: buffers.length, bytes: kernel.argumentBlockBytes } : undefined;
  return { buffers, ...(argumentBlock ? { argumentBlock } : {}) };
}

/** The static workgroup size, checked against the device's compute limits. */
export function workgroupSizeOf(kernel: KernelInterface, device: GpuDeviceLike): [number, number, number] {
  const size = kernel.workgroupSize;
  if (size === "launch-config") throw new LoomError("unimplemented", `createKernel: '${kernel.entryName}' chooses its workgroup size per launch; WGSL kernels need a static @workgroup_size`);
  const [x, y, z] = size;
  const limits = device.limits;
  const checks: [string, number][] = [["maxComputeWorkgroupSizeX", x], ["maxComputeWorkgroupSizeY", y], ["maxComputeWorkgroupSizeZ", z], ["maxComputeInvocationsPerWorkgroup", x * y * z], ["maxComputeWorkgroupStorageSize", kernel.workgroupStorageBytes]];
  for (const [name, value] of checks) {
    const limit = limitOf(limits, name);
    if (limit !== undefined && value > limit) throw new LoomError("out-of-range", `createKernel: '${kernel.entryName}' needs ${name} ≥ ${value}; the device has ${limit}`);
  }
  return [x, y, z];
}

/** Tint's messages as `line:col: type: message` lines. */
export function formatCompilationMessages(messages: readonly GpuCompilationMessageLike[]): string {
  return messages.map((m) => `${m.lineNum}:${m.linePos}: ${m.type}: ${m.message}`).join("\n");
}

/** Shader module, bind-group layout, pipeline layout and pipeline, each failure a WebGpuError. */
export async function buildKernel(host: KernelHost, wgsl: Uint8Array, record: ExecutableInterface, entry: string | undefined): Promise<WebGpuKernel> {
  host.requireLive("createKernel");
  const device = host.device;
  const kernel = selectKernel(wgsl, record, entry, device);
  const layout = kernelLayout(kernel, device);
  const workgroupSize = workgroupSizeOf(kernel, device);
  const code = new TextDecoder("utf-8", { fatal: false }).decode(wgsl);
  const what = `createKernel '${kernel.entryName}'`;
  const { module, messages } = await scoped(device, what, async () => {
    const module = device.createShaderModule({ code, label: record.identifier });
    const messages = (await module.getCompilationInfo()).messages;
    const errors = messages.filter((m) => m.type === "error");
    if (errors.length > 0) throw new WebGpuError("compilation", formatCompilationMessages(errors), `${what} (${record.identifier})`);
    return { module, messages };
  });
  const entries: GpuBufferBindingLayout[] = layout.buffers.map((b) => ({ binding: b.binding, visibility: SHADER_STAGE_COMPUTE, buffer: { type: b.readOnly ? "read-only-storage" : "storage" } }));
  if (layout.argumentBlock) entries.push({ binding: layout.argumentBlock.binding, visibility: SHADER_STAGE_COMPUTE, buffer: { type: "uniform" } });
  return scoped(device, what, async () => {
    const bindGroupLayout = device.createBindGroupLayout({ entries, label: kernel.entryName });
    const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout], label: kernel.entryName });
    const pipeline = await device.createComputePipelineAsync({ layout: pipelineLayout, compute: { module, entryPoint: kernel.entryName }, label: kernel.entryName });
    const block = layout.argumentBlock;
    // A uniform binding's size is the WGSL struct's size, which rounds up to 16 bytes.
    const blockBuffer = block
      ? device.createBuffer({ size: alignUp(block.bytes, 16), usage: BUFFER_USAGE.UNIFORM | BUFFER_USAGE.COPY_DST, label: `${kernel.entryName} arguments` })
      : undefined;
    return new WebGpuKernel(host, kernel, layout, workgroupSize, messages, bindGroupLayout, pipeline, blockBuffer);
  });
}
