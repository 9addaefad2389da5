/**
 * What the verifier needs to know about each v1 op, as data (language.md §4 tables):
 * placement letters (C launch-config region, D kernel device body, F func/template body),
 * whether the op has effects (reads/writes memory or communicates across invocations),
 * whether it is a region terminator, and whether it belongs at top level.
 *
 * Placement, purity, terminators and top-level-ness come from the dialect table
 * (`src/dialects/table.ts`, shared with the parser); barriers/collectives are added here.
 */
import { lookupOp } from "../../dialects/table.js";

export interface OpFacts {
  /** Placement letters from the C/D/F columns; empty for top-level ops. */
  readonly placement: string;
  /** Has memory effects or cross-invocation communication (not allowed in `pure` bodies). */
  readonly effects: boolean;
  readonly terminator: boolean;
  readonly topLevel: boolean;
  /** A barrier or collective: must be reached under control uniform at `scope` (STRUCTURE/038). */
  readonly collective?: "subgroup" | "workgroup";
}

// Name lists the type rules (typerules.ts) group ops by.
export const SCALAR_MATH = "expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff powf".split(" ");
export const SCALAR_INT_BINARY = "addi subi muli divsi divui remsi remui ceildivsi ceildivui floordivsi minsi maxsi minui maxui andi ori xori shli shrsi shrui".split(" ");
export const SCALAR_INT_UNARY = ["negi", "absi"];
export const SCALAR_FLOAT_BINARY = "addf subf mulf divf remf copysignf minimumf maximumf minnumf maxnumf".split(" ");
export const SCALAR_FLOAT_UNARY = "negf absf ceilf floorf roundf roundevenf truncf".split(" ");
export const CONVERSIONS = "sitofp uitofp fptosi fptoui extf fptrunc extsi extui trunci bitcast".split(" ");
export const VECTOR_FLOAT_BINARY = "addf subf mulf divf minimumf maximumf minnumf maxnumf".split(" ");
export const VECTOR_INT_BINARY = "addi subi muli divsi divui remsi remui minsi maxsi minui maxui andi ori xori shrsi shrui shli".split(" ");
export const VECTOR_FLOAT_UNARY = "negf absf expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff ceilf floorf roundf roundevenf truncf".split(" ");
export const VECTOR_INT_UNARY = ["negi", "absi"];

/** Barriers and collectives, by the scope whose invocations must all reach them. */
const COLLECTIVES: Readonly<Record<string, "subgroup" | "workgroup">> = {
  "kernel.barrier": "workgroup", // refined by the op's scope(...) in uniformity.ts
  "kernel.subgroup.reduce": "subgroup",
  "kernel.subgroup.shuffle": "subgroup",
  "kernel.subgroup.broadcast": "subgroup",
  "kernel.workgroup.reduce": "workgroup",
};

const cache = new Map<string, OpFacts | null>();

function derive(name: string): OpFacts | null {
  const info = lookupOp(name);
  if (!info) return null;
  const call = isCallOp(name);
  return {
    // Calls list C in the table because a `pure` call is allowed there; placement.ts
    // applies that rule (STRUCTURE/052), so plain placement is D and F.
    placement: call ? info.placement.replace("C", "") : info.placement,
    // Calls are judged by their `pure` marker and callee (calls.ts), not as effects here.
    effects: !info.pure && !call && !info.topLevel,
    terminator: info.terminator,
    topLevel: info.topLevel,
    collective: COLLECTIVES[name],
  };
}

export function opFacts(name: string): OpFacts | undefined {
  let f = cache.get(name);
  if (f === undefined) {
    f = derive(name);
    cache.set(name, f);
  }
  return f ?? undefined;
}

/** Ops whose region-kind placement follows the "call" rule (C only when `pure`). */
export function isCallOp(name: string): boolean {
  return name === "func.call" || name === "template.apply" || name === "template.call";
}
