/**
 * Packs the explicit argument block (language.md §7) for a kernel-interface record: value i
 * goes to `record.arguments[i]` at its offset, little-endian, padding zero. On PTX the block is
 * the kernel's one `.param .align 8 .b8 args[S]` parameter (docs/abi.md), so these bytes are
 * what cuLaunchKernel copies.
 */
import { LoomError } from "../../core/errors.js";
import { ArgumentValueError, writeArgument, type BufferEncoding } from "../../abi/index.js";
import type { CudaInterfaceArgument, CudaKernelInterface } from "./interface.js";

/** A buffer argument: a device address and how many bytes the kernel may use. A CudaBuffer is one. */
export interface BufferArgument {
  readonly address: bigint | number;
  readonly byteLength: bigint | number;
}

/** A CUDA kernel argument: a scalar (number, bigint or boolean) or a {@link CudaBuffer}-like buffer argument. */
export type ArgValue = number | bigint | boolean | BufferArgument;

/**
 * Called for each buffer value before it is written (the runtime checks it names its memory);
 * `what` builds the argument's label for a message; `value` is the argument object itself
 * (absent for a packed block), so a buffer object of the runtime can be accepted by identity.
 */
export type BufferCheck = (address: bigint, byteLength: bigint | number, what: () => string, value?: BufferArgument) => void;

/** Writes `values` into `view` (which must hold the whole block); zeroes the rest first. */
export function writeArguments(record: CudaKernelInterface, values: readonly ArgValue[], view: DataView, checkBuffer?: BufferCheck): void {
  if (!Array.isArray(values)) throw new LoomError("invalid-argument", `kernel '${record.entryName}': arguments must be an array`);
  const slots = record.arguments;
  if (values.length !== slots.length) {
    throw new LoomError("invalid-argument", `kernel '${record.entryName}' takes ${slots.length} arguments (${slots.map((s) => s.name).join(", ")}), got ${values.length}`);
  }
  for (let i = 0; i < record.argumentBlockBytes; i += 8) view.setFloat64(i, 0);
  const buffers = checkBuffer ? encodingWith(checkBuffer) : PLAIN_CUDA_BUFFERS;
  // Indexed loop, labels built only on failure: this runs on every launch. The values are
  // written by src/abi's packer, the one the Vulkan and WebGPU runtimes use.
  let i = 0;
  const what = () => label(record, i);
  try {
    for (; i < slots.length; i++) {
      const slot = slots[i] as CudaInterfaceArgument;
      writeArgument(view, slot.type, slot.offset, values[i], what, buffers);
    }
  } catch (e) {
    if (e instanceof ArgumentValueError) throw new LoomError(e.status, e.message);
    throw e;
  }
}

/** The block as a fresh Uint8Array of `record.argumentBlockBytes` bytes. */
export function packArguments(record: CudaKernelInterface, values: readonly ArgValue[], checkBuffer?: BufferCheck): Uint8Array {
  const block = new Uint8Array(record.argumentBlockBytes);
  writeArguments(record, values, new DataView(block.buffer), checkBuffer);
  return block;
}

/** Buffer arguments are device pointers: a CudaBuffer, or any `{ address, byteLength }`. */
const CUDA_BUFFER = "a CudaBuffer or { address, byteLength }";
const PLAIN_CUDA_BUFFERS: BufferEncoding = { expected: CUDA_BUFFER };
const CHECKED = new WeakMap<BufferCheck, BufferEncoding>();

/** The encoding that checks buffers with `check`, made once per check (a runtime has one). */
function encodingWith(check: BufferCheck): BufferEncoding {
  let e = CHECKED.get(check);
  if (!e) CHECKED.set(check, (e = { expected: CUDA_BUFFER, check }));
  return e;
}

const label = (record: CudaKernelInterface, i: number): string => `kernel '${record.entryName}' argument ${i} ('${record.arguments[i]?.name ?? "?"}')`;
