/**
 * Encoding formats: how an opcode and operand fields are packed into 32-bit words.
 * The layout of a format is the same across families unless stated; opcode numbers
 * (opcodes.ts) are what change.
 */

/** SOPP: scalar program-control instruction with a 16-bit immediate, one word. */
export const SOPP = {
  /** Bits 31..23 = 0b1_0111_1111 identify SOPP on gfx9 through gfx12. */
  prefix: 0x17f << 23,
  opcodeBits: 7,
  encode(opcode: number, simm16: number): number[] {
    return [(SOPP.prefix | (opcode << 16) | (simm16 & 0xffff)) >>> 0];
  },
} as const;

export type FormatName = "SOPP";
