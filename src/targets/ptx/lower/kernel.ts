/**
 * Lowering one prepared kernel to one PTX `.entry` (docs/abi.md "PTX"):
 *
 *   .visible .entry <export>(.param .align 8 .b8 <export>_param[argBlockSize])
 *   .reqntid x, y, z            (static workgroup size; else .maxntid <max threads>, 1, 1)
 *   .minnctapersm ⌈512 / threads⌉ (static sizes under 512 threads: ≤ 128 registers per thread)
 *   { registers; .local arrays; ld.param of the used arguments; body; ret; }
 *
 * plus the kernel's `.shared` array (workgroupStorageBytes) at module scope.
 */
import type { Value } from "../../../ir/core.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import type { PtxTargetInfo } from "../profile.js";
import { nonCoherentLoads } from "./analysis.js";
import { ptxScalarOf, KernelLowering, type Lowered } from "./context.js";
import { PTX_RULES } from "./rules.js";
import { regionLowering } from "../../../dialects/lowering.js";
import { isOp } from "../../../dialects/registry.js";

/** Threads a static-size kernel keeps resident per SM (`.minnctapersm`): 16 warps, 128 registers each. */
const RESIDENT_THREADS = 512;

const lowerRegionOps = regionLowering<KernelLowering, Lowered>("PTX", PTX_RULES, { kind: "invalid" });

/** The `ld.param` type of a scalar argument (i1 travels as a u32 0/1, language.md §7). */
const PARAM_TYPE: Readonly<Record<string, string>> = { pred: "u32", i8: "s8", i16: "b16", i32: "b32", i64: "b64", f16: "b16", bf16: "b16", f32: "b32", f64: "b64" };

/** Loads every used argument from the parameter block. */
function bindArguments(cx: KernelLowering, used: ReadonlyMap<Value, number>): Lowered[] {
  const k = cx.kernel;
  return k.args.map((slot): Lowered => {
    if (!used.has(slot.value) || slot.type.kind !== "prim") return { kind: "invalid" };
    const at = (offset: number) => `[${cx.paramName}+${offset}]`;
    if (slot.type.name === "buffer") {
      const raw = cx.op("ld.param.u64", "i64", at(slot.offset));
      const addr = cx.op("cvta.to.global.u64", "i64", raw);
      const length = cx.op("ld.param.u64", "i64", at(slot.offset + 8));
      return { kind: "buffer", space: "global", addr, length, align: 1 };
    }
    const t = ptxScalarOf(slot.type.name);
    if (!t) {
      cx.unsupported(slot.value, `an argument of type '${slot.type.name}'`);
      return { kind: "invalid" };
    }
    if (t === "f64" && !cx.requireFeature(slot.value, "f64", "an f64 argument")) return { kind: "invalid" };
    if (t === "pred") return cx.op("setp.ne.u32", "pred", cx.op("ld.param.u32", "i32", at(slot.offset)), "0");
    return cx.op(`ld.param.${PARAM_TYPE[t]}`, t, at(slot.offset));
  });
}

export interface LoweredKernel {
  readonly cx: KernelLowering;
  /** The kernel's text (module-scope declarations and the entry), when it lowered cleanly. */
  readonly text?: string;
}

export function lowerKernel(kernel: PreparedKernel, info: PtxTargetInfo): LoweredKernel {
  const cx = new KernelLowering(kernel, info, lowerRegionOps);
  cx.ncLoads = nonCoherentLoads(kernel.body);
  // The argument block and workgroup storage were checked against the profile's facts
  // (maxParameterBytes, maxSharedMemoryPerBlock) by the pipeline: TARGET/901, TARGET/051.
  const limits = info.limits;
  const storage = kernel.workgroupStorageBytes;

  const args = bindArguments(cx, kernel.uses);
  const term = lowerRegionOps(cx, kernel.body, args);
  if (!isOp(term, "kernel.return")) throw new Error(`PTX lowering: the body of '@${kernel.symbol}' ends in ${term.name}`);
  cx.ins("ret");
  if (cx.diagnostics.length > 0) return { cx };

  const out: string[] = [];
  if (cx.usesShared || storage > 0) {
    let align = 16;
    for (const [op, a] of kernel.allocations) if (a.space === "workgroup") align = Math.max(align, Number(op.props.align ?? 1));
    out.push(`.shared .align ${align} .b8 ${cx.sharedName}[${Math.max(1, storage)}];`, "");
  }
  out.push(`.visible .entry ${kernel.exportName}(`);
  if (kernel.argBlockSize > 0) out.push(`\t.param .align 8 .b8 ${cx.paramName}[${kernel.argBlockSize}]`);
  out.push(")");
  const size = kernel.staticWorkgroupSize;
  out.push(size ? `.reqntid ${size[0]}, ${size[1]}, ${size[2]}` : `.maxntid ${limits.maxThreadsPerBlock}, 1, 1`);
  // Room for at least RESIDENT_THREADS threads per SM: ptxas caps the registers to fit that many
  // blocks (128 per thread), so an unrolled loop cannot cost the kernel its occupancy.
  const threads = size ? size[0] * size[1] * size[2] : 0;
  if (threads > 0 && threads < RESIDENT_THREADS) out.push(`.minnctapersm ${Math.ceil(RESIDENT_THREADS / threads)}`);
  out.push("{", ...cx.registerDeclarations(), ...cx.locals, "", ...cx.lines, "}", "");
  return { cx, text: out.join("\n") };
}

