/**
 * `buffer.*`, `encoding.layout.*`, `view.*` and `vector.load/store` (language.md §4.5–§4.7).
 *
 * Every element access checks each index against its view extent and the byte range
 * against the root; a failure is an `out-of-bounds` error at the op, never a silent read.
 * Atomics are trivially atomic here: invocations run one at a time.
 */
import type { Op, Value } from "../ir/core.js";
import type { Type, ViewType } from "../ir/types.js";
import { propOf } from "../dialects/registry.js";
import { prop, operandOf, resultOf } from "./types.js";
import { bindExactOp, type ExactOp } from "../dialects/eval/exact.js";
import type { LType } from "../dialects/eval/types.js";
import type { Outcome } from "../dialects/index/semantics.js";
import { defined, raise, type FunctionCompiler } from "./compiler.js";
import { arithmetic } from "./collectives.js";
import { BufferRoot, denseStrides, ELEMENT_BYTES, readElement, viewFootprint, writeElement, type ElementName, type LayoutValue, type MemorySpace, type ViewValue } from "./memory.js";
import { plain, type Frame, type Lane, type Step } from "./state.js";

type IndexSource = number | bigint; // a slot, or a literal

export function compileMemory(c: FunctionCompiler, op: Op): Step | undefined {
  switch (op.name) {
    case "buffer.view": return bufferView(c, op);
    case "buffer.alloca": return alloca(c, op);
    case "buffer.assume.noalias": return noalias(c, op);
    case "buffer.assume.alignment": return identity(c, op);
    case "buffer.assume.memory_space": return memorySpace(c, op);
    case "buffer.length": {
      const b = c.slot(operandOf(op, 0)), [r] = c.results(op);
      return plain((f) => { f.slots[r!] = BigInt((f.slots[b] as BufferRoot).length); });
    }
    case "encoding.layout.dense": {
      const [r] = c.results(op), value: LayoutValue = { kind: "layout", strides: undefined };
      return plain((f) => { f.slots[r!] = value; });
    }
    case "encoding.layout.strided": return stridedLayout(c, op);
    case "view.subview": return subview(c, op);
    case "view.load": case "view.atomic.load": return load(c, op);
    case "view.store": case "view.atomic.store": return store(c, op);
    case "view.atomic.rmw": case "view.atomic.reduce": return rmw(c, op);
    case "view.atomic.cmpxchg": return cmpxchg(c, op);
    case "vector.load": return vectorAccess(c, op, "load");
    case "vector.store": return vectorAccess(c, op, "store");
  }
  return undefined;
}

// ---- views ------------------------------------------------------------------------------

/** Reads the extents of a view type at run time (dynamic dims from their slots). */
function dimsOf(c: FunctionCompiler, t: ViewType): (f: Frame) => number[] {
  const parts = t.dims.map((d) => (d.kind === "static" ? d.size : { slot: c.slot(d.value) }));
  return (f) => parts.map((p) => (typeof p === "number" ? p : Number(f.slots[p.slot] as bigint)));
}

function elementOf(t: ViewType): ElementName {
  return t.element.name as ElementName;
}

function bufferView(c: FunctionCompiler, op: Op): Step {
  const t = resultOf(op, 0).type as ViewType;
  const b = c.slot(operandOf(op, 0)), off = c.slot(operandOf(op, 1));
  const dims = dimsOf(c, t);
  const layout = t.layout?.kind === "value" ? c.slot(t.layout.value) : undefined;
  // A static strided layout attribute (`#encoding.layout.strided<strides=[…]>`); verify checked its count.
  const fixedStrides = t.layout?.kind === "strided" ? t.layout.strides : undefined;
  const element = elementOf(t), elementBytes = ELEMENT_BYTES[element];
  const [r] = c.results(op);
  return plain((f) => {
    const root = f.slots[b] as BufferRoot, d = dims(f);
    if (d.some((x) => x < 0)) raise(f, op, "undefined-behaviour", `view extent ${d.join("x")} has a negative dimension`);
    const strides = layout === undefined ? undefined : (f.slots[layout] as LayoutValue).strides;
    if (strides && strides.length !== d.length) raise(f, op, "undefined-behaviour", `the strided layout has ${strides.length} strides for a rank-${d.length} view`);
    const view: ViewValue = { kind: "view", root, base: Number(f.slots[off] as bigint), dims: d, strides: strides ?? fixedStrides ?? denseStrides(d), element, elementBytes };
    checkFootprint(f, op, view);
    f.slots[r!] = view;
  });
}

/** The whole footprint of a view must lie inside its buffer (language.md §4.5). */
function checkFootprint(f: Frame, op: Op, v: ViewValue): void {
  const fp = viewFootprint(v);
  if (!fp) return;
  if (fp[1] > v.root.length) {
    raise(f, op, "out-of-bounds", `view of ${v.dims.join("x")}x${v.element} at byte ${v.base} covers bytes [${fp[0]}, ${fp[1]}), outside buffer '${v.root.label}' of ${v.root.length} bytes`);
  }
  if (v.base % v.elementBytes !== 0) raise(f, op, "undefined-behaviour", `view base byte ${v.base} is not a multiple of the ${v.element} size ${v.elementBytes}`);
}

function subview(c: FunctionCompiler, op: Op): Step {
  const src = c.slot(operandOf(op, 0));
  const offsets = indexSources(c, op);
  const dims = dimsOf(c, resultOf(op, 0).type as ViewType);
  const [r] = c.results(op);
  return plain((f) => {
    const v = f.slots[src] as ViewValue, d = dims(f);
    let base = v.base;
    offsets.forEach((s, k) => {
      const o = indexValue(f, s);
      if (o < 0 || d[k]! < 0 || o + d[k]! > v.dims[k]!) raise(f, op, "out-of-bounds", `subview [${o}, ${o + d[k]!}) of axis ${k} is outside [0, ${v.dims[k]})`);
      base += o * v.strides[k]! * v.elementBytes;
    });
    f.slots[r!] = { ...v, base, dims: d };
  });
}

function indexSources(c: FunctionCompiler, op: Op): IndexSource[] {
  return (propOf(op, "indices") ?? []).map((x) => (typeof x === "bigint" ? x : c.slot(x)));
}

function indexValue(f: Frame, s: IndexSource): number {
  return typeof s === "bigint" ? Number(s) : Number(f.slots[s] as bigint);
}

/** Byte address of element `idx` of `v`, checked against the extents and the buffer. */
function elementAddress(f: Frame, op: Op, v: ViewValue, idx: readonly number[]): number {
  let e = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    if (!(i >= 0 && i < v.dims[k]!)) raise(f, op, "out-of-bounds", `index ${i} is outside [0, ${v.dims[k]}) of axis ${k} (indices [${idx.join(", ")}] into ${v.dims.join("x")}x${v.element})`);
    e += i * v.strides[k]!;
  }
  const addr = v.base + e * v.elementBytes;
  if (addr < 0 || addr + v.elementBytes > v.root.length) {
    raise(f, op, "out-of-bounds", `bytes [${addr}, ${addr + v.elementBytes}) are outside buffer '${v.root.label}' of ${v.root.length} bytes`);
  }
  if (addr % v.elementBytes !== 0) raise(f, op, "undefined-behaviour", `byte address ${addr} is not a multiple of the ${v.element} size`);
  return addr;
}

/** The address function of an op's index list. */
function addressing(c: FunctionCompiler, op: Op): (f: Frame, v: ViewValue) => number {
  const sources = indexSources(c, op);
  const idx = new Array<number>(sources.length);
  return (f, v) => {
    for (let k = 0; k < sources.length; k++) idx[k] = indexValue(f, sources[k]!);
    return elementAddress(f, op, v, idx);
  };
}

function load(c: FunctionCompiler, op: Op): Step {
  const v = c.slot(operandOf(op, 0)), at = addressing(c, op);
  const [r] = c.results(op);
  return plain((f) => {
    const view = f.slots[v] as ViewValue;
    f.slots[r!] = readElement(view.root, at(f, view), view.element);
  });
}

function store(c: FunctionCompiler, op: Op): Step {
  const x = c.slot(operandOf(op, 0)), v = c.slot(operandOf(op, 1)), at = addressing(c, op);
  return plain((f) => {
    const view = f.slots[v] as ViewValue;
    writeElement(view.root, at(f, view), view.element, f.slots[x] as Lane);
  });
}

/** The new-value function of an atomic kind: `(old, operand) → new`. */
function atomicKind(kind: string, t: LType): ((old: Lane, x: Lane) => Outcome<Lane>) | undefined {
  if (kind === "xchgi" || kind === "xchgf") return (_old, x) => x;
  if (!["addi", "subi", "andi", "ori", "xori", "minsi", "maxsi", "minui", "maxui", "addf"].includes(kind)) return undefined;
  return arithmetic(bindExactOp(`scalar.${kind}`, t, [t, t], 0));
}

function rmw(c: FunctionCompiler, op: Op): Step | undefined {
  const [xv, vv] = op.operands as [Value, Value];
  const update = atomicKind(prop(op, "kind"), laneType(xv.type));
  if (!update) return undefined;
  const x = c.slot(xv), v = c.slot(vv), at = addressing(c, op);
  const [r] = c.results(op);
  return plain((f) => {
    const view = f.slots[v] as ViewValue, addr = at(f, view);
    const old = readElement(view.root, addr, view.element);
    writeElement(view.root, addr, view.element, defined(f, op, update(old, f.slots[x] as Lane)) as Lane);
    if (r !== undefined) f.slots[r] = old;
  });
}

function laneType(t: Type): LType {
  return (t.kind === "prim" ? t.name : t.element.name) as LType;
}

function cmpxchg(c: FunctionCompiler, op: Op): Step {
  const [e, n, v] = op.operands.map((x) => c.slot(x)) as [number, number, number];
  const at = addressing(c, op);
  const [r] = c.results(op);
  return plain((f) => {
    const view = f.slots[v] as ViewValue, addr = at(f, view);
    const old = readElement(view.root, addr, view.element);
    if (old === f.slots[e]) writeElement(view.root, addr, view.element, f.slots[n] as Lane);
    f.slots[r!] = old;
  });
}

/** `vector.load/store`: vector axes map to the trailing view axes from the origin. */
function vectorAccess(c: FunctionCompiler, op: Op, mode: "load" | "store"): Step {
  const vecType = (mode === "load" ? resultOf(op, 0) : operandOf(op, 0)).type;
  const shape = vecType.kind === "vector" ? vecType.shape : [1];
  const viewSlot = c.slot(op.operands[mode === "load" ? 0 : 1]!);
  const vecSlot = mode === "store" ? c.slot(operandOf(op, 0)) : -1;
  const sources = indexSources(c, op);
  const [r] = mode === "load" ? c.results(op) : [];
  const lanes = shape.reduce((a, b) => a * b, 1);
  return plain((f) => {
    const view = f.slots[viewSlot] as ViewValue;
    const origin = sources.map((s) => indexValue(f, s));
    const rank = origin.length, out = new Array<Lane>(lanes);
    const stored = mode === "store" ? (f.slots[vecSlot] as readonly Lane[]) : undefined;
    for (let l = 0; l < lanes; l++) {
      const idx = [...origin];
      let rest = l;
      for (let a = shape.length - 1; a >= 0; a--) {
        idx[rank - shape.length + a]! += rest % shape[a]!;
        rest = Math.floor(rest / shape[a]!);
      }
      const addr = elementAddress(f, op, view, idx);
      if (stored) writeElement(view.root, addr, view.element, stored[l]!);
      else out[l] = readElement(view.root, addr, view.element);
    }
    if (r !== undefined) f.slots[r] = Object.freeze(out);
  });
}

// ---- buffers ------------------------------------------------------------------------------

const SPACES: readonly string[] = ["global", "workgroup", "private"] satisfies readonly MemorySpace[];
const isSpace = (s: string): s is MemorySpace => SPACES.includes(s);

function alloca(c: FunctionCompiler, op: Op): Step {
  const bytes = c.slot(operandOf(op, 0));
  const space = prop(op, "space");
  if (!isSpace(space)) throw new Error(`interpreter: buffer.alloca in unknown memory space '${space}'`);
  const label = resultOf(op, 0).name;
  const [r] = c.results(op);
  return plain((f) => {
    const n = Number(f.slots[bytes] as bigint);
    const shared = space === "workgroup" ? f.inv.workgroup.allocas.get(op) : undefined;
    if (shared) {
      if (shared.length !== n) raise(f, op, "undefined-behaviour", `workgroup allocation of ${n} bytes, but another invocation of the workgroup allocated ${shared.length}`);
      f.slots[r!] = shared;
      return;
    }
    const d = f.inv.dispatch;
    if (d.scratchBytes + n > d.maxScratchBytes) raise(f, op, "step-budget", `allocating ${n} more bytes exceeds the interpreter's scratch limit of ${d.maxScratchBytes} bytes`);
    d.scratchBytes += n;
    const root = new BufferRoot(new Uint8Array(n).fill(d.scratchFill), n, space, label);
    if (space === "workgroup") f.inv.workgroup.allocas.set(op, root);
    f.slots[r!] = root;
  });
}

function identity(c: FunctionCompiler, op: Op): Step {
  const ins = op.operands.map((v) => c.slot(v)), outs = c.results(op);
  return plain((f) => {
    for (let i = 0; i < ins.length; i++) f.slots[outs[i]!] = f.slots[ins[i]!]!;
  });
}

/** A `noalias` promise about overlapping roots is false: UB, reported. */
function noalias(c: FunctionCompiler, op: Op): Step {
  const ins = op.operands.map((v) => c.slot(v)), outs = c.results(op);
  return plain((f) => {
    const roots = ins.map((i) => f.slots[i] as BufferRoot);
    for (let i = 0; i < roots.length; i++) {
      for (let j = i + 1; j < roots.length; j++) {
        if (roots[i]!.overlaps(roots[j]!)) raise(f, op, "undefined-behaviour", `buffers '${roots[i]!.label}' and '${roots[j]!.label}' overlap, but are assumed not to alias`);
      }
      f.slots[outs[i]!] = roots[i]!;
    }
  });
}

function memorySpace(c: FunctionCompiler, op: Op): Step {
  const b = c.slot(operandOf(op, 0)), space = op.props.space;
  const [r] = c.results(op);
  return plain((f) => {
    const root = f.slots[b] as BufferRoot;
    if (root.space !== space) raise(f, op, "undefined-behaviour", `buffer '${root.label}' is in ${root.space} memory, but is assumed to be in ${space} memory`);
    f.slots[r!] = root;
  });
}

function stridedLayout(c: FunctionCompiler, op: Op): Step {
  const entries = (propOf(op, "strides") ?? []).map((x) => (typeof x === "bigint" ? x : c.slot(x)));
  const [r] = c.results(op);
  return plain((f) => {
    const strides = entries.map((s) => indexValue(f, s));
    if (strides.some((s) => s < 0)) raise(f, op, "undefined-behaviour", `negative stride in [${strides.join(", ")}]`);
    f.slots[r!] = { kind: "layout", strides } satisfies LayoutValue;
  });
}
