/**
 * The verifier's one walk over the module: every op of every top-level op's regions is
 * visited once, and each concern (placement, structure, yields, dominance, the per-op type,
 * attribute, static-value and limit checks, subranges) checks it there. The concerns stay in
 * their own files; the walk only decides where each is called, so that each concern still
 * sees the ops in the order its own walk did. Reports are tagged with the concern's phase
 * (context.ts): `verifyModule` orders diagnostics at one place by phase, as when each concern
 * walked the module on its own, one after the other.
 */
import type { Op, Region } from "../../ir/core.js";
import { Phase, type RegionKind, type VerifyContext } from "./context.js";
import { DominanceChecker, signatureCount, signatureKey } from "./dominance.js";
import { checkAttributes } from "./literals.js";
import { checkOpLimits, checkTopLevelLimits } from "./limits.js";
import { isCallOp } from "./ops.js";
import { walkFacts } from "./op-facts.js";
import { checkOpPlacement } from "./placement.js";
import { checkStaticValues } from "./static-values.js";
import { checkOpStructure, checkTerminator, expectedTerminator } from "./structure.js";
import { checkOpSubranges, type LayoutsSeen } from "./subrange.js";
import { resolveBodyOp } from "./symbols.js";
import { checkOpTypes, checkTopLevelTypes } from "./types.js";
import { checkOpYields } from "./yields.js";

/** What the walk found that later checks need. */
export interface WalkSummary {
  /** Whether any region of the module holds a call (`func.call`, `template.call`, `template.apply`). */
  readonly hasCalls: boolean;
}

/** The body kind of region `index` of top-level `op` (undefined: not a body; context.ts `bodiesOf`). */
function bodyKind(op: Op, index: number): RegionKind | undefined {
  switch (op.name) {
    case "kernel.def":
      return index === 0 ? "C" : index === 1 ? "D" : undefined;
    case "func.def":
    case "template.def":
      return index === 0 ? "F" : undefined;
    default:
      return undefined;
  }
}

class Walk implements LayoutsSeen {
  readonly dominance: DominanceChecker;
  layouts: LayoutsSeen["layouts"];
  calls = 0;
  /** Region → kind for every body region, made only for ops whose `parent` is not the region holding them. */
  #kinds: Map<Region, RegionKind> | undefined;

  constructor(readonly ctx: VerifyContext) {
    this.dominance = new DominanceChecker(ctx);
  }

  /** The kind of the region `op.parent` names (as placement reads it), for ops the walk found elsewhere. */
  #kindOfParent(op: Op): RegionKind | undefined {
    if (!op.parent) return undefined;
    if (!this.#kinds) {
      const kinds = new Map<Region, RegionKind>();
      const mark = (region: Region, kind: RegionKind): void => {
        kinds.set(region, kind);
        for (const o of region.ops) for (const inner of o.regions) mark(inner, kind);
      };
      for (const body of this.ctx.bodies) mark(body.region, body.kind);
      this.#kinds = kinds;
    }
    return this.#kinds.get(op.parent);
  }

  topLevel(op: Op): void {
    const ctx = this.ctx;
    ctx.phase = Phase.TopLevelTypes;
    checkTopLevelTypes(ctx, op);
    checkTopLevelLimits(ctx, op);
    ctx.phase = Phase.TopLevelAttributes;
    checkAttributes(ctx, op);
    ctx.phase = Phase.Structure;
    const structure = checkOpStructure(ctx, op);
    const regions = op.regions;
    const dominance = this.dominance;
    for (let i = 0; i < regions.length; i++) {
      const region = regions[i]!;
      const kind = bodyKind(op, i);
      if (structure) {
        const expected = expectedTerminator(op, i);
        if (expected) checkTerminator(ctx, op, region, i, expected, kind);
      }
      const key = signatureKey(op, i);
      if (key !== undefined) {
        ctx.phase = Phase.Dominance;
        dominance.enter(op, region);
        dominance.signature(op, key);
      }
      if (kind) this.#body(region, kind, structure, true);
      else this.#other(region, structure);
      if (key !== undefined) dominance.leave(region);
      ctx.phase = Phase.Structure;
    }
    // Dominance checks a signature's props even where the op lacks the region.
    for (let i = regions.length, n = signatureCount(op); i < n; i++) {
      ctx.phase = Phase.Dominance;
      dominance.signature(op, signatureKey(op, i)!);
    }
  }

  /** The ops of a body region of `kind` (`structure`: whether structure checks reach them). */
  #body(region: Region, kind: RegionKind, structure: boolean, atBodyTop: boolean): void {
    const ctx = this.ctx;
    const dominance = this.dominance;
    const ops = region.ops;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const inPlace = op.parent === region;
      const placed = inPlace ? kind : this.#kindOfParent(op);
      const facts = walkFacts(op.name);
      const regions = op.regions;
      // Each check is called where it may report (op-facts.ts); the others are skipped.
      if (!(placed !== undefined && facts.placedIn[placed])) {
        ctx.phase = Phase.Placement;
        checkOpPlacement(ctx, op, placed, inPlace ? atBodyTop : this.#atSomeBodyTop(op));
      }
      let inner = false;
      if (structure) {
        if (regions.length <= 2 && facts.structureHolds[regions.length]) inner = true;
        else {
          ctx.phase = Phase.Structure;
          inner = checkOpStructure(ctx, op);
        }
      }
      if (facts.yields) {
        ctx.phase = Phase.Yields;
        checkOpYields(ctx, op);
      }
      ctx.phase = Phase.Dominance;
      dominance.checkUses(op);
      ctx.phase = Phase.BodyOps;
      if (facts.references) resolveBodyOp(ctx, op);
      // Read once for both checks (props are read per op, and their shapes vary).
      const indices = op.props.indices;
      checkOpTypes(ctx, op, indices);
      if (facts.attributes) checkAttributes(ctx, op);
      if (facts.staticValues) checkStaticValues(ctx, op, placed);
      checkOpLimits(ctx, op, indices);
      if (facts.subranges || this.layouts) {
        ctx.phase = Phase.Subranges;
        checkOpSubranges(ctx, op, this);
      }
      if (facts.call) this.calls++;
      for (let k = 0; k < regions.length; k++) {
        const r = regions[k]!;
        if (inner) {
          ctx.phase = Phase.Structure;
          const expected = expectedTerminator(op, k);
          if (expected) checkTerminator(ctx, op, r, k, expected, kind);
        }
        ctx.phase = Phase.Dominance;
        dominance.enter(op, r);
        this.#body(r, kind, inner, false);
        dominance.leave(r);
      }
      dominance.define(op);
    }
    dominance.endBlock(ops);
  }

  /** Whether `op.parent` is one of the bodies (for an op the walk found outside its `parent`). */
  #atSomeBodyTop(op: Op): boolean {
    return this.ctx.bodies.some((b) => b.region === op.parent);
  }

  /** The ops of a region that is not a body (a `check.case` body): structure checks only. */
  #other(region: Region, structure: boolean): void {
    const ctx = this.ctx;
    for (const op of region.ops) {
      if (isCallOp(op.name)) this.calls++;
      let inner = false;
      if (structure) {
        ctx.phase = Phase.Structure;
        inner = checkOpStructure(ctx, op);
      }
      const regions = op.regions;
      for (let k = 0; k < regions.length; k++) {
        const r = regions[k]!;
        if (inner) {
          ctx.phase = Phase.Structure;
          const expected = expectedTerminator(op, k);
          if (expected) checkTerminator(ctx, op, r, k, expected, undefined);
        }
        this.#other(r, inner);
      }
    }
  }
}

/** Runs the walk's checks over every top-level op and the ops of its regions. */
export function walkModule(ctx: VerifyContext): WalkSummary {
  const walk = new Walk(ctx);
  for (const op of ctx.module.ops) walk.topLevel(op);
  return { hasCalls: walk.calls > 0 };
}
