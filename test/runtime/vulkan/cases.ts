/**
 * Inputs and CPU references shared by the parent tests and the child that dispatches: inputs
 * are a deterministic function of (n, i), so the child makes them and the parent recomputes
 * them for the reference without shipping buffers around.
 */

/** Sizes every execution test runs: empty, one, round, prime, one past a 64 Ki boundary. */
export const SIZES = [0, 1, 1000, 1009, 65537] as const;

export const SAXPY_GROUP = 64;
export const REDUCE_GROUP = 256;
export const SAXPY_A = 2.5;

/** saxpy inputs: positive values of similar magnitude (no cancellation in a·x + y). */
export function saxpyInputs(n: number): { x: Float32Array; y: Float32Array } {
  const x = new Float32Array(n);
  const y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = 1 + ((i * 7919) % 1000) / 1024;
    y[i] = 0.5 + ((i * 104729) % 977) / 3;
  }
  return { x, y };
}

/** f32 saxpy with separate rounding of the product and the sum (the shaders mark it `precise`). */
export function saxpyReference(n: number): Float32Array {
  const { x, y } = saxpyInputs(n);
  return y.map((yi, i) => Math.fround(Math.fround(SAXPY_A * x[i]!) + yi));
}

/** reduce inputs: full-range u32 so the sums wrap. */
export function reduceInputs(n: number): Uint32Array {
  const data = new Uint32Array(n);
  for (let i = 0; i < n; i++) data[i] = (Math.imul(i + 1, 2654435761) ^ (i << 7)) >>> 0;
  return data;
}

/** Partial sums per workgroup of REDUCE_GROUP elements, modulo 2^32 (squares too when asked). */
export function reduceReference(n: number, square: boolean): Uint32Array {
  const data = reduceInputs(n);
  const groups = Math.ceil(n / REDUCE_GROUP);
  const out = new Uint32Array(groups);
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    const g = Math.floor(i / REDUCE_GROUP);
    out[g] = (out[g]! + (square ? Math.imul(v, v) >>> 0 : v)) >>> 0;
  }
  return out;
}

/** Distance in units in the last place between two finite f32 values. */
export function ulpDistance(a: number, b: number): number {
  const bits = (v: number) => {
    const u = new Uint32Array(new Float32Array([v]).buffer)[0]!;
    return u & 0x80000000 ? -(u & 0x7fffffff) : u; // monotonic integer order
  };
  return Math.abs(bits(a) - bits(b));
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

export function fromBase64(text: string): Uint8Array {
  const b = Buffer.from(text, "base64");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice();
}
