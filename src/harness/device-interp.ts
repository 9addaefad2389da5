/**
 * The `interp` device (docs/harness.md "interp"): kernels compiled for `ptx:sm_90` (the
 * profile that takes every kernel of the v1 subset) and run by the reference interpreter on
 * the CPU, over host memory. It needs no driver, so `loom check --device interp` and
 * `loom run --device interp` work everywhere; a pass is a check of loom's semantics, not of a
 * back end.
 */
import { createPtxProfile, createPtxTargetEnvironment } from "../targets/ptx/index.js";
import type { DeviceProvider, HarnessBuffer, HarnessDevice } from "./devices.js";

/** The subgroup width interpreted launches run with (the profile's warp). */
const INTERP_SUBGROUP = 32;

let env: ReturnType<typeof createPtxTargetEnvironment> | undefined;

class HostBuffer implements HarnessBuffer {
  readonly bytes: Uint8Array;
  constructor(byteLength: number) {
    this.bytes = new Uint8Array(byteLength);
  }
  get byteLength(): number {
    return this.bytes.byteLength;
  }
  upload(bytes: Uint8Array): void {
    this.bytes.set(bytes.subarray(0, this.bytes.byteLength));
  }
  download(): Uint8Array {
    return this.bytes.slice();
  }
  destroy(): void {}
}

const FLOAT_SLOTS = new Set(["f16", "bf16", "f32", "f64"]);

function interpDevice(): HarnessDevice {
  const environment = (env ??= createPtxTargetEnvironment());
  const profile = createPtxProfile(environment, { identifier: "interp", identity: { target: "sm_90" } });
  return {
    kind: "interp",
    name: "loom reference interpreter",
    description: `the reference interpreter on the CPU (ptx:sm_90 profile, subgroups of ${INTERP_SUBGROUP}; no device timer)`,
    target: { environment, profile, artifactFormat: "ptx" },
    defaultSubgroupSize: INTERP_SUBGROUP,
    info: { interpreter: true, profile: "ptx:sm_90", subgroupSize: INTERP_SUBGROUP },
    createBuffer: (bytes) => new HostBuffer(bytes),
    load(kernel) {
      return {
        dispatch(launch, args) {
          const dispatched = launch.workgroupCount.every((c) => c > 0);
          if (!dispatched) return { dispatched };
          const values = args.map((a, i) => {
            if (a instanceof HostBuffer) return a.bytes;
            const slot = kernel.slots[i]?.type ?? "";
            return typeof a === "number" && !FLOAT_SLOTS.has(slot) ? BigInt(Math.trunc(a)) : (a as number | bigint);
          });
          const subgroupSize = launch.subgroupSize > 0 ? launch.subgroupSize : INTERP_SUBGROUP;
          kernel.interpreter().run({ workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, subgroupSize, args: values });
          return { dispatched };
        },
        destroy() {},
      };
    },
    destroy() {},
  };
}

export const INTERP_PROVIDER: DeviceProvider = {
  kind: "interp",
  summary: "loom's reference interpreter on the CPU (no driver; the ptx:sm_90 profile)",
  open: () => interpDevice(),
};
