/**
 * What a kernel-suite manifest describes (examples/kernels/suite.ts): cases with inputs, the
 * launch workload and a plain-JS reference, and the seeded generator that fills inputs.
 */

export type HostArray = Float32Array | Int32Array | Uint32Array;

/** How an output is compared: bit-exact, or |got − want| ≤ epsilons·2⁻²³·magnitude + absolute. */
export type Comparison = { readonly kind: "exact" } | { readonly kind: "float"; readonly epsilons: number; readonly absolute?: number };

export type CaseArgument =
  | { readonly kind: "buffer"; readonly name: string; readonly data: HostArray }
  | { readonly kind: "scalar"; readonly name: string; readonly value: number | bigint };

export interface ExpectedOutput {
  readonly values: HostArray;
  /** Per-element magnitude the float bound scales with (default: |expected|). */
  readonly magnitude?: ArrayLike<number>;
  readonly compare: Comparison;
}

/** One run of one kernel: inputs, launch workload, and the plain-JS reference. */
export interface KernelCase {
  /** e.g. "n=97" or "33x40 k=48". */
  readonly label: string;
  /** One value per workload argument (integers). */
  readonly workload: readonly (number | bigint)[];
  /** One per device argument, in launch(…) order; buffers hold their initial contents. */
  readonly args: readonly CaseArgument[];
  /** Least bytes the kernel must read and write (for GB/s). */
  readonly bytesMoved: number;
  /** Expected contents of each output buffer, by argument name. */
  reference(): Readonly<Record<string, ExpectedOutput>>;
}

/** Workload values plus named extra sizes (device scalars such as matmul's k). */
export interface CaseShape {
  readonly workload: readonly number[];
  readonly sizes?: Readonly<Record<string, number>>;
}

/** One kernel of the suite: its file, symbol, shapes to run and how to build a case. */
export interface SuiteKernel {
  /** File name in examples/kernels, e.g. "saxpy.loom". */
  readonly file: string;
  readonly symbol: string;
  readonly summary: string;
  /** Extra size names `build` reads from `sizes` (documented defaults otherwise). */
  readonly sizeNames: readonly string[];
  readonly shapes: { readonly test: readonly CaseShape[]; readonly quick: readonly CaseShape[]; readonly bench: readonly CaseShape[] };
  /** The case for one shape, its inputs filled from `seed`. */
  build(shape: CaseShape, seed: number): KernelCase;
}

/** xorshift32 in [0, 1); deterministic for a seed. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}
