/** The wording of launch-config evaluation errors, in one place (tests assert these texts). */
import { LoomError } from "../core/errors.js";
import type { LPredicate, LType, LaunchFunction } from "./model.js";

const DIMS = ["x", "y", "z"] as const;

export class LaunchMessages {
  constructor(readonly fn: LaunchFunction) {}

  get prefix(): string {
    return `launch-config function '${this.fn.exportName}'`;
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

  outOfRange(what: string): LoomError {
    return new LoomError("out-of-range", `${this.prefix}: ${what}`);
  }
  invalid(what: string): LoomError {
    return new LoomError("invalid-argument", `${this.prefix}: ${what}`);
  }

  wrongCount(got: number): LoomError {
    return this.invalid(`expects ${this.fn.args.length} workload argument(s), got ${got}`);
  }

  violated(p: LPredicate, where: string, values: readonly (bigint | number)[], types: readonly LType[]): LoomError {
    const regs = p.args.filter((a): a is number => typeof a === "number");
    const shown = regs.map((r, i) => `${this.valueName(r)} = ${formatValue(values[i]!, types[r]!)}`);
    return this.outOfRange(`${where} predicate ${this.predicateText(p)} is violated${shown.length ? ` (${shown.join(", ")})` : ""}`);
  }

  undefinedOp(opName: string, opIndex: number, reason: string): LoomError {
    return this.outOfRange(`${opName} (op ${opIndex}) has no defined result: ${reason}`);
  }

  nonPositiveStep(opIndex: number, step: bigint | number): LoomError {
    return this.outOfRange(`scf.for (op ${opIndex}) has step ${step}, which is not positive`);
  }

  loopBudget(limit: number): LoomError {
    return this.outOfRange(`loops ran more than ${limit} iterations in one invocation`);
  }

  count(d: number, v: bigint, max: number): LoomError {
    return this.outOfRange(`workgroup count ${DIMS[d]} = ${v} is outside [0, ${max}]`);
  }
  size(d: number, v: bigint, max: number): LoomError {
    return this.outOfRange(`workgroup size ${DIMS[d]} = ${v} is outside [1, ${max}]`);
  }
  flat(size: readonly bigint[], max: number): LoomError {
    return this.outOfRange(`workgroup size ${size.join("x")} has ${size.reduce((a, b) => a * b, 1n)} invocations, above the limit ${max}`);
  }
  cluster(size: readonly bigint[]): LoomError {
    return this.outOfRange(`workgroup cluster size ${size.join("x")} is not 1x1x1`);
  }
}

export function formatValue(v: bigint | number, t: LType): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (t === "index" || t === "offset") return v.toString();
  const w = t === "i1" ? 1 : Number(t.slice(1));
  const s = BigInt.asIntN(w, v);
  return s === v ? v.toString() : `${s} (bits ${v})`;
}
