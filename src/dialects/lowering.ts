/**
 * The target-independent lowering contract (in the spirit of Cranelift's lowering rules): a
 * back end states each op's fate in one table keyed by `OpName`, and this driver walks a
 * prepared kernel's regions through it. The back end's context says what a lowered value is
 * (an id, a virtual register, an expression); the driver
 * only knows that a rule either lowers an op or the op is reported and poisoned, so errors
 * never stop lowering and every unsupported op is reported at its own span.
 */
import type { Op, Region, Value } from "../ir/core.js";
import { LoomError } from "../core/errors.js";
import { makeDiagnostic, type Diagnostic } from "../core/diag/diagnostic.js";
import { D } from "../core/diag/catalog.js";
import { LoweredFormKey, type PreparedKernel, type PreparedModule } from "../core/prepared.js";
import type { TargetProfile } from "../core/target.js";
import { isOp, propOf, type OpName } from "./registry.js";

/** An op a back end does not lower, with the reason (reported as TARGET/001 at the op). */
export interface Unsupported {
  readonly unsupported: string;
}

export const unsupported = (reason: string): Unsupported => ({ unsupported: reason });

/** One entry per declared op: tsc makes a back end decide every new op's fate. */
export type LoweringTable<R> = { readonly [N in OpName]: R | Unsupported };

const TOP_LEVEL = unsupported("a top-level op, never inside a kernel body");
const TERMINATOR = unsupported("a region terminator, read by the rule of the op that owns the region");
const RESOLVED = unsupported("resolved before lowering (inlined, specialized or split into the launch config)");
const HOST = unsupported("a host op (a check case or a launch program), run on the host by `loom check`, never compiled into a kernel");

/** The ops no prepared kernel body holds or whose region's owner lowers them: every table spreads these. */
export const NEVER_LOWERED = {
  "kernel.def": TOP_LEVEL,
  "kernel.decl": TOP_LEVEL,
  "func.def": TOP_LEVEL,
  "func.decl": TOP_LEVEL,
  "template.decl": TOP_LEVEL,
  "template.def": TOP_LEVEL,
  "config.decl": TOP_LEVEL,
  "config.def": TOP_LEVEL,
  "target.decl": TOP_LEVEL,
  "module.import": TOP_LEVEL,
  alias: TOP_LEVEL,
  "kernel.return": TERMINATOR,
  "scf.yield": TERMINATOR,
  "scf.condition": TERMINATOR,
  "func.return": TERMINATOR,
  "template.return": TERMINATOR,
  "kernel.launch.config": RESOLVED,
  "func.call": RESOLVED,
  "template.apply": RESOLVED,
  "template.call": RESOLVED,
  "config.get": RESOLVED,
  "target.subgroup.size": RESOLVED,
  "check.case": TOP_LEVEL,
  "check.benchmark": TOP_LEVEL,
  "kernel.entry.decl": TOP_LEVEL,
  "check.return": HOST,
  "check.param.seed": HOST,
  "check.param.choice": HOST,
  "check.param.range": HOST,
  "check.literal": HOST,
  "check.generate.fill": HOST,
  "check.generate.iota": HOST,
  "check.generate.random.uniform": HOST,
  "check.tensor.view": HOST,
  "kernel.launch": HOST,
  "kernel.dispatch": HOST,
  "kernel.launch.serial": HOST,
  "kernel.launch.concurrent": HOST,
  "kernel.launch.yield": HOST,
  "check.oracle.call": HOST,
  "check.expect.equal": HOST,
  "check.expect.bitwise": HOST,
  "check.expect.close": HOST,
  "check.expect.shape": HOST,
  "check.requires": HOST,
  "check.skip_if": HOST,
  "check.file.read.npy": HOST,
  "check.file.write.npy": HOST,
  "check.expect": HOST,
  "check.expect.event": HOST,
} as const satisfies Partial<Record<OpName, Unsupported>>;

/** What the driver needs from a back end's per-kernel context; `L` is its lowered value. */
export interface LoweringContext<L> {
  /** Reports TARGET/001 at `op`. */
  unsupported(op: Op, what: string, help?: string): void;
  /** False (after reporting) when the profile cannot express one of the op's types. */
  checkTypes(op: Op): boolean;
  /** Marks the op's results invalid, so their users lower without cascading reports. */
  poison(op: Op): void;
  set(value: Value, lowered: L): void;
  /** Called before an op's rule runs (e.g. to emit a debug line for it). */
  beforeRule?(op: Op): void;
}

/**
 * What every back end's per-kernel context shares: the kernel, its diagnostics (one TARGET/001
 * per op or value), and the lowered value of each IR value (`L`, whose poisoned form is
 * `{ kind: "invalid" }`). `backend` names the back end in internal errors.
 */
export abstract class KernelLoweringBase<L extends { readonly kind: string }, Self extends LoweringContext<L> = LoweringContext<L>> implements LoweringContext<L> {
  readonly diagnostics: Diagnostic[] = [];
  readonly #values = new Map<Value, L>();
  readonly #reported = new Set<Op | Value>();

  /**
   * `regionOps` is the back end's module-level region lowering (its kernel.ts), not a closure
   * over this context. A per-kernel closure here, called from the control rules, kept every
   * compile's IR and lowering alive through V8's minor GCs (through the engine's call-site
   * state, we believe: full GCs freed it): in a compile loop ≈ 37% of all allocation was
   * promoted and a quarter of the time went to the GC (docs/benchmarks.md, "Session 14").
   */
  constructor(
    readonly kernel: PreparedKernel,
    private readonly backend: string,
    private readonly regionOps: RegionLowering<Self, L>,
  ) {}

  /** Lowers a nested single-block region and returns its terminator. */
  lowerRegion(region: Region, args: readonly L[]): Op {
    // `Self` is the subclass that passed `regionOps` for itself.
    return this.regionOps(this as unknown as Self, region, args);
  }

  /** The profile, as TARGET/001 names it ("<target> profile 'p' (<processor>)"). */
  abstract get target(): string;

  abstract checkTypes(op: Op): boolean;

  /** Reports TARGET/001 at `at` (once per op or value), naming the profile. */
  unsupported(at: Op | Value, what: string, help?: string): void {
    if (this.#reported.has(at)) return;
    this.#reported.add(at);
    const span = at.span ?? this.kernel.op.span;
    this.diagnostics.push(makeDiagnostic(D.unsupported, span, [what, this.target], help ? { help } : undefined));
  }

  report(d: Diagnostic): void {
    this.diagnostics.push(d);
  }

  set(v: Value, l: L): void {
    this.#values.set(v, l);
  }

  get(v: Value): L {
    const l = this.#values.get(v);
    if (!l) throw new Error(`${this.backend} lowering: '%${v.name}' used before it was lowered`);
    return l;
  }

  poison(op: Op): void {
    for (const r of op.results) this.set(r, { kind: "invalid" } as Invalid as L);
  }
}

/** The poisoned lowered value of every back end. */
interface Invalid {
  readonly kind: "invalid";
}

/** Lowers a region's ops through a table, returning its terminator for the owner's rule. */
export type RegionLowering<C, L> = (cx: C, region: Region, args: readonly L[]) => Op;

/**
 * The region walker of one back end. `invalid` is its poisoned value (bound to region
 * arguments the owner did not supply); `backend` names it in messages.
 */
export function regionLowering<C extends LoweringContext<L>, L>(
  backend: string,
  // Partial for tables built from name lists (their coverage is a test); a missing entry is TARGET/001.
  table: Partial<LoweringTable<(cx: C, op: Op) => void>>,
  invalid: L,
): RegionLowering<C, L> {
  // A Map: looking an op's name up in a large object literal is slower on this hot path.
  const rules = new Map<string, ((cx: C, op: Op) => void) | Unsupported>(Object.entries(table).filter((e): e is [string, ((cx: C, op: Op) => void) | Unsupported] => e[1] !== undefined));
  const lowerOp = (cx: C, op: Op): void => {
    const entry = rules.get(op.name);
    if (typeof entry !== "function") {
      cx.unsupported(op, `'${op.name}'`, entry?.unsupported ?? `the ${backend} back end has no lowering for this op`);
      return cx.poison(op);
    }
    if (!cx.checkTypes(op)) return cx.poison(op);
    cx.beforeRule?.(op);
    entry(cx, op);
  };
  return (cx, region, args) => {
    let i = 0;
    for (const a of region.args) cx.set(a, args[i++] ?? invalid);
    const last = region.ops.at(-1);
    if (!last || !(isOp(last, "scf.yield") || isOp(last, "scf.condition") || isOp(last, "kernel.return"))) {
      throw new Error(`${backend} lowering: a region does not end in a terminator`);
    }
    for (const op of region.ops) if (op !== last) lowerOp(cx, op);
    return last;
  };
}

/**
 * The rule of a `kernel.workgroup.scan` the prepared-low pipeline left unexpanded
 * (passes/expand-scan.ts expands the rest): TARGET/001 saying which scans compile.
 */
export function unexpandedScan(cx: Pick<LoweringContext<never>, "unsupported" | "poison">, op: Op): void {
  cx.unsupported(op, "'kernel.workgroup.scan'", "scans are expanded for a static workgroup size and a scalar value other than i1; 'loom check --device interp' runs the rest");
  cx.poison(op);
}

/** TARGET/001 for an atomic on per-invocation (private) scratch, which the back ends refuse alike. */
export function privateScratchAtomic(cx: Pick<LoweringContext<never>, "unsupported">, op: Op): undefined {
  cx.unsupported(op, "atomics on private scratch", "use plain loads and stores on per-invocation memory");
  return undefined;
}

/** TARGET/001 for a `kernel.workgroup.reduce` whose scratch (one slot per invocation) has no static workgroup size to be sized from. */
export function dynamicWorkgroupReduce(cx: Pick<LoweringContext<never>, "unsupported" | "poison">, op: Op): void {
  cx.unsupported(op, "'kernel.workgroup.reduce' with a dynamic workgroup size", "its scratch is sized from a static workgroup size");
  cx.poison(op);
}

/** One kernel's lowering: its diagnostics and, when there are none, what emission needs. */
export interface KernelLoweringOutcome<F> {
  readonly diagnostics: readonly Diagnostic[];
  readonly form?: F;
}

/** What a back end that lowers each kernel on its own gets from `kernelByKernel`. */
export interface KernelByKernel<F> {
  /** The module's kernels specialized for this environment, in module order. */
  kernels(module: PreparedModule): PreparedKernel[];
  /** The kernel's form: kept by `check`, else lowered now; undefined after adding its diagnostics. */
  lowered(module: PreparedModule, k: PreparedKernel, diagnostics: Diagnostic[]): F | undefined;
  /** The environment's `check`: lowers every kernel once, keeping the clean forms for `emit`. */
  check(module: PreparedModule): Diagnostic[];
}

/**
 * The per-kernel driver of a back end whose kernels lower independently, one text each:
 * `lower` runs once per kernel and compile; its form stays on the prepared module
 * (`PreparedModule.lowered`) for `emit`. A profile the package's `factory` did not make, or an internal
 * error (not a `LoomError`), is a BACKEND diagnostic at the kernel; `debug` names an
 * environment variable that also prints such an error (Node only: a page has no `process`).
 */
export function kernelByKernel<I, F>(
  backend: string,
  environment: string,
  factory: string,
  infoOf: (profile: TargetProfile) => I | undefined,
  lower: (k: PreparedKernel, info: I) => KernelLoweringOutcome<F>,
  debug?: string,
): KernelByKernel<F> {
  const key = new LoweredFormKey<Map<PreparedKernel, F>>(environment);
  const kernels = (module: PreparedModule) => module.kernels.filter((k) => k.profile.environment === environment);
  const lowered = (module: PreparedModule, k: PreparedKernel, diagnostics: Diagnostic[]): F | undefined => {
    const memo = module.lowered?.get(key)?.get(k);
    if (memo !== undefined) return memo;
    const info = infoOf(k.profile);
    if (!info) {
      diagnostics.push(makeDiagnostic(D.backendInternal, k.op.span, [`profile '${k.profile.identifier}' of '@${k.symbol}' was not made by ${factory}`]));
      return undefined;
    }
    let r: KernelLoweringOutcome<F>;
    try {
      r = lower(k, info);
    } catch (e) {
      if (e instanceof LoomError) throw e;
      if (debug && (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[debug]) console.error(e);
      diagnostics.push(makeDiagnostic(D.backendInternal, k.op.span, [`${backend} backend internal error in '@${k.symbol}': ${(e as Error)?.message ?? e}`]));
      return undefined;
    }
    if (r.diagnostics.length > 0 || r.form === undefined) {
      diagnostics.push(...r.diagnostics);
      return undefined;
    }
    return r.form;
  };
  const check = (module: PreparedModule): Diagnostic[] => {
    const diagnostics: Diagnostic[] = [];
    const kept = new Map<PreparedKernel, F>();
    for (const k of kernels(module)) {
      const form = lowered(module, k, diagnostics);
      if (form !== undefined) kept.set(k, form);
    }
    module.lowered?.set(key, kept);
    return diagnostics;
  };
  return { kernels, lowered, check };
}

/** The literal of a constant op (`index.constant`, `scalar.constant`, `vector.constant`); `backend` names the back end in the internal error. */
export function numericLiteral(op: Op, backend: string): bigint | number | boolean {
  const lit = propOf(op, "value");
  if (!lit || (lit.kind !== "int" && lit.kind !== "float" && lit.kind !== "bool")) throw new Error(`${backend} lowering: '${op.name}' has no numeric literal`);
  return lit.value;
}

/** The rule of an op whose results are its operands, lowered as they are (`index.assume`, `buffer.assume.*`). */
export function passOperandsThrough<L>(cx: { get(v: Value): L; set(v: Value, l: L): void }, op: Op): void {
  op.results.forEach((r, i) => {
    const v = op.operands[i];
    if (v) cx.set(r, cx.get(v));
  });
}
