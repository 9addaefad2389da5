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

/** The `GPU` object (`navigator.gpu`, or `create([])` of Node's `webgpu` package): where adapters come from. */
export interface GpuEntry {
  /** An adapter matching the options, or null when the implementation has none. */
  requestAdapter(options?: { powerPreference?: "low-power" | "high-performance"; featureLevel?: string }): Promise<GpuAdapterLike | null>;
}

/** A `GPUAdapter`: the features and limits it offers, and the device request. */
export interface GpuAdapterLike {
  readonly features: GpuSetLike;
  readonly limits: GpuLimitsLike;
  readonly info?: GpuAdapterInfoLike;
  /**
   * A device with at least the required features and limits (the implementation rejects what the
   * adapter lacks).
   */
  requestDevice(descriptor?: { requiredFeatures?: string[]; requiredLimits?: Record<string, number>; label?: string }): Promise<GpuDeviceLike>;
}

export interface GpuErrorLike {
  readonly message: string;
}

/** A `GPUCompilationMessage`: a shader compiler error, warning or note at a 1-based line and column of the WGSL. */
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

/** A `GPUDevice`: the calls this runtime makes to create resources, record work and scope errors. */
export interface GpuDeviceLike {
  readonly features: GpuSetLike;
  readonly limits: GpuLimitsLike;
  readonly queue: GpuQueueLike;
  readonly lost: Promise<{ readonly reason?: string; readonly message: string }>;
  /** Starts capturing errors of one kind (WebGPU error scopes nest). */
  pushErrorScope(filter: "validation" | "out-of-memory" | "internal"): void;
  /** Ends the innermost error scope: its first error, or null. */
  popErrorScope(): Promise<GpuErrorLike | null>;
  /** A buffer of `size` bytes with the given usage bits. */
  createBuffer(descriptor: { size: number; usage: number; label?: string; mappedAtCreation?: boolean }): GpuBufferLike;
  /** Compiles WGSL (errors come through `getCompilationInfo` and error scopes). */
  createShaderModule(descriptor: { code: string; label?: string }): GpuShaderModuleLike;
  /** A bind group layout of buffer bindings. */
  createBindGroupLayout(descriptor: { entries: GpuBufferBindingLayout[]; label?: string }): GpuBindGroupLayoutLike;
  /** A pipeline layout from bind group layouts. */
  createPipelineLayout(descriptor: { bindGroupLayouts: GpuBindGroupLayoutLike[]; label?: string }): GpuPipelineLayoutLike;
  /** A compute pipeline for one entry point; rejects when the shader does not validate. */
  createComputePipelineAsync(descriptor: {
    layout: GpuPipelineLayoutLike;
    compute: { module: GpuShaderModuleLike; entryPoint: string };
    label?: string;
  }): Promise<GpuComputePipelineLike>;
  /** A bind group binding buffers (optionally a byte range of each) to binding numbers. */
  createBindGroup(descriptor: {
    layout: GpuBindGroupLayoutLike;
    entries: { binding: number; resource: { buffer: GpuBufferLike; offset?: number; size?: number } }[];
    label?: string;
  }): GpuBindGroupLike;
  /** A command encoder for one submission. */
  createCommandEncoder(descriptor?: { label?: string }): GpuCommandEncoderLike;
  /** A set of `count` timestamp queries (only with the `timestamp-query` feature). */
  createQuerySet(descriptor: { type: "timestamp"; count: number }): GpuQuerySetLike;
  /** Destroys the device: its resources become invalid and `lost` resolves. */
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
