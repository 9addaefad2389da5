/**
 * A light read of a SPIR-V module's header instructions: the capabilities it declares and each
 * entry point's LocalSize (literal, or LocalSizeId naming constants; spec constants count with
 * their default values, as the runtime passes no specialization). Used to decide on full-subgroup pipelines; it never rejects
 * a module (the driver and spirv-val judge validity), it just stops at the first malformed word.
 */

const OP_CAPABILITY = 17;
const OP_ENTRY_POINT = 15;
const OP_EXECUTION_MODE = 16;
const OP_EXECUTION_MODE_ID = 331;
const OP_CONSTANT = 43;
const OP_SPEC_CONSTANT = 50;
const OP_FUNCTION = 54;
const EXECUTION_MODE_LOCAL_SIZE = 17;
const EXECUTION_MODE_LOCAL_SIZE_ID = 38;
/** GroupNonUniform, …Vote, …Arithmetic, …Ballot, …Shuffle, …ShuffleRelative, …Clustered, …Quad, …RotateKHR. */
const SUBGROUP_CAPABILITIES = new Set([61, 62, 63, 64, 65, 66, 67, 68, 6026]);

export interface SpirvScan {
  readonly capabilities: ReadonlySet<number>;
  /** Whether the module declares any GroupNonUniform* capability. */
  readonly usesSubgroups: boolean;
  /** The LocalSize of the named entry point, if the module declares one the scan can read. */
  localSize(entryName: string): readonly [number, number, number] | undefined;
}

function literalString(words: Uint32Array, start: number, end: number): string {
  const bytes: number[] = [];
  for (let i = start; i < end; i++) {
    for (let b = 0; b < 4; b++) {
      const byte = (words[i]! >>> (8 * b)) & 0xff;
      if (byte === 0) return Buffer.from(bytes).toString("utf8");
      bytes.push(byte);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Scans `spirv` (little-endian, header already checked by the caller). */
export function scanSpirv(spirv: Uint8Array): SpirvScan {
  const words = new Uint32Array(spirv.byteLength >>> 2);
  const view = new DataView(spirv.buffer, spirv.byteOffset, words.length * 4);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(4 * i, true);
  const capabilities = new Set<number>();
  const entryIds = new Map<string, number>();
  const localSizes = new Map<number, [number, number, number]>();
  const localSizeIds = new Map<number, [number, number, number]>();
  const constants = new Map<number, number>();
  for (let at = 5; at < words.length; ) {
    const count = words[at]! >>> 16;
    const opcode = words[at]! & 0xffff;
    if (count === 0 || at + count > words.length || opcode === OP_FUNCTION) break; // malformed, or past the header section
    if (opcode === OP_CAPABILITY && count >= 2) capabilities.add(words[at + 1]!);
    if (opcode === OP_ENTRY_POINT && count >= 4) entryIds.set(literalString(words, at + 3, at + count), words[at + 2]!);
    if (opcode === OP_EXECUTION_MODE && count >= 6 && words[at + 2] === EXECUTION_MODE_LOCAL_SIZE) {
      localSizes.set(words[at + 1]!, [words[at + 3]!, words[at + 4]!, words[at + 5]!]);
    }
    if (opcode === OP_EXECUTION_MODE_ID && count >= 6 && words[at + 2] === EXECUTION_MODE_LOCAL_SIZE_ID) {
      localSizeIds.set(words[at + 1]!, [words[at + 3]!, words[at + 4]!, words[at + 5]!]);
    }
    if ((opcode === OP_CONSTANT || opcode === OP_SPEC_CONSTANT) && count >= 4) constants.set(words[at + 2]!, words[at + 3]!);
    at += count;
  }
  for (const [entry, ids] of localSizeIds) {
    const values = ids.map((id) => constants.get(id));
    if (!localSizes.has(entry) && values.every((v) => v !== undefined)) localSizes.set(entry, values as [number, number, number]);
  }
  return {
    capabilities,
    usesSubgroups: [...capabilities].some((c) => SUBGROUP_CAPABILITIES.has(c)),
    localSize(entryName: string) {
      const id = entryIds.get(entryName);
      return id === undefined ? undefined : localSizes.get(id);
    },
  };
}
