/**
 * Operand codes (the 8-bit scalar / 9-bit vector source fields) → readers. Register codes are
 * normalized to SGPR file indices (gfx11's null and M0 codes differ from gfx9's); constants are
 * the inline integers and floats of the ISA guides ("Scalar / Vector Source Operands").
 */
import { LoomError } from "../../core/errors.js";
import type { IsaFamily } from "./code-object.js";
import { LITERAL } from "./decode.js";
import { M0, NULL_CODE, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI, VCC_LO, type Wave } from "./wave.js";

const f32Bits = (x: number): number => {
  F32[0] = x;
  return U32[0]!;
};
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const F64 = new Float64Array(1);
const U64 = new Uint32Array(F64.buffer);

/** Inline float constants 240..248 (248 = 1/(2π)). */
const INLINE_FLOATS: Record<number, number> = { 240: 0.5, 241: -0.5, 242: 1, 243: -1, 244: 2, 245: -2, 246: 4, 247: -4, 248: 0.15915494309189535 };

/** The SGPR file index a scalar register code names, NULL_CODE for null, or -1 when it is no register. */
export function sgprIndex(code: number, family: IsaFamily): number {
  if (code < 0) return -1;
  if (code <= 123) return code;
  if (code === 124) return family === "gfx11" ? NULL_CODE : M0;
  if (code === 125) return family === "gfx11" ? M0 : -1;
  if (code === 126 || code === 127) return code;
  return -1;
}

export type Read32 = (w: Wave) => number;

function unsupportedOperand(code: number, where: string): never {
  throw new LoomError("unimplemented", `${where}: source operand code ${code} is not supported by the simulator`);
}

/** A 32-bit constant source's bits, or undefined when the code is not a constant. `float` says how inline floats read. */
export function constant32(code: number, literal: number, float: "f32" | "f16" | "none"): number | undefined {
  if (code === 128) return 0;
  if (code >= 129 && code <= 192) return code - 128;
  if (code >= 193 && code <= 208) return (-(code - 192)) >>> 0;
  if (code >= 240 && code <= 248) {
    const v = INLINE_FLOATS[code]!;
    if (float === "f16") return f16Bits(v);
    return f32Bits(v);
  }
  if (code === LITERAL) return literal >>> 0;
  if (code === 235) return SHARED_APERTURE_HI;
  if (code === 237) return PRIVATE_APERTURE_HI;
  if (code === 236 || code === 238) return 0xffffffff;
  return undefined;
}

/** A 64-bit constant source as [lo, hi]: integers sign-extend, inline floats are doubles, a literal is the low dword (`float64`: the high one). */
export function constant64(code: number, literal: number, float64: boolean, signedLiteral: boolean): [number, number] | undefined {
  if (code >= 240 && code <= 248) {
    F64[0] = INLINE_FLOATS[code]!;
    return [U64[0]!, U64[1]!];
  }
  if (code === LITERAL) {
    if (float64) return [0, literal >>> 0];
    return [literal >>> 0, signedLiteral && literal >>> 31 ? 0xffffffff : 0];
  }
  if (code === 235 || code === 237) return [0, constant32(code, literal, "none")!];
  const v = constant32(code, literal, "none");
  if (v === undefined) return undefined;
  return [v, code >= 193 && code <= 208 ? 0xffffffff : 0];
}

function f16Bits(v: number): number {
  // Only the inline constants reach here: exact in f16.
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === 0) return sign;
  const e = Math.floor(Math.log2(a));
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | m;
}

/** Reader of a 32-bit scalar source (SALU operand, or the uniform value of a VALU source). */
export function scalarRead32(code: number, literal: number, family: IsaFamily, float: "f32" | "f16" | "none", where: string): Read32 {
  const s = sgprIndex(code, family);
  if (s === NULL_CODE) return () => 0;
  if (s >= 0) return (w) => w.s[s]!;
  const c = constant32(code, literal, float);
  if (c !== undefined) return () => c;
  if (code === 251) return (w) => (w.vccZero() ? 1 : 0);
  if (code === 252) return (w) => (w.execZero() ? 1 : 0);
  if (code === 253) return (w) => w.scc;
  return unsupportedOperand(code, where);
}

/** Reader of a 64-bit scalar source into out[0..1]. */
export function scalarRead64(code: number, literal: number, family: IsaFamily, float64: boolean, signedLiteral: boolean, where: string): (w: Wave, out: Uint32Array) => void {
  const s = sgprIndex(code, family);
  if (s === NULL_CODE) return (_w, out) => void out.fill(0);
  if (s >= 0) {
    if (s % 2 !== 0 && s < 106) throw new LoomError("data-loss", `${where}: 64-bit scalar operand in odd register s${s}`);
    return (w, out) => {
      out[0] = w.s[s]!;
      out[1] = w.s[s + 1]!;
    };
  }
  const c = constant64(code, literal, float64, signedLiteral);
  if (c !== undefined) {
    const [lo, hi] = c;
    return (_w, out) => {
      out[0] = lo;
      out[1] = hi;
    };
  }
  if (code === 253) return (w, out) => {
    out[0] = w.scc;
    out[1] = 0;
  };
  return unsupportedOperand(code, where);
}

/** Registers a source reads: SGPR indices and VGPR numbers (for the pending-load check). */
export function sourceRegisters(code: number, dwords: number, family: IsaFamily, sregs: number[], vregs: number[]): void {
  if (code < 0) return;
  if (code >= 256) {
    for (let i = 0; i < dwords; i++) vregs.push(code - 256 + i);
    return;
  }
  const s = sgprIndex(code, family);
  if (s >= 0) for (let i = 0; i < dwords; i++) sregs.push(s + i);
  if (code === 251) sregs.push(VCC_LO);
}
