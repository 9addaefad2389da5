/** CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) — the `.loombc` header checksum. */

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `bytes`, with the 4 bytes at `skipAt` (if given) read as zero. */
export function crc32(bytes: Uint8Array, skipAt = -1): number {
  let c = 0xffffffff;
  const skipEnd = skipAt >= 0 ? Math.min(skipAt + 4, bytes.length) : -1;
  const head = skipAt >= 0 ? Math.min(skipAt, bytes.length) : bytes.length;
  for (let i = 0; i < head; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  if (skipAt < 0) return (c ^ 0xffffffff) >>> 0;
  for (let i = head; i < skipEnd; i++) c = TABLE[c & 0xff]! ^ (c >>> 8);
  for (let i = skipEnd; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
