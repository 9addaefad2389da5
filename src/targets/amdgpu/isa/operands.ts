/**
 * Physical instruction operands and their encodings in source/destination fields: SGPR and
 * VGPR tuples, the special registers (VCC, EXEC, M0, SCC, null), `off`, and 32-bit
 * immediates (inline constants where the bit pattern has one, else a literal dword).
 * Field values follow the AMD ISA guides (Vega/CDNA3 and RDNA3 "Scalar/Vector Operand
 * encodings"); test/amdgpu/isa.test.ts checks them against llvm-mc-19.
 */
import { LoomError } from "../../../core/errors.js";
import type { IsaFamily } from "./family.js";

export type Special = "vcc" | "exec" | "m0" | "scc" | "null";

export type Operand =
  | { readonly k: "s"; readonly i: number; readonly n: number }
  | { readonly k: "v"; readonly i: number; readonly n: number }
  | { readonly k: "special"; readonly name: Special; readonly n: number }
  | { readonly k: "imm"; readonly v: number }
  | { readonly k: "off" };

/** The inline integers' operands (-16..64), made once: selection names them all the time. */
const SMALL_IMMEDIATES: readonly Operand[] = Array.from({ length: 81 }, (_, i) => ({ k: "imm", v: (i - 16) >>> 0 }));

export const imm = (v: number): Operand => (Number.isInteger(v) && v >= -16 && v <= 64 ? SMALL_IMMEDIATES[v + 16]! : { k: "imm", v: v >>> 0 });
export const special = (name: Special, n = 1): Operand => ({ k: "special", name, n });
export const OFF: Operand = { k: "off" };

/** Highest SGPR index a kernel may name (s0..s105 on gfx9 and gfx11). */
export const MAX_SGPR = 105;

const INLINE_FLOATS: ReadonlyMap<number, [number, string]> = new Map([
  [0x3f000000, [240, "0.5"]],
  [0xbf000000, [241, "-0.5"]],
  [0x3f800000, [242, "1.0"]],
  [0xbf800000, [243, "-1.0"]],
  [0x40000000, [244, "2.0"]],
  [0xc0000000, [245, "-2.0"]],
  [0x40800000, [246, "4.0"]],
  [0xc0800000, [247, "-4.0"]],
]);

/** The inline-constant field value of a 32-bit immediate, or undefined when it needs a literal. */
export function inlineConstant(bits: number): number | undefined {
  const s = bits | 0;
  if (s >= 0 && s <= 64) return 128 + s;
  if (s >= -16 && s <= -1) return 192 - s;
  return INLINE_FLOATS.get(bits >>> 0)?.[0];
}

export const isLiteral = (o: Operand): boolean => o.k === "imm" && inlineConstant(o.v) === undefined;

function specialCode(name: Special, family: IsaFamily): number {
  switch (name) {
    case "vcc": return 106;
    case "exec": return 126;
    case "m0": return family === "gfx9" ? 124 : 125;
    case "null":
      if (family === "gfx9") throw new LoomError("internal", "AMDGPU encoder: gfx9 has no null register");
      return 124;
    case "scc": return 253;
  }
}

function bad(o: Operand, what: string): never {
  throw new LoomError("internal", `AMDGPU encoder: ${JSON.stringify(o)} is not ${what}`);
}

/** An 8-bit scalar source/destination field (SALU, SMEM data, VOP3 sdst). */
export function scalarField(o: Operand, family: IsaFamily): number {
  switch (o.k) {
    case "s":
      if (o.i < 0 || o.i + o.n - 1 > MAX_SGPR) bad(o, "an addressable SGPR");
      return o.i;
    case "special": return specialCode(o.name, family);
    case "imm": return inlineConstant(o.v) ?? 255;
    default: return bad(o, "a scalar operand");
  }
}

/** A 9-bit vector source field: scalar codes, or 256 + VGPR. */
export function sourceField(o: Operand, family: IsaFamily): number {
  if (o.k === "v") {
    if (o.i < 0 || o.i + o.n - 1 > 255) bad(o, "a VGPR");
    return 256 + o.i;
  }
  return scalarField(o, family);
}

/** An 8-bit VGPR field (destinations, VOP2 src1, memory data/address). */
export function vgprField(o: Operand): number {
  if (o.k !== "v" || o.i < 0 || o.i + o.n - 1 > 255) bad(o, "a VGPR");
  return o.i;
}

function range(prefix: string, i: number, n: number): string {
  return n === 1 ? `${prefix}${i}` : `${prefix}[${i}:${i + n - 1}]`;
}

/** LLVM assembly of an operand; `wave` picks `vcc`/`vcc_lo` and `exec`/`exec_lo`. */
export function formatOperand(o: Operand): string {
  switch (o.k) {
    case "s": return range("s", o.i, o.n);
    case "v": return range("v", o.i, o.n);
    case "off": return "off";
    case "special":
      if (o.name === "vcc" || o.name === "exec") return o.n === 2 ? o.name : `${o.name}_lo`;
      return o.name;
    case "imm": {
      const f = INLINE_FLOATS.get(o.v >>> 0);
      if (f) return f[1];
      const s = o.v | 0;
      if (s >= -16 && s <= 64) return String(s);
      return `0x${(o.v >>> 0).toString(16)}`;
    }
  }
}
