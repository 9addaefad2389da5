/** The `kernel` dialect (language.md §4.1): kernels, the launch geometry, coordinates, sync. */
import { family, INDEX_RESULT as index, op, shape, type Annotated, type Predicate, type SymbolProps } from "../decl.js";

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
  "kernel.def": op({ props: shape<KernelProps>(), operands: 0, results: 0, regions: 2, placement: "", pure: false, topLevel: true, syntax: custom }),
  /** regions [workload signature, launch signature]: args only, no ops */
  "kernel.decl": op({ props: shape<KernelProps>(), operands: 0, results: 0, regions: 2, placement: "", pure: false, topLevel: true, syntax: custom }),
  /** operands [gx, gy, gz, sx, sy, sz, (cx, cy, cz)?] */
  "kernel.launch.config": op({ props: shape<Annotated & { readonly cluster: boolean }>(),
    operands: { min: 6 }, results: 0, placement: "C", pure: true, terminator: true, syntax: custom,
  }),
  "kernel.return": op({ operands: 0, results: 0, placement: "D", pure: true, terminator: true, syntax: custom }),
  ...family("kernel", "workitem.id workgroup.id workgroup.size workgroup.count workitem.dispatch.id", op({ props: shape<Annotated & { readonly dim: "x" | "y" | "z" }>(),
    operands: 0, results: 1, placement: "D", pure: true, syntax: custom, types: index,
  })),
  ...family("kernel", "subgroup.id subgroup.size subgroup.lane.id subgroup.count", op({ operands: 0, results: 1, placement: "D", pure: true, syntax: custom, types: index })),
  // `private` parses (as in the reference) and is rejected by the verifier (STRUCTURE/014).
  "kernel.barrier": op({ props: shape<{ readonly memory: "workgroup" | "global" | "private"; readonly scope: string; readonly ordering: string }>(),
    operands: 0, results: 0, placement: "DF", pure: false, collective: "workgroup", syntax: custom,
  }),
  /** operands [v] */
  "kernel.subgroup.reduce": op({ props: shape<ReduceProps>(), operands: 1, results: 1, placement: "D", pure: false, collective: "subgroup", syntax: custom }),
  /** operands [v, off, width]; results [value, valid] */
  "kernel.subgroup.shuffle": op({ props: shape<Annotated & { readonly mode: "xor" | "up" | "down" | "index" }>(),
    operands: 3, results: 2, placement: "D", pure: false, collective: "subgroup", syntax: custom,
  }),
  /** operands [v, lane] */
  "kernel.subgroup.broadcast": op({ operands: 2, results: 1, placement: "D", pure: false, collective: "subgroup", syntax: custom }),
  "kernel.workgroup.reduce": op({ props: shape<ReduceProps>(),
    operands: 1, results: 1, placement: "D", pure: false, collective: "workgroup", syntax: custom,
  }),
  "kernel.workgroup.scan": op({ props: shape<ReduceProps & { readonly direction: "forward" | "reverse"; readonly mode: "inclusive" | "exclusive" }>(),
    operands: 1, results: 1, placement: "D", pure: false, collective: "workgroup", syntax: custom,
  }),
  /** operands [ok] */
  "kernel.assert": op({ props: shape<{ readonly message?: string }>(), operands: 1, results: 0, placement: "D", pure: false, syntax: custom }),
} as const;
