/**
 * One launch-config function per `simple` op × well-typed signature × flag set × compare
 * predicate (every row of OP_LIST's `simple` ops): the op applied to the workload arguments,
 * its result spread over the launch so that every bit window of it is observable.
 */
import type { Value } from "../../src/ir/core.js";
import type { PrimName } from "../../src/ir/types.js";
import { FLAG_BITS, type LType } from "../../src/launch/model.js";
import { OP_LIST } from "../../src/launch/ops.js";
import type { LaunchFunctionSource } from "../../src/launch/source.js";
import { source, type RegionBuilder } from "./builder.js";

const TYPES: readonly LType[] = ["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"];
const INT_OF_WIDTH: Readonly<Record<string, PrimName>> = { f16: "i16", bf16: "i16", f32: "i32", f64: "i64" };

/** Flag sets worth telling apart: none, each of the two that matter, both. */
function flagSets(allowed: number): string[][] {
  if (allowed & FLAG_BITS.nsw!) return [[], ["nsw"], ["nuw"], ["nsw", "nuw"]];
  if (allowed & FLAG_BITS.nnan!) return [[], ["nnan"], ["ninf"], ["nnan", "ninf", "nsz"]];
  return [[]];
}

/** The result, as launch numbers: 16-bit windows at bits 0, 16, 48 as counts, bits 32–41 as a size. */
function spread(b: RegionBuilder, r: Value, t: LType): void {
  let x = r;
  if (t === "f16" || t === "bf16" || t === "f32" || t === "f64") x = b.one("scalar.bitcast", [x], INT_OF_WIDTH[t]!);
  if (t !== "index") x = b.one("index.cast", [x], "index");
  const window = (shift: number, mask: number) => b.one("index.andi", [shift ? b.one("index.shrsi", [x, b.index(shift)], "index") : x, b.index(mask)], "index");
  const c1 = b.index(1);
  const size = b.one("index.add", [window(32, 0x3ff), c1], "index");
  b.launch([window(0, 0xffff), window(16, 0xffff), window(48, 0xffff)], [size, c1, c1]);
}

export function opZoo(): LaunchFunctionSource[] {
  const out: LaunchFunctionSource[] = [];
  for (const info of OP_LIST) {
    if (info.shape !== "simple") continue;
    const signatures: LType[][] = TYPES.map((t) => Array<LType>(info.arity).fill(t));
    if (info.name === "index.scale") signatures.push(["index", "offset"]);
    for (const operands of signatures) {
      for (const result of TYPES) {
        if (info.check(operands, result) !== undefined) continue;
        for (const flags of flagSets(info.flags)) {
          for (const predicate of info.predicates ?? [undefined]) {
            const name = [info.name.replace(".", "_"), ...operands, result, ...flags, predicate ?? ""].filter(Boolean).join("_");
            out.push(
              source(name, (b) => {
                const args = operands.map((t, i) => b.arg(`x${i}`, t as PrimName));
                const props = { ...(flags.length ? { flags } : {}), ...(predicate ? { predicate } : {}) };
                spread(b, b.one(info.name, args, result as PrimName, props), result);
              }),
            );
          }
        }
      }
    }
  }
  return out;
}
