/**
 * Structured control flow (SPIR-V §2.11): `scf.if` becomes a selection construct
 * (`OpSelectionMerge`), `scf.for`/`scf.while` loop constructs (`OpLoopMerge`) of the shape
 *
 *   pre → header(φ) → cond → body … → continue → header        cond/before ⇢ merge (break)
 *
 * Values leaving a region travel through `OpPhi`s (one per scalar lane); loop-carried views
 * and buffers are not representable in logical addressing and are reported.
 */
import type { OpName } from "../../../dialects/registry.js";
import type { Op } from "../../../ir/core.js";
import * as I from "../instructions.js";
import type { Id } from "../instructions.js";
import { BOOL, U64, type ScalarType } from "../module.js";
import { LoopControl, Op as S, SelectionControl } from "../spec.js";
import { sameLowered } from "./arith-rules.js";
import type { KernelLowering, Lowered, OpRule } from "./context.js";

/** The scalar ids a value is made of (one per lane), or undefined for views/buffers. */
function lanesOf(l: Lowered): readonly Id[] | undefined {
  if (l.kind === "scalar") return [l.id];
  if (l.kind === "vector") return l.lanes;
  return undefined;
}

function withLanes(template: Lowered, ids: readonly Id[]): Lowered {
  if (template.kind === "scalar") return { kind: "scalar", id: ids[0]!, type: template.type };
  if (template.kind === "vector") return { kind: "vector", lanes: ids, type: template.type };
  return template;
}

function typeOf(l: Lowered): ScalarType | undefined {
  return l.kind === "scalar" || l.kind === "vector" ? l.type : undefined;
}

/** φ-merges values arriving at the open block from `incoming` predecessors. */
function merge(cx: KernelLowering, op: Op, incoming: readonly { readonly values: readonly Lowered[]; readonly from: Id }[], count: number): Lowered[] {
  const out: Lowered[] = [];
  for (let i = 0; i < count; i++) {
    const values = incoming.map((x) => x.values[i]!);
    const first = values[0]!;
    if (values.some((v) => v.kind === "invalid")) {
      out.push({ kind: "invalid" });
      continue;
    }
    const firstLanes = lanesOf(first);
    if (!firstLanes) {
      if (values.every((v) => sameLowered(first, v))) out.push(first);
      else {
        cx.unsupported(op, `a ${first.kind} chosen by control flow`, "SPIR-V logical addressing cannot choose a storage root at run time");
        out.push({ kind: "invalid" });
      }
      continue;
    }
    const type = cx.typeId(typeOf(first)!);
    const ids = firstLanes.map((_, lane) => {
      const id = cx.module.id();
      cx.fn.addPhi(cx.fn.block, I.phi(type, id, incoming.map((x) => [lanesOf(x.values[i]!)![lane]!, x.from] as const)));
      return id;
    });
    out.push(withLanes(first, ids));
  }
  return out;
}

const ifRule: OpRule = (cx, op) => {
  const m = cx.module;
  const cond = cx.scalar(op.operands[0]!);
  const thenLabel = m.id();
  const mergeLabel = m.id();
  const elseRegion = op.regions[1];
  const elseLabel = elseRegion ? m.id() : mergeLabel;
  cx.fn.terminate(I.branchConditional(cond, thenLabel, elseLabel), I.selectionMerge(mergeLabel, SelectionControl.None));
  const incoming: { values: Lowered[]; from: Id }[] = [];
  for (const [region, label] of [[op.regions[0], thenLabel], [elseRegion, elseLabel]] as const) {
    if (!region) continue;
    cx.fn.begin(label);
    const term = cx.lowerRegion(region, []);
    incoming.push({ values: term.operands.map((v) => cx.get(v)), from: cx.fn.block });
    cx.fn.terminate(I.branch(mergeLabel));
  }
  cx.fn.begin(mergeLabel);
  merge(cx, op, incoming, op.results.length).forEach((l, i) => cx.set(op.results[i]!, l));
};

/** Header φ placeholders for loop-carried values (filled once the back edge is known). */
function carried(cx: KernelLowering, op: Op, inits: readonly Lowered[]): { values: Lowered[]; ok: boolean } {
  let ok = true;
  const values = inits.map((l) => {
    const lanes = lanesOf(l);
    if (!lanes) {
      if (l.kind !== "invalid") cx.unsupported(op, `a loop-carried ${l.kind}`, "SPIR-V logical addressing cannot carry a storage root through a loop");
      ok = false;
      return { kind: "invalid" } as Lowered;
    }
    return withLanes(l, lanes.map(() => cx.module.id()));
  });
  return { values, ok };
}

function fillPhis(cx: KernelLowering, header: Id, phis: readonly Lowered[], sources: readonly { values: readonly Lowered[]; from: Id }[]): void {
  phis.forEach((p, i) => {
    const ids = lanesOf(p);
    if (!ids) return;
    const type = cx.typeId(typeOf(p)!);
    ids.forEach((id, lane) => {
      const incoming = sources.map((s) => {
        const lanes = lanesOf(s.values[i]!);
        return [lanes ? lanes[lane]! : cx.module.id(), s.from] as const;
      });
      cx.fn.addPhi(header, I.phi(type, id, incoming));
    });
  });
}

const forRule: OpRule = (cx, op) => {
  const m = cx.module;
  const [lo, hi, step, ...initValues] = op.operands;
  const unsignedBounds = lo!.type.kind === "prim" && lo!.type.name === "offset";
  const loId = cx.scalar(lo!), hiId = cx.scalar(hi!), stepId = cx.scalar(step!);
  const inits = initValues.map((v) => cx.get(v));
  const pre = cx.fn.block;
  const [header, check, body, cont, exit] = [m.id(), m.id(), m.id(), m.id(), m.id()];
  cx.fn.terminate(I.branch(header));

  cx.fn.begin(header);
  const iv = m.id();
  const acc = carried(cx, op, inits);
  const control = op.props.unroll === "full" ? LoopControl.Unroll : LoopControl.None;
  cx.fn.terminate(I.branch(check), I.loopMerge(exit, cont, control));

  cx.fn.begin(check);
  const more = cx.binary(unsignedBounds ? S.ULessThan : S.SLessThan, BOOL, iv, hiId);
  cx.fn.terminate(I.branchConditional(more, body, exit));

  cx.fn.begin(body);
  const term = cx.lowerRegion(op.regions[0]!, [{ kind: "scalar", id: iv, type: U64 }, ...acc.values]);
  const yielded = term.operands.map((v) => cx.get(v));
  cx.fn.terminate(I.branch(cont));

  cx.fn.begin(cont);
  const next = cx.binary(S.IAdd, U64, iv, stepId);
  cx.fn.terminate(I.branch(header));

  cx.fn.addPhi(header, I.phi(cx.typeId(U64), iv, [[loId, pre], [next, cont]]));
  if (acc.ok) fillPhis(cx, header, acc.values, [{ values: inits, from: pre }, { values: yielded, from: cont }]);
  cx.fn.begin(exit);
  acc.values.forEach((l, i) => cx.set(op.results[i]!, l));
};

const whileRule: OpRule = (cx, op) => {
  const m = cx.module;
  const inits = op.operands.map((v) => cx.get(v));
  const pre = cx.fn.block;
  const [header, before, after, cont, exit] = [m.id(), m.id(), m.id(), m.id(), m.id()];
  cx.fn.terminate(I.branch(header));

  cx.fn.begin(header);
  const acc = carried(cx, op, inits);
  cx.fn.terminate(I.branch(before), I.loopMerge(exit, cont, LoopControl.None));

  cx.fn.begin(before);
  const condition = cx.lowerRegion(op.regions[0]!, acc.values);
  const [k, ...forwardedValues] = condition.operands;
  const forwarded = forwardedValues.map((v) => cx.get(v));
  cx.fn.terminate(I.branchConditional(cx.scalar(k!), after, exit));

  cx.fn.begin(after);
  const term = cx.lowerRegion(op.regions[1]!, forwarded);
  const yielded = term.operands.map((v) => cx.get(v));
  cx.fn.terminate(I.branch(cont));

  cx.fn.begin(cont);
  cx.fn.terminate(I.branch(header));

  if (acc.ok) fillPhis(cx, header, acc.values, [{ values: inits, from: pre }, { values: yielded, from: cont }]);
  cx.fn.begin(exit);
  // The exit edge leaves from the end of the before-region, so the forwarded values dominate it.
  forwarded.forEach((l, i) => cx.set(op.results[i]!, l));
};

/**
 * A counted loop `for i in [0, count)` carrying scalar values, for rules that need one
 * (workgroup reductions). `body` emits straight-line code and returns the next carried ids.
 */
export function countedLoop(cx: KernelLowering, count: Id, init: readonly { id: Id; type: ScalarType }[], body: (i: Id, carried: readonly Id[]) => Id[]): Id[] {
  const m = cx.module;
  const pre = cx.fn.block;
  const [header, check, bodyLabel, cont, exit] = [m.id(), m.id(), m.id(), m.id(), m.id()];
  cx.fn.terminate(I.branch(header));
  cx.fn.begin(header);
  const iv = m.id();
  const phis = init.map(() => m.id());
  cx.fn.terminate(I.branch(check), I.loopMerge(exit, cont, LoopControl.None));
  cx.fn.begin(check);
  cx.fn.terminate(I.branchConditional(cx.binary(S.ULessThan, BOOL, iv, count), bodyLabel, exit));
  cx.fn.begin(bodyLabel);
  const next = body(iv, phis);
  cx.fn.terminate(I.branch(cont));
  cx.fn.begin(cont);
  const ivNext = cx.binary(S.IAdd, U64, iv, cx.u64(1));
  cx.fn.terminate(I.branch(header));
  cx.fn.addPhi(header, I.phi(cx.typeId(U64), iv, [[cx.u64(0), pre], [ivNext, cont]]));
  init.forEach((x, i) => cx.fn.addPhi(header, I.phi(cx.typeId(x.type), phis[i]!, [[x.id, pre], [next[i]!, cont]])));
  cx.fn.begin(exit);
  return phis;
}

export const CONTROL_RULES = {
  "scf.if": ifRule,
  "scf.for": forRule,
  "scf.while": whileRule,
} satisfies Partial<Record<OpName, OpRule>>;
