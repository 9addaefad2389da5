/**
 * A scope of native memory for building Vulkan create-infos: every allocation is zeroed, holds
 * its address still while the scope lives, and is released by `free()`. Structs are encoded by
 * koffi from JS objects whose pointer members are BigInt addresses from the same arena.
 */
import { LoomError } from "../../core/errors.js";
import type { VulkanLibrary } from "./ffi.js";
import type { KoffiType } from "./koffi.js";
import type { StructName } from "./structs.js";

export class NativeArena {
  private readonly blocks: bigint[] = [];

  constructor(private readonly lib: VulkanLibrary) {}

  /** `n` zeroed bytes (at least one, so the address is never null). */
  bytes(n: number): bigint {
    const size = Math.max(1, n);
    const ptr = this.lib.koffi.alloc("uint8_t", size) as bigint;
    this.blocks.push(ptr);
    new Uint8Array(this.lib.koffi.view(ptr, size)).fill(0);
    return ptr;
  }

  /** A writable view of `len` bytes at `ptr` (valid while the memory lives). */
  view(ptr: bigint, len: number): Uint8Array {
    return len === 0 ? new Uint8Array(0) : new Uint8Array(this.lib.koffi.view(ptr, len));
  }

  copy(data: Uint8Array): bigint {
    const ptr = this.bytes(data.byteLength);
    this.view(ptr, data.byteLength).set(data);
    return ptr;
  }

  /** One struct; members left out stay zero. */
  struct(name: StructName, value: Readonly<Record<string, unknown>>): bigint {
    return this.structs(name, [value]);
  }

  /** A C array of structs. */
  structs(name: StructName, values: readonly Readonly<Record<string, unknown>>[]): bigint {
    const type = this.lib.structs[name];
    const ptr = this.bytes(type.size * values.length);
    values.forEach((v, i) => this.lib.koffi.encode(ptr, i * type.size, type, withZeros(type, v)));
    return ptr;
  }

  u32s(values: readonly number[]): bigint {
    const ptr = this.bytes(4 * values.length);
    const dv = new DataView(this.lib.koffi.view(ptr, Math.max(4, 4 * values.length)));
    values.forEach((v, i) => dv.setUint32(4 * i, v, true));
    return ptr;
  }

  f32s(values: readonly number[]): bigint {
    const ptr = this.bytes(4 * values.length);
    const dv = new DataView(this.lib.koffi.view(ptr, Math.max(4, 4 * values.length)));
    values.forEach((v, i) => dv.setFloat32(4 * i, v, true));
    return ptr;
  }

  /** An array of 64-bit handles/pointers. */
  handles(values: readonly bigint[]): bigint {
    const ptr = this.bytes(8 * values.length);
    const dv = new DataView(this.lib.koffi.view(ptr, Math.max(8, 8 * values.length)));
    values.forEach((v, i) => dv.setBigUint64(8 * i, v, true));
    return ptr;
  }

  /** A NUL-terminated UTF-8 string. */
  cstring(s: string): bigint {
    const utf8 = new TextEncoder().encode(s);
    const ptr = this.bytes(utf8.byteLength + 1);
    this.view(ptr, utf8.byteLength).set(utf8);
    return ptr;
  }

  readStruct<T>(name: StructName, ptr: bigint, index = 0): T {
    const type = this.lib.structs[name];
    return this.lib.koffi.decode(ptr, index * type.size, type) as T;
  }

  readU32(ptr: bigint, index = 0): number {
    return new DataView(this.lib.koffi.view(ptr, 4 * (index + 1))).getUint32(4 * index, true);
  }

  readU64(ptr: bigint, index = 0): bigint {
    return new DataView(this.lib.koffi.view(ptr, 8 * (index + 1))).getBigUint64(8 * index, true);
  }

  free(): void {
    for (const ptr of this.blocks) this.lib.koffi.free(ptr);
    this.blocks.length = 0;
  }
}

/** koffi wants every member present; fill the missing ones with zero of the right kind. */
function withZeros(type: KoffiType, value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(type.members ?? {})) {
    if (key in value) {
      const v = value[key];
      out[key] = member.type.primitive === "Record" && v !== null && typeof v === "object" ? withZeros(member.type, v as Record<string, unknown>) : v;
    } else {
      out[key] = zeroOf(member.type);
    }
  }
  for (const key of Object.keys(value)) {
    if (!(key in out)) throw new LoomError("internal", `Vulkan struct has no member '${key}'`);
  }
  return out;
}

function zeroOf(type: KoffiType): unknown {
  switch (type.primitive) {
    case "Pointer":
    case "String":
      return null;
    case "Int64":
    case "UInt64":
      return 0n;
    case "Record":
      return withZeros(type, {});
    case "Array":
      return Array.from({ length: type.length ?? 0 }, () => zeroOf(type.ref!));
    default:
      return 0;
  }
}
