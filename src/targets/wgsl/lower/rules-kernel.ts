/**
 * `kernel.*` device ops: invocation coordinates from the entry point's builtins (`u32`,
 * converted to the `i32` index carrier), barriers (`workgroupBarrier()`, and
 * `storageBarrier()` for global memory), subgroup collectives with the `subgroups` extension
 * (`subgroupAdd` …, `subgroupShuffle`, `subgroupBroadcast`), and the workgroup reduction over
 * a `var<workgroup>` scratch array. A subgroup's id is `local_invocation_index /
 * subgroup_size` (docs/wgsl.md "Subgroups" states the assumption).
 */
import type { Op } from "../../../ir/core.js";
import type { KernelLowering, Rule, Scalar, WType } from "./context.js";
import { combine, select } from "./lanes.js";
import { dynamicWorkgroupReduce, unexpandedScan } from "../../../dialects/lowering.js";

function dim(op: Op): "x" | "y" | "z" {
  const d = String(op.props.dim);
  return d === "y" || d === "z" ? d : "x";
}

const DIM_INDEX = { x: 0, y: 1, z: 2 } as const;

function builtinRule(builtin: string): Rule {
  return (cx, op) => cx.set(op.results[0]!, cx.let("i32", `i32(${cx.builtin(builtin)}.${dim(op)})`));
}

const workgroupSize: Rule = (cx, op) => {
  // Static by the time the entry point exists (TARGET/902 otherwise, kernel.ts).
  const size = cx.kernel.staticWorkgroupSize ?? [1, 1, 1];
  cx.set(op.results[0]!, cx.i32(size[DIM_INDEX[dim(op)]]));
};

function subgroups(cx: KernelLowering, op: Op, operation: string): boolean {
  if (!cx.requireFeature(op, "subgroups", `'${op.name}'`)) return false;
  cx.enables.add("subgroups");
  cx.subgroupOperations.add(operation);
  return true;
}

const laneId: Rule = (cx, op) => {
  if (!subgroups(cx, op, "basic")) return cx.poison(op);
  cx.set(op.results[0]!, cx.let("i32", `i32(${cx.builtin("subgroup_invocation_id")})`));
};
const subgroupSize: Rule = (cx, op) => {
  if (!subgroups(cx, op, "basic")) return cx.poison(op);
  cx.set(op.results[0]!, cx.let("i32", `i32(${cx.builtin("subgroup_size")})`));
};
const subgroupId: Rule = (cx, op) => {
  if (!subgroups(cx, op, "basic")) return cx.poison(op);
  cx.set(op.results[0]!, cx.let("i32", `i32(${cx.builtin("local_invocation_index")} / ${cx.builtin("subgroup_size")})`));
};
const subgroupCount: Rule = (cx, op) => {
  if (!subgroups(cx, op, "basic")) return cx.poison(op);
  const [x, y, z] = cx.kernel.staticWorkgroupSize ?? [1, 1, 1];
  const n = cx.builtin("subgroup_size");
  cx.set(op.results[0]!, cx.let("i32", `i32((${x * y * z}u + ${n} - 1u) / ${n})`));
};

const barrier: Rule = (cx, op) => {
  const scope = String(op.props.scope);
  if (scope !== "workgroup") {
    cx.unsupported(op, `'kernel.barrier' at scope '${scope}'`, "WGSL barriers synchronize one workgroup; use scope(workgroup)");
    return;
  }
  cx.line(op.props.memory === "global" ? "storageBarrier();" : "workgroupBarrier();");
};

// ---- subgroup collectives -----------------------------------------------------------------

const REDUCE: Readonly<Record<string, string>> = {
  addi: "subgroupAdd", addf: "subgroupAdd", muli: "subgroupMul", mulf: "subgroupMul",
  minsi: "subgroupMin", maxsi: "subgroupMax", minui: "subgroupMin", maxui: "subgroupMax",
  minimumf: "subgroupMin", maximumf: "subgroupMax", minnumf: "subgroupMin", maxnumf: "subgroupMax",
  andi: "subgroupAnd", ori: "subgroupOr", xori: "subgroupXor",
};

/** `v` as a type subgroup builtins take (bool as u32 0/1). */
function carrier(cx: KernelLowering, v: Scalar, unsigned: boolean): Scalar {
  if (v.t === "bool") return cx.let("u32", `select(0u, 1u, ${v.e})`);
  return unsigned ? cx.reinterpret(v, "u32") : v;
}

function restore(cx: KernelLowering, t: WType, x: Scalar): Scalar {
  if (t === "bool") return cx.let("bool", `(${x.e} != 0u)`);
  return x.t === t ? x : cx.let(t, `bitcast<${t}>(${x.e})`);
}

const subgroupReduce: Rule = (cx, op) => {
  const kind = String(op.props.kind);
  const cluster = op.props.clusterSize === undefined ? undefined : Number(op.props.clusterSize);
  if (!subgroups(cx, op, cluster === undefined ? "arithmetic" : "clustered")) return cx.poison(op);
  const t = cx.typeOf(op.results[0]!);
  const v = cx.scalar(op.operands[0]!);
  if (cluster !== undefined) {
    // Butterfly over the cluster: every lane combines with lane ^ k, k = cluster/2 … 1.
    let acc = v;
    for (let k = cluster / 2; k >= 1; k /= 2) {
      const c = carrier(cx, acc, false);
      acc = combine(cx, op, kind, t, acc, restore(cx, t, cx.let(c.t, `subgroupShuffleXor(${c.e}, ${k}u)`)));
    }
    return cx.set(op.results[0]!, acc);
  }
  const fn = REDUCE[kind];
  if (!fn) throw new Error(`WGSL lowering: unknown combining kind '${kind}'`);
  if (t === "bool" && !["andi", "ori", "xori"].includes(kind)) {
    cx.unsupported(op, `'kernel.subgroup.reduce<${kind}>' on i1`);
    return cx.poison(op);
  }
  const c = carrier(cx, v, kind === "minui" || kind === "maxui");
  cx.set(op.results[0]!, restore(cx, t, cx.let(c.t, `${fn}(${c.e})`)));
};

const subgroupShuffle: Rule = (cx, op) => {
  if (!subgroups(cx, op, "shuffle")) return cx.poison(op);
  const [v, off, width] = op.operands.map((x) => cx.scalar(x)) as [Scalar, Scalar, Scalar];
  const lane = cx.builtin("subgroup_invocation_id");
  const o = cx.reinterpret(off, "u32").e, w = cx.reinterpret(width, "u32").e;
  // Segments of `width` lanes: base = lane & ~(width − 1); the source must stay in the segment.
  const base = cx.let("u32", `(${lane} & ~(${w} - 1u))`);
  const mode = String(op.props.mode);
  const src = cx.let(
    "u32",
    mode === "xor" ? `(${lane} ^ ${o})` : mode === "up" ? `(${lane} - ${o})` : mode === "down" ? `(${lane} + ${o})` : `(${base.e} + ${o})`,
  );
  const valid = cx.let("bool", `((${src.e} - ${base.e}) < ${w})`);
  const c = carrier(cx, v, false);
  const shuffled = restore(cx, v.t, cx.let(c.t, `subgroupShuffle(${c.e}, select(${lane}, ${src.e}, ${valid.e}))`));
  cx.set(op.results[0]!, select(cx, valid, shuffled, v));
  cx.set(op.results[1]!, valid);
};

const subgroupBroadcast: Rule = (cx, op) => {
  if (!subgroups(cx, op, "ballot")) return cx.poison(op);
  const v = cx.scalar(op.operands[0]!), lane = cx.scalar(op.operands[1]!);
  const c = carrier(cx, v, false);
  // subgroupBroadcast takes a constant lane; a computed one is a shuffle.
  const call = lane.c !== undefined ? `subgroupBroadcast(${c.e}, ${BigInt.asUintN(32, lane.c)}u)` : `subgroupShuffle(${c.e}, ${cx.reinterpret(lane, "u32").e})`;
  cx.set(op.results[0]!, restore(cx, v.t, cx.let(c.t, call)));
};

// ---- workgroup reduction ------------------------------------------------------------------

/**
 * Every invocation stores its value in a scratch array (one slot per invocation), a barrier,
 * then each folds all slots in flat-id order, so every invocation gets the same result and
 * float association is fixed; a second barrier keeps the scratch reusable.
 */
const workgroupReduce: Rule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  if (!size) return dynamicWorkgroupReduce(cx, op);
  const kind = String(op.props.kind);
  const t = cx.typeOf(op.results[0]!);
  const slot: WType = t === "bool" ? "u32" : t;
  const flat = size[0] * size[1] * size[2];
  const scratch = `${cx.entryName}_reduce${cx.globals.length}`;
  cx.globals.push(`var<workgroup> ${scratch}: array<${slot}, ${flat}>;`);
  const v = cx.scalar(op.operands[0]!);
  cx.line(`${scratch}[${cx.builtin("local_invocation_index")}] = ${t === "bool" ? `select(0u, 1u, ${v.e})` : v.e};`);
  cx.line("workgroupBarrier();");
  const read = (at: string): Scalar => {
    const x = cx.let(slot, `${scratch}[${at}]`);
    return t === "bool" ? cx.let("bool", `(${x.e} != 0u)`) : x;
  };
  const acc = cx.variable(t, read("0"));
  if (flat > 1) {
    const k = cx.fresh("k");
    cx.line(`for (var ${k}: u32 = 1u; ${k} < ${flat}u; ${k} = ${k} + 1u) {`);
    cx.nested(() => cx.assign(acc, combine(cx, op, kind, t, cx.let(t, acc.e), read(k))));
    cx.line("}");
  }
  cx.line("workgroupBarrier();");
  cx.set(op.results[0]!, cx.let(t, acc.e));
};

const assertRule: Rule = (cx, op) => {
  cx.unsupported(op, "'kernel.assert'", "WGSL shaders cannot trap; check the condition on the host or write a flag to a buffer");
};

export const KERNEL_RULES = {
  "kernel.workitem.id": builtinRule("local_invocation_id"),
  "kernel.workgroup.id": builtinRule("workgroup_id"),
  "kernel.workgroup.count": builtinRule("num_workgroups"),
  "kernel.workitem.dispatch.id": builtinRule("global_invocation_id"),
  "kernel.workgroup.size": workgroupSize,
  "kernel.subgroup.id": subgroupId,
  "kernel.subgroup.size": subgroupSize,
  "kernel.subgroup.lane.id": laneId,
  "kernel.subgroup.count": subgroupCount,
  "kernel.barrier": barrier,
  "kernel.subgroup.reduce": subgroupReduce,
  "kernel.subgroup.shuffle": subgroupShuffle,
  "kernel.subgroup.broadcast": subgroupBroadcast,
  "kernel.workgroup.reduce": workgroupReduce,
  "kernel.workgroup.scan": unexpandedScan,
  "kernel.assert": assertRule,
} as const satisfies Record<string, Rule>;
