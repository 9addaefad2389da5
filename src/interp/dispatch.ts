/**
 * The interpreter's door: prepare a kernel once (a parsed `kernel.def` op, or a
 * `PreparedKernel` from the prepared-low pipeline), then run dispatches of it.
 *
 * A dispatch runs workgroups one after another (x fastest, then y, then z); see
 * ./scheduler.ts for the order inside a workgroup. Every run is deterministic and bounded
 * by a step budget and a scratch-memory limit.
 */
import { LoomError } from "../core/errors.js";
import { Op, type Module, type Predicate, type Region } from "../ir/core.js";
import type { PreparedKernel } from "../core/prepared.js";
import { checkLaunchWhere, convertArgs, type ArgValue } from "./args.js";
import { CompileUnit, FunctionCompiler, type CompiledRegion, type ConfigBinding } from "./compiler.js";
import { runWorkgroup } from "./scheduler.js";
import type { DispatchState } from "./state.js";
import { isOp, propOf } from "../dialects/registry.js";

export type KernelInput = Op | PreparedKernel;

export interface PrepareOptions {
  /** The module of an unprepared kernel, to resolve `func.call` / `template.call`. */
  readonly module?: Module;
  /** Values of `config.get` keys of an unprepared kernel (symbol without '@'). */
  readonly config?: Readonly<Record<string, ConfigBinding>>;
}

/** Options of one reference-interpreter dispatch: workgroup count and size, subgroup width, arguments, and step/scratch bounds. */
export interface DispatchOptions {
  readonly workgroupCount: readonly [number, number, number];
  readonly workgroupSize: readonly [number, number, number];
  /** Subgroup width for `kernel.subgroup.*` (the launch's `subgroupSize`). */
  readonly subgroupSize: number;
  /** One value per device argument, in `launch(…)` order. */
  readonly args: readonly ArgValue[];
  /** Executed-op budget; exceeding it is a `step-budget` error. Default 50 000 000. */
  readonly maxSteps?: number;
  /** Bytes the allocas of one workgroup (its invocations included) may take. Default 256 MiB. */
  readonly maxScratchBytes?: number;
  /** Byte value fresh scratch holds (its contents are unspecified by the language). Default 0. */
  readonly scratchFill?: number;
}

/** What a reference-interpreter dispatch ran: workgroups, invocations and ops executed. */
export interface DispatchReport {
  readonly workgroups: number;
  readonly invocations: number;
  /** Ops executed (counted per region entry). */
  readonly steps: number;
}

export const DEFAULT_MAX_STEPS = 50_000_000;
export const DEFAULT_MAX_SCRATCH_BYTES = 256 * 1024 * 1024;
/** Largest workgroup the interpreter accepts (above every target's limit). */
export const MAX_WORKGROUP_INVOCATIONS = 1 << 16;

/** A kernel ready to run: compiled once, any number of dispatches. */
export class InterpretedKernel {
  readonly #body: CompiledRegion;
  readonly #slotCount: number;
  readonly #region: Region;
  readonly #where: readonly Predicate[];

  /** @internal Use `prepareInterpreter`. */
  constructor(readonly symbol: string, region: Region, where: readonly Predicate[], options: PrepareOptions) {
    const config = options.config ? new Map(Object.entries(options.config).map(([k, v]) => [k.replace(/^@/, ""), v] as const)) : undefined;
    const c = new FunctionCompiler(new CompileUnit({ ...(options.module ? { module: options.module } : {}), ...(config ? { config } : {}) }));
    this.#body = c.region(region);
    this.#slotCount = c.slotCount;
    this.#region = region;
    this.#where = where;
  }

  /** Names of the device arguments, in order. */
  get argumentNames(): readonly string[] {
    return this.#region.args.map((a) => a.name);
  }

  /** Runs one dispatch; buffers are updated in place. Throws InterpretError on a trap or UB. */
  run(options: DispatchOptions): DispatchReport {
    if (!options || typeof options !== "object") throw new LoomError("invalid-argument", "interpretDispatch: options must be an object");
    const count = triple(options.workgroupCount, "workgroupCount", 0, 2 ** 32 - 1);
    const size = triple(options.workgroupSize, "workgroupSize", 1, MAX_WORKGROUP_INVOCATIONS);
    if (size[0] * size[1] * size[2] > MAX_WORKGROUP_INVOCATIONS) throw new LoomError("invalid-argument", `interpretDispatch: workgroupSize ${size.join("x")} exceeds ${MAX_WORKGROUP_INVOCATIONS} invocations`);
    const sg = options.subgroupSize;
    if (!Number.isSafeInteger(sg) || sg < 1 || sg > 1024) throw new LoomError("invalid-argument", `interpretDispatch: subgroupSize must be an integer in [1, 1024], got ${String(sg)}`);
    const args = convertArgs(this.#region.args, options.args);
    checkLaunchWhere(this.#region, this.#where, args);
    const d: DispatchState = {
      workgroupCount: count,
      workgroupSize: size,
      subgroupSize: sg,
      steps: 0,
      maxSteps: limit(options.maxSteps, "maxSteps", DEFAULT_MAX_STEPS),
      scratchBytes: 0,
      maxScratchBytes: limit(options.maxScratchBytes, "maxScratchBytes", DEFAULT_MAX_SCRATCH_BYTES),
      scratchFill: options.scratchFill ?? 0,
    };
    if (!Number.isInteger(d.scratchFill) || d.scratchFill < 0 || d.scratchFill > 255) throw new LoomError("invalid-argument", "interpretDispatch: scratchFill must be a byte value");
    let workgroups = 0;
    for (let z = 0; z < count[2]; z++) {
      for (let y = 0; y < count[1]; y++) {
        for (let x = 0; x < count[0]; x++) {
          runWorkgroup(this.#body, this.#slotCount, args, d, [x, y, z]);
          workgroups++;
        }
      }
    }
    return { workgroups, invocations: workgroups * size[0] * size[1] * size[2], steps: d.steps };
  }
}

function triple(x: unknown, what: string, lo: number, hi: number): [number, number, number] {
  if (!Array.isArray(x) || x.length !== 3 || !x.every((n) => Number.isSafeInteger(n) && n >= lo && n <= hi)) {
    throw new LoomError("invalid-argument", `interpretDispatch: ${what} must be three integers in [${lo}, ${hi}], got ${JSON.stringify(x)}`);
  }
  return [x[0], x[1], x[2]];
}

function limit(x: number | undefined, what: string, fallback: number): number {
  if (x === undefined) return fallback;
  if (!Number.isSafeInteger(x) || x < 0) throw new LoomError("invalid-argument", `interpretDispatch: ${what} must be a non-negative integer`);
  return x;
}

/** Prepares a kernel: a parsed `kernel.def` op, or a `PreparedKernel`. */
export function prepareInterpreter(kernel: KernelInput, options: PrepareOptions = {}): InterpretedKernel {
  if (kernel instanceof Op) {
    if (!isOp(kernel, "kernel.def") || kernel.regions.length !== 2) throw new LoomError("invalid-argument", `prepareInterpreter: expected a kernel.def op, got ${kernel.name}`);
    return new InterpretedKernel(kernel.symbol ?? "", kernel.regions[1], launchWhere(kernel), options);
  }
  if (!kernel || typeof kernel !== "object" || !(kernel.op instanceof Op) || !kernel.body) {
    throw new LoomError("invalid-argument", "prepareInterpreter: expected a kernel.def op or a PreparedKernel");
  }
  return new InterpretedKernel(kernel.symbol, kernel.body, launchWhere(kernel.op), options);
}

function launchWhere(op: Op): readonly Predicate[] {
  return propOf(op, "launchWhere") ?? [];
}

/** Prepares and runs one dispatch (see `InterpretedKernel.run`). */
export function interpretDispatch(kernel: KernelInput, options: DispatchOptions & PrepareOptions): DispatchReport {
  return prepareInterpreter(kernel, options).run(options);
}
