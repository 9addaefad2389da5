/**
 * Region structure: how many regions each op has (STRUCTURE/006) and how each region ends
 * (§4: the config region with `kernel.launch.config`, the device body with `kernel.return`,
 * function bodies with `func.return`/`template.return`, `scf` regions with `scf.yield`,
 * the `scf.while` before-region with `scf.condition`).
 *  - no terminator at all → STRUCTURE/005 (reported at the op owning the region);
 *  - the first terminator is the wrong one → STRUCTURE/018 (unless it is not even allowed
 *    in this region kind, which placement reports as STRUCTURE/029);
 *  - ops after the terminator → STRUCTURE/012 at the first of them.
 */
import type { Op, Region } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import type { RegionKind, VerifyContext } from "./context.js";
import { opFacts } from "./ops.js";

/** Allowed region counts per op; ops not listed have none. */
const REGION_COUNTS: Readonly<Record<string, readonly number[]>> = {
  "kernel.def": [2],
  "kernel.decl": [2],
  "func.def": [1],
  "func.decl": [1],
  "template.def": [1],
  "template.decl": [1],
  "config.decl": [0, 1],
  "scf.if": [1, 2],
  "scf.for": [1],
  "scf.while": [2],
  "check.case": [1],
  "kernel.entry.decl": [1],
  "kernel.launch.serial": [1],
  "kernel.launch.concurrent": [1],
};

/**
 * Whether `op`'s own structure checks pass without a report for any op of this name with
 * `regions` regions: a known op, the region count allowed, not signature-only (walk.ts skips
 * `checkOpStructure` then).
 */
export function structureHolds(name: string, regions: number): boolean {
  if (!opFacts(name) && name !== "alias") return false;
  return (REGION_COUNTS[name] ?? NO_REGIONS).includes(regions) && !SIGNATURE_ONLY.has(name);
}

/** Ops whose regions are signatures only (arguments, no ops). */
const NO_REGIONS: readonly number[] = [0];

const SIGNATURE_ONLY = new Set(["kernel.decl", "func.decl", "template.decl", "config.decl", "kernel.entry.decl"]);

/** The terminator each region of `op` must end with, by region index. */
export function expectedTerminator(op: Op, index: number): string | undefined {
  switch (op.name) {
    case "kernel.def":
      return index === 0 ? "kernel.launch.config" : "kernel.return";
    case "func.def":
      return "func.return";
    case "template.def":
      return "template.return";
    case "scf.if":
    case "scf.for":
      return "scf.yield";
    case "scf.while":
      return index === 0 ? "scf.condition" : "scf.yield";
    case "check.case":
      return "check.return";
    case "kernel.launch.serial":
    case "kernel.launch.concurrent":
      return "kernel.launch.yield";
    default:
      return undefined;
  }
}

function checkRegionCount(ctx: VerifyContext, op: Op): boolean {
  const facts = opFacts(op.name);
  if (!facts && op.name !== "alias") return false; // unknown op: the parser reported it
  const allowed = REGION_COUNTS[op.name] ?? NO_REGIONS;
  if (allowed.includes(op.regions.length)) return true;
  ctx.report(D.blockCount, op.span, [`'${op.name}' takes ${allowed.join(" or ")} region(s), got ${op.regions.length}`]);
  return false;
}

/** `region` (the `index`-th of `op`, in a body of `kind` or in none) ends with `expected`. */
export function checkTerminator(ctx: VerifyContext, op: Op, region: Region, index: number, expected: string, kind: RegionKind | undefined): void {
  const ops = region.ops;
  let t = -1;
  let term: Op | undefined;
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (opFacts(o.name)?.terminator === true) {
      t = i;
      term = o;
      break;
    }
  }
  if (!term) {
    ctx.report(D.missingTerminator, op.span, [`'${expected}'`]);
    return;
  }
  if (term.name !== expected) {
    // A check.case body has no region kind: any other terminator ending it is its wrong terminator (check.ts reports no placement).
    const placementOk = kind !== undefined ? opFacts(term.name)!.placement.includes(kind) : op.name === "check.case";
    // Anchored at the region's owner, as the reference does: the owner states the contract.
    if (placementOk) ctx.report(D.wrongTerminator, op.span, [`'${op.name}' region #${index} must end with '${expected}', found '${term.name}'`]);
    if (term.name === "scf.condition" && op.name !== "scf.while") {
      ctx.report(D.wrongRegion, term.span, ["scf.condition", `a region of '${op.name}' (its parent must be 'scf.while', the before-region)`]);
    }
    return;
  }
  const after = ops[t + 1];
  if (after) ctx.report(D.opAfterTerminator, after.span, [term.name]);
}

/**
 * The checks of `op` itself: its region count and, for a signature-only op, that its regions
 * hold no ops. True when its regions are to be checked (terminators, then their ops) too;
 * the walk (walk.ts) does that, region by region.
 */
export function checkOpStructure(ctx: VerifyContext, op: Op): boolean {
  if (!checkRegionCount(ctx, op)) return false;
  if (SIGNATURE_ONLY.has(op.name)) {
    for (const r of op.regions) {
      const first = r.ops[0];
      if (first) ctx.report(D.blockCount, first.span, [`'${op.name}' has a signature only, no body`]);
    }
    return false;
  }
  return true;
}
