/**
 * The child process that touches the device (a driver crash must not take the test runner
 * down). Usage: node child.js <job.json> <result.json>. Each scenario writes one JSON result;
 * comparisons with the CPU reference happen in the parent. Run without arguments (as
 * `node --test` does for every file under test/) it does nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { LoomError } from "../../../src/api/errors.js";
import {
  VulkanRuntime,
  VulkanError,
  argumentLayout,
  packArguments,
  type KernelLayout,
  type VulkanKernel,
} from "../../../src/runtime/vulkan/index.js";
import { REDUCE_GROUP, SAXPY_A, SAXPY_GROUP, reduceInputs, saxpyInputs, toBase64 } from "./cases.js";

export interface ChildJob {
  readonly scenario: string;
  /** Compiled shaders by name. */
  readonly shaders: Readonly<Record<string, string>>;
  readonly sizes?: readonly number[];
  readonly addressing?: "bindings" | "device-address";
  readonly square?: boolean;
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

function saxpyKernel(rt: VulkanRuntime, job: ChildJob, addressing: "bindings" | "device-address"): VulkanKernel {
  const { size } = argumentLayout([...SAXPY_TYPES]);
  const layout: KernelLayout = { argBlockSize: size, bufferOffsets: [0, 16], addressing };
  return rt.createKernel(spirv(job, addressing === "bindings" ? "saxpy" : "saxpy_address"), "main", layout);
}

function runSaxpy(rt: VulkanRuntime, kernel: VulkanKernel, n: number, timestamps = false) {
  const { x, y } = saxpyInputs(n);
  const xb = rt.createBuffer(4 * n);
  const yb = rt.createBuffer(4 * n);
  xb.upload(x);
  yb.upload(y);
  const { slots } = argumentLayout([...SAXPY_TYPES]);
  const argBlock = packArguments(slots, [kernel.bufferArgument(xb), kernel.bufferArgument(yb), SAXPY_A, BigInt(n)]);
  const result = rt.dispatch(kernel, { workgroupCount: [Math.ceil(n / SAXPY_GROUP), 1, 1], argBlock, buffers: [xb, yb], timestamps });
  const out = yb.download();
  xb.destroy();
  yb.destroy();
  return { n, dispatched: result.dispatched, gpuNs: result.gpuNs ?? null, y: toBase64(out) };
}

function saxpy(job: ChildJob) {
  const rt = VulkanRuntime.create();
  try {
    const kernel = saxpyKernel(rt, job, job.addressing ?? "bindings");
    return { runs: (job.sizes ?? []).map((n) => runSaxpy(rt, kernel, n, true)) };
  } finally {
    rt.destroy();
  }
}

function reduce(job: ChildJob) {
  const rt = VulkanRuntime.create();
  try {
    const { slots, size } = argumentLayout([...REDUCE_TYPES]);
    const kernel = rt.createKernel(spirv(job, "reduce"), "main", { argBlockSize: size, bufferOffsets: [slots[0]!.offset, slots[1]!.offset] });
    const runs = (job.sizes ?? []).map((n) => {
      const groups = Math.ceil(n / REDUCE_GROUP);
      const input = rt.createBuffer(4 * n);
      const partial = rt.createBuffer(4 * groups);
      input.upload(reduceInputs(n));
      const argBlock = packArguments(slots, [kernel.bufferArgument(input), kernel.bufferArgument(partial), n, job.square === true]);
      const r = rt.dispatch(kernel, { workgroupCount: [groups, 1, 1], argBlock, buffers: [input, partial] });
      return { n, dispatched: r.dispatched, partial: toBase64(partial.download()) };
    });
    return { runs };
  } finally {
    rt.destroy();
  }
}

/** Each misuse must throw a LoomError and leave y untouched (nothing was submitted). */
function misuse(job: ChildJob) {
  const rt = VulkanRuntime.create();
  try {
    const kernel = saxpyKernel(rt, job, "bindings");
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
    const other = VulkanRuntime.create();
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
      "arg block over the push-constant limit": () =>
        rt.createKernel(spirv(job, "saxpy"), "main", { argBlockSize: rt.deviceInfo().limits.maxPushConstantsSize + 8, bufferOffsets: [0, 16] }),
      "arg block size not a multiple of 4": () => rt.createKernel(spirv(job, "saxpy"), "main", { argBlockSize: 46, bufferOffsets: [0, 16] }),
      "overlapping buffer fields": () => rt.createKernel(spirv(job, "saxpy"), "main", { argBlockSize: 48, bufferOffsets: [0, 8] }),
      "buffer field outside the block": () => rt.createKernel(spirv(job, "saxpy"), "main", { argBlockSize: 48, bufferOffsets: [0, 40] }),
      "SPIR-V of odd length": () => rt.createKernel(spirv(job, "saxpy").subarray(0, 42), "main", { argBlockSize: 48, bufferOffsets: [0, 16] }),
      "not SPIR-V": () => rt.createKernel(new Uint8Array(64), "main", { argBlockSize: 48, bufferOffsets: [0, 16] }),
      "empty entry name": () => rt.createKernel(spirv(job, "saxpy"), "", { argBlockSize: 48, bufferOffsets: [0, 16] }),
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
    const layout = { argBlockSize: 48, bufferOffsets: [0, 16] };
    return {
      garbage: attempt(() => rt.createKernel(garbage, "main", layout)),
      wrongEntry: attempt(() => rt.createKernel(good, "no_such_entry", layout)),
      stillWorks: runSaxpy(rt, rt.createKernel(good, "main", layout), 3).dispatched,
    };
  } finally {
    rt.destroy();
  }
}

/** A layout that leaves out a binding the shader uses: the validation layer must object. */
function validationBite(job: ChildJob) {
  const rt = VulkanRuntime.create();
  try {
    return { created: attempt(() => rt.createKernel(spirv(job, "saxpy"), "main", { argBlockSize: 48, bufferOffsets: [0] })) };
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

const SCENARIOS: Record<string, (job: ChildJob) => unknown> = {
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
