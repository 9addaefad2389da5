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
 * The expansion is written as Loom text and parsed, so it is exactly what an author could write by
 * hand, and verifying the expanded kernel (`verifyEachPass`) checks it like any other source.
 */
import type { Op, Value } from "../ir/core.js";
import { constantValue, makeConstant } from "../ir/build.js";
import { bitWidth, isFloat, isInt, typeToString, type PrimType } from "../ir/types.js";
import { walkRegion } from "../ir/walk.js";
import { replaceUsesInOp, replaceUsesInRegion } from "../ir/rewrite.js";
import type { ValueMap } from "../ir/clone.js";
import { DiagnosticSink } from "../core/diag/diagnostic.js";
import { isOp } from "../dialects/registry.js";
import { parseModule } from "../text/parser.js";

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

/** The expansion of one scan as the launch body of a throwaway kernel: `%value` is the scanned operand, `%identity` the kind's identity; `%result` is the scan's value. */
function expansionText(kind: string, t: string, bytes: number, size: readonly [number, number, number], reverse: boolean, exclusive: boolean): string {
  const n = size[0] * size[1] * size[2];
  const view = `view<${n}x${t}>`;
  const lines = [
    `%bytes = index.constant ${n * bytes} : offset`,
    `%base = index.constant 0 : offset`,
    `%scratch = buffer.alloca<workgroup> align(${bytes}) %bytes : buffer`,
    `%slots = buffer.view %scratch[%base] : buffer -> ${view}`,
    `%x = kernel.workitem.id<x> : index`,
    `%y = kernel.workitem.id<y> : index`,
    `%z = kernel.workitem.id<z> : index`,
    `%sx = index.constant ${size[0]} : index`,
    `%sy = index.constant ${size[1]} : index`,
    `%zy = index.mul %z, %sy : index`,
    `%row = index.add %zy, %y : index`,
    `%rowx = index.mul %row, %sx : index`,
    `%flat = index.add %rowx, %x : index`,
    `view.store %value, %slots[%flat] : ${t}, ${view}`,
    `kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)`,
    `%zero = index.constant 0 : index`,
    `%one = index.constant 1 : index`,
    `%last = index.constant ${n - 1} : index`,
    // The invocation's place in scan order, and how many slots its value folds.
    reverse ? `%position = index.sub %last, %flat : index` : `%position = index.add %flat, %zero : index`,
    exclusive ? `%count = index.add %position, %zero : index` : `%count = index.add %position, %one : index`,
    `%first = view.load %slots[${reverse ? "%last" : "%zero"}] : ${view} -> ${t}`,
    `%${exclusive ? "folded" : "result"} = scf.for %k = [%one to %count step %one](%carry = %first : ${t}) -> (${t}) {`,
    reverse ? `  %at = index.sub %last, %k : index` : `  %at = index.add %k, %zero : index`,
    `  %slot = view.load %slots[%at] : ${view} -> ${t}`,
    `  %next = scalar.${kind} %carry, %slot : ${t}`,
    `  scf.yield %next : ${t}`,
    `}`,
    ...(exclusive ? [`%empty = index.cmp eq, %count, %zero : index`, `%result = scf.select %empty, %identity, %folded : ${t}`] : []),
    `kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)`,
  ];
  return [
    `kernel.def @expansion() {`,
    `  %c1 = index.constant 1 : index`,
    `  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index`,
    `} launch(%value: ${t}, %identity: ${t}) {`,
    ...lines.map((l) => `  ${l}`),
    `  kernel.return`,
    `}`,
    ``,
  ].join("\n");
}

/** Gives `op`, its nested ops and their values the scan's span and a name prefix (names only matter when the expanded IR is printed). */
function adopt(op: Op, scan: Op, prefix: string): void {
  op.span = scan.span;
  for (const v of op.results) v.name = `${prefix}_${v.name}`;
  for (const r of op.regions) {
    for (const a of r.args) a.name = `${prefix}_${a.name}`;
    for (const inner of r.ops) adopt(inner, scan, prefix);
  }
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
    const text = expansionText(kind, typeToString(t), bitWidth(t) / 8, size, scan.props.direction === "reverse", scan.props.mode === "exclusive");
    const sink = new DiagnosticSink();
    const parsed = parseModule(`<${kernel.symbol ?? "kernel"} scan expansion>`, text, sink);
    const template = parsed.ops[0]?.regions[1];
    if (sink.hasErrors || !template) throw new Error(`workgroup scan expansion did not parse: ${sink.diagnostics.map((d) => d.message).join("; ")}`);
    const ops = template.ops.slice(0, -1); // without kernel.return
    const [valueArg, identityArg] = template.args as [Value, Value];
    const identity = makeConstant(t, identityOf(kind, t), `${result.name}_identity`, scan.span);
    const final = ops.find((op) => op.results[0]?.name === "result")?.results[0];
    if (!final) throw new Error("workgroup scan expansion lost its result");
    const inserted = [identity, ...ops];
    for (const op of ops) adopt(op, scan, result.name);
    for (const op of inserted) op.parent = region;
    for (const op of ops) replaceUsesInOp(op, new Map([[valueArg, value], [identityArg, identity.results[0]!]]));
    inserted[0]!.comments = scan.comments;
    inserted[0]!.blankBefore = scan.blankBefore;
    region.ops.splice(region.ops.indexOf(scan), 1, ...inserted);
    replaced.set(result, final);
    expanded++;
  }
  replaceUsesInRegion(body, replaced);
  return expanded;
}
