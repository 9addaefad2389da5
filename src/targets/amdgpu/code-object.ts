/**
 * Assembles an HSA code object (AMDGPUUsage "ELF Code Object"): kernel machine code in
 * `.text` (each entry 256-byte aligned, then the code-end padding), one 64-byte kernel
 * descriptor `<name>.kd` per kernel in `.rodata`, the MessagePack metadata note, and
 * dynamic symbols `<name>` (FUNC, protected) and `<name>.kd` (OBJECT).
 */
import type { ArgSlot } from "../../core/prepared.js";
import { describeKernel, writeKernelDescriptor, KERNEL_DESCRIPTOR_SIZE, type KernelDescriptor, type KernelResources } from "./descriptor.js";
import { alignUp } from "./elf/byte-writer.js";
import { writeSharedObject, type DynamicSymbol } from "./elf/shared-object.js";
import { ALIGNMENT_FILL, codeEndPadding } from "./isa/code-end.js";
import { encodeInstruction, encodeWords, type Instruction } from "./isa/encoder.js";
import type { IsaFamily } from "./isa/family.js";
import { metadataNote, type KernelMetadataInput } from "./metadata.js";
import type { HiddenArgument } from "./lower/kernel.js";
import type { AmdgpuTargetInfo } from "./profile.js";
import type { WavefrontSize } from "./profiles.js";
import { elfFlags } from "./target-id.js";

export const EM_AMDGPU = 224;
export const ELFOSABI_AMDGPU_HSA = 64;
export const KERNEL_CODE_ALIGN = 256;

export interface CodeObjectKernel {
  /** Symbol name of the entry (the export name). */
  readonly name: string;
  readonly program: readonly Instruction[];
  /** The program's words when already encoded (the lowering's). */
  readonly words?: readonly number[];
  readonly resources: KernelResources;
  readonly args: readonly ArgSlot[];
  readonly hiddenArguments?: readonly HiddenArgument[];
  readonly kernargSize: number;
  readonly groupSegmentFixedSize: number;
  readonly wavefrontSize: WavefrontSize;
  readonly maxFlatWorkgroupSize: number;
  readonly requiredWorkgroupSize?: readonly [number, number, number];
}

export interface CodeObjectOptions {
  /** 5 (ELF ABI version 3) or 6 (ABI version 4); generic processors need 6. */
  readonly codeObjectVersion: 5 | 6;
}

/** The fill words of a family: the nop between kernels, the code-end padding after them. */
interface TextFill {
  readonly nop: number;
  readonly padding: { readonly word: number; readonly cacheLineBytes: number; readonly fillBytes: number } | undefined;
}

/** The fill of each family (with and without gfx90a instructions), encoded once per process. */
const fills = new Map<IsaFamily, [TextFill | undefined, TextFill | undefined]>();

function fillOf(family: IsaFamily, hasAccumOffset: boolean): TextFill {
  let both = fills.get(family);
  if (!both) fills.set(family, (both = [undefined, undefined]));
  const slot = hasAccumOffset ? 1 : 0;
  let fill = both[slot];
  if (!fill) {
    const padding = codeEndPadding(family, hasAccumOffset);
    const word = (i: Instruction) => encodeInstruction(i, family)[0] ?? 0;
    fill = { nop: word(ALIGNMENT_FILL), padding: padding && { word: word(padding.pad), cacheLineBytes: padding.cacheLineBytes, fillBytes: padding.fillBytes } };
    both[slot] = fill;
  }
  return fill;
}

function fillWords(view: DataView, at: number, word: number, bytes: number): void {
  for (let i = 0; i < bytes; i += 4) view.setUint32(at + i, word, true);
}

/**
 * `.text`: each kernel at a 256-byte boundary, nop-filled between, code-end padding after.
 * Sets each kernel's offset and returns the section size; `writeText` then fills it in place.
 */
function layoutText(fill: TextFill, codes: readonly (readonly number[])[], offsets: number[]): number {
  let size = 0;
  for (const code of codes) {
    size = alignUp(size, KERNEL_CODE_ALIGN);
    offsets.push(size);
    size += 4 * code.length;
  }
  if (fill.padding) size = alignUp(size, fill.padding.cacheLineBytes) + fill.padding.fillBytes;
  return size;
}

function writeText(fill: TextFill, codes: readonly (readonly number[])[], offsets: readonly number[], size: number, view: DataView, at: number): void {
  let end = 0;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    const offset = offsets[i]!;
    fillWords(view, at + end, fill.nop >>> 0, offset - end);
    for (let w = 0; w < code.length; w++) view.setUint32(at + offset + 4 * w, code[w]!, true);
    end = offset + 4 * code.length;
  }
  if (fill.padding) fillWords(view, at + end, fill.padding.word >>> 0, size - end);
}

export function buildCodeObject(info: AmdgpuTargetInfo, kernels: readonly CodeObjectKernel[], options: CodeObjectOptions): Uint8Array {
  const family = info.processor.family;
  const codes: (readonly number[])[] = [];
  const descriptors: KernelDescriptor[] = [];
  const notes: KernelMetadataInput[] = [];
  const symbols: DynamicSymbol[] = [];
  const offsets: number[] = [];
  for (const k of kernels) {
    codes.push(k.words ?? encodeWords(k.program, family));
    const descriptor = describeKernel({ info, wavefrontSize: k.wavefrontSize, groupSegmentFixedSize: k.groupSegmentFixedSize, kernargSize: k.kernargSize, resources: k.resources });
    descriptors.push(descriptor);
    notes.push({ name: k.name, args: k.args, hiddenArguments: k.hiddenArguments ?? [], kernargSize: k.kernargSize, wavefrontSize: k.wavefrontSize, maxFlatWorkgroupSize: k.maxFlatWorkgroupSize, descriptor, requiredWorkgroupSize: k.requiredWorkgroupSize });
  }
  const fill = fillOf(family, info.processor.hasAccumOffset);
  const textSize = layoutText(fill, codes, offsets);
  kernels.forEach((k, i) => {
    symbols.push({ name: k.name, section: "text", offset: offsets[i]!, size: 4 * codes[i]!.length, type: "func", visibility: "protected" });
    symbols.push({ name: `${k.name}.kd`, section: "rodata", offset: i * KERNEL_DESCRIPTOR_SIZE, size: KERNEL_DESCRIPTOR_SIZE, type: "object", visibility: "default" });
  });

  return writeSharedObject({
    identity: { machine: EM_AMDGPU, osabi: ELFOSABI_AMDGPU_HSA, abiVersion: options.codeObjectVersion - 2, flags: elfFlags(info.processor, info.features) },
    note: metadataNote(info, notes),
    rodata: {
      size: kernels.length * KERNEL_DESCRIPTOR_SIZE,
      align: 64,
      write: (_out, view, at, addr) => {
        for (let i = 0; i < descriptors.length; i++) {
          const kdAddress = addr.rodata + i * KERNEL_DESCRIPTOR_SIZE;
          writeKernelDescriptor(view, at + i * KERNEL_DESCRIPTOR_SIZE, descriptors[i]!, addr.text + offsets[i]! - kdAddress);
        }
      },
    },
    text: { size: textSize, align: KERNEL_CODE_ALIGN, write: (_out, view, at) => writeText(fill, codes, offsets, textSize, view, at) },
    symbols,
  });
}
