/**
 * The `symbols` section: the module's top-level symbols, readable without decoding the IR
 * (reference §15 SYMBOLS, reduced to what v1 needs). It is derived from the IR, so the reader
 * re-derives it from what it decoded and insists on identical bytes.
 *
 *   varuint count, then per top-level op that defines a symbol (`props.symbol`), in module order:
 *   varuint symbol name (string index), varuint op name (OPS index), varuint top-level op position.
 */
import type { Module } from "../../ir/core.js";
import { ByteWriter } from "../bytes.js";

/** The section bytes, or undefined when a name has no string or op index. */
export function encodeSymbols(m: Module, stringId: (s: string) => number | undefined, opId: (name: string) => number | undefined): Uint8Array | undefined {
  const entries: [number, number, number][] = [];
  for (const [i, op] of m.ops.entries()) {
    const symbol = op.props.symbol;
    if (typeof symbol !== "string") continue;
    const s = stringId(symbol), o = opId(op.name);
    if (s === undefined || o === undefined) return undefined;
    entries.push([s, o, i]);
  }
  const w = new ByteWriter().varuint(entries.length);
  for (const [s, o, i] of entries) w.varuint(s).varuint(o).varuint(i);
  return w.finish();
}
