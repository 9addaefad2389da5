/** The `kernel` dialect (language.md §4.1): kernels, the launch geometry, coordinates, sync. */
import { family, INDEX_RESULT as index, op, type Annotated, type Predicate, type SymbolProps } from "../decl.js";

const custom = { form: "custom" } as const;

export interface KernelProps extends SymbolProps {
  readonly exportName?: string;
  readonly retain: boolean;
  readonly target?: string;
  readonly workloadWhere?: readonly Predicate[];
  readonly launchWhere?: readonly Predicate[];
}

export interface ReduceProps extends Annotated {
  readonly kind: string;
  readonly clusterSize?: number;
}

export const KERNEL_OPS = {
  /** regions [config (args = workload args), body (args = device args)] */
  "kernel.def": op<KernelProps>({ placement: "", pure: false, topLevel: true, syntax: custom, doc: "dispatchable kernel: launch-config region and device body" }),
  /** regions [workload signature, launch signature]: args only, no ops */
  "kernel.decl": op<KernelProps>({ placement: "", pure: false, topLevel: true, syntax: custom, doc: "declaration of a kernel defined in another module" }),
  /** operands [gx, gy, gz, sx, sy, sz, (cx, cy, cz)?] */
  "kernel.launch.config": op<Annotated & { readonly cluster: boolean }>({
    placement: "C", pure: true, terminator: true, syntax: custom, doc: "yields the launch geometry; last op of the config region",
  }),
  "kernel.return": op({ placement: "D", pure: true, terminator: true, syntax: custom, doc: "ends the invocation; terminator of the kernel body" }),
  ...family("kernel", "workitem.id workgroup.id workgroup.size workgroup.count workitem.dispatch.id", op<Annotated & { readonly dim: "x" | "y" | "z" }>({
    placement: "D", pure: true, syntax: custom, types: index, doc: "launch coordinate query along a dimension",
  })),
  ...family("kernel", "subgroup.id subgroup.size subgroup.lane.id subgroup.count", op({ placement: "D", pure: true, syntax: custom, types: index, doc: "subgroup coordinate query" })),
  // `private` parses (as in the reference) and is rejected by the verifier (STRUCTURE/014).
  "kernel.barrier": op<{ readonly memory: "workgroup" | "global" | "private"; readonly scope: string; readonly ordering: string }>({
    placement: "DF", pure: false, collective: "workgroup", syntax: custom, doc: "workgroup/global memory barrier at a scope",
  }),
  /** operands [v] */
  "kernel.subgroup.reduce": op<ReduceProps>({ placement: "D", pure: false, collective: "subgroup", syntax: custom, doc: "subgroup collective reduction" }),
  /** operands [v, off, width] */
  "kernel.subgroup.shuffle": op<Annotated & { readonly mode: "xor" | "up" | "down" | "index" }>({
    placement: "D", pure: false, collective: "subgroup", syntax: custom, doc: "subgroup lane shuffle",
  }),
  /** operands [v, lane] */
  "kernel.subgroup.broadcast": op({ placement: "D", pure: false, collective: "subgroup", syntax: custom, doc: "subgroup broadcast from one lane" }),
  "kernel.workgroup.reduce": op<ReduceProps>({
    placement: "D", pure: false, collective: "workgroup", syntax: custom, doc: "workgroup collective reduction (may use compiler scratch)",
  }),
  "kernel.workgroup.scan": op<ReduceProps & { readonly direction: "forward" | "reverse"; readonly mode: "inclusive" | "exclusive" }>({
    placement: "D", pure: false, collective: "workgroup", syntax: custom, doc: "workgroup prefix scan in flat-id order (forward or reverse, inclusive or exclusive)",
  }),
  /** operands [ok] */
  "kernel.assert": op<{ readonly message?: string }>({ placement: "D", pure: false, syntax: custom, doc: "traps the dispatch when the condition is false" }),
} as const;
