/**
 * Assembles an HSA code object (AMDGPUUsage "ELF Code Object"): kernel machine code in
 * `.text` (each entry 256-byte aligned, then the code-end padding), one 64-byte kernel
 * descriptor `<name>.kd` per kernel in `.rodata`, the MessagePack metadata note, and
 * dynamic symbols `<name>` (FUNC, protected) and `<name>.kd` (OBJECT).
 */
import type { ArgSlot } from "../../core/prepared.js";
import { describeKernel, encodeKernelDescriptor, KERNEL_DESCRIPTOR_SIZE, type KernelDescriptor, type KernelResources } from "./descriptor.js";
import { ByteWriter, alignUp } from "./elf/byte-writer.js";
import { writeSharedObject, type DynamicSymbol } from "./elf/shared-object.js";
import { ALIGNMENT_FILL, codeEndPadding } from "./isa/code-end.js";
import { encodeInstruction, encodeProgram, type Instruction } from "./isa/encoder.js";
import type { IsaFamily } from "./isa/family.js";
import { metadataMap, metadataNote } from "./metadata.js";
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
  /** The program's bytes when already encoded (the lowering's code buffer). */
  readonly code?: Uint8Array;
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

/** The one-word fill instructions of a family, encoded once per process. */
const fillWords = new Map<string, { readonly nop: number; readonly pad: number | undefined }>();

function fillOf(family: IsaFamily, hasAccumOffset: boolean): { readonly nop: number; readonly pad: number | undefined } {
  const key = `${family}${hasAccumOffset ? "+acc" : ""}`;
  let fill = fillWords.get(key);
  if (!fill) {
    const padding = codeEndPadding(family, hasAccumOffset);
    const word = (i: Instruction) => encodeInstruction(i, family)[0] ?? 0;
    fill = { nop: word(ALIGNMENT_FILL), pad: padding && word(padding.pad) };
    fillWords.set(key, fill);
  }
  return fill;
}

/** One kernel on its way into the code object. */
interface Entry {
  readonly kernel: CodeObjectKernel;
  readonly code: Uint8Array;
  readonly descriptor: KernelDescriptor;
  /** Offset in `.text` (set by layoutText). */
  textOffset: number;
}

/** `.text`: each kernel at a 256-byte boundary, nop-filled between, code-end padding after. */
function layoutText(info: AmdgpuTargetInfo, entries: readonly Entry[]): Uint8Array {
  const family = info.processor.family;
  const padding = codeEndPadding(family, info.processor.hasAccumOffset);
  const fill = fillOf(family, info.processor.hasAccumOffset);
  let size = 0;
  for (const e of entries) size = alignUp(size, KERNEL_CODE_ALIGN) + e.code.length;
  if (padding) size = alignUp(size, padding.cacheLineBytes) + padding.fillBytes;
  const w = new ByteWriter(size);
  for (const e of entries) {
    w.words(fill.nop, (alignUp(w.length, KERNEL_CODE_ALIGN) - w.length) / 4);
    e.textOffset = w.length;
    w.bytes(e.code);
  }
  if (padding && fill.pad !== undefined) w.words(fill.pad, (alignUp(w.length, padding.cacheLineBytes) - w.length + padding.fillBytes) / 4);
  return w.finish();
}

export function buildCodeObject(info: AmdgpuTargetInfo, kernels: readonly CodeObjectKernel[], options: CodeObjectOptions): Uint8Array {
  const entries: Entry[] = kernels.map((k) => ({
    kernel: k,
    code: k.code ?? encodeProgram(k.program, info.processor.family),
    descriptor: describeKernel({ info, wavefrontSize: k.wavefrontSize, groupSegmentFixedSize: k.groupSegmentFixedSize, kernargSize: k.kernargSize, resources: k.resources }),
    textOffset: 0,
  }));
  const text = layoutText(info, entries);

  const note = metadataNote(
    metadataMap(
      info,
      entries.map(({ kernel: k, descriptor }) => {
        const base = { name: k.name, args: k.args, hiddenArguments: k.hiddenArguments ?? [], kernargSize: k.kernargSize, wavefrontSize: k.wavefrontSize, maxFlatWorkgroupSize: k.maxFlatWorkgroupSize, descriptor };
        return k.requiredWorkgroupSize ? { ...base, requiredWorkgroupSize: k.requiredWorkgroupSize } : base;
      }),
    ),
  );

  const symbols: DynamicSymbol[] = entries.flatMap((e, i) => [
    { name: e.kernel.name, section: "text", offset: e.textOffset, size: e.code.length, type: "func", visibility: "protected" } as const,
    { name: `${e.kernel.name}.kd`, section: "rodata", offset: i * KERNEL_DESCRIPTOR_SIZE, size: KERNEL_DESCRIPTOR_SIZE, type: "object", visibility: "default" } as const,
  ]);

  return writeSharedObject({
    identity: { machine: EM_AMDGPU, osabi: ELFOSABI_AMDGPU_HSA, abiVersion: options.codeObjectVersion - 2, flags: elfFlags(info.processor, info.features) },
    note,
    rodata: {
      size: kernels.length * KERNEL_DESCRIPTOR_SIZE,
      align: 64,
      build: (addr) => {
        const w = new ByteWriter(kernels.length * KERNEL_DESCRIPTOR_SIZE);
        entries.forEach((e, i) => {
          const kdAddress = addr.rodata + i * KERNEL_DESCRIPTOR_SIZE;
          w.bytes(encodeKernelDescriptor(e.descriptor, addr.text + e.textOffset - kdAddress));
        });
        return w.finish();
      },
    },
    text: { bytes: text, align: KERNEL_CODE_ALIGN },
    symbols,
  });
}
