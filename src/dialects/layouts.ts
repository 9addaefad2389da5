/**
 * The layout-value ops (`encoding.layout.dense`, `encoding.layout.strided`, language.md §3) as
 * every back end lowers them: a `LoweredLayout` holding the strides in the back end's index
 * scalar (none for a dense layout), which ir/strides.ts reads when a view type names the value.
 */
import type { Op, Value } from "../ir/core.js";
import type { LoweredLayout } from "../ir/strides.js";
import { propOf } from "./registry.js";

/** The two layout rules of a back end whose index constant is `index` and lowered index operand `scalar`. */
export function layoutLowering<C extends { set(v: Value, l: LoweredLayout<S>): void }, S>(
  index: (cx: C, n: bigint) => S,
  scalar: (cx: C, v: Value) => S,
): Record<"encoding.layout.dense" | "encoding.layout.strided", (cx: C, op: Op) => void> {
  return {
    "encoding.layout.dense": (cx, op) => {
      const [result] = op.results;
      if (result) cx.set(result, { kind: "layout", strides: undefined });
    },
    "encoding.layout.strided": (cx, op) => {
      const [result] = op.results;
      const strides = (propOf(op, "strides") ?? []).map((x) => (typeof x === "bigint" ? index(cx, x) : scalar(cx, x)));
      if (result) cx.set(result, { kind: "layout", strides });
    },
  };
}
