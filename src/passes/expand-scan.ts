/**
 * Target-independent expansion of `kernel.workgroup.scan` (language.md §9) into ops every back
 * end lowers: each invocation stores its value into a workgroup scratch array (one slot per
 * invocation, flat-id order), a workgroup barrier publishes the slots, and each invocation folds
 * the slots before it (after it, for `reverse`) in scan order; a second barrier lets the scratch
 * be reused when the scan runs again (a loop). The fold starts at the first slot in scan order and
 * combines left to right, the association the reference interpreter uses, so float scans agree
 * bit for bit; an exclusive scan gives the first invocation the kind's identity.
 *
 * It needs a static workgroup size (the scratch is sized by it): a kernel whose size is known only
 * at launch keeps its scans, and the target reports them as unsupported, as before. Vector and
 * `i1` scans are kept the same way (no memory form for `i1`).
 *
 * The expansion is built op by op with the IR constructors, each op as the parser would build it
 * from the equivalent text (the same props and annotated types), so printing the expanded kernel
 * gives exactly what an author could write by hand, and verifying it (`verifyEachPass`) checks
 * it like any other source.
 */
import { Op, type Prop, type Region, type Span, type Value } from "../ir/core.js";
import { constantValue, makeConstant } from "../ir/build.js";
import { bitWidth, isFloat, isInt, T, type PrimType, type Type, type ViewType } from "../ir/types.js";
import { walkRegion } from "../ir/walk.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import type { ValueMap } from "../ir/clone.js";
import { isOp } from "../dialects/registry.js";

/** Combining kinds whose `scalar.<kind>` op folds two slots. */
const COMBINING = new Set(["addi", "muli", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "addf", "mulf", "minimumf", "maximumf", "minnumf", "maxnumf"]);

/** The kernel's static workgroup size from its launch config (folded by specialization), or undefined. */
function staticWorkgroupSize(kernel: Op): [number, number, number] | undefined {
  const config = kernel.regions[0];
  const launch = config?.ops[config.ops.length - 1];
  if (!launch || !isOp(launch, "kernel.launch.config")) return undefined;
  const sizes = launch.operands.slice(3, 6).map((v) => constantValue(v.owner as Op));
  if (sizes.length !== 3 || !sizes.every((s) => typeof s === "bigint" && s >= 1n && s <= 1n << 20n)) return undefined;
  return sizes.map(Number) as [number, number, number];
}

/** The identity of `kind` on `t`: what an exclusive scan gives its first invocation (as interp/ops-kernel.ts). */
function identityOf(kind: string, t: PrimType): bigint | number {
  if (isFloat(t)) {
    if (kind === "addf") return -0;
    if (kind === "mulf") return 1;
    return kind.startsWith("min") ? Infinity : -Infinity;
  }
  const w = BigInt(bitWidth(t));
  switch (kind) {
    case "muli": return 1n;
    // Constants are written as signed values of their width.
    case "andi": case "minui": return -1n;
    case "minsi": return (1n << (w - 1n)) - 1n;
    case "maxsi": return -(1n << (w - 1n));
    default: return 0n;
  }
}

/** Appends ops to a list, each with the scan's span and its value names under one prefix. */
class ScanBuilder {
  readonly ops: Op[] = [];
  constructor(
    private readonly prefix: string,
    private readonly span: Span | undefined,
  ) {}

  /** An op with `operands` and `props`, appended. */
  op(name: string, operands: readonly Value[], props: Record<string, Prop>): Op {
    const op = new Op(name, this.span);
    op.operands = [...operands];
    op.props = props;
    this.ops.push(op);
    return op;
  }
  /** A result `name: t` of a built op. */
  result(op: Op, name: string, t: Type): Value {
    return op.addResult(`${this.prefix}_${name}`, t, this.span);
  }
  /** The single result of a new op. */
  value(name: string, operands: readonly Value[], props: Record<string, Prop>, [resultName, t]: readonly [string, Type]): Value {
    return this.result(this.op(name, operands, props), resultName, t);
  }
  /** A region argument of a built op. */
  arg(region: Region, name: string, t: Type): Value {
    return region.addArg(`${this.prefix}_${name}`, t, this.span);
  }
  constant(name: string, value: number, t: PrimType): Value {
    return this.value("index.constant", [], { value: { kind: "int", value: BigInt(value) }, annotatedTypes: [t] }, [name, t]);
  }
  /** `%name = index.<op> %a, %b : index`. */
  index(op: string, name: string, a: Value, b: Value): Value {
    return this.value(`index.${op}`, [a, b], { annotatedTypes: [T.index] }, [name, T.index]);
  }
  barrier(): void {
    this.op("kernel.barrier", [], { memory: "workgroup", scope: "workgroup", ordering: "acq_rel" });
  }
  /** `%name = view.load %slots[%at] : view -> t`. */
  load(name: string, slots: Value, at: Value, view: ViewType, t: PrimType): Value {
    return this.value("view.load", [slots], { indices: [at], annotatedTypes: [view] }, [name, t]);
  }
  /** Moves the ops built since `mark` into `region` (a loop body, built in line). */
  moveInto(region: Region, mark: number): void {
    for (const op of this.ops.splice(mark)) {
      op.parent = region;
      region.ops.push(op);
    }
  }
}

/**
 * Appends the expansion of one scan of `value` to `b` (`identity` is the kind's identity) and
 * returns the scan's value. As Loom text (names prefixed by the scan's result name):
 *
 *   %bytes = index.constant <N·bytes> : offset
 *   %base = index.constant 0 : offset
 *   %scratch = buffer.alloca<workgroup> align(<bytes>) %bytes : buffer
 *   %slots = buffer.view %scratch[%base] : buffer -> view<NxT>
 *   %x, %y, %z = kernel.workitem.id<x|y|z>; %sx, %sy = the static sizes
 *   %flat = ((z·sy) + y)·sx + x                        (index.mul, index.add)
 *   view.store %value, %slots[%flat]; kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)
 *   %zero, %one, %last = 0, 1, N−1
 *   %position = index.sub %last, %flat (reverse) | index.add %flat, %zero
 *   %count = index.add %position, %zero (exclusive) | index.add %position, %one
 *   %first = view.load %slots[%last (reverse) | %zero]
 *   %result = scf.for %k = [%one to %count step %one](%carry = %first : T) -> (T) {
 *     %at = index.sub %last, %k (reverse) | index.add %k, %zero
 *     %slot = view.load %slots[%at]; %next = scalar.<kind> %carry, %slot; scf.yield %next
 *   }                                 (named %folded when exclusive, then:)
 *   %empty = index.cmp eq, %count, %zero; %result = scf.select %empty, %identity, %folded
 *   kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)
 */
function buildExpansion(b: ScanBuilder, kind: string, t: PrimType, size: readonly [number, number, number], reverse: boolean, exclusive: boolean, value: Value, identity: Value): Value {
  const n = size[0] * size[1] * size[2];
  const bytes = bitWidth(t) / 8;
  const view: ViewType = { kind: "view", dims: [{ kind: "static", size: n }], element: t };
  const byteCount = b.constant("bytes", n * bytes, T.offset);
  const base = b.constant("base", 0, T.offset);
  const scratch = b.value("buffer.alloca", [byteCount], { space: "workgroup", align: bytes, annotatedTypes: [T.buffer] }, ["scratch", T.buffer]);
  const slots = b.value("buffer.view", [scratch, base], { annotatedTypes: [T.buffer] }, ["slots", view]);
  const x = b.value("kernel.workitem.id", [], { dim: "x", annotatedTypes: [T.index] }, ["x", T.index]);
  const y = b.value("kernel.workitem.id", [], { dim: "y", annotatedTypes: [T.index] }, ["y", T.index]);
  const z = b.value("kernel.workitem.id", [], { dim: "z", annotatedTypes: [T.index] }, ["z", T.index]);
  const sx = b.constant("sx", size[0], T.index);
  const sy = b.constant("sy", size[1], T.index);
  const zy = b.index("mul", "zy", z, sy);
  const row = b.index("add", "row", zy, y);
  const rowx = b.index("mul", "rowx", row, sx);
  const flat = b.index("add", "flat", rowx, x);
  b.op("view.store", [value, slots], { indices: [flat], annotatedTypes: [t, view] });
  b.barrier();
  const zero = b.constant("zero", 0, T.index);
  const one = b.constant("one", 1, T.index);
  const last = b.constant("last", n - 1, T.index);
  // The invocation's place in scan order, and how many slots its value folds.
  const position = reverse ? b.index("sub", "position", last, flat) : b.index("add", "position", flat, zero);
  const count = b.index("add", "count", position, exclusive ? zero : one);
  const first = b.load("first", slots, reverse ? last : zero, view, t);
  const loop = b.op("scf.for", [one, count, one, first], {});
  const folded = b.result(loop, exclusive ? "folded" : "result", t);
  const body = loop.addRegion();
  const k = b.arg(body, "k", T.index);
  const carry = b.arg(body, "carry", t);
  const mark = b.ops.length;
  const at = reverse ? b.index("sub", "at", last, k) : b.index("add", "at", k, zero);
  const slot = b.load("slot", slots, at, view, t);
  const next = b.value(`scalar.${kind}`, [carry, slot], { annotatedTypes: [t] }, ["next", t]);
  b.op("scf.yield", [next], { annotatedTypes: [t] });
  b.moveInto(body, mark);
  let result = folded;
  if (exclusive) {
    const empty = b.value("index.cmp", [count, zero], { predicate: "eq", annotatedTypes: [T.index] }, ["empty", T.i1]);
    result = b.value("scf.select", [empty, identity, result], { annotatedTypes: [t] }, ["result", t]);
  }
  b.barrier();
  return result;
}

/**
 * Rewrites every scalar `kernel.workgroup.scan` of `kernel`'s body into workgroup scratch,
 * barriers and a counted fold; returns how many it expanded. Scans it cannot expand stay.
 */
export function expandWorkgroupScans(kernel: Op): number {
  const body = kernel.regions[1];
  if (!body) return 0;
  const scans: Op[] = [];
  walkRegion(body, (op) => {
    if (isOp(op, "kernel.workgroup.scan")) scans.push(op);
  });
  if (scans.length === 0) return 0;
  const size = staticWorkgroupSize(kernel);
  if (!size) return 0;
  const replaced: ValueMap = new Map();
  let expanded = 0;
  for (const scan of scans) {
    const value = scan.operands[0], result = scan.results[0], region = scan.parent;
    const kind = String(scan.props.kind);
    if (!value || !result || !region || !COMBINING.has(kind)) continue;
    const t = value.type;
    if (t.kind !== "prim" || !(isInt(t) || isFloat(t)) || t.name === "i1") continue;
    const identity = makeConstant(t, identityOf(kind, t), `${result.name}_identity`, scan.span);
    const [identityValue] = identity.results;
    if (!identityValue) continue;
    const b = new ScanBuilder(result.name, scan.span);
    const final = buildExpansion(b, kind, t, size, scan.props.direction === "reverse", scan.props.mode === "exclusive", value, identityValue);
    const inserted = [identity, ...b.ops];
    for (const op of inserted) op.parent = region;
    identity.comments = scan.comments;
    identity.blankBefore = scan.blankBefore;
    region.ops.splice(region.ops.indexOf(scan), 1, ...inserted);
    replaced.set(result, final);
    expanded++;
  }
  replaceUsesInRegion(body, replaced);
  return expanded;
}
