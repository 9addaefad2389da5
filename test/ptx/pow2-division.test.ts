/**
 * Division and remainder by a constant power of two (test/ptx/kernels/pow2_division.loom) take
 * no `div`/`rem`: an `index` or unsigned dividend is shifted and masked, a signed one gets the
 * round-toward-zero correction. ptxas accepts the module, and the straight-line body, run by the
 * small PTX evaluator below on edge and random arguments, stores what truncating division
 * computed with BigInt gives (docs/language.md §4: `divsi` truncates, `remsi` takes the
 * dividend's sign; `index.div`/`rem` need a non-negative dividend).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { requireTool } from "../util/tools.js";
import { compileFile, ptxas, PTXAS_FIX } from "./helpers.js";

const PARAM = "pow2_division_param";

/**
 * Runs the body's instructions (the ALU subset this kernel uses) on 64-bit BigInt registers;
 * returns the stores as (address, value) in order. Buffers are at addresses 0x1000 and 0x2000.
 */
function run(text: string, params: Map<number, bigint>): [bigint, bigint][] {
  const regs = new Map<string, bigint>();
  const stores: [bigint, bigint][] = [];
  const value = (x: string): bigint => (x.startsWith("%") ? regs.get(x)! : BigInt(x));
  const body = text.slice(text.indexOf("{\n"), text.lastIndexOf("}"));
  for (const line of body.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith(".reg") && l !== "{")) {
    const m = /^([\w.]+)\s+(.*);$/.exec(line) ?? /^(ret);$/.exec(line);
    assert.ok(m, `unparsed line: ${line}`);
    const [opcode, rest = ""] = [m[1]!, m[2]];
    if (opcode === "ret") break;
    const ops = rest.split(",").map((s) => s.trim());
    const [kind, type] = [opcode.split(".")[0]!, opcode.split(".").at(-1)!];
    const bits = Number(type.slice(1));
    const wrap = (v: bigint) => BigInt.asUintN(bits, v);
    const signed = (v: bigint) => BigInt.asIntN(bits, v);
    if (opcode.startsWith("ld.param")) {
      const off = Number(/\+(\d+)\]/.exec(ops[1]!)![1]);
      assert.ok(ops[1]!.includes(PARAM));
      regs.set(ops[0]!, wrap(params.get(off)!));
      continue;
    }
    if (opcode.startsWith("st.global")) {
      const [base, off = "0"] = ops[0]!.slice(1, -1).split("+");
      stores.push([value(base!) + BigInt(off), wrap(value(ops[1]!))]);
      continue;
    }
    const [d, a, x] = [ops[0]!, value(ops[1]!), ops[2] === undefined ? 0n : value(ops[2])];
    switch (kind) {
      case "cvta":
      case "mov":
        regs.set(d, a);
        break;
      case "add":
        regs.set(d, wrap(a + x));
        break;
      case "sub":
        regs.set(d, wrap(a - x));
        break;
      case "and":
        regs.set(d, wrap(a) & wrap(x));
        break;
      case "shr":
        regs.set(d, wrap(type.startsWith("s") ? signed(a) >> x : wrap(a) >> x));
        break;
      default:
        assert.fail(`the evaluator has no '${opcode}' (the lowering emitted more than shifts and masks?)`);
    }
  }
  return stores;
}

/** Truncating division and its remainder, as language.md defines `divsi`/`remsi`. */
const truncDiv = (a: bigint, d: bigint) => (a < 0n ? -(-a / d) : a / d);
const truncRem = (a: bigint, d: bigint) => a - truncDiv(a, d) * d;

function expected(a: number, b: bigint, n: bigint): [bigint, bigint][] {
  const a32 = BigInt(a), au = BigInt.asUintN(32, a32), bu = BigInt.asUintN(64, b);
  const u32 = (v: bigint) => BigInt.asUintN(32, v), u64 = (v: bigint) => BigInt.asUintN(64, v);
  const out32 = [truncDiv(a32, 4n), truncRem(a32, 4n), au / 4n, au % 4n, a32, 0n].map(u32);
  const out64 = [truncDiv(b, 4096n), truncRem(b, 4096n), bu / 4096n, bu % 4096n, n / 8n, n % 8n].map(u64);
  return [...out32.map((v, i) => [0x1000n + BigInt(4 * i), v] as [bigint, bigint]), ...out64.map((v, i) => [0x2000n + BigInt(8 * i), v] as [bigint, bigint])];
}

test("division and remainder by constant powers of two: shifts and masks that ptxas accepts and that compute truncating division", (t) => {
  const c = compileFile("pow2_division.loom", ["pow2_division"]);
  assert.ok(c.ok, JSON.stringify(c.diagnostics));
  const text = c.text!;
  assert.doesNotMatch(text, /\b(div|rem)\.[su](32|64)\b/, "no integer divide is left");
  const check = (a: number, b: bigint, n: bigint) => {
    // Argument block (language.md §7): a i32 @0, b i64 @8, n index @16, buffers @24 and @40.
    const params = new Map<number, bigint>([[0, BigInt(a)], [8, b], [16, n], [24, 0x1000n], [32, 32n], [40, 0x2000n], [48, 96n]]);
    assert.deepEqual(run(text, params), expected(a, b, n), `a=${a} b=${b} n=${n}`);
  };
  for (const a of [0, 1, 3, 4, 5, -1, -3, -4, -5, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1]) {
    for (const b of [0n, 4095n, 4096n, -1n, -4095n, -4096n, -4097n, (1n << 63n) - 1n, -(1n << 63n)]) check(a, b, 7n);
  }
  fc.assert(
    fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.bigInt(-(1n << 63n), (1n << 63n) - 1n), fc.bigInt(0n, (1n << 63n) - 1n), (a, b, n) => check(a, b, n)),
    { numRuns: 300 },
  );
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  const assembled = ptxas(text, "pow2_division");
  assert.equal(assembled.status, 0, assembled.output);
});
