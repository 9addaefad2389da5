/**
 * Loom v1 types (language.md §3).
 *
 * Types are plain immutable data compared structurally, except that a dynamic
 * dimension `[%n]` or a layout value `%l` is part of a type *by binding*: two view
 * types with dynamic dimensions are equal only when they name the very same `Value`.
 */
import type { Value } from "./core.js";

export type IntName = "i1" | "i8" | "i16" | "i32" | "i64";
export type FloatName = "f16" | "bf16" | "f32" | "f64";
export type ScalarName = IntName | FloatName;
export type PrimName = ScalarName | "index" | "offset" | "buffer" | "encoding<layout>";

export interface PrimType {
  readonly kind: "prim";
  readonly name: PrimName;
}
export interface VectorType {
  readonly kind: "vector";
  /** Static extents, rank 1 or 2, each ≥ 1. */
  readonly shape: readonly number[];
  /** A scalar or `index`. */
  readonly element: PrimType;
}
/** A view dimension: a static extent or an `index` value in scope. */
export type Dim = { readonly kind: "static"; readonly size: number } | { readonly kind: "dynamic"; readonly value: Value };
/**
 * A view layout as written: `#dense`, `#encoding.layout.dense`, an alias `#name`, a layout value, or
 * a static strided layout attribute `#encoding.layout.strided<strides=[s, …]>` (element strides ≥ 0).
 */
export type Layout =
  | { readonly kind: "named"; readonly name: string }
  | { readonly kind: "value"; readonly value: Value }
  | StridedLayoutAttribute;
/** `#encoding.layout.strided<strides=[s, …]>`: one constant element stride per view dimension (verify checks the count). */
export interface StridedLayoutAttribute {
  readonly kind: "strided";
  readonly strides: readonly number[];
}
/** The spelling of a static strided layout attribute (`#encoding.layout.strided<strides=[4, 1]>`). */
export function stridedLayoutText(strides: readonly number[]): string {
  return `#encoding.layout.strided<strides=[${strides.join(", ")}]>`;
}
export interface ViewType {
  readonly kind: "view";
  readonly dims: readonly Dim[];
  readonly element: PrimType;
  readonly layout?: Layout;
}
/**
 * A check-harness host value (`tensor<4x[%n]xf32>`): a materialized array with a shape and an
 * element type, only in `check.case` bodies (language.md §11). A kernel sees it as a `buffer`.
 */
export interface TensorType {
  readonly kind: "tensor";
  readonly dims: readonly Dim[];
  readonly element: PrimType;
}
export type Type = PrimType | VectorType | ViewType | TensorType;

const primCache = new Map<PrimName, PrimType>();
/** The interned primitive type of that name. */
export function prim(name: PrimName): PrimType {
  let t = primCache.get(name);
  if (!t) {
    t = Object.freeze({ kind: "prim", name });
    primCache.set(name, t);
  }
  return t;
}

export const T = {
  index: prim("index"),
  offset: prim("offset"),
  i1: prim("i1"),
  i8: prim("i8"),
  i16: prim("i16"),
  i32: prim("i32"),
  i64: prim("i64"),
  f16: prim("f16"),
  bf16: prim("bf16"),
  f32: prim("f32"),
  f64: prim("f64"),
  buffer: prim("buffer"),
  layout: prim("encoding<layout>"),
} as const;

export const INT_NAMES: readonly IntName[] = ["i1", "i8", "i16", "i32", "i64"];
export const FLOAT_NAMES: readonly FloatName[] = ["f16", "bf16", "f32", "f64"];

export function isInt(t: Type): t is PrimType & { name: IntName } {
  return t.kind === "prim" && (INT_NAMES as readonly string[]).includes(t.name);
}
export function isFloat(t: Type): t is PrimType & { name: FloatName } {
  return t.kind === "prim" && (FLOAT_NAMES as readonly string[]).includes(t.name);
}
/** `S` of the spec: integers and floats. */
export function isScalar(t: Type): boolean {
  return isInt(t) || isFloat(t);
}
/** `A` of the spec: `index` and `offset`. */
export function isAddress(t: Type): boolean {
  return t.kind === "prim" && (t.name === "index" || t.name === "offset");
}
export function isPrim(t: Type, name: PrimName): boolean {
  return t.kind === "prim" && t.name === name;
}

/** Bit width of an integer or float type; `index`/`offset` are 64-bit carriers (ours). */
export function bitWidth(t: Type): number {
  if (t.kind !== "prim") throw new Error(`bitWidth of non-primitive type ${typeToString(t)}`);
  switch (t.name) {
    case "i1": return 1;
    case "i8": return 8;
    case "i16": case "f16": case "bf16": return 16;
    case "i32": case "f32": return 32;
    case "i64": case "f64": case "index": case "offset": return 64;
    default: throw new Error(`bitWidth of ${t.name}`);
  }
}

export function typeEquals(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === "prim") return a.name === (b as PrimType).name;
  if (a.kind === "vector") {
    const v = b as VectorType;
    return a.element.name === v.element.name && numbersEqual(a.shape, v.shape);
  }
  // Indexed loops: the verifier compares types at every use (no iterator or closure per call).
  const v = b as ViewType | TensorType;
  if (a.element.name !== v.element.name || a.dims.length !== v.dims.length) return false;
  let i = 0;
  for (const x of a.dims) {
    const y = v.dims[i++];
    if (!y || x.kind !== y.kind) return false;
    if (x.kind === "static" ? x.size !== (y as { size: number }).size : x.value !== (y as { value: Value }).value) return false;
  }
  return a.kind === "tensor" || layoutEquals(a.layout, (v as ViewType).layout);
}

function isDenseName(l: Layout | undefined): boolean {
  return l === undefined || (l.kind === "named" && (l.name === "dense" || l.name === "encoding.layout.dense"));
}
function layoutEquals(a: Layout | undefined, b: Layout | undefined): boolean {
  if (isDenseName(a) && isDenseName(b)) return true;
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === "strided") return numbersEqual(a.strides, (b as StridedLayoutAttribute).strides);
  return a.kind === "named" ? a.name === (b as { name: string }).name : a.value === (b as { value: Value }).value;
}
function numbersEqual(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The spelling used by diagnostics and the printer (`view<[%n]x16xf32>`). */
export function typeToString(t: Type): string {
  switch (t.kind) {
    case "prim":
      return t.name;
    case "vector":
      return `vector<${t.shape.map((s) => `${s}x`).join("")}${t.element.name}>`;
    case "view": {
      const dims = t.dims.map((d) => (d.kind === "static" ? `${d.size}x` : `[%${d.value.name}]x`)).join("");
      const layout = t.layout ? `, ${layoutText(t.layout)}` : "";
      return `view<${dims}${t.element.name}${layout}>`;
    }
    case "tensor":
      return `tensor<${t.dims.map((d) => (d.kind === "static" ? `${d.size}x` : `[%${d.value.name}]x`)).join("")}${t.element.name}>`;
  }
}

function layoutText(l: Layout): string {
  return l.kind === "named" ? `#${l.name}` : l.kind === "value" ? `%${l.value.name}` : stridedLayoutText(l.strides);
}

/**
 * For each lane of a row-major vector of `shape` (lane 0 first), its step along each axis:
 * how far the lane sits from the vector's origin when its axes walk a view's trailing axes.
 */
export function laneSteps(shape: readonly number[]): number[][] {
  const count = shape.reduce((a, x) => a * x, 1);
  const out: number[][] = [];
  for (let lane = 0; lane < count; lane++) {
    const steps = new Array<number>(shape.length).fill(0);
    let rest = lane;
    for (let a = shape.length - 1; a >= 0; a--) {
      const extent = shape[a] ?? 1;
      steps[a] = rest % extent;
      rest = Math.floor(rest / extent);
    }
    out.push(steps);
  }
  return out;
}
