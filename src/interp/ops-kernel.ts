/**
 * `kernel.*` ops (language.md §4.1) plus `config.get` and `target.subgroup.size`.
 *
 * Coordinates come from the invocation. Barriers and collectives yield a `SyncRequest`;
 * the scheduler (./scheduler.ts) gathers every participant of the scope at the same op and
 * calls the request's `resolve` with all of them, in flat-id order — lockstep at the
 * collective, sequential between collectives.
 */
import type { Literal, Op } from "../ir/core.js";
import { isFloatName, roundToFormat, type FloatName } from "../dialects/scalar/semantics.js";
import { isOp, OP_INFOS, propOf } from "../dialects/registry.js";
import { opError } from "./errors.js";
import { Undefined } from "../dialects/index/semantics.js";
import { raise, type FunctionCompiler } from "./compiler.js";
import { combiner, fold } from "./collectives.js";
import { invocationId, plain, synced, type Frame, type Gen, type Invocation, type Lane, type Step, type SyncRequest, type Val } from "./state.js";
import { laneType, literalValue, prop, operandOf, resultOf } from "./types.js";

/** Ops that synchronise invocations: the barriers and collectives of the registry. */
export const SYNC_OPS: ReadonlySet<string> = new Set(OP_INFOS.filter((i) => i.collective !== undefined).map((i) => i.name));

const DIMS = { x: 0, y: 1, z: 2 } as const;

export function compileKernelOp(c: FunctionCompiler, op: Op): Step | undefined {
  const query = coordinate(op);
  if (query) {
    const [r] = c.results(op);
    return plain((f) => { f.slots[r!] = BigInt(query(f.inv)); });
  }
  switch (op.name) {
    case "kernel.barrier": return barrier(op);
    case "kernel.subgroup.reduce": case "kernel.workgroup.reduce": return reduce(c, op);
    case "kernel.workgroup.scan": return scan(c, op);
    case "kernel.subgroup.shuffle": return shuffle(c, op);
    case "kernel.subgroup.broadcast": return broadcast(c, op);
    case "kernel.assert": {
      const ok = c.slot(operandOf(op, 0));
      const message = propOf(op, "message");
      return plain((f) => {
        if (f.slots[ok] !== 1n) raise(f, op, "assert", message === undefined ? "assertion failed" : `assertion failed: ${JSON.stringify(message)}`);
      });
    }
    case "config.get": return configGet(c, op);
  }
  return undefined;
}

/** The coordinate query an op is, as a function of the invocation. */
function coordinate(op: Op): ((inv: Invocation) => number) | undefined {
  const dim = propOf(op, "dim"); // only the x/y/z queries carry one
  const d = dim === undefined ? 0 : DIMS[dim];
  switch (op.name) {
    case "kernel.workitem.id": return (inv) => inv.local[d];
    case "kernel.workgroup.id": return (inv) => inv.workgroup.id[d];
    case "kernel.workgroup.size": return (inv) => inv.dispatch.workgroupSize[d];
    case "kernel.workgroup.count": return (inv) => inv.dispatch.workgroupCount[d];
    case "kernel.workitem.dispatch.id": return (inv) => inv.workgroup.id[d] * inv.dispatch.workgroupSize[d] + inv.local[d];
    case "kernel.subgroup.id": return (inv) => Math.floor(inv.flat / inv.dispatch.subgroupSize);
    case "kernel.subgroup.lane.id": return (inv) => inv.flat % inv.dispatch.subgroupSize;
    case "kernel.subgroup.size": case "target.subgroup.size": return (inv) => inv.dispatch.subgroupSize;
    case "kernel.subgroup.count": return (inv) => {
      const [x, y, z] = inv.dispatch.workgroupSize;
      return Math.ceil((x * y * z) / inv.dispatch.subgroupSize);
    };
  }
  return undefined;
}

/** A step that hands `request(f)` to the scheduler and stores what comes back. */
function collective(outs: readonly number[], request: (f: Frame) => SyncRequest): Step {
  return synced(function* (f): Gen<void> {
    const back = yield request(f);
    if (back) for (let i = 0; i < outs.length; i++) f.slots[outs[i]!] = back[i]!;
  });
}

function barrier(op: Op): Step {
  const scope = op.props.scope === "subgroup" ? "subgroup" : "workgroup";
  const req: SyncRequest = { op, scope, operands: [], resolve: () => undefined };
  return collective([], () => req);
}

const laneOf = (inv: Invocation) => inv.flat % inv.dispatch.subgroupSize;

function reduce(c: FunctionCompiler, op: Op): Step | undefined {
  const v = operandOf(op, 0);
  const combine = combiner(prop(op, "kind"), laneType(v.type));
  if (!combine) return undefined;
  const s = c.slot(v), outs = c.results(op);
  const scope = isOp(op, "kernel.workgroup.reduce") ? "workgroup" : "subgroup";
  const clusterSize = propOf(op, "clusterSize");
  const resolve: SyncRequest["resolve"] = (reqs, parts) => {
    const values = reqs.map((r) => r.operands[0] as Lane);
    // Workgroup: one cluster of everything. Subgroup: clusters of `clusterSize` lanes (default: all).
    const cluster = (inv: Invocation) => (scope === "workgroup" ? 0 : Math.floor(laneOf(inv) / (clusterSize ?? inv.dispatch.subgroupSize)));
    const totals = new Map<number, Lane>();
    return parts.map((inv, i) => {
      const k = cluster(inv);
      let total = totals.get(k);
      if (total === undefined) {
        const members = values.filter((_, j) => cluster(parts[j]!) === k);
        const r = fold(combine, members[0]!, members.slice(1));
        if (r instanceof Undefined) throw opError("undefined-behaviour", op, `undefined behaviour: ${r.reason}`, invocationId(parts[i]!));
        total = r;
        totals.set(k, total);
      }
      return [total];
    });
  };
  return collective(outs, (f) => ({ op, scope, operands: [f.slots[s]!], resolve }));
}

/** The identity of a combining kind on lanes of type `t` (what an exclusive scan gives its first invocation). */
function identity(kind: string, t: string): Lane {
  if (t.startsWith("f") || t === "bf16") {
    if (kind === "addf") return -0;
    if (kind === "mulf") return 1;
    return kind.startsWith("min") ? Infinity : -Infinity;
  }
  const w = t === "index" || t === "offset" ? 64n : BigInt(t.slice(1));
  switch (kind) {
    case "muli": return 1n;
    case "andi": case "minui": return (1n << w) - 1n;
    case "minsi": return (1n << (w - 1n)) - 1n;
    case "maxsi": return 1n << (w - 1n);
    default: return 0n; // addi, ori, xori, maxui
  }
}

/** `kernel.workgroup.scan`: prefix combines over the workgroup in flat-id order (reversed for `reverse`). */
function scan(c: FunctionCompiler, op: Op): Step | undefined {
  if (!isOp(op, "kernel.workgroup.scan")) return undefined;
  const v = operandOf(op, 0);
  const t = laneType(v.type);
  const combine = combiner(op.props.kind, t);
  if (!combine) return undefined;
  const s = c.slot(v), outs = c.results(op);
  const { direction, mode } = op.props;
  const resolve: SyncRequest["resolve"] = (reqs, parts) => {
    const order = parts.map((_, i) => i).sort((a, b) => parts[a]!.flat - parts[b]!.flat);
    if (direction === "reverse") order.reverse();
    const out: Lane[] = new Array<Lane>(parts.length);
    let acc: Lane | undefined;
    for (const i of order) {
      const x = reqs[i]!.operands[0] as Lane;
      if (mode === "exclusive") out[i] = acc ?? identity(op.props.kind, t);
      const next = acc === undefined ? fold(combine, x, []) : combine(acc, x);
      if (next instanceof Undefined) throw opError("undefined-behaviour", op, `undefined behaviour: ${next.reason}`, invocationId(parts[i]!));
      acc = next;
      if (mode === "inclusive") out[i] = acc;
    }
    return out.map((x) => [x]);
  };
  return collective(outs, (f) => ({ op, scope: "workgroup", operands: [f.slots[s]!], resolve }));
}

function uniform(op: Op, what: string, reqs: readonly SyncRequest[], parts: readonly Invocation[], k: number): bigint {
  const first = reqs[0]!.operands[k] as bigint;
  reqs.forEach((r, i) => {
    if (r.operands[k] !== first) throw opError("undefined-behaviour", op, `${what} must be subgroup-uniform, but lane ${laneOf(parts[i]!)} has ${r.operands[k]} and lane ${laneOf(parts[0]!)} has ${first}`, invocationId(parts[i]!));
  });
  return first;
}

/** The participant at subgroup lane `lane`, which must be active. */
function atLane(op: Op, parts: readonly Invocation[], lane: number, reader: Invocation): number {
  const base = parts[0]!.flat - laneOf(parts[0]!);
  const i = parts.findIndex((p) => p.flat === base + lane);
  if (i < 0) throw opError("undefined-behaviour", op, `reads subgroup lane ${lane}, which is not an active invocation`, invocationId(reader));
  return i;
}

function shuffle(c: FunctionCompiler, op: Op): Step {
  const [v, off, width] = op.operands.map((x) => c.slot(x)) as [number, number, number];
  const outs = c.results(op);
  const mode = prop(op, "mode");
  const resolve: SyncRequest["resolve"] = (reqs, parts) => {
    const sg = parts[0]!.dispatch.subgroupSize;
    const w = Number(uniform(op, "the shuffle width", reqs, parts, 2));
    if (w < 1 || w > sg || (w & (w - 1)) !== 0) throw opError("undefined-behaviour", op, `shuffle width ${w} is not a power of two in [1, ${sg}]`, invocationId(parts[0]!));
    return parts.map((inv, i) => {
      const lane = laneOf(inv), segment = lane - (lane % w), pos = lane % w;
      const o = Number(reqs[i]!.operands[1] as bigint);
      const src = mode === "xor" ? pos ^ o : mode === "up" ? pos - o : mode === "down" ? pos + o : o;
      if (src < 0 || src >= w) return [reqs[i]!.operands[0]!, 0n];
      return [reqs[atLane(op, parts, segment + src, inv)]!.operands[0]!, 1n];
    });
  };
  return collective(outs, (f) => ({ op, scope: "subgroup", operands: [f.slots[v]!, f.slots[off]!, f.slots[width]!], resolve }));
}

function broadcast(c: FunctionCompiler, op: Op): Step {
  const [v, lane] = op.operands.map((x) => c.slot(x)) as [number, number];
  const outs = c.results(op);
  const resolve: SyncRequest["resolve"] = (reqs, parts) => {
    const from = Number(uniform(op, "the broadcast lane", reqs, parts, 1));
    const value = reqs[atLane(op, parts, from, parts[0]!)]!.operands[0]!;
    return parts.map(() => [value]);
  };
  return collective(outs, (f) => ({ op, scope: "subgroup", operands: [f.slots[v]!, f.slots[lane]!], resolve }));
}

function configGet(c: FunctionCompiler, op: Op): Step {
  // config.get always names its declaration (only check.benchmark's symbol is optional).
  const key = prop(op, "symbol") ?? "";
  const t = laneType(resultOf(op, 0).type);
  const bound = c.unit.options.config?.get(key);
  const def = c.unit.configDefs.get(key);
  let value: Val;
  if (bound !== undefined) {
    value = isFloatName(t)
      ? roundToFormat(Number(bound), t as FloatName)
      : literalValue(typeof bound === "boolean" ? { kind: "bool", value: bound } : { kind: "int", value: BigInt(bound) }, t);
  } else if (def) {
    value = literalValue(prop(def, "value"), t);
  } else {
    throw opError("unsupported", op, `config key '@${key}' has no value (pass options.config or a module with its config.def, or interpret the prepared kernel)`);
  }
  const [r] = c.results(op);
  return plain((f) => { f.slots[r!] = value; });
}
