/**
 * `LaunchConfigProgram` (api.md §5): loads a launch-config artifact, compiles each function
 * once into two specialized JS functions (the number fast path and the exact bigint path),
 * and evaluates launches. Where `new Function` is forbidden (a strict Content-Security-Policy)
 * or `{ codegen: false }` is passed, both paths are built as closure trees instead
 * (closure-fast.ts, closure-exact.ts), with the same behaviour.
 *
 * Every invocation validates its arguments, runs the fast path when the arguments allow it
 * and falls back to the exact path otherwise (or when the fast path is not certain), and
 * writes the output only after every check passed. `invokeInto`/`invokeNumbers` on the
 * fast path do no string lookup, parsing or allocation.
 */
import { LoomError } from "../core/errors.js";
import { exactArgsFromBits, exactArgsFromNumbers, fastNumbersFromBits } from "./args.js";
import { compileExact, type ExactFunction } from "./codegen-exact.js";
import { FAST_BUDGET, FAST_DONE, compileFast, type FastFunction } from "./codegen-fast.js";
import { codeGenerationAvailable } from "./codegen-support.js";
import { closeExact } from "./closure-exact.js";
import { closeFast } from "./closure-fast.js";
import { decodeLaunchConfig } from "./decode.js";
import { LaunchMessages } from "./messages.js";
import { LIMITS, type LType, type LaunchFunction } from "./model.js";

/** The evaluated launch (api.md §5). */
export interface LaunchConfig {
  workgroupCount: [number, number, number];
  workgroupSize: [number, number, number];
  /** [1, 1, 1] in Loom v1. */
  workgroupClusterSize: [number, number, number];
  /** The compiled version's fixed subgroup width, 0 when not fixed. */
  subgroupSize: number;
  /** Total workgroup-local bytes the kernel needs. */
  workgroupStorageBytes: number;
}

/** A fresh, zeroed `LaunchConfig` to pass to `invokeInto`/`invokeNumbers`. */
export function createLaunchConfig(): LaunchConfig {
  return { workgroupCount: [0, 0, 0], workgroupSize: [0, 0, 0], workgroupClusterSize: [0, 0, 0], subgroupSize: 0, workgroupStorageBytes: 0 };
}

/** Options of `LaunchConfigProgram.load`. */
export interface LaunchConfigLoadOptions {
  /**
   * `false` builds the closure evaluator even where code generation works (what a page with
   * a strict Content-Security-Policy gets automatically). Default: generate code when the
   * realm allows `new Function`, closures otherwise.
   */
  readonly codegen?: boolean;
}

/** How a program evaluates: generated JS functions, or closure trees (no `new Function`). */
export type LaunchEvaluator = "codegen" | "closures";

/** A program-local handle for one function; look it up once, invoke many times. */
export class LaunchConfigFunction {
  /** @internal */ readonly fast: FastFunction;
  /** @internal */ readonly exact: ExactFunction;
  /** @internal */ readonly messages: LaunchMessages;
  /** @internal */ readonly scratch: Float64Array;
  /** @internal The last `out` that passed `checkOut` (skips re-validating the same object). */
  readonly cache: { lastOut: LaunchConfig | undefined } = { lastOut: undefined };
  readonly argumentTypes: readonly LType[];
  readonly argumentNames: readonly string[];

  /** @internal */
  constructor(
    /** @internal */ readonly program: LaunchConfigProgram,
    /** @internal */ readonly data: LaunchFunction,
    evaluator: LaunchEvaluator,
  ) {
    this.exact = evaluator === "codegen" ? compileExact(data) : closeExact(data);
    this.fast = evaluator === "codegen" ? compileFast(data) : closeFast(data);
    this.messages = new LaunchMessages(data);
    this.scratch = new Float64Array(data.args.length);
    this.argumentTypes = Object.freeze(data.args.map((a) => a.type));
    this.argumentNames = Object.freeze(data.args.map((a) => a.name));
    Object.freeze(this);
  }

  /** The export name this function was looked up by. */
  get name(): string {
    return this.data.exportName;
  }
}

/** A loaded launch-configuration program (`.loombc`): computes launch configurations on the host for the kernels it was compiled with. */
export class LaunchConfigProgram {
  readonly #functions: ReadonlyMap<string, LaunchConfigFunction>;
  readonly producer: string;
  /** Which evaluator `load` built: generated code, or closures (strict CSP, or `{ codegen: false }`). */
  readonly evaluator: LaunchEvaluator;

  private constructor(functions: readonly LaunchFunction[], producer: string, evaluator: LaunchEvaluator) {
    this.producer = producer;
    this.evaluator = evaluator;
    this.#functions = new Map(functions.map((f) => [f.exportName, new LaunchConfigFunction(this, f, evaluator)]));
  }

  /**
   * Loads an artifact (`{contents}`) or raw `.loombc` bytes; bad bytes → `LoomError("data-loss")`.
   * Compiles with `new Function` where the realm allows it and builds closures otherwise;
   * `{ codegen: false }` forces closures.
   */
  static load(artifactOrBytes: { readonly contents: Uint8Array } | Uint8Array, options: LaunchConfigLoadOptions = {}): LaunchConfigProgram {
    const bytes = artifactOrBytes instanceof Uint8Array ? artifactOrBytes : (artifactOrBytes as { contents?: unknown } | null)?.contents;
    if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "LaunchConfigProgram.load: expected an artifact with 'contents' or a Uint8Array");
    const codegen = (options as LaunchConfigLoadOptions | null)?.codegen;
    if (codegen !== undefined && typeof codegen !== "boolean") throw new LoomError("invalid-argument", "LaunchConfigProgram.load: options.codegen must be a boolean");
    const decoded = decodeLaunchConfig(bytes);
    return new LaunchConfigProgram(decoded.functions, decoded.producer, codegen !== false && codeGenerationAvailable() ? "codegen" : "closures");
  }

  /** Export names of every function, in artifact order. */
  get functionNames(): readonly string[] {
    return [...this.#functions.keys()];
  }

  /** The launch-configuration function exported as `exportName`. Throws `LoomError("invalid-argument")` for a non-string name and `LoomError("not-found")` when there is none. */
  lookupFunction(exportName: string): LaunchConfigFunction {
    if (typeof exportName !== "string") throw new LoomError("invalid-argument", "lookupFunction: the export name must be a string");
    const f = this.#functions.get(exportName.startsWith("@") ? exportName.slice(1) : exportName);
    if (!f) {
      const names = this.functionNames;
      throw new LoomError("not-found", `no launch-config function '${exportName}' (available: ${names.length ? names.join(", ") : "none"})`);
    }
    return f;
  }

  /** Evaluates with raw 64-bit argument bits; returns a new `LaunchConfig`. */
  invoke(fn: LaunchConfigFunction, args: readonly bigint[] | BigUint64Array): LaunchConfig {
    if (fn?.program !== this) this.#own(fn);
    const out = createLaunchConfig();
    write(out, fn.exact(exactArgsFromBits(fn.argumentTypes, args, fn.messages)), fn.data);
    return out;
  }

  /** As `invoke`, writing into a caller-owned `LaunchConfig` (untouched on failure). */
  invokeInto(fn: LaunchConfigFunction, args: readonly bigint[] | BigUint64Array, out: LaunchConfig): void {
    if (fn?.program !== this) this.#own(fn);
    if (out !== fn.cache.lastOut) checkOut(fn, out);
    if (isList(args) && args.length === fn.argumentTypes.length && fastNumbersFromBits(fn.argumentTypes, args, fn.scratch)) {
      const status = runFast(fn, fn.scratch, out);
      if (status === FAST_DONE) return;
      if (status === FAST_BUDGET) throw fn.messages.loopBudget(LIMITS.loopIterations);
    }
    write(out, fn.exact(exactArgsFromBits(fn.argumentTypes, args, fn.messages)), fn.data);
  }

  /**
   * Fast path with JS numbers: safe integers for integer arguments, any number for float
   * arguments. Writes into `out` (or a new `LaunchConfig`) and returns it.
   */
  invokeNumbers(fn: LaunchConfigFunction, args: readonly number[], out?: LaunchConfig): LaunchConfig {
    if (fn?.program !== this) this.#own(fn);
    const target = out ?? createLaunchConfig();
    if (out !== undefined && out !== fn.cache.lastOut) checkOut(fn, out);
    if (isList(args) && args.length === fn.argumentTypes.length) {
      const status = runFast(fn, args, target);
      if (status === FAST_DONE) return target;
      if (status === FAST_BUDGET) throw fn.messages.loopBudget(LIMITS.loopIterations);
    }
    write(target, fn.exact(exactArgsFromNumbers(fn.argumentTypes, args, fn.messages)), fn.data);
    return target;
  }

  #own(fn: unknown): asserts fn is LaunchConfigFunction {
    if (!(fn instanceof LaunchConfigFunction) || fn.program !== this) throw new LoomError("invalid-argument", "the function handle does not belong to this LaunchConfigProgram (use lookupFunction)");
  }
}

function isList(x: unknown): x is ArrayLike<unknown> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

function checkOut(fn: LaunchConfigFunction, out: unknown): asserts out is LaunchConfig {
  const o = out as Partial<LaunchConfig> | null;
  const writable = (x: unknown) => Array.isArray(x) && x.length === 3 && !Object.isFrozen(x) && !Object.isSealed(x);
  if (typeof o !== "object" || o === null || Object.isFrozen(o) || Object.isSealed(o) || !writable(o.workgroupCount) || !writable(o.workgroupSize) || !writable(o.workgroupClusterSize)) {
    throw new LoomError("invalid-argument", "out must be a writable LaunchConfig (see createLaunchConfig)");
  }
  fn.cache.lastOut = o as LaunchConfig;
}

/** The fast path; an `out` made read-only after it was validated surfaces as invalid-argument. */
function runFast(fn: LaunchConfigFunction, args: ArrayLike<unknown>, out: LaunchConfig): number {
  try {
    return fn.fast(args, out);
  } catch {
    fn.cache.lastOut = undefined;
    throw new LoomError("invalid-argument", "out must be a writable LaunchConfig (see createLaunchConfig)");
  }
}

function write(out: LaunchConfig, v: readonly number[], fn: LaunchFunction): void {
  out.workgroupCount[0] = v[0]!;
  out.workgroupCount[1] = v[1]!;
  out.workgroupCount[2] = v[2]!;
  out.workgroupSize[0] = v[3]!;
  out.workgroupSize[1] = v[4]!;
  out.workgroupSize[2] = v[5]!;
  out.workgroupClusterSize[0] = v[6]!;
  out.workgroupClusterSize[1] = v[7]!;
  out.workgroupClusterSize[2] = v[8]!;
  out.subgroupSize = fn.subgroupSize;
  out.workgroupStorageBytes = fn.workgroupStorageBytes;
}

