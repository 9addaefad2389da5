/**
 * Global memory of the simulator: a flat 64-bit address space holding the buffers the runtime
 * allocates (and each dispatch's kernarg segment), with unmapped guard gaps between them. An
 * access that is not entirely inside one buffer is a memory fault (LoomError), as a page fault
 * would be on the device.
 */
import { LoomError } from "../../core/errors.js";

/** First buffer address: above 4 GiB, so code that truncates an address to 32 bits faults. */
export const FIRST_BUFFER_ADDRESS = 0x1_0000_0000;
const GUARD_BYTES = 0x10000;
/** One allocation may not exceed this (the simulator is a test device, not a host for huge data). */
export const MAX_ALLOCATION_BYTES = 1 << 30;

export interface MemoryRegion {
  readonly address: number;
  readonly byteLength: number;
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly label: string;
}

export class FlatMemory {
  private readonly regions: MemoryRegion[] = [];
  private next = FIRST_BUFFER_ADDRESS;
  private last: MemoryRegion | undefined;

  allocate(byteLength: number, label: string, align = 256): MemoryRegion {
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) throw new LoomError("invalid-argument", `buffer size must be a non-negative integer, got ${byteLength}`);
    if (byteLength > MAX_ALLOCATION_BYTES) throw new LoomError("resource-exhausted", `the simulator allocates at most ${MAX_ALLOCATION_BYTES} bytes per buffer, asked for ${byteLength}`);
    const address = Math.ceil(this.next / align) * align;
    // Backing store rounded up to 16 bytes so that a dword access at the end needs no special case.
    const bytes = new Uint8Array(Math.max(16, Math.ceil(byteLength / 16) * 16));
    const region: MemoryRegion = { address, byteLength, bytes, view: new DataView(bytes.buffer), label };
    this.regions.push(region);
    this.next = address + Math.max(byteLength, 1) + GUARD_BYTES;
    return region;
  }

  free(region: MemoryRegion): void {
    const i = this.regions.indexOf(region);
    if (i < 0) throw new LoomError("invalid-argument", `buffer at 0x${region.address.toString(16)} was not allocated here or is already freed`);
    this.regions.splice(i, 1);
    if (this.last === region) this.last = undefined;
  }

  /** The region holding [address, address + size), or undefined. */
  find(address: number, size: number): MemoryRegion | undefined {
    const last = this.last;
    if (last && address >= last.address && address + size <= last.address + last.byteLength) return last;
    // Regions are in address order (allocation is monotonic): binary search.
    let lo = 0;
    let hi = this.regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.regions[mid]!;
      if (address < r.address) hi = mid - 1;
      else if (address >= r.address + Math.max(r.byteLength, 1)) lo = mid + 1;
      else {
        if (address + size > r.address + r.byteLength) return undefined;
        this.last = r;
        return r;
      }
    }
    return undefined;
  }

  /** The region and offset of an access, or a memory-fault LoomError described by `what`. */
  resolve(address: number, size: number, what: () => string): { readonly region: MemoryRegion; readonly offset: number } {
    const region = this.find(address, size);
    if (!region) {
      const near = this.regions.find((r) => address >= r.address - GUARD_BYTES && address < r.address + r.byteLength + GUARD_BYTES);
      const hint = near ? ` (buffer '${near.label}' is 0x${near.address.toString(16)}..0x${(near.address + near.byteLength).toString(16)})` : "";
      throw new LoomError("out-of-range", `memory fault: ${what()} of ${size} bytes at 0x${address.toString(16)} is outside every buffer${hint}`);
    }
    return { region, offset: address - region.address };
  }
}
