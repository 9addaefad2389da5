/**
 * Buffers, views and atomics (docs/wgsl.md "Buffers"). A buffer is a storage root (a binding
 * array, a `var<workgroup>` array or a function-scope array, storage.ts) with its byte
 * length; a view is the word index of its element (0, …, 0) in the root's array and its
 * element strides. An access indexes the array at `base + Σ iⱼ·sⱼ` in `i32` and converts
 * between the root's word type and the view's element type with `bitcast`; roots with atomic
 * storage are accessed through atomic builtins only (WGSL requires it). WGSL atomics are
 * relaxed, so atomics with a stronger ordering are TARGET/001.
 */
import type { Op } from "../../../ir/core.js";
import { indicesOf } from "../../../dialects/registry.js";
import type { ViewType } from "../../../ir/types.js";
import { viewElementStrides } from "../../../ir/strides.js";
import { propOf } from "../../../dialects/registry.js";
import { BYTES, type KernelLowering, type Rule, type Scalar, type ViewValue, type WType } from "./context.js";
import type { Root } from "./storage.js";
import { passOperandsThrough, privateScratchAtomic } from "../../../dialects/lowering.js";

/** Index list of an op as `i32` scalars. */
export function indexScalars(cx: KernelLowering, op: Op): Scalar[] {
  return indicesOf(op).map((i) => (typeof i === "bigint" ? cx.i32(i) : cx.scalar(i)));
}

/**
 * The word index of `view[indices]` in its root's array, as one inline expression: an access
 * reads it once, so its sums and products go into the subscript rather than into `let`s
 * (`settle` makes it a `let` for a value read more than once).
 */
export function wordIndex(cx: KernelLowering, view: ViewValue, indices: readonly Scalar[]): Scalar {
  let at = view.base;
  const strides = view.strides;
  for (let d = 0; d < indices.length; d++) at = cx.inline(at, "+", cx.inline(indices[d]!, "*", strides[d]!));
  return at;
}

/** The root's word type, reporting (once per root) why it has none. */
export function wordOf(cx: KernelLowering, root: Root): WType | undefined {
  if (typeof root.word === "string") return root.word;
  cx.unsupported(root.word.at, root.word.problem, "WGSL gives each buffer one element type and allows only atomic builtins on atomic storage");
  return undefined;
}

function element(root: Root, at: Scalar): string {
  return `${root.name}[${at.e}]`;
}

/** A word read from the root as the view's element. */
export function loadElement(cx: KernelLowering, view: ViewValue, at: Scalar): Scalar {
  const root = view.root;
  const word = wordOf(cx, root);
  root.accessed = true;
  const read = root.atomic ? `atomicLoad(&${element(root, at)})` : element(root, at);
  return cx.let(view.element, word === view.element ? read : `bitcast<${view.element}>(${read})`);
}

export function storeElement(cx: KernelLowering, view: ViewValue, at: Scalar, value: Scalar): void {
  const root = view.root;
  const word = wordOf(cx, root);
  root.accessed = true;
  root.written = true;
  const v = word === view.element || word === undefined ? value.e : `bitcast<${word}>(${value.e})`;
  cx.line(root.atomic ? `atomicStore(&${element(root, at)}, ${v});` : `${element(root, at)} = ${v};`);
}

// ---- buffers ------------------------------------------------------------------------------

const allocaRule: Rule = (cx, op) => {
  const root = cx.roots.get(op.results[0]!);
  const bytes = cx.kernel.allocations.get(op)?.bytes;
  if (!root || bytes === undefined) {
    cx.unsupported(op, "'buffer.alloca' without a constant size", "the WGSL back end declares scratch as fixed-size arrays");
    return cx.poison(op);
  }
  cx.set(op.results[0]!, { kind: "buffer", root, length: cx.int("u32", bytes) });
};

const lengthRule: Rule = (cx, op) => {
  const buf = cx.get(op.operands[0]!);
  if (buf.kind !== "buffer") return cx.poison(op);
  const root = buf.root;
  // A binding's length is its argument-block field (docs/abi.md "WGSL"); an allocation's is constant.
  if (root.kind === "binding" && root.lengthOffset !== undefined) return cx.set(op.results[0]!, cx.uniform(root.lengthOffset, `${root.name.slice(cx.kernel.exportName.length + 1)}_length`, "u32"));
  cx.set(op.results[0]!, buf.length);
};


/** Element strides of a view type (ir/strides.ts). */
function stridesOf(cx: KernelLowering, type: ViewType): Scalar[] | undefined {
  return viewElementStrides<Scalar>(type, {
    constant: (n) => cx.i32(n),
    extent: (v) => cx.scalar(v),
    mul: (a, b) => cx.mul(a, b),
    lowered: (v) => cx.get(v),
  })?.strides;
}

const viewRule: Rule = (cx, op) => {
  const buf = cx.get(op.operands[0]!);
  if (buf.kind !== "buffer") return cx.poison(op);
  const elementType = cx.typeOf(op.results[0]!);
  if (elementType === "bool") {
    cx.unsupported(op, "a view of 'i1' elements", "i1 has no memory representation; view i32 and compare");
    return cx.poison(op);
  }
  const strides = stridesOf(cx, op.results[0]!.type as ViewType);
  if (!strides || wordOf(cx, buf.root) === undefined) return cx.poison(op);
  // The view's byte offset is a multiple of its element size (language.md §4): a word index.
  const offset = cx.scalar(op.operands[1]!);
  const size = BYTES[elementType];
  const base = offset.c !== undefined ? cx.i32(offset.c / BigInt(size)) : cx.let("i32", `i32(${cx.reinterpret(offset, "u32").e} / ${size}u)`);
  cx.set(op.results[0]!, { kind: "view", root: buf.root, element: elementType, base, strides });
};

const subviewRule: Rule = (cx, op) => {
  const v = cx.get(op.operands[0]!);
  if (v.kind !== "view") return cx.poison(op);
  cx.set(op.results[0]!, { ...v, base: cx.settle(wordIndex(cx, v, indexScalars(cx, op))) });
};

const denseLayout: Rule = (cx, op) => cx.set(op.results[0]!, { kind: "layout", strides: undefined });
const stridedLayout: Rule = (cx, op) => {
  const strides = (propOf(op, "strides") ?? []).map((x) => (typeof x === "bigint" ? cx.i32(x) : cx.scalar(x)));
  cx.set(op.results[0]!, { kind: "layout", strides });
};

// ---- plain access -------------------------------------------------------------------------

const loadRule: Rule = (cx, op) => {
  const v = cx.get(op.operands[0]!);
  if (v.kind !== "view") return cx.poison(op);
  cx.set(op.results[0]!, loadElement(cx, v, wordIndex(cx, v, indexScalars(cx, op))));
};

const storeRule: Rule = (cx, op) => {
  const v = cx.get(op.operands[1]!);
  if (v.kind !== "view") return;
  storeElement(cx, v, wordIndex(cx, v, indexScalars(cx, op)), cx.scalar(op.operands[0]!));
};

// ---- atomics ------------------------------------------------------------------------------

interface AtomicTarget {
  readonly view: ViewValue;
  /** `&root[i]`. */
  readonly pointer: string;
  readonly word: WType;
}

function atomicTarget(cx: KernelLowering, op: Op, viewOperand: number, orderings: readonly string[]): AtomicTarget | undefined {
  const v = cx.get(op.operands[viewOperand]!);
  if (v.kind !== "view") return undefined;
  const strong = orderings.find((o) => o !== "relaxed");
  if (strong !== undefined) {
    cx.unsupported(op, `an atomic with ordering '${strong}'`, "WGSL atomics are relaxed; order memory with kernel.barrier (workgroupBarrier/storageBarrier) instead");
    return undefined;
  }
  if (v.root.kind === "private") return privateScratchAtomic(cx, op);
  if (!v.root.atomic) throw new Error("WGSL lowering: an atomic on a root the storage analysis did not see");
  const word = wordOf(cx, v.root);
  if (!word) return undefined;
  if (v.element !== "i32" && v.element !== "f32") {
    cx.unsupported(op, `atomics on '${v.element}' elements`, "WGSL atomics are 32-bit integers");
    return undefined;
  }
  v.root.accessed = true;
  v.root.written = true;
  return { view: v, pointer: `&${element(v.root, wordIndex(cx, v, indexScalars(cx, op)))}`, word };
}

const RMW: Readonly<Record<string, string>> = {
  xchgi: "atomicExchange", xchgf: "atomicExchange", addi: "atomicAdd", subi: "atomicSub", andi: "atomicAnd", ori: "atomicOr", xori: "atomicXor",
  minsi: "atomicMin", maxsi: "atomicMax", minui: "atomicMin", maxui: "atomicMax",
};

const toWord = (t: AtomicTarget, v: Scalar): string => (t.word === v.t ? v.e : `bitcast<${t.word}>(${v.e})`);
const fromWord = (t: AtomicTarget, e: string): string => (t.word === t.view.element ? e : `bitcast<${t.view.element}>(${e})`);

const rmwRule: Rule = (cx, op) => {
  const kind = String(op.props.kind);
  const t = atomicTarget(cx, op, 1, [String(op.props.ordering)]);
  if (!t) return cx.poison(op);
  const value = cx.scalar(op.operands[0]!);
  const result = op.results[0];
  if (kind === "addf") {
    // No float atomics in WGSL: a compare-exchange loop on the word's bits.
    const old = cx.variable("u32");
    cx.line("loop {");
    cx.nested(() => {
      const seen = cx.let("u32", `atomicLoad(${t.pointer})`);
      const next = cx.let("u32", `bitcast<u32>(bitcast<f32>(${seen.e}) + ${value.e})`);
      const r = cx.fresh("x");
      cx.line(`let ${r} = atomicCompareExchangeWeak(${t.pointer}, ${seen.e}, ${next.e});`);
      cx.line(`if (${r}.exchanged) { ${old.e} = ${seen.e}; break; }`);
    });
    cx.line("}");
    if (result) cx.set(result, cx.let("f32", `bitcast<f32>(${old.e})`));
    return;
  }
  const fn = RMW[kind];
  if (!fn) throw new Error(`WGSL lowering: unknown atomic kind '${kind}'`);
  const call = `${fn}(${t.pointer}, ${toWord(t, value)})`;
  if (!result) return cx.line(`${call};`);
  cx.set(result, cx.let(t.view.element, fromWord(t, call)));
};

/** A strong compare-exchange from WGSL's weak one: retry while it failed spuriously. */
const cmpxchgRule: Rule = (cx, op) => {
  const t = atomicTarget(cx, op, 2, [String(op.props.successOrdering), String(op.props.failureOrdering)]);
  if (!t) return cx.poison(op);
  const expected = toWord(t, cx.scalar(op.operands[0]!)), desired = toWord(t, cx.scalar(op.operands[1]!));
  const old = cx.variable(t.word);
  cx.line("loop {");
  cx.nested(() => {
    const r = cx.fresh("x");
    cx.line(`let ${r} = atomicCompareExchangeWeak(${t.pointer}, ${expected}, ${desired});`);
    cx.line(`if (${r}.exchanged || ${r}.old_value != ${expected}) { ${old.e} = ${r}.old_value; break; }`);
  });
  cx.line("}");
  cx.set(op.results[0]!, cx.let(t.view.element, fromWord(t, old.e)));
};

const atomicLoadRule: Rule = (cx, op) => {
  const t = atomicTarget(cx, op, 0, [String(op.props.ordering)]);
  if (!t) return cx.poison(op);
  cx.set(op.results[0]!, cx.let(t.view.element, fromWord(t, `atomicLoad(${t.pointer})`)));
};

const atomicStoreRule: Rule = (cx, op) => {
  const t = atomicTarget(cx, op, 1, [String(op.props.ordering)]);
  if (!t) return;
  cx.line(`atomicStore(${t.pointer}, ${toWord(t, cx.scalar(op.operands[0]!))});`);
};

export const MEMORY_RULES = {
  "buffer.alloca": allocaRule,
  "buffer.view": viewRule,
  "buffer.length": lengthRule,
  "buffer.assume.noalias": passOperandsThrough,
  "buffer.assume.alignment": passOperandsThrough,
  "buffer.assume.memory_space": passOperandsThrough,
  "encoding.layout.dense": denseLayout,
  "encoding.layout.strided": stridedLayout,
  "view.subview": subviewRule,
  "view.load": loadRule,
  "view.store": storeRule,
  "view.atomic.rmw": rmwRule,
  "view.atomic.reduce": rmwRule,
  "view.atomic.cmpxchg": cmpxchgRule,
  "view.atomic.load": atomicLoadRule,
  "view.atomic.store": atomicStoreRule,
} as const satisfies Record<string, Rule>;
