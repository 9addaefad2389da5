/**
 * The explicit argument block of language.md §7 from the values of a kernel's arguments, at the
 * offsets its kernel-interface record gives: the shared ABI packer (src/abi/pack.ts, the same
 * table the compiler lays out with) with its errors as LoomError. Under the WebGPU ABI a
 * buffer's field holds address 0 and the buffer's byte length (docs/abi.md, WGSL).
 */
import { ArgumentValueError, packArgumentBlock, type ArgumentValue, type BufferArgumentValue, type InterfaceArgument } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";

/** A buffer argument's block field: where it lives (0 under bindings) and how many bytes the kernel may use. */
export type BufferArgument = BufferArgumentValue;

/** One argument value: integers as number or bigint, i1 also as boolean, floats as number. */
export type ArgValue = ArgumentValue;

/**
 * The block (`blockBytes` long, zero padding) holding `values[i]` in `slots[i]`. Throws LoomError:
 * "invalid-argument" for a wrong count or kind of value, "out-of-range" for a value the type cannot hold.
 */
export function packArguments(slots: readonly InterfaceArgument[], values: readonly ArgValue[], blockBytes: number): Uint8Array {
  try {
    return packArgumentBlock(slots, values, blockBytes);
  } catch (e) {
    if (e instanceof ArgumentValueError) throw new LoomError(e.status, e.message);
    throw e;
  }
}
