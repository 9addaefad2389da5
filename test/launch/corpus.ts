/** Hand-built launch-config functions covering the C-column ops, for agreement and round-trip tests. */
import type { Region, Value } from "../../src/ir/core.js";
import { prim, type PrimName } from "../../src/ir/types.js";
import type { LaunchFunctionSource } from "../../src/launch/source.js";
import { pred, source, workloadGrid, type RegionBuilder } from "./builder.js";

const arg = (r: Region, name: string, t: PrimName): Value => r.addArg(name, prim(t));
const cmp = (b: RegionBuilder, name: string, predicate: string, x: Value, y: Value) => b.one(name, [x, y], "i1", { predicate });

/** Two workload args → 16×16 tiles (language.md §10 (d)), with a workload `where`. */
function matmul16(): LaunchFunctionSource {
  let k: Value | undefined;
  const s = source("matmul16", (b) => {
    const m = b.arg("m", "index"), n = b.arg("n", "index");
    k = b.arg("k", "index");
    const c1 = b.index(1), edge = b.index(16), e1 = b.index(15);
    const tx = b.one("index.div", [b.one("index.add", [n, e1], "index"), edge], "index");
    const ty = b.one("index.div", [b.one("index.add", [m, e1], "index"), edge], "index");
    b.launch([tx, ty, c1], [edge, edge, c1]);
  });
  return { ...s, workloadWhere: [pred("mul", k!, 16), pred("ge", k!, 0)] };
}

/** i32 and f32 arithmetic, select, conversions. */
function mixed(): LaunchFunctionSource {
  return source("mixed", (b) => {
    const x = b.arg("x", "i32"), f = b.arg("f", "f32"), n = b.arg("n", "index");
    const c1 = b.index(1);
    const a = b.one("scalar.addi", [x, b.int(3, "i32")], "i32");
    const m = b.one("scalar.muli", [a, a], "i32");
    const q = b.one("scalar.divsi", [m, b.int(-3, "i32")], "i32");
    const r = b.one("scalar.remui", [q, b.int(7, "i32")], "i32");
    const sh = b.one("scalar.shli", [r, b.int(2, "i32")], "i32");
    const sr = b.one("scalar.shrsi", [x, b.int(1, "i32")], "i32");
    const xo = b.one("scalar.xori", [sh, sr], "i32");
    const neg = cmp(b, "scalar.cmpi", "slt", xo, b.int(0, "i32"));
    const pos = b.one("scalar.absi", [xo], "i32");
    const sel = b.one("scf.select", [neg, pos, xo], "i32");
    const wide = b.one("scalar.extsi", [sel], "i64");
    const narrow = b.one("scalar.trunci", [wide], "i16");
    const back = b.one("scalar.extui", [narrow], "i32");
    const gi = b.one("index.cast", [back], "index");
    const g = b.one("index.rem", [gi, b.index(1000)], "index");
    const f2 = b.one("scalar.mulf", [f, b.float(2.5, "f32")], "f32");
    const fc = b.one("scalar.ceilf", [f2], "f32");
    const fi = b.one("scalar.fptosi", [fc], "i32");
    const fidx = b.one("index.cast", [fi], "index");
    const fs = b.one("index.min", [b.one("index.max", [fidx, c1], "index"), b.index(1024)], "index");
    const ny = b.one("index.min", [b.one("index.max", [n, b.index(0)], "index"), b.index(65535)], "index");
    const minu = b.one("scalar.minui", [x, b.int(5, "i32")], "i32");
    const maxs = b.one("scalar.maxsi", [x, b.int(-5, "i32")], "i32");
    const z = b.one("scalar.subi", [maxs, minu], "i32");
    const zi = b.one("index.cast", [b.one("scalar.andi", [z, b.int(3, "i32")], "i32")], "index");
    const gz = b.one("index.add", [zi, c1], "index");
    b.launch([g, ny, gz], [fs, c1, c1]);
  });
}

/** scf.for with iteration args and a nested scf.if; a dynamic step. */
function loops(): LaunchFunctionSource {
  return source("loops", (b) => {
    const n = b.arg("n", "index"), step = b.arg("step", "index");
    const c0 = b.index(0), c1 = b.index(1);
    const hi = b.one("index.min", [n, b.index(3000)], "index");
    const [acc, count] = b.op("scf.for", [c0, hi, step, c0, c0], ["index", "index"], {}, [
      (rb, r) => {
        const iv = arg(r, "iv", "index"), a = arg(r, "a", "index"), c = arg(r, "c", "index");
        const odd = cmp(rb, "index.cmp", "eq", rb.one("index.andi", [iv, c1], "index"), c1);
        const [next] = rb.op("scf.if", [odd], ["index"], {}, [
          (tb) => tb.op("scf.yield", [tb.one("index.add", [a, iv], "index")]),
          (eb) => eb.op("scf.yield", [eb.one("index.sub", [a, c1], "index")]),
        ]);
        rb.op("scf.yield", [next!, rb.one("index.add", [c, c1], "index")]);
      },
    ]);
    const big = cmp(b, "index.cmp", "sgt", acc!, b.index(60000));
    const [x] = b.op("scf.if", [big], ["index"], {}, [
      (tb) => tb.op("scf.yield", [tb.one("index.rem", [acc!, b.index(60000)], "index")]),
      (eb) => eb.op("scf.yield", [eb.one("index.max", [acc!, c0], "index")]),
    ]);
    const y = b.one("index.add", [b.one("index.rem", [count!, b.index(100)], "index"), c1], "index");
    b.launch([x!, y, c1], [c1, c1, c1]);
  });
}

/** Bitwise index ops on the carrier, i64 scalars, rare ops the fast path leaves to the exact path. */
function bits(): LaunchFunctionSource {
  return source("bits", (b) => {
    const a = b.arg("a", "index"), s = b.arg("s", "index"), w = b.arg("w", "i64");
    const c1 = b.index(1);
    const amt = b.one("index.andi", [s, b.index(63)], "index");
    const rl = b.one("index.rotli", [a, amt], "index");
    const pc = b.one("index.ctpopi", [rl], "index");
    const lz = b.one("index.ctlzi", [a], "index");
    const tz = b.one("index.cttzi", [a], "index");
    const su = b.one("index.shrui", [a, amt], "index");
    const ss = b.one("index.shrsi", [a, amt], "index");
    const sl = b.one("index.shli", [a, amt], "index");
    const x1 = b.one("index.xori", [su, ss], "index");
    const lt = cmp(b, "index.cmp", "ult", x1, sl);
    const sel = b.one("scf.select", [lt, pc, lz], "index");
    const gx = b.one("index.add", [sel, tz], "index");
    const ww = b.one("scalar.addi", [w, w], "i64");
    const wm = b.one("scalar.muli", [ww, b.int(3, "i64")], "i64");
    const wc = cmp(b, "scalar.cmpi", "uge", wm, w);
    const wsel = b.one("scf.select", [wc, b.index(2), b.index(3)], "index");
    const low = b.one("index.cast", [b.one("scalar.trunci", [wm], "i8")], "index");
    const gy = b.one("index.add", [b.one("index.andi", [low, b.index(255)], "index"), wsel], "index");
    const ors = b.one("index.ori", [b.one("index.andi", [x1, b.index(0xff)], "index"), c1], "index");
    b.launch([gx, gy, ors], [c1, c1, c1]);
  });
}

/** Overflow-prone index arithmetic and offsets. */
function overflow(): LaunchFunctionSource {
  return source("overflow", (b) => {
    const a = b.arg("a", "index"), c = b.arg("c", "index"), o = b.arg("o", "offset");
    const c1 = b.index(1);
    const p = b.one("index.mul", [a, c], "index");
    const q = b.one("index.madd", [a, c, a], "index");
    const d = b.one("index.sub", [q, p], "index"); // = a when nothing overflowed
    const sc = b.one("index.scale", [c, o], "offset");
    const so = b.one("index.sub", [sc, b.index(1, "offset")], "offset");
    const si = b.one("index.cast", [so], "index");
    const gx = b.one("index.rem", [b.one("index.max", [d, b.index(0)], "index"), b.index(65536)], "index");
    const gy = b.one("index.rem", [si, b.index(65535)], "index");
    b.launch([gx, gy, c1], [c1, c1, c1]);
  });
}

/** f16/bf16/f64 arguments, fused multiply-add, rounding, bit casts, float facts. */
function floats(): LaunchFunctionSource {
  return source("floats", (b) => {
    const h = b.arg("h", "f16"), g = b.arg("g", "bf16"), d = b.arg("d", "f64");
    const c1 = b.index(1), c2 = b.index(2);
    const hf = b.one("scalar.extf", [h], "f32");
    const gf = b.one("scalar.extf", [g], "f32");
    const sum = b.one("scalar.addf", [hf, gf], "f32");
    const df = b.one("scalar.fptrunc", [d], "f32");
    const prod = b.one("scalar.fmaf", [sum, df, hf], "f32");
    const t16 = b.one("scalar.fptrunc", [prod], "f16");
    const hb = b.one("scalar.bitcast", [t16], "i16");
    const hx = b.one("index.cast", [b.one("scalar.extui", [hb], "i32")], "index");
    const uno = cmp(b, "scalar.cmpf", "uno", prod, prod);
    const y = b.one("scf.select", [uno, c1, c2], "index");
    const mn = b.one("scalar.minimumf", [df, b.one("scalar.negf", [df], "f32")], "f32");
    const mx = b.one("scalar.maxnumf", [mn, b.float(-300.25, "f32")], "f32");
    const rd = b.one("scalar.roundf", [b.one("scalar.absf", [mx], "f32")], "f32");
    const re = b.one("scalar.roundevenf", [b.one("scalar.divf", [rd, b.float(3, "f32")], "f32")], "f32");
    const cs = b.one("scalar.copysignf", [re, b.float(1, "f32")], "f32");
    const rm = b.one("scalar.remf", [b.one("scalar.subf", [cs, b.float(0.5, "f32")], "f32"), b.float(1000, "f32")], "f32");
    const ui = b.one("scalar.fptoui", [b.one("scalar.floorf", [rm], "f32")], "i32");
    const z = b.one("index.add", [b.one("index.cast", [ui], "index"), c1], "index");
    const i8v = b.one("scalar.fptosi", [b.one("scalar.truncf", [hf], "f32")], "i8");
    const back = b.one("scalar.sitofp", [i8v], "bf16");
    const [checked] = b.op("scalar.assume", [back], ["bf16"], { predicates: [pred("not_nan", back)] });
    const bits16 = b.one("scalar.bitcast", [checked!], "f16");
    const asI = b.one("scalar.bitcast", [bits16], "i16");
    const wz = b.one("index.add", [b.one("index.rem", [b.one("index.cast", [asI], "index"), b.index(7)], "index"), c1], "index");
    const ww = b.one("index.min", [wz, b.index(8)], "index");
    b.launch([hx, y, z], [ww, c1, c1]);
  });
}

export const CORPUS: readonly (() => LaunchFunctionSource)[] = [() => workloadGrid(), matmul16, mixed, loops, bits, overflow, floats];
