/** The wording of launch-config evaluation errors, in one place (tests assert these texts). */
import { LoomError, type LoomStatus } from "../core/errors.js";
import type { LPredicate, LType, LaunchFunction, LaunchSourceLocation } from "./model.js";

const DIMS = ["x", "y", "z"] as const;

/**
 * A launch-config evaluation error (a false `where` or `assume` predicate, an op without a
 * defined result, a launch outside the limits, a bad workload argument). Its `message` starts
 * with `source:line:column: ` when the artifact carries source locations
 * (docs/launch-config.md "Source locations"); the same facts are available as fields.
 */
export class LaunchConfigError extends LoomError {
  /**
   * @param status - `out-of-range` for a workload the function rejects, `invalid-argument` for a malformed argument list.
   * @param functionName - the launch-config function's export name.
   * @param reason - the message without the location prefix.
   * @param location - the source position the error cites, when the artifact has one.
   * @param op - the op that failed (its name and its "op N" number), when an op did.
   */
  constructor(
    status: LoomStatus,
    readonly functionName: string,
    readonly reason: string,
    readonly location?: LaunchSourceLocation,
    readonly op?: { readonly name: string; readonly index: number },
  ) {
    super(status, location ? `${formatLocation(location)}: ${reason}` : reason);
  }
}

/** `source:line:column`, the way compiler diagnostics cite a position. */
function formatLocation(l: LaunchSourceLocation): string {
  return `${l.source}:${l.line}:${l.column}`;
}

/** Where a predicate is checked: the text naming it and the location it cites. */
export interface PredicateSite {
  readonly text: string;
  readonly at?: LaunchSourceLocation;
  readonly op?: { readonly name: string; readonly index: number };
}

export class LaunchMessages {
  constructor(readonly fn: LaunchFunction) {}

  get prefix(): string {
    return `launch-config function '${this.fn.exportName}'`;
  }

  /** The site of workload predicate `i`. */
  workloadSite(i: number): PredicateSite {
    const at = this.fn.locations?.where[i] ?? this.fn.locations?.function;
    return at ? { text: "workload", at } : { text: "workload" };
  }

  /** The site of a predicate of the assume op numbered `k`. */
  assumeSite(name: string, k: number): PredicateSite {
    const at = this.fn.locations?.ops[k];
    const op = { name, index: k };
    return at ? { text: `${name} (op ${k})`, at, op } : { text: `${name} (op ${k})`, op };
  }

  #error(status: LoomStatus, what: string, at = this.fn.locations?.function, op?: { name: string; index: number }): LaunchConfigError {
    return new LaunchConfigError(status, this.fn.exportName, `${this.prefix}: ${what}`, at, op);
  }

  /** The `kernel.launch.config` op: the last op in encoding order. */
  #launchOp(what: string): LaunchConfigError {
    const ops = this.fn.locations?.ops;
    const index = ops ? ops.length - 1 : undefined;
    const at = index === undefined ? undefined : ops?.[index];
    if (at === undefined || index === undefined) return this.outOfRange(what);
    return this.#error("out-of-range", `kernel.launch.config: ${what}`, at, { name: "kernel.launch.config", index });
  }

  /** `%count` for a workload argument, `%vN` for an intermediate value. */
  valueName(reg: number): string {
    const a = this.fn.args[reg];
    return a ? `%${a.name || `arg${reg}`}` : `%v${reg}`;
  }

  argument(i: number): string {
    const a = this.fn.args[i]!;
    return `workload argument ${i} (${this.valueName(i)}: ${a.type})`;
  }

  predicateText(p: LPredicate): string {
    return `${p.kind}(${p.args.map((a) => (typeof a === "number" ? this.valueName(a) : a.toString())).join(", ")})`;
  }

  outOfRange(what: string): LaunchConfigError {
    return this.#error("out-of-range", what);
  }
  invalid(what: string): LaunchConfigError {
    return this.#error("invalid-argument", what);
  }

  wrongCount(got: number): LaunchConfigError {
    return this.invalid(`expects ${this.fn.args.length} workload argument(s), got ${got}`);
  }

  violated(p: LPredicate, site: PredicateSite, values: readonly (bigint | number)[], types: readonly LType[]): LaunchConfigError {
    const regs = p.args.filter((a): a is number => typeof a === "number");
    const shown = regs.map((r, i) => `${this.valueName(r)} = ${formatValue(values[i]!, types[r]!)}`);
    return this.#error("out-of-range", `${site.text} predicate ${this.predicateText(p)} is violated${shown.length ? ` (${shown.join(", ")})` : ""}`, site.at ?? this.fn.locations?.function, site.op);
  }

  undefinedOp(opName: string, opIndex: number, reason: string): LaunchConfigError {
    const at = this.fn.locations?.ops[opIndex] ?? this.fn.locations?.function;
    return this.#error("out-of-range", `${opName} (op ${opIndex}) has no defined result: ${reason}`, at, { name: opName, index: opIndex });
  }

  nonPositiveStep(opIndex: number, step: bigint | number): LaunchConfigError {
    const at = this.fn.locations?.ops[opIndex] ?? this.fn.locations?.function;
    return this.#error("out-of-range", `scf.for (op ${opIndex}) has step ${step}, which is not positive`, at, { name: "scf.for", index: opIndex });
  }

  loopBudget(limit: number): LaunchConfigError {
    return this.outOfRange(`loops ran more than ${limit} iterations in one invocation`);
  }

  count(d: number, v: bigint, max: number): LaunchConfigError {
    return this.#launchOp(`workgroup count ${DIMS[d]} = ${v} is outside [0, ${max}]`);
  }
  size(d: number, v: bigint, max: number): LaunchConfigError {
    return this.#launchOp(`workgroup size ${DIMS[d]} = ${v} is outside [1, ${max}]`);
  }
  flat(size: readonly bigint[], max: number): LaunchConfigError {
    return this.#launchOp(`workgroup size ${size.join("x")} has ${size.reduce((a, b) => a * b, 1n)} invocations, above the limit ${max}`);
  }
  cluster(size: readonly bigint[]): LaunchConfigError {
    return this.#launchOp(`workgroup cluster size ${size.join("x")} is not 1x1x1`);
  }
}

export function formatValue(v: bigint | number, t: LType): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (t === "index" || t === "offset") return v.toString();
  const w = t === "i1" ? 1 : Number(t.slice(1));
  const s = BigInt.asIntN(w, v);
  return s === v ? v.toString() : `${s} (bits ${v})`;
}
