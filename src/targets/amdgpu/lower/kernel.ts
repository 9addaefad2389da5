/**
 * Lowering one prepared kernel to AMDGPU machine code (docs/amdgpu.md "Code generation"):
 *
 *   1. select: the body's ops through the lowering table (rules.ts) into a machine program
 *      over virtual registers; kernel arguments are `s_load`s from the kernarg segment
 *   2. allocate: linear scan (machine/regalloc.ts); a kernel that does not fit is TARGET/001
 *   3. wait: `s_waitcnt` insertion (machine/waitcnt.ts)
 *   4. lay out: branch fixups, words and the listing (machine/layout.ts)
 */
import type { Op, Region } from "../../../ir/core.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import { regionLowering } from "../../../dialects/lowering.js";
import { isOp } from "../../../dialects/registry.js";
import { walkRegion } from "../../../ir/walk.js";
import { sgprLayout, type KernelResources } from "../descriptor.js";
import type { Instruction } from "../isa/encoder.js";
import type { Operand } from "../isa/operands.js";
import { MAX_SGPR } from "../isa/operands.js";
import { layout, type LaidOut } from "../machine/layout.js";
import type { MOperand, VReg } from "../machine/program.js";
import { part } from "../machine/program.js";
import { allocateRegisters } from "../machine/regalloc.js";
import { removeDeadInstructions } from "../machine/dce.js";
import { removeExecRestoresBeforeEnd } from "../machine/peephole.js";
import { coalesceCopies } from "./copies.js";
import { insertWaits, type PItem } from "../machine/waitcnt.js";
import { insertHazardNops } from "../machine/hazards.js";
import type { AmdgpuTargetInfo } from "../profile.js";
import type { WavefrontSize } from "../profiles.js";
import { carrierOf, KernelLowering, type Lowered } from "./context.js";
import { isHalf } from "./half.js";
import { isNarrowInt, narrowArgument } from "./narrow.js";
import { AMDGPU_RULES } from "./rules.js";
import { bodyVarying } from "./uniformity.js";
import { GROUP_SIZE_READERS, hiddenLayout, type HiddenArgument } from "./hidden.js";
import { privateLayout } from "./scratch.js";

const lowerRegionOps = regionLowering<KernelLowering, Lowered>("AMDGPU", AMDGPU_RULES, { kind: "invalid" });

/** A nested region lowers in a register scope of its own, unless its parent asked to share one. */
function lowerScopedRegion(cx: KernelLowering, region: Region, args: readonly Lowered[]): Op {
  const shared = cx.shareNextScope;
  cx.shareNextScope = false;
  if (!shared) cx.pushScope();
  try {
    return lowerRegionOps(cx, region, args);
  } finally {
    if (!shared) cx.popScope();
  }
}

export type { HiddenArgument } from "./hidden.js";

export interface MachineKernel {
  readonly program: readonly Instruction[];
  /** The machine words of `program`, branches fixed up. */
  readonly words: readonly number[];
  /** `words` as little-endian bytes (made on first read). */
  readonly code: Uint8Array;
  readonly listing: string;
  readonly resources: KernelResources;
  /** Kernarg segment bytes: the explicit block, then the hidden arguments read. */
  readonly kernargSize: number;
  readonly hiddenArguments: readonly HiddenArgument[];
}

export interface LoweredKernel {
  readonly cx: KernelLowering;
  readonly machine?: MachineKernel;
}

const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;

/** Which hardware inputs the body reads (they decide the SGPR layout before selection). */
function scanInputs(body: Region, dynamicSize: boolean): { workgroupIds: boolean[]; blockCount: boolean; groupSize: boolean } {
  const workgroupIds = [true, false, false];
  let blockCount = false;
  let groupSize = false;
  walkRegion(body, (op) => {
    if (isOp(op, "kernel.workgroup.id") || isOp(op, "kernel.workitem.dispatch.id")) {
      const d = { x: 0, y: 1, z: 2 }[String(op.props.dim)] ?? 0;
      workgroupIds[d] = true;
    }
    if (isOp(op, "kernel.workgroup.count")) blockCount = true;
    if (dynamicSize && GROUP_SIZE_READERS.has(op.name)) groupSize = true;
  });
  return { workgroupIds, blockCount, groupSize };
}

/** Loads every used argument from the kernarg segment (buffers: their 64-bit address). */
function bindArguments(cx: KernelLowering): Lowered[] {
  const k = cx.kernel;
  return k.args.map((slot): Lowered => {
    if (!k.uses.has(slot.value) || slot.type.kind !== "prim") return { kind: "invalid" };
    const ptr = part(cx.kernargPointer());
    if (slot.type.name === "buffer") {
      const d = cx.vreg("s", 2);
      cx.emit("s_load_b64", [part(d), ptr], { offset: slot.offset });
      return { kind: "buffer", space: "global", addr: cx.sval("i64", d) };
    }
    const t = carrierOf(slot.type.name);
    if (!t) {
      cx.unsupported(slot.value, `an argument of type '${slot.type.name}'`);
      return { kind: "invalid" };
    }
    if (isHalf(t) || isNarrowInt(t)) return narrowArgument(cx, ptr, slot.offset, t);
    const wide = t === "i64" || t === "f64";
    const d = cx.vreg("s", wide ? 2 : 1);
    cx.emit(wide ? "s_load_b64" : "s_load_b32", [part(d), ptr], { offset: slot.offset });
    return cx.sval(t, d, t === "i1" ? { max: 1n } : {});
  });
}

/** Physical register operands are immutable values: one object per (class, index, size) per process. */
const registerOperands: Operand[] = [];
const MAX_SHARED_SIZE = 16;

function registerOperand(cls: "s" | "v", i: number, n: number): Operand {
  if (n > MAX_SHARED_SIZE || i >= 512) return { k: cls, i, n };
  const key = ((cls === "v" ? 512 : 0) + i) * (MAX_SHARED_SIZE + 1) + n;
  const known = registerOperands[key];
  if (known) return known;
  const o: Operand = { k: cls, i, n };
  registerOperands[key] = o;
  return o;
}

function physical(o: MOperand, assigned: Int32Array): Operand {
  if (o.k !== "vreg") return o;
  const base = assigned[o.r.id] ?? -1;
  if (base < 0) throw new Error("AMDGPU lowering: a virtual register was not allocated");
  return registerOperand(o.r.cls, base + o.sub, o.n);
}

/** `map` with this module-level function and `assigned` as `this`: an array of exactly the operands' length, no closure per instruction. */
function physicalOf(this: Int32Array, o: MOperand): Operand {
  return physical(o, this);
}

/** Register copies (none of them writes SCC or reads EXEC beyond the lane mask). */
const COPIES = new Set(["v_mov_b32", "s_mov_b32", "s_mov_b64"]);

function sameRegister(a: Operand | undefined, b: Operand | undefined): boolean {
  if (a === undefined || b === undefined || (a.k !== "s" && a.k !== "v") || (b.k !== "s" && b.k !== "v")) return false;
  return a.k === b.k && a.i === b.i && a.n === b.n;
}

export function lowerKernel(kernel: PreparedKernel, info: AmdgpuTargetInfo, wave: WavefrontSize, analyses: import("../../../core/prepared.js").ModuleAnalyses | undefined): LoweredKernel {
  const family = info.processor.family;
  const inputs = scanInputs(kernel.body, kernel.staticWorkgroupSize === undefined);
  const hiddenOffset = alignUp(kernel.argBlockSize, 8);
  const hidden = hiddenLayout(hiddenOffset, kernel.argBlockSize, inputs.blockCount, inputs.groupSize);
  const kernargSize = hidden.kernargSize;
  const layoutInfo = sgprLayout(info, wave, kernargSize, inputs.workgroupIds[1]!, inputs.workgroupIds[2]!);
  const cx = new KernelLowering(kernel, info, wave, layoutInfo.kernargSgpr, layoutInfo.workgroupIdSgprs, hiddenOffset, lowerScopedRegion);
  if (family !== "gfx9" && family !== "gfx11") {
    const first = kernel.body.ops.find((op) => !isOp(op, "kernel.return"));
    if (first) {
      cx.unsupported(first, `'${first.name}'`, `AMDGPU instruction selection targets gfx9 (CDNA) and gfx11 (RDNA3) so far; ${family} kernels may only return`);
      return { cx };
    }
  }
  cx.setVarying(bodyVarying(kernel.body, analyses));
  const args = bindArguments(cx);
  const term = lowerRegionOps(cx, kernel.body, args);
  if (!isOp(term, "kernel.return")) throw new Error(`AMDGPU lowering: the body of '@${kernel.symbol}' ends in ${term.name}`);
  cx.emit("s_endpgm", []);
  if (cx.diagnostics.length > 0) return { cx };

  const sgprLimit = Math.min(family === "gfx9" ? 102 : MAX_SGPR + 1, info.processor.addressableSgprs);
  removeDeadInstructions(cx.program.items);
  coalesceCopies(cx.program.items);
  removeExecRestoresBeforeEnd(cx.program.items);
  const allocation = allocateRegisters(cx.program, { sgprs: sgprLimit, vgprs: 256, alignVgprTuples: family === "gfx9" });
  if (!allocation.ok) {
    const what = allocation.cls === "v" ? "VGPRs" : "SGPRs";
    // At the op whose value found no register: where the live values first exceed the file.
    const at = cx.vregOps[allocation.r.id] ?? kernel.op;
    cx.unsupported(at, `a kernel needing more than ${allocation.limit} ${what}`, "the values live here exceed the register file and spilling to scratch is not implemented; split the kernel or keep fewer values live");
    return { cx };
  }
  const assigned = allocation.physicalById;
  const items: PItem[] = [];
  for (const item of cx.program.items) {
    if (item.kind !== "inst") {
      // Branch bounds matter only to the allocator.
      if (item.kind !== "branch") items.push(item);
      continue;
    }
    const m = item.inst;
    // Built field by field (object rest/spread is a slow generic copy in V8); absent fields stay absent.
    const operands = m.operands.map(physicalOf, assigned);
    // A copy the allocator gave one register at both ends does nothing.
    if (COPIES.has(m.mnemonic) && sameRegister(operands[0], operands[1])) continue;
    const inst: { -readonly [K in keyof Instruction]: Instruction[K] } = { mnemonic: m.mnemonic, operands, def: m.def };
    if (m.simm !== undefined) inst.simm = m.simm;
    if (m.offset !== undefined) inst.offset = m.offset;
    if (m.glc !== undefined) inst.glc = m.glc;
    if (m.sc1 !== undefined) inst.sc1 = m.sc1;
    items.push(m.target ? { kind: "inst", inst, target: m.target } : { kind: "inst", inst });
  }
  // gfx940/gfx942/gfx950 lack interlocks for VALU-written SGPRs read by VALU (LLVM hasVDecCoExecHazard).
  const vdecCoExec = /^gfx94|^gfx950/.test(info.processor.name);
  const waited = insertHazardNops(insertWaits(items, family), vdecCoExec, wave === 64);
  const syntax = { glc: info.processor.name.startsWith("gfx94") || info.processor.name === "gfx950" ? ("sc0" as const) : ("glc" as const) };
  const laid = layout(waited, family, syntax);
  const resources: KernelResources = {
    vgprs: allocation.vgprsUsed,
    agprs: 0,
    // As LLVM reports it: the SGPRs the code names (the hardware-initialized ones need no allocation).
    sgprs: allocation.sgprsUsed,
    usesVcc: cx.usesVcc,
    usesFlatScratch: false,
    workgroupIdY: inputs.workgroupIds[1]!,
    workgroupIdZ: inputs.workgroupIds[2]!,
    workitemIdDims: cx.workitemDims,
    privateSegmentFixedSize: privateLayout(kernel).bytes,
    usesDynamicStack: false,
  };
  return { cx, machine: new LoweredMachine(laid, resources, kernargSize, hidden.args) };
}

/** A class, not an object literal with getters (those are built slowly); the bytes and the listing stay lazy (the code object takes the words; the listing is for `--emit asm` and the tests). */
class LoweredMachine implements MachineKernel {
  constructor(
    private readonly laid: LaidOut,
    readonly resources: KernelResources,
    readonly kernargSize: number,
    readonly hiddenArguments: readonly HiddenArgument[],
  ) {}
  get program(): readonly Instruction[] {
    return this.laid.program;
  }
  get words(): readonly number[] {
    return this.laid.words;
  }
  get code(): Uint8Array {
    return this.laid.code;
  }
  get listing(): string {
    return this.laid.listing;
  }
}
