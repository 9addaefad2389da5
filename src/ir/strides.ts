/**
 * Element strides of a view type, as every back end addresses it (language.md §3): a layout
 * value's strides (`encoding.layout.strided [s, …]`), a static strided layout attribute's
 * (`#encoding.layout.strided<strides=[s, …]>`), or else dense row-major — the last dimension
 * contiguous, each other stride the product of the extents after it. Generic over the back
 * end's scalar, so the four targets share one reading of the type (the interpreter, an
 * independent oracle, reads the type on its own).
 */
import type { Value } from "./core.js";
import type { ViewType } from "./types.js";

/** A layout value as every back end lowers it: its strides in the back end's index scalar, none for a dense layout. */
export interface LoweredLayout<S> {
  readonly kind: "layout";
  readonly strides: readonly S[] | undefined;
}

/** How one back end makes the scalars of a stride computation. */
export interface StrideBuilder<S> {
  /** A constant element count. */
  constant(n: number): S;
  /** The lowered `index` value of a dynamic extent. */
  extent(value: Value): S;
  mul(a: S, b: S): S;
  /** The back end's lowered value (a layout value lowers to a `LoweredLayout`). */
  lowered(value: Value): { readonly kind: string } | LoweredLayout<S>;
}

export interface ViewStrides<S> {
  /** One element stride per dimension, outermost first. */
  readonly strides: S[];
  /** Row-major strides made from the extents (no strided layout): what callers may know from the shape. */
  readonly dense: boolean;
}

/** The element strides of `type`; undefined when its layout value did not lower to a layout. */
export function viewElementStrides<S>(type: ViewType, b: StrideBuilder<S>): ViewStrides<S> | undefined {
  const layout = type.layout;
  if (layout?.kind === "strided") return { strides: layout.strides.map((s) => b.constant(s)), dense: false };
  if (layout?.kind === "value") {
    const l = b.lowered(layout.value);
    if (l.kind !== "layout") return undefined;
    const held = (l as LoweredLayout<S>).strides;
    if (held) return { strides: [...held], dense: false };
  }
  const strides = new Array<S>(type.dims.length);
  let running = b.constant(1);
  for (let d = type.dims.length - 1; d >= 0; d--) {
    strides[d] = running;
    // The outermost extent bounds the view but strides nothing.
    if (d === 0) break;
    const dim = type.dims[d]!;
    running = b.mul(running, dim.kind === "static" ? b.constant(dim.size) : b.extent(dim.value));
  }
  return { strides, dense: true };
}
