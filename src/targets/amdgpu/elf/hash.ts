/**
 * The two symbol hash tables a dynamic loader may use (`.gnu.hash`, `.hash`), built the
 * way ld.lld builds them, so that our code objects match linker output.
 */
import { ByteWriter } from "./byte-writer.js";

const encoder = new TextEncoder();

/** Whether every UTF-16 unit of `s` is ASCII (then its UTF-8 bytes are its char codes). */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The UTF-8 bytes of a name: its char codes when ASCII (the usual case: no encoder call). */
function* nameBytes(name: string): Generator<number> {
  if (!isAscii(name)) return yield* encoder.encode(name);
  for (let i = 0; i < name.length; i++) yield name.charCodeAt(i);
}

/** The GNU (DJB) hash of a symbol name. */
export function gnuHash(name: string): number {
  let h = 5381;
  if (isAscii(name)) for (let i = 0; i < name.length; i++) h = (Math.imul(h, 33) + name.charCodeAt(i)) >>> 0;
  else for (const c of nameBytes(name)) h = (Math.imul(h, 33) + c) >>> 0;
  return h;
}

/** The System V ELF hash of a symbol name. */
export function sysvHash(name: string): number {
  let h = 0;
  for (const c of nameBytes(name)) {
    h = ((h << 4) + c) >>> 0;
    const g = h & 0xf0000000;
    if (g !== 0) h ^= g >>> 24;
    h = (h & ~g) >>> 0;
  }
  return h;
}

/** Bucket count ld.lld chooses: a load factor of 4, at least one bucket. */
export function gnuBucketCount(definedSymbols: number): number {
  return Math.max(Math.floor(definedSymbols / 4), 1);
}

/** Smallest power of two strictly greater than x (LLVM's NextPowerOf2). */
function nextPowerOf2(x: number): number {
  let p = 1;
  while (p <= x) p *= 2;
  return p;
}

const SHIFT2 = 26;

/**
 * `.gnu.hash` for dynamic symbols 1..n (`names[i]` is dynsym index i + 1), which must
 * already be in bucket order (see `gnuBucketCount`; callers sort by bucket).
 */
export function gnuHashSection(names: readonly string[]): Uint8Array {
  const nBuckets = gnuBucketCount(names.length);
  const maskWords = names.length === 0 ? 1 : nextPowerOf2(Math.floor((names.length * 12) / 64));
  const hashes = names.map(gnuHash);
  // 64-bit bloom words as (low, high) 32-bit halves.
  const bloom = new Uint32Array(2 * maskWords);
  const setBit = (word: number, bit: number) => {
    const k = 2 * word + (bit >= 32 ? 1 : 0);
    bloom[k] = (bloom[k] ?? 0) | (1 << (bit & 31));
  };
  for (const h of hashes) {
    const i = Math.floor(h / 64) & (maskWords - 1);
    setBit(i, h % 64);
    setBit(i, (h >>> SHIFT2) % 64);
  }
  const buckets = new Array<number>(nBuckets).fill(0);
  const values: number[] = [];
  const bucketOf = hashes.map((h) => h % nBuckets);
  hashes.forEach((h, i) => {
    const bucket = h % nBuckets;
    // The last symbol of a bucket's chain has bit 0 set; the first starts the bucket (undefined past either end).
    values.push(bucketOf[i + 1] !== bucket ? (h | 1) >>> 0 : (h & ~1) >>> 0);
    if (bucketOf[i - 1] !== bucket) buckets[bucket] = i + 1;
  });
  const w = new ByteWriter(16 + 8 * maskWords + 4 * (nBuckets + values.length)).u32(nBuckets).u32(1).u32(maskWords).u32(SHIFT2);
  for (const b of bloom) w.u32(b);
  for (const b of buckets) w.u32(b);
  for (const v of values) w.u32(v);
  return w.finish();
}

/** `.hash` (System V) for a dynamic symbol table whose entry 0 is the null symbol. */
export function sysvHashSection(names: readonly string[]): Uint8Array {
  const n = names.length + 1;
  const buckets = new Array<number>(n).fill(0);
  const chains = new Array<number>(n).fill(0);
  names.forEach((name, k) => {
    const i = k + 1;
    const h = sysvHash(name) % n;
    chains[i] = buckets[h] ?? 0;
    buckets[h] = i;
  });
  const w = new ByteWriter(8 + 8 * n).u32(n).u32(n);
  for (const b of buckets) w.u32(b);
  for (const c of chains) w.u32(c);
  return w.finish();
}
