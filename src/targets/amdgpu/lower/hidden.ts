/**
 * Code object v5 hidden kernel arguments read by selected code (AMDGPUUsage, "Code Object V5
 * Metadata"): they follow the explicit argument block at alignUp(block, 8). Offsets within
 * the hidden block:
 *
 *   0, 4, 8    hidden_block_count_x/y/z   u32   (kernel.workgroup.count)
 *   12, 14, 16 hidden_group_size_x/y/z    u16   (a workgroup size chosen at launch)
 *
 * A kernel lists the whole triple of each group it reads, and its kernarg segment ends after
 * the last argument listed.
 */
import { part } from "../machine/program.js";
import { int32 } from "./arith.js";
import type { KernelLowering, Scalar } from "./context.js";

export const BLOCK_COUNT_OFFSET = 0;
export const GROUP_SIZE_OFFSET = 12;

export type HiddenKind = `hidden_block_count_${"x" | "y" | "z"}` | `hidden_group_size_${"x" | "y" | "z"}`;

/** A code object v5 hidden argument the kernel reads (listed in the metadata `.args`). */
export interface HiddenArgument {
  readonly kind: HiddenKind;
  readonly offset: number;
  readonly size: number;
}

/** Device ops whose value depends on the launched workgroup size. */
export const GROUP_SIZE_READERS: ReadonlySet<string> = new Set(["kernel.workgroup.size", "kernel.workitem.dispatch.id", "kernel.subgroup.id", "kernel.subgroup.count"]);

/** The hidden arguments read and where the kernarg segment ends (`hiddenOffset` = alignUp(block, 8)). */
export function hiddenLayout(hiddenOffset: number, argBlockSize: number, blockCount: boolean, groupSize: boolean): { args: HiddenArgument[]; kernargSize: number } {
  const args: HiddenArgument[] = [];
  const dims = ["x", "y", "z"] as const;
  if (blockCount) dims.forEach((d, i) => args.push({ kind: `hidden_block_count_${d}`, offset: hiddenOffset + BLOCK_COUNT_OFFSET + 4 * i, size: 4 }));
  if (groupSize) dims.forEach((d, i) => args.push({ kind: `hidden_group_size_${d}`, offset: hiddenOffset + GROUP_SIZE_OFFSET + 2 * i, size: 2 }));
  const last = args.at(-1);
  return { args, kernargSize: last ? last.offset + last.size : argBlockSize };
}

/**
 * The launched workgroup size along `d` (u16 hidden_group_size_d): one dword load at a
 * 4-byte boundary (x and y share one), then the half it holds (z's upper half is
 * hidden_remainder_x). Uniform, in [1, 1024].
 */
export function launchedGroupSize(cx: KernelLowering, d: 0 | 1 | 2): Scalar {
  cx.hiddenGroupSize = true;
  return cx.memo("hidden_group_size", [d], () => {
    const word = cx.memo("hidden_group_size_word", [d === 2 ? 1 : 0], () => {
      const r = cx.vreg("s", 1);
      cx.emit("s_load_b32", [part(r), part(cx.kernargPointer())], { offset: cx.hiddenArgumentsOffset + GROUP_SIZE_OFFSET + (d === 2 ? 4 : 0) });
      return cx.sval("i32", r);
    });
    const half = d === 1 ? int32(cx, "shru", word, cx.const("i32", 16n)) : int32(cx, "and", word, cx.const("i32", 0xffffn));
    return { ...half, t: "i64", narrow: true, max: 1024n };
  });
}
