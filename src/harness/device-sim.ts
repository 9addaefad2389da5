/**
 * The `sim` device (docs/harness.md "sim"): kernels compiled by loomc/target/amdgpu into an
 * HSA code object and run by the AMDGPU ISA simulator (loomc/runtime/sim) on the CPU. The
 * simulator executes the machine code the back end emitted, never loom's IR, so a pass here
 * is a check of AMDGPU code generation against the CPU reference. Kernels the back end cannot
 * lower yet fail to compile with its TARGET diagnostics.
 */
import { LoomError } from "../index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../targets/amdgpu/index.js";
import { SimRuntime, type ArgValue as SimArg, type SimBuffer } from "../runtime/sim/index.js";
import type { DeviceProvider, HarnessBuffer, HarnessDevice } from "./devices.js";

/** Processors the simulator runs, with their wave width; the first is the default. */
const SIM_PROCESSORS = { gfx1100: 32, gfx942: 64 } as const;
type SimProcessor = keyof typeof SIM_PROCESSORS;

let amdgpuEnv: ReturnType<typeof createAmdgpuTargetEnvironment> | undefined;
function amdgpuEnvironment(): ReturnType<typeof createAmdgpuTargetEnvironment> {
  return (amdgpuEnv ??= createAmdgpuTargetEnvironment());
}

class SimHarnessBuffer implements HarnessBuffer {
  constructor(
    readonly runtime: SimRuntime,
    readonly buffer: SimBuffer,
  ) {}
  get byteLength(): number {
    return this.buffer.byteLength;
  }
  upload(bytes: Uint8Array): void {
    this.runtime.upload(this.buffer, bytes);
  }
  download(): Uint8Array {
    return this.runtime.download(this.buffer);
  }
  destroy(): void {
    this.runtime.free(this.buffer);
  }
}

/** A HarnessDevice over a simulator, compiling for `processor` (gfx1100: wave32, gfx942: wave64). */
function simDevice(processor: SimProcessor = "gfx1100", rt: SimRuntime = new SimRuntime()): HarnessDevice {
  const env = amdgpuEnvironment();
  const wave = SIM_PROCESSORS[processor];
  const profile = createAmdgpuProfile(env, { identifier: `sim-${processor}`, identity: { target: processor } });
  return {
    kind: "sim",
    name: `AMDGPU simulator (${processor})`,
    description: `${processor}, wave${wave}, loom's ISA simulator on the CPU (no device timer)`,
    target: { environment: env, profile, artifactFormat: "amdgpu-hsaco" },
    defaultSubgroupSize: wave,
    info: { processor, wavefrontSize: wave, simulator: "loomc/runtime/sim" },
    createBuffer: (bytes) => new SimHarnessBuffer(rt, rt.allocate(bytes)),
    load(kernel) {
      const handle = rt.loadCodeObject(kernel.executable, kernel.record).kernel(kernel.exportName);
      return {
        dispatch(launch, args) {
          const values: SimArg[] = args.map((a) => (a instanceof SimHarnessBuffer ? a.buffer : (a as number | bigint)));
          const dispatched = launch.workgroupCount.every((c) => c > 0);
          if (!dispatched) return { dispatched };
          rt.launch(handle, launch.workgroupCount, values, { workgroupSize: launch.workgroupSize });
          // The simulator's own time is CPU time, not a device's: no gpuNs.
          return { dispatched };
        },
        destroy() {},
      };
    },
    destroy() {},
  };
}

export const SIM_PROVIDER: DeviceProvider = {
  kind: "sim",
  summary: `loom's AMDGPU ISA simulator on the CPU (AMDGPU code; --device-index picks the processor: ${Object.keys(SIM_PROCESSORS).join(", ")})`,
  open(selector) {
    const processor = selector ?? "gfx1100";
    if (!Object.hasOwn(SIM_PROCESSORS, processor)) {
      throw new LoomError("not-found", `the simulator runs ${Object.keys(SIM_PROCESSORS).join(" and ")} code, not '${processor}'`);
    }
    return simDevice(processor as SimProcessor);
  },
};
