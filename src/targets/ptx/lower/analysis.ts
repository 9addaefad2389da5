/**
 * Facts the PTX lowering reads off the IR before it emits anything:
 *
 *  - which loads may take the non-coherent path (`ld.global.nc`): the load's buffer argument
 *    is never written in the kernel, and every write goes to a buffer proven disjoint from it
 *    (the two came out of one `buffer.assume.noalias` as different results) — CUDA's
 *    `const __restrict__` rule;
 *  - known multiples of `index` values and buffer alignments, so vector accesses can use
 *    `ld.global.v4` when their address is proven aligned.
 */
import type { Op, Predicate, Region, Value } from "../../../ir/core.js";
import { walkRegion } from "../../../ir/walk.js";
import { isOp } from "../../../dialects/registry.js";

/** Where a buffer or view value comes from: a kernel argument and the noalias results it went through. */
interface Origin {
  readonly root: Value;
  readonly tags: readonly (readonly [Op, number])[];
}

/** Ops whose k-th result is a view or alias of their k-th operand. */
const PASS_THROUGH = new Set(["buffer.assume.alignment", "buffer.assume.memory_space", "buffer.view", "view.subview"]);
const WRITES: Readonly<Record<string, number>> = {
  "view.store": 1, "vector.store": 1, "view.atomic.rmw": 1, "view.atomic.reduce": 1, "view.atomic.cmpxchg": 2, "view.atomic.store": 1, "view.atomic.load": 0,
};
const LOADS: Readonly<Record<string, number>> = { "view.load": 0, "vector.load": 0 };

function originOf(v: Value, args: ReadonlySet<Value>, memo: Map<Value, Origin | null>): Origin | null {
  const known = memo.get(v);
  if (known !== undefined) return known;
  let o: Origin | null = null;
  if (args.has(v)) o = { root: v, tags: [] };
  else if ("operands" in v.owner) {
    const def = v.owner;
    if (isOp(def, "buffer.assume.noalias")) {
      const i = def.results.indexOf(v);
      const inner = originOf(def.operands[i]!, args, memo);
      o = inner && { root: inner.root, tags: [...inner.tags, [def, i] as const] };
    } else if (isOp(def, "buffer.alloca")) {
      o = { root: v, tags: [] };
    } else if (PASS_THROUGH.has(def.name)) {
      o = originOf(def.operands[def.results.indexOf(v)]!, args, memo);
    }
  }
  memo.set(v, o);
  return o;
}

function disjoint(a: Origin, w: Origin): boolean {
  return a.tags.some(([op, i]) => w.tags.some(([op2, j]) => op === op2 && i !== j));
}

/** The load ops of `body` that may use `ld.global.nc`. */
export function nonCoherentLoads(body: Region): Set<Op> {
  const args = new Set(body.args.filter((a) => a.type.kind === "prim" && a.type.name === "buffer"));
  const memo = new Map<Value, Origin | null>();
  const loads: [Op, Origin][] = [];
  const writes: (Origin | null)[] = [];
  walkRegion(body, (op) => {
    const w = WRITES[op.name];
    if (w !== undefined) writes.push(originOf(op.operands[w]!, args, memo));
    const l = LOADS[op.name];
    if (l !== undefined) {
      const o = originOf(op.operands[l]!, args, memo);
      if (o && args.has(o.root)) loads.push([op, o]);
    }
  });
  const out = new Set<Op>();
  // A write through a view of unknown origin may alias anything.
  if (writes.some((w) => w === null)) return out;
  for (const [op, o] of loads) {
    if (writes.every((w) => w!.root !== o.root && (!args.has(w!.root) || disjoint(o, w!)))) out.add(op);
  }
  return out;
}

const CAP = 1 << 16;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

function constantOf(op: Op): bigint | undefined {
  const lit = isOp(op, "index.constant") || isOp(op, "scalar.constant") ? op.props.value : undefined;
  return lit?.kind === "int" ? lit.value : undefined;
}

/** A number every value of `v` is a multiple of (1 when nothing is known; capped). */
export function knownMultiple(v: Value | bigint, staticSize?: readonly number[]): number {
  if (typeof v === "bigint") return v === 0n ? CAP : Number(v < 0n ? -v : v) % CAP || CAP;
  if (!("operands" in v.owner)) {
    // An `scf.for` induction variable takes lo, lo + step, …: a multiple of gcd(lo, step).
    const loop = v.owner.parent;
    if (loop && isOp(loop, "scf.for") && v.owner.args[0] === v) return gcd(knownMultiple(loop.operands[0], staticSize), knownMultiple(loop.operands[2], staticSize));
    return 1;
  }
  const def = v.owner;
  const m = (i: number) => knownMultiple(def.operands[i]!, staticSize);
  const c = constantOf(def);
  if (c !== undefined) return knownMultiple(c);
  switch (def.name) {
    case "index.mul": case "index.scale": return Math.min(CAP, m(0) * m(1));
    case "index.add": case "index.sub": case "index.min": case "index.max": return gcd(m(0), m(1));
    case "index.madd": return gcd(Math.min(CAP, m(0) * m(1)), m(2));
    case "index.shli": {
      const k = def.operands[1]!.owner;
      const s = "operands" in k ? constantOf(k) : undefined;
      return s !== undefined && s >= 0n && s < 16n ? Math.min(CAP, m(0) * 2 ** Number(s)) : 1;
    }
    case "index.assume": {
      // The operand's own multiple, raised by any `mul(v, n)` fact the assume states.
      const operand = def.operands[def.results.indexOf(v)]!;
      let known = knownMultiple(operand, staticSize);
      for (const p of (def.props.predicates ?? []) as readonly Predicate[]) {
        const [a, n] = p.args;
        if (p.kind === "mul" && (a === v || a === operand) && typeof n === "bigint" && n > 0n) known = Math.min(CAP, lcm(known, Number(n % BigInt(CAP)) || CAP));
      }
      return known;
    }
    case "kernel.workgroup.size": {
      const d = { x: 0, y: 1, z: 2 }[String(def.props.dim) as "x"] ?? 0;
      return staticSize?.[d] ?? 1;
    }
    default: return 1;
  }
}
