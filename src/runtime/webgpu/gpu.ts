/**
 * The slice of the WebGPU API this runtime calls, as structural types: a browser's
 * `navigator.gpu` and Node's `webgpu` package (Dawn) both satisfy them, and loom needs neither
 * the DOM library nor `@webgpu/types` to build. Flag values are the spec's numbers, so no
 * `GPUBufferUsage`/`GPUMapMode` global is needed either (Node's `webgpu` does not install them).
 */

/** GPUBufferUsage bits (WebGPU §5.1.1). */
export const BUFFER_USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80, QUERY_RESOLVE: 0x200 } as const;
/** GPUMapMode.READ. */
export const MAP_READ = 0x1;
/** GPUShaderStage.COMPUTE. */
export const SHADER_STAGE_COMPUTE = 0x4;

export interface GpuSetLike extends Iterable<string> {
  has(name: string): boolean;
}

export interface GpuAdapterInfoLike {
  readonly vendor?: string;
  readonly architecture?: string;
  readonly device?: string;
  readonly description?: string;
}

/** GPUSupportedLimits: numeric fields by name. */
export type GpuLimitsLike = object;

export interface GpuEntry {
  requestAdapter(options?: { powerPreference?: "low-power" | "high-performance"; featureLevel?: string }): Promise<GpuAdapterLike | null>;
}

export interface GpuAdapterLike {
  readonly features: GpuSetLike;
  readonly limits: GpuLimitsLike;
  readonly info?: GpuAdapterInfoLike;
  requestDevice(descriptor?: { requiredFeatures?: string[]; requiredLimits?: Record<string, number>; label?: string }): Promise<GpuDeviceLike>;
}

export interface GpuErrorLike {
  readonly message: string;
}

export interface GpuCompilationMessageLike {
  readonly type: string;
  readonly lineNum: number;
  readonly linePos: number;
  readonly message: string;
}

export interface GpuShaderModuleLike {
  getCompilationInfo(): Promise<{ readonly messages: readonly GpuCompilationMessageLike[] }>;
}

export interface GpuBufferLike {
  readonly size: number;
  mapAsync(mode: number, offset?: number, size?: number): Promise<undefined | void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

export interface GpuBindGroupLayoutLike {
  readonly label: string;
}
export interface GpuBindGroupLike {
  readonly label: string;
}
export interface GpuPipelineLayoutLike {
  readonly label: string;
}
export interface GpuComputePipelineLike {
  readonly label: string;
}
export interface GpuQuerySetLike {
  destroy(): void;
}

export interface GpuBufferBindingLayout {
  binding: number;
  visibility: number;
  buffer: { type: "uniform" | "storage" | "read-only-storage" };
}

export interface GpuComputePassLike {
  setPipeline(pipeline: GpuComputePipelineLike): void;
  setBindGroup(index: number, group: GpuBindGroupLike): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}

export interface GpuCommandEncoderLike {
  beginComputePass(descriptor?: {
    timestampWrites?: { querySet: GpuQuerySetLike; beginningOfPassWriteIndex?: number; endOfPassWriteIndex?: number };
  }): GpuComputePassLike;
  copyBufferToBuffer(source: GpuBufferLike, sourceOffset: number, destination: GpuBufferLike, destinationOffset: number, size: number): void;
  resolveQuerySet(querySet: GpuQuerySetLike, firstQuery: number, queryCount: number, destination: GpuBufferLike, destinationOffset: number): void;
  finish(): GpuCommandBufferLike;
}
export type GpuCommandBufferLike = object;

export interface GpuQueueLike {
  writeBuffer(buffer: GpuBufferLike, bufferOffset: number, data: Uint8Array, dataOffset?: number, size?: number): void;
  submit(commandBuffers: GpuCommandBufferLike[]): void;
  onSubmittedWorkDone(): Promise<undefined | void>;
}

export interface GpuDeviceLike {
  readonly features: GpuSetLike;
  readonly limits: GpuLimitsLike;
  readonly queue: GpuQueueLike;
  readonly lost: Promise<{ readonly reason?: string; readonly message: string }>;
  pushErrorScope(filter: "validation" | "out-of-memory" | "internal"): void;
  popErrorScope(): Promise<GpuErrorLike | null>;
  createBuffer(descriptor: { size: number; usage: number; label?: string; mappedAtCreation?: boolean }): GpuBufferLike;
  createShaderModule(descriptor: { code: string; label?: string }): GpuShaderModuleLike;
  createBindGroupLayout(descriptor: { entries: GpuBufferBindingLayout[]; label?: string }): GpuBindGroupLayoutLike;
  createPipelineLayout(descriptor: { bindGroupLayouts: GpuBindGroupLayoutLike[]; label?: string }): GpuPipelineLayoutLike;
  createComputePipelineAsync(descriptor: {
    layout: GpuPipelineLayoutLike;
    compute: { module: GpuShaderModuleLike; entryPoint: string };
    label?: string;
  }): Promise<GpuComputePipelineLike>;
  createBindGroup(descriptor: {
    layout: GpuBindGroupLayoutLike;
    entries: { binding: number; resource: { buffer: GpuBufferLike; offset?: number; size?: number } }[];
    label?: string;
  }): GpuBindGroupLike;
  createCommandEncoder(descriptor?: { label?: string }): GpuCommandEncoderLike;
  createQuerySet(descriptor: { type: "timestamp"; count: number }): GpuQuerySetLike;
  destroy(): void;
}

/** A numeric limit of a GPUSupportedLimits object (undefined when the implementation lacks it). */
export function limitOf(limits: GpuLimitsLike, name: string): number | undefined {
  const v = (limits as Record<string, unknown>)[name];
  return typeof v === "number" ? v : undefined;
}

/** The names in a GPUSupportedFeatures set, sorted. */
export function featureNames(features: GpuSetLike): string[] {
  return [...features].sort();
}
