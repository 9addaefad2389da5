/**
 * The child process that touches the device (a driver crash must not take the test runner
 * down). Usage: node child.js <job.json> <result.json>. Each scenario writes one JSON result;
 * comparisons with the CPU reference happen in the parent. Run without arguments (as
 * `node --test` does for every file under test/) it does nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { LoomError } from "../../../src/core/errors.js";
import {
  VulkanRuntime,
  VulkanError,
  argumentLayout,
  packArguments,
  type BufferMemory,
  type BufferOptions,
  type VulkanKernel,
  type VulkanRuntimeOptions,
} from "../../../src/runtime/vulkan/index.js";
import { REDUCE_GROUP, SAXPY_A, SAXPY_GROUP, reduceInputs, saxpyInputs, toBase64 } from "./cases.js";
import { recordFor, type RecordOptions } from "./record.js";

export interface ChildJob {
  readonly scenario: string;
  /** Compiled shaders by name. */
  readonly shaders: Readonly<Record<string, string>>;
  readonly sizes?: readonly number[];
  readonly addressing?: "bindings" | "device-address";
  readonly square?: boolean;
  /** Runtime options: forced staging and the staging (chunk) size. */
  readonly forceStaging?: boolean;
  readonly stagingBytes?: number;
  /** Memory of the buffers the scenario creates (default: the runtime's default, "device"). */
  readonly memory?: BufferMemory;
}

function runtimeOptions(job: ChildJob): VulkanRuntimeOptions {
  return {
    ...(job.forceStaging !== undefined ? { forceStaging: job.forceStaging } : {}),
    ...(job.stagingBytes !== undefined ? { stagingBytes: job.stagingBytes } : {}),
  };
}

function bufferOptions(job: ChildJob): BufferOptions {
  return job.memory ? { memory: job.memory } : {};
}

export interface CaughtError {
  readonly isLoomError: boolean;
  readonly status?: string;
  readonly vkResult?: string;
  readonly message: string;
}

function caught(e: unknown): CaughtError {
  const err = e as Error;
  return {
    isLoomError: e instanceof LoomError,
    status: e instanceof LoomError ? e.status : undefined,
    vkResult: e instanceof VulkanError ? e.vkResult : undefined,
    message: err?.message ?? String(e),
  };
}

function attempt(fn: () => unknown): CaughtError | { ok: true } {
  try {
    fn();
    return { ok: true };
  } catch (e) {
    return caught(e);
  }
}

const SAXPY_TYPES = ["buffer", "buffer", "f32", "index"] as const;
const REDUCE_TYPES = ["buffer", "buffer", "i32", "i1"] as const;

function spirv(job: ChildJob, name: string): Uint8Array {
  return new Uint8Array(readFileSync(job.shaders[name]!));
}

const SAXPY_RECORD: RecordOptions = { types: SAXPY_TYPES, workgroupSize: [SAXPY_GROUP, 1, 1] };

/** Loads `bytes` with a saxpy record changed by `change` (to make it wrong on purpose). */
function saxpyWith(rt: VulkanRuntime, bytes: Uint8Array, change: Partial<RecordOptions> = {}, entryName?: string): VulkanKernel {
  return rt.createKernel(bytes, recordFor(bytes, { ...SAXPY_RECORD, ...change }), entryName);
}

function saxpyKernel(rt: VulkanRuntime, job: ChildJob, addressing: "bindings" | "device-address"): VulkanKernel {
  return saxpyWith(rt, spirv(job, addressing === "bindings" ? "saxpy" : "saxpy_address"), { addressing, ...(addressing === "device-address" ? { requiredFeatures: ["shaderInt64", "bufferDeviceAddress"] } : {}) });
}

function runSaxpy(rt: VulkanRuntime, kernel: VulkanKernel, n: number, timestamps = false, options: BufferOptions = {}) {
  const { x, y } = saxpyInputs(n);
  const xb = rt.createBuffer(4 * n, options);
  const yb = rt.createBuffer(4 * n, options);
  const access = yb.access;
  xb.upload(x);
  yb.upload(y);
  const { slots } = argumentLayout([...SAXPY_TYPES]);
  const argBlock = packArguments(slots, [kernel.bufferArgument(xb), kernel.bufferArgument(yb), SAXPY_A, BigInt(n)]);
  const result = rt.dispatch(kernel, { workgroupCount: [Math.ceil(n / SAXPY_GROUP), 1, 1], argBlock, buffers: [xb, yb], timestamps });
  const out = yb.download();
  xb.destroy();
  yb.destroy();
  return { n, dispatched: result.dispatched, gpuNs: result.gpuNs ?? null, y: toBase64(out), access };
}

function saxpy(job: ChildJob) {
  const rt = VulkanRuntime.create(runtimeOptions(job));
  try {
    const kernel = saxpyKernel(rt, job, job.addressing ?? "bindings");
    return { runs: (job.sizes ?? []).map((n) => runSaxpy(rt, kernel, n, true, bufferOptions(job))) };
  } finally {
    rt.destroy();
  }
}

function reduce(job: ChildJob) {
  const rt = VulkanRuntime.create(runtimeOptions(job));
  try {
    const { slots } = argumentLayout([...REDUCE_TYPES]);
    const bytes = spirv(job, "reduce");
    const kernel = rt.createKernel(bytes, recordFor(bytes, { types: REDUCE_TYPES, workgroupSize: [REDUCE_GROUP, 1, 1] }));
    const runs = (job.sizes ?? []).map((n) => {
      const groups = Math.ceil(n / REDUCE_GROUP);
      const input = rt.createBuffer(4 * n, bufferOptions(job));
      const partial = rt.createBuffer(4 * groups, bufferOptions(job));
      input.upload(reduceInputs(n));
      const argBlock = packArguments(slots, [kernel.bufferArgument(input), kernel.bufferArgument(partial), n, job.square === true]);
      const r = rt.dispatch(kernel, { workgroupCount: [groups, 1, 1], argBlock, buffers: [input, partial] });
      return { n, dispatched: r.dispatched, partial: toBase64(partial.download()), access: partial.access };
    });
    return { runs };
  } finally {
    rt.destroy();
  }
}

/** Each misuse must throw a LoomError and leave y untouched (nothing was submitted). */
function misuse(job: ChildJob) {
  const rt = VulkanRuntime.create(runtimeOptions(job));
  try {
    const kernel = saxpyKernel(rt, job, "bindings");
    const bytes = spirv(job, "saxpy");
    const n = 100;
    const { x, y } = saxpyInputs(n);
    const xb = rt.createBuffer(4 * n);
    const yb = rt.createBuffer(4 * n);
    const small = rt.createBuffer(4 * n - 4);
    xb.upload(x);
    yb.upload(y);
    const { slots, size } = argumentLayout([...SAXPY_TYPES]);
    const block = (xArg: unknown, yArg: unknown) => packArguments(slots, [xArg as never, yArg as never, SAXPY_A, BigInt(n)]);
    const good = block(kernel.bufferArgument(xb), kernel.bufferArgument(yb));
    const count: [number, number, number] = [Math.ceil(n / SAXPY_GROUP), 1, 1];
    const other = VulkanRuntime.create(runtimeOptions(job));
    const foreign = other.createBuffer(4 * n);
    const dead = rt.createBuffer(4 * n);
    dead.destroy();
    const cases: Record<string, () => unknown> = {
      "one buffer short": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb] }),
      "one buffer too many": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb, yb, yb] }),
      "arg block too short": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: good.subarray(0, size - 8), buffers: [xb, yb] }),
      "arg block too long": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: new Uint8Array(size + 8), buffers: [xb, yb] }),
      "buffer smaller than declared": () =>
        rt.dispatch(kernel, {
          workgroupCount: count,
          argBlock: block(kernel.bufferArgument(xb), { address: 0n, byteLength: 4 * n }),
          buffers: [xb, small],
        }),
      "nonzero address in bindings mode": () =>
        rt.dispatch(kernel, { workgroupCount: count, argBlock: block({ address: 4096n, byteLength: 4 * n }, kernel.bufferArgument(yb)), buffers: [xb, yb] }),
      "workgroup count over the device limit": () =>
        rt.dispatch(kernel, { workgroupCount: [rt.deviceInfo().limits.maxComputeWorkGroupCount[0] + 1, 1, 1], argBlock: good, buffers: [xb, yb] }),
      "negative workgroup count": () => rt.dispatch(kernel, { workgroupCount: [-1, 1, 1], argBlock: good, buffers: [xb, yb] }),
      "fractional workgroup count": () => rt.dispatch(kernel, { workgroupCount: [1.5, 1, 1], argBlock: good, buffers: [xb, yb] }),
      "two-element workgroup count": () => rt.dispatch(kernel, { workgroupCount: [1, 1] as never, argBlock: good, buffers: [xb, yb] }),
      "buffer of another runtime": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb, foreign] }),
      "destroyed buffer": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb, dead] }),
      "not a buffer": () => rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb, {} as never] }),
      "upload past the end": () => yb.upload(new Uint8Array(8), 4 * n - 4),
      "download past the end": () => yb.download(4, 4 * n),
      "negative buffer size": () => rt.createBuffer(-1),
      "unknown buffer memory": () => rt.createBuffer(4, { memory: "shared" as never }),
      "upload of a non-view": () => yb.upload([1, 2, 3] as never),
      "zero workgroup size": () => saxpyWith(rt, bytes, { workgroupSize: [0, 1, 1] }),
      "workgroup size over the device limit": () => saxpyWith(rt, bytes, { workgroupSize: [rt.deviceInfo().limits.maxComputeWorkGroupSize[0] + 1, 1, 1] }),
      "record of another module": () => {
        const edited = bytes.slice();
        edited[edited.length - 1]! ^= 1; // a module one bit away: same length, other CRC
        return rt.createKernel(bytes, recordFor(edited, SAXPY_RECORD));
      },
      "missing record": () => rt.createKernel(bytes, undefined as never),
      "record of another version": () => rt.createKernel(bytes, { ...recordFor(bytes, SAXPY_RECORD), version: 2 as never }),
      "unknown entry in the record": () => saxpyWith(rt, bytes, {}, "no_such_entry"),
      "feature the device lacks": () => saxpyWith(rt, bytes, { requiredFeatures: ["shaderInt64", "noSuchFeature"] }),
      "arg block over the push-constant limit": () =>
        saxpyWith(rt, bytes, { override: { argumentBlockBytes: rt.deviceInfo().limits.maxPushConstantsSize + 8 } }),
      "arg block size not a multiple of 4": () =>
        saxpyWith(rt, bytes, { override: { argumentBlockBytes: 46, arguments: [{ name: "x", type: "buffer", offset: 0, size: 16 }, { name: "y", type: "buffer", offset: 16, size: 16 }] } }),
      "overlapping buffer fields": () =>
        saxpyWith(rt, bytes, { override: { arguments: [{ name: "x", type: "buffer", offset: 0, size: 16 }, { name: "y", type: "buffer", offset: 8, size: 16 }] } }),
      "buffer field outside the block": () =>
        saxpyWith(rt, bytes, { override: { arguments: [{ name: "x", type: "buffer", offset: 0, size: 16 }, { name: "y", type: "buffer", offset: 40, size: 16 }] } }),
      "SPIR-V of odd length": () => rt.createKernel(bytes.subarray(0, 42), recordFor(bytes, SAXPY_RECORD)),
      "not SPIR-V": () => rt.createKernel(new Uint8Array(64), recordFor(new Uint8Array(64), SAXPY_RECORD)),
      "empty entry name": () => saxpyWith(rt, bytes, {}, ""),
    };
    const results: Record<string, CaughtError | { ok: true }> = {};
    for (const [name, fn] of Object.entries(cases)) results[name] = attempt(fn);
    const untouched = Buffer.from(yb.download()).equals(Buffer.from(y.buffer));
    // A zero count in any dimension is valid and dispatches nothing.
    const zero = rt.dispatch(kernel, { workgroupCount: [count[0], 0, 1], argBlock: good, buffers: [xb, yb] });
    const untouchedAfterZero = Buffer.from(yb.download()).equals(Buffer.from(y.buffer));
    // After all that, the good dispatch still works.
    const ok = rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb, yb] });
    // Use after destroy.
    kernel.destroy();
    const afterKernelDestroy = attempt(() => rt.dispatch(kernel, { workgroupCount: count, argBlock: good, buffers: [xb, yb] }));
    other.destroy();
    rt.destroy();
    const afterRuntimeDestroy = attempt(() => rt.createBuffer(4));
    const downloadAfterDestroy = attempt(() => yb.download());
    return {
      results,
      access: yb.access,
      untouched,
      zeroDispatched: zero.dispatched,
      untouchedAfterZero,
      okDispatched: ok.dispatched,
      afterKernelDestroy,
      afterRuntimeDestroy,
      downloadAfterDestroy,
    };
  } finally {
    rt.destroy();
  }
}

/** Driver failures surface with their VkResult names. */
function invalidSpirv(job: ChildJob) {
  const rt = VulkanRuntime.create();
  try {
    const good = spirv(job, "saxpy");
    const garbage = good.slice();
    for (let i = 20; i < garbage.length; i++) garbage[i] = (i * 37) & 0xff;
    return {
      garbage: attempt(() => saxpyWith(rt, garbage)),
      // A hand-made record naming an entry the module lacks gets past the fingerprint: the driver objects.
      wrongEntry: attempt(() => saxpyWith(rt, good, { entryName: "no_such_entry" })),
      stillWorks: runSaxpy(rt, saxpyWith(rt, good), 3).dispatched,
    };
  } finally {
    rt.destroy();
  }
}

/** A layout that leaves out a binding the shader uses: the validation layer must object. */
function validationBite(job: ChildJob) {
  const rt = VulkanRuntime.create();
  try {
    // A record that leaves out the second buffer (binding 1) the shader uses.
    return { created: attempt(() => saxpyWith(rt, spirv(job, "saxpy"), { types: ["buffer", "index", "f32", "index"] })) };
  } finally {
    rt.destroy();
  }
}

function deviceInfo() {
  const rt = VulkanRuntime.create();
  try {
    return { info: rt.deviceInfo(), facts: rt.profileFacts(), devices: VulkanRuntime.listDevices().map((d) => d.name) };
  } finally {
    rt.destroy();
  }
}

/** Opening a runtime as configured by the environment; reports the device or the error. */
function open() {
  let rt: VulkanRuntime | undefined;
  try {
    rt = VulkanRuntime.create();
    return { device: rt.deviceInfo().name, index: rt.deviceInfo().index };
  } catch (e) {
    return { error: caught(e) };
  } finally {
    rt?.destroy();
  }
}

/** Pipeline-cache data saved from one runtime seeds the next, which still dispatches correctly. */
function pipelineCache(job: ChildJob) {
  const first = VulkanRuntime.create();
  let data: Uint8Array;
  try {
    saxpyKernel(first, job, "bindings");
    data = first.pipelineCacheData();
  } finally {
    first.destroy();
  }
  const second = VulkanRuntime.create({ pipelineCache: data });
  try {
    const run = runSaxpy(second, saxpyKernel(second, job, "bindings"), 1009);
    return { cacheBytes: data.byteLength, run };
  } finally {
    second.destroy();
  }
}

/** Deterministic bytes: a function of (seed, i) only. */
function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (Math.imul(i + seed, 2654435761) >>> 24) ^ (i & 0xff);
  return out;
}

/** Index of the first byte where a and b differ (-1 when equal, length when lengths differ). */
function firstMismatch(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/**
 * Uploads and downloads with offsets, odd sizes and many chunks, each compared in the child
 * with a plain-JS model of the buffer's bytes; reports the first mismatch of every step.
 */
function transfers(job: ChildJob) {
  const rt = VulkanRuntime.create(runtimeOptions(job));
  try {
    const steps: { step: string; mismatch: number }[] = [];
    const check = (step: string, got: Uint8Array, want: Uint8Array) => steps.push({ step, mismatch: firstMismatch(got, want) });
    const exercise = (label: string, size: number) => {
      const b = rt.createBuffer(size, bufferOptions(job));
      const model = new Uint8Array(size);
      check(`${label}: new buffer reads as zeros`, b.download(), model);
      const write = (offset: number, data: ArrayBufferView) => {
        b.upload(data, offset);
        model.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), offset);
      };
      write(0, pattern(size, 1));
      check(`${label}: whole upload`, b.download(), model);
      write(1, pattern(Math.min(4097, size - 1), 2));
      write(size - 3, pattern(3, 3));
      write(size, new Uint8Array(0));
      write(Math.floor(size / 3), new Uint16Array(pattern(2 * Math.floor(size / 9), 4).buffer).subarray(1)); // a view at an offset
      check(`${label}: after offset uploads`, b.download(), model);
      const at = (o: number) => Math.min(o, size);
      const ranges = [[at(3), Math.floor((size - at(3)) / 2) + (size > 3 ? 1 : 0)], [Math.max(0, size - 5), Math.min(5, size)], [size, 0], [at(7), size - at(7)]];
      for (const [offset, length] of ranges as [number, number][]) {
        check(`${label}: download(${offset}, ${length})`, b.download(offset, length), model.subarray(offset, offset + length));
      }
      const access = b.access;
      b.destroy();
      return access;
    };
    const access = [exercise("small", 10_003), exercise("large", 3 * (1 << 20) + 5), exercise("tiny", 3)];
    return { steps, access };
  } finally {
    rt.destroy();
  }
}

/** Full-subgroup pipelines: which kernels get the flag, and what a subgroup kernel sees. */
function subgroups(job: ChildJob) {
  const rt = VulkanRuntime.create(runtimeOptions(job));
  try {
    const groups = 4;
    const n = 64 * groups;
    const bytes = spirv(job, "subgroup_count");
    const record = (subgroupOperations: string[]) => recordFor(bytes, { types: ["buffer"], workgroupSize: [64, 1, 1], subgroupOperations });
    const withOperations = rt.createKernel(bytes, record(["basic"]));
    const withoutOperations = rt.createKernel(bytes, record([]));
    const out = rt.createBuffer(8 * n, bufferOptions(job));
    const argBlock = packArguments([{ type: "buffer", offset: 0 }], [withOperations.bufferArgument(out)]);
    rt.dispatch(withOperations, { workgroupCount: [groups, 1, 1], argBlock, buffers: [out] });
    const words = new Uint32Array(out.download().buffer);
    return {
      subgroupSize: rt.deviceInfo().subgroupSizeRange.max,
      computeFullSubgroups: rt.deviceInfo().features.computeFullSubgroups,
      withOperations: { fullSubgroups: withOperations.fullSubgroups, workgroupSize: withOperations.workgroupSize },
      withoutOperations: { fullSubgroups: withoutOperations.fullSubgroups, workgroupSize: withoutOperations.workgroupSize },
      saxpy: saxpyKernel(rt, job, "bindings").fullSubgroups,
      counts: [...words.subarray(0, n)],
      sizes: [...words.subarray(n)],
    };
  } finally {
    rt.destroy();
  }
}

/** Runtime options that must be refused before a device is opened. */
function badOptions() {
  const cases: Record<string, () => unknown> = {
    "stagingBytes 0": () => VulkanRuntime.create({ stagingBytes: 0 }),
    "forceStaging 'yes'": () => VulkanRuntime.create({ forceStaging: "yes" as never }),
  };
  return { errors: Object.fromEntries(Object.entries(cases).map(([name, fn]) => [name, attempt(fn)])) };
}

const SCENARIOS: Record<string, (job: ChildJob) => unknown> = {
  transfers,
  "bad-options": badOptions,
  subgroups,
  saxpy,
  reduce,
  misuse,
  "invalid-spirv": invalidSpirv,
  "validation-bite": validationBite,
  "device-info": deviceInfo,
  open,
  "pipeline-cache": pipelineCache,
};

function main(): void {
  const [jobFile, resultFile] = process.argv.slice(2);
  if (!jobFile || !resultFile) return; // picked up by `node --test`: nothing to do
  const job = JSON.parse(readFileSync(jobFile, "utf8")) as ChildJob;
  const run = SCENARIOS[job.scenario];
  if (!run) throw new Error(`unknown scenario ${job.scenario}`);
  const result = run(job);
  writeFileSync(resultFile, JSON.stringify(result, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
}

main();
