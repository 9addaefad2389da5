/**
 * Storage roots and how each is declared (docs/wgsl.md "Buffers"). A root is a buffer
 * argument (a storage binding) or a `buffer.alloca` (a `var<workgroup>` or function-scope
 * array). WGSL gives every binding one element type and allows only atomic builtins on
 * atomic types, so before lowering we read off the body, per root, the element types its
 * views use and the atomic operations on it, and choose the array's word type:
 *
 *  - one element type, no atomics → `array<T>`;
 *  - several 4-byte element types (i32, f32) → `array<u32>`, each access a `bitcast`;
 *  - any atomic → `array<atomic<i32>>` (signed integer atomics only) or `array<atomic<u32>>`
 *    (unsigned min/max, f32 atomics, mixed element types); every access of that root, plain
 *    loads and stores too, is then an atomic builtin (relaxed, like every WGSL atomic).
 *
 * Whether a binding is written is recorded during lowering (`written`), so read-only
 * buffers are declared `var<storage, read>`.
 */
import type { Op, Region, Value } from "../../../ir/core.js";
import { walkRegion } from "../../../ir/walk.js";
import { isOp } from "../../../dialects/registry.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import { oneByte, wgslTypeOf, type WType } from "./context.js";

export interface Root {
  readonly kind: "binding" | "workgroup" | "private";
  /** WGSL name of the array. */
  readonly name: string;
  /** Buffer arguments: the binding number (the k-th buffer argument). */
  readonly binding: number | undefined;
  /** Buffer arguments: the argument-block offset of the byte length (u64; its low word is read). */
  readonly lengthOffset: number | undefined;
  /** Allocations: the op. */
  readonly alloca: Op | undefined;
  /** Element types the views of this root use, in first-use order. */
  readonly elements: readonly WType[];
  /** The array's word type, or why the root cannot be declared. */
  readonly word: WType | { readonly problem: string; readonly at: Op };
  readonly atomic: boolean;
  /** Set by the lowering when anything writes through the root. */
  written: boolean;
  /** Set by the lowering when anything accesses the root's array. */
  accessed: boolean;
}

const PASS_THROUGH = new Set(["buffer.assume.alignment", "buffer.assume.memory_space", "buffer.assume.noalias", "buffer.view", "view.subview"]);
const ATOMICS: Readonly<Record<string, number>> = { "view.atomic.rmw": 1, "view.atomic.reduce": 1, "view.atomic.cmpxchg": 2, "view.atomic.load": 0, "view.atomic.store": 1 };

/** The root value (argument or alloca result) a buffer or view comes from, when it is a straight chain. */
export function rootValueOf(v: Value, starts: { has(v: Value): boolean }): Value | undefined {
  let cur: Value = v;
  for (;;) {
    if (starts.has(cur)) return cur;
    const def = cur.owner;
    if (!("operands" in def) || !PASS_THROUGH.has(def.name)) return undefined;
    const i = def.name === "buffer.assume.noalias" ? def.results.indexOf(cur) : 0;
    const next = def.operands[i];
    if (!next) return undefined;
    cur = next;
  }
}

interface Facts {
  elements: WType[];
  firstView?: Op;
  atomicAt?: Op;
  signed: boolean;
  unsigned: boolean;
  float: boolean;
}

function declare(kind: Root["kind"], name: string, facts: Facts, binding: number | undefined, lengthOffset: number | undefined, alloca: Op | undefined): Root {
  const { elements } = facts;
  const atomic = facts.atomicAt !== undefined;
  let word: Root["word"];
  if (elements.length === 0) word = "u32";
  else if (atomic) {
    if (elements.includes("f16")) word = { problem: "atomics on a buffer that is also viewed as f16", at: facts.atomicAt! };
    else if (facts.signed && (facts.unsigned || facts.float || elements.length > 1)) {
      word = { problem: "signed atomic min/max on a buffer that other atomics use unsigned or as f32", at: facts.atomicAt! };
    } else word = facts.signed || (!facts.unsigned && !facts.float && elements.length === 1 && elements[0] === "i32") ? "i32" : "u32";
  } else if (elements.length === 1) word = elements[0]!;
  else if (elements.every((t) => t !== "f16")) word = "u32";
  else word = { problem: "one buffer viewed as f16 and as a 4-byte type", at: facts.firstView! };
  // Every root has every field (one object shape: the memory rules read roots on every access).
  return { kind, name, binding, lengthOffset, alloca, elements, word, atomic, written: false, accessed: false };
}

const fresh = (): Facts => ({ elements: [], signed: false, unsigned: false, float: false });

/** The roots of a kernel body, by the value that creates them. */
export function kernelRoots(kernel: PreparedKernel): Map<Value, Root> {
  const body: Region = kernel.body;
  // The facts of each root value so far (its keys: the roots found so far).
  const facts = new Map<Value, Facts>();
  const allocas: Op[] = [];
  for (const a of body.args) if (a.type.kind === "prim" && a.type.name === "buffer") facts.set(a, fresh());
  // One walk: an alloca comes before (dominates) every view of it, so it is a root by then.
  walkRegion(body, (op) => {
    const name = op.name;
    if (name === "buffer.alloca") {
      facts.set(op.results[0]!, fresh());
      allocas.push(op);
      return;
    }
    if (name === "buffer.view") {
      const root = rootValueOf(op.operands[0]!, facts);
      const t = op.results[0]!.type;
      const f = root && facts.get(root);
      if (!f || t.kind !== "view") return;
      const w = wgslTypeOf(t.element.name);
      if (w && w !== "bool" && !f.elements.includes(w)) f.elements.push(w);
      f.firstView ??= op;
      return;
    }
    const at = ATOMICS[name];
    if (at === undefined) return;
    const root = rootValueOf(op.operands[at]!, facts);
    const f = root && facts.get(root);
    if (!f) return;
    f.atomicAt ??= op;
    const kind = String(op.props.kind ?? "");
    const view = op.operands[at]!.type;
    if (view.kind === "view" && view.element.name === "f32") f.float = true;
    else if (kind === "minsi" || kind === "maxsi") f.signed = true;
    else if (kind === "minui" || kind === "maxui") f.unsigned = true;
  });
  const out = new Map<Value, Root>();
  const taken = new Set<string>();
  const entry = oneByte(kernel.exportName);
  let binding = 0;
  for (const a of body.args) {
    const f = facts.get(a);
    if (!f) continue;
    const k = binding++;
    const slot = kernel.args.find((x) => x.value === a);
    // Two argument names may sanitize alike (`a.b`, `a_b`): the binding number tells them apart.
    let name = `${entry}_${safeName(a.name)}`;
    if (taken.has(name)) name = `${name}_${k}`;
    taken.add(name);
    out.set(a, declare("binding", name, f, k, slot && slot.offset + 8, undefined));
  }
  allocas.forEach((op, i) => {
    const space = op.props.space === "workgroup" ? "workgroup" : "private";
    const name = space === "workgroup" ? `${entry}_shared${i}` : `scratch${i}`;
    out.set(op.results[0]!, declare(space, name, facts.get(op.results[0]!)!, undefined, undefined, op));
  });
  return out;
}

/** A Loom value name as a WGSL identifier fragment. */
export function safeName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/_+/g, "_");
  return oneByte(/^[A-Za-z]/.test(s) ? s : `a${s}`);
}
