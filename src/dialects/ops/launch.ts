/**
 * The host-side launch ops: `kernel.launch` / `kernel.dispatch` and the launch schedules
 * (`kernel.launch.serial`, `kernel.launch.concurrent`) of the check harness's cases and the
 * reference's launch programs (src/launch), with the bodyless `kernel.entry.decl` they may
 * target. None reaches a device. The check harness's own ops (`check.case` …) are check.ts,
 * registered only where the harness is loaded.
 */
import { op, shape, type Annotated, type SymbolProps } from "../decl.js";

const custom = { form: "custom" } as const;

/** `kernel.launch` / `kernel.dispatch`: the symbol, and how many operands the `[…]` list holds. */
export interface HostLaunchProps extends SymbolProps, Annotated {
  /** Operands before this index are the `[…]` list (workload values, or workgroup counts). */
  readonly bracketCount: number;
  /** Whether the `[…]` list was written (`@k[](…)` and `@k(…)` print differently). */
  readonly bracketed: boolean;
  /** `kernel.dispatch … workgroup_size(…)`: how many operands, at the end, that clause holds. */
  readonly sizeCount?: number;
}

export const LAUNCH_OPS = {
  /** regions [launch signature] (arguments only) */
  "kernel.entry.decl": op({ props: shape<SymbolProps>(), operands: 0, results: 0,
    regions: 1, placement: "", pure: false, topLevel: true, syntax: custom,
  }),
  /** operands [workload or counts…, arguments…] */
  // Also in function bodies: a host function (the reference's launch programs) launches kernels; never in device code.
  "kernel.launch": op({ props: shape<HostLaunchProps>(), operands: { min: 0 }, results: 0, placement: "FH", pure: false, syntax: custom }),
  "kernel.dispatch": op({ props: shape<HostLaunchProps>(), operands: { min: 0 }, results: 0, placement: "FH", pure: false, syntax: custom }),
  // A launch schedule (the reference's launch programs): its launches run in order (serial) or in any order
  // (concurrent); its body holds launches and schedules only and ends with kernel.launch.yield (omitted in print).
  "kernel.launch.serial": op({ operands: 0, results: 0, regions: 1, placement: "FH", pure: false, syntax: custom }),
  "kernel.launch.concurrent": op({ operands: 0, results: 0, regions: 1, placement: "FH", pure: false, syntax: custom }),
  "kernel.launch.yield": op({ operands: 0, results: 0, placement: "FH", pure: true, terminator: true, syntax: custom }),
} as const;
