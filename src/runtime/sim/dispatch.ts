/**
 * One dispatch: the kernarg segment (explicit block plus the code object v5 hidden arguments
 * the metadata lists), an AQL dispatch packet for kernels that ask for the dispatch pointer,
 * each wave's initial registers per the kernel descriptor (AMDGPUUsage "Initial Kernel
 * Execution State"), and the workgroups in order, their waves interleaved at s_barrier.
 * Execution is bounded by an instruction budget.
 */
import { LoomError } from "../../core/errors.js";
import type { CodeObject, SimKernel } from "./code-object.js";
import type { FlatMemory, MemoryRegion } from "./memory.js";
import type { KernelProgram } from "./program.js";
import { EXEC_LO, M0, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI, Wave, type WorkgroupState } from "./wave.js";

/** The geometry of one simulated dispatch. */
export interface DispatchShape {
  /** Workgroups per dimension. */
  readonly workgroups: readonly [number, number, number];
  /** Work-items per workgroup per dimension. */
  readonly workgroupSize: readonly [number, number, number];
  /** LDS bytes beyond the kernel's static group segment (hidden_dynamic_lds_size). */
  readonly dynamicLdsBytes?: number;
}

/** What one simulated dispatch executed, and how long the simulation took. */
export interface DispatchStats {
  /** Wave instructions executed (one per wave per instruction, whatever EXEC holds). */
  readonly instructions: number;
  readonly waves: number;
  readonly workgroups: number;
  /** Wall time of the execution loop in milliseconds. */
  readonly milliseconds: number;
}

/** Default instruction budget of one dispatch. */
export const DEFAULT_INSTRUCTION_BUDGET = 200_000_000;
const MAX_LDS_BYTES = 65536;

function checkShape(kernel: SimKernel, shape: DispatchShape): void {
  const dims = (v: unknown): v is readonly [number, number, number] => Array.isArray(v) && v.length === 3 && v.every((x) => Number.isSafeInteger(x) && x >= 0);
  if (!dims(shape.workgroups)) throw new LoomError("invalid-argument", `kernel '${kernel.name}': workgroups must be three non-negative integers, got ${JSON.stringify(shape.workgroups)}`);
  if (!dims(shape.workgroupSize) || shape.workgroupSize.some((x) => x < 1)) throw new LoomError("invalid-argument", `kernel '${kernel.name}': workgroupSize must be three positive integers, got ${JSON.stringify(shape.workgroupSize)}`);
  const flat = shape.workgroupSize[0] * shape.workgroupSize[1] * shape.workgroupSize[2];
  if (flat > kernel.maxFlatWorkgroupSize) throw new LoomError("out-of-range", `kernel '${kernel.name}': workgroup of ${flat} work-items exceeds its .max_flat_workgroup_size ${kernel.maxFlatWorkgroupSize}`);
  const req = kernel.requiredWorkgroupSize;
  if (req && req.some((r, i) => r !== shape.workgroupSize[i])) {
    throw new LoomError("invalid-argument", `kernel '${kernel.name}' requires workgroup size ${req.join("×")} (.reqd_workgroup_size), got ${shape.workgroupSize.join("×")}`);
  }
  if (shape.workgroupSize.some((x) => x > 1024)) throw new LoomError("out-of-range", `kernel '${kernel.name}': workgroup size ${shape.workgroupSize.join("×")} exceeds 1024 in a dimension`);
  if (shape.workgroups.some((x) => x > 0xffffffff)) throw new LoomError("out-of-range", `kernel '${kernel.name}': more than 2^32-1 workgroups in a dimension`);
}

/** Writes the hidden arguments the metadata lists into the kernarg bytes. */
function fillHiddenArguments(kernel: SimKernel, view: DataView, shape: DispatchShape, queueAddress: number): void {
  const [gx, gy, gz] = shape.workgroups;
  const [sx, sy, sz] = shape.workgroupSize;
  const dims = gz > 1 || sz > 1 ? 3 : gy > 1 || sy > 1 ? 2 : 1;
  for (const a of kernel.args) {
    if (!a.valueKind.startsWith("hidden_")) continue;
    const put = (v: number) => {
      if (a.offset + a.size > view.byteLength) throw new LoomError("data-loss", `kernel '${kernel.name}': hidden argument ${a.valueKind} at ${a.offset} lies outside the ${view.byteLength}-byte kernarg segment`);
      if (a.size === 2) view.setUint16(a.offset, v, true);
      else if (a.size === 4) view.setUint32(a.offset, v, true);
      else if (a.size === 8) view.setBigUint64(a.offset, BigInt(v), true);
    };
    switch (a.valueKind) {
      case "hidden_block_count_x": put(gx); break;
      case "hidden_block_count_y": put(gy); break;
      case "hidden_block_count_z": put(gz); break;
      case "hidden_group_size_x": put(sx); break;
      case "hidden_group_size_y": put(sy); break;
      case "hidden_group_size_z": put(sz); break;
      // The grid is whole workgroups, so no partial last workgroup.
      case "hidden_remainder_x":
      case "hidden_remainder_y":
      case "hidden_remainder_z": put(0); break;
      case "hidden_global_offset_x":
      case "hidden_global_offset_y":
      case "hidden_global_offset_z": put(0); break;
      case "hidden_grid_dims": put(dims); break;
      case "hidden_dynamic_lds_size": put(shape.dynamicLdsBytes ?? 0); break;
      case "hidden_shared_base": put(SHARED_APERTURE_HI); break;
      case "hidden_private_base": put(PRIVATE_APERTURE_HI); break;
      case "hidden_queue_ptr": put(queueAddress); break;
      default:
        // hidden_printf_buffer, hidden_hostcall_buffer, hidden_heap_v1, hidden_multigrid_sync_arg,
        // hidden_default_queue, hidden_completion_action, hidden_none: null / zero here.
        put(0);
    }
  }
}

export class Dispatcher {
  constructor(
    readonly code: CodeObject,
    readonly program: KernelProgram,
    readonly memory: FlatMemory,
  ) {}

  /** Runs one dispatch with `explicitArgs` as the start of the kernarg segment. */
  run(explicitArgs: Uint8Array, shape: DispatchShape, budget = DEFAULT_INSTRUCTION_BUDGET): DispatchStats {
    const kernel = this.program.kernel;
    checkShape(kernel, shape);
    const ldsBytes = kernel.groupSegmentFixedSize + (shape.dynamicLdsBytes ?? 0);
    if (ldsBytes > MAX_LDS_BYTES) throw new LoomError("out-of-range", `kernel '${kernel.name}' needs ${ldsBytes} bytes of LDS; a workgroup has at most ${MAX_LDS_BYTES}`);
    if (kernel.privateSegmentFixedSize > 0) {
      // Scratch through the scratch_* instructions needs the wave's scratch base set by hardware.
      if (!this.code.architectedFlatScratch) throw new LoomError("unimplemented", `kernel '${kernel.name}' uses ${kernel.privateSegmentFixedSize} bytes of scratch per work-item; the simulator models scratch only where flat scratch is architected (gfx94x, gfx11), not on ${this.code.processor}`);
      if ((kernel.descriptor.rsrc2 & 1) === 0) throw new LoomError("data-loss", `kernel '${kernel.name}': its descriptor has a ${kernel.privateSegmentFixedSize}-byte private segment but COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT is clear`);
    }
    const segmentSize = Math.max(kernel.kernargSegmentSize, explicitArgs.length);
    // Padding past the segment: the hardware lets s_load_b256/b512 read past the last argument.
    const regions: MemoryRegion[] = [];
    const kernarg = this.memory.allocate(segmentSize + 256, `${kernel.name} kernarg segment`, 64);
    regions.push(kernarg);
    const queue = this.memory.allocate(256, `${kernel.name} queue`, 64);
    regions.push(queue);
    const packet = this.memory.allocate(64, `${kernel.name} dispatch packet`, 64);
    regions.push(packet);
    try {
      kernarg.bytes.set(explicitArgs, 0);
      fillHiddenArguments(kernel, new DataView(kernarg.bytes.buffer, 0, segmentSize), shape, queue.address);
      this.writePacket(packet, kernarg.address, shape);
      return this.execute(shape, kernarg.address, packet.address, queue.address, ldsBytes, budget);
    } finally {
      for (const r of regions) this.memory.free(r);
    }
  }

  /** The AQL kernel dispatch packet (hsa_kernel_dispatch_packet_t) the dispatch pointer points at. */
  private writePacket(packet: MemoryRegion, kernargAddress: number, shape: DispatchShape): void {
    const v = packet.view;
    const k = this.program.kernel;
    const dims = shape.workgroupSize[2] > 1 || shape.workgroups[2] > 1 ? 3 : shape.workgroupSize[1] > 1 || shape.workgroups[1] > 1 ? 2 : 1;
    v.setUint16(0, 2 /* HSA_PACKET_TYPE_KERNEL_DISPATCH */, true);
    v.setUint16(2, dims, true);
    for (let i = 0; i < 3; i++) {
      v.setUint16(4 + 2 * i, shape.workgroupSize[i]!, true);
      v.setUint32(12 + 4 * i, shape.workgroupSize[i]! * shape.workgroups[i]!, true);
    }
    v.setUint32(24, k.privateSegmentFixedSize, true);
    v.setUint32(28, k.groupSegmentFixedSize + (shape.dynamicLdsBytes ?? 0), true);
    v.setBigUint64(40, BigInt(kernargAddress), true);
  }

  private execute(shape: DispatchShape, kernargAddress: number, packetAddress: number, queueAddress: number, ldsBytes: number, budget: number): DispatchStats {
    const kernel = this.program.kernel;
    const width = kernel.wavefrontSize;
    const [gx, gy, gz] = shape.workgroups;
    const [sx, sy, sz] = shape.workgroupSize;
    const flat = sx * sy * sz;
    const wavesPerGroup = Math.ceil(flat / width);
    const d = kernel.descriptor;
    const userSgprs = (d.rsrc2 >>> 1) & 0x1f;
    const workitemIdDims = (d.rsrc2 >>> 11) & 3;
    const cp = d.codeProperties;
    const start = Date.now();
    let instructions = 0;
    let waves = 0;
    const program = this.program;
    const vgprs = Math.max(kernel.vgprCount, 1);
    for (let z = 0; z < gz; z++) {
      for (let y = 0; y < gy; y++) {
        for (let x = 0; x < gx; x++) {
          const lds = new Uint8Array(Math.max(ldsBytes, 4));
          const group: WorkgroupState = { lds: lds.subarray(0, ldsBytes), ldsView: new DataView(lds.buffer, 0, ldsBytes), id: [x, y, z] };
          const list: Wave[] = [];
          for (let i = 0; i < wavesPerGroup; i++) {
            const w = new Wave(i, width, vgprs, this.code.family, group, this.memory, kernel.name);
            if (kernel.privateSegmentFixedSize > 0 && (d.rsrc2 & 1) !== 0) {
              w.scratchBytes = kernel.privateSegmentFixedSize;
              w.scratch = new DataView(new ArrayBuffer(width * w.scratchBytes));
            }
            this.initialState(w, i, [x, y, z], shape, userSgprs, workitemIdDims, cp, kernargAddress, packetAddress, queueAddress);
            list.push(w);
          }
          waves += list.length;
          for (;;) {
            for (const w of list) {
              while (w.state === "running") {
                const c = program.at(w.pc);
                if (w.outstanding.length !== 0) w.checkPending(c.sregs, c.vregs, c.inst.address, c.inst.name);
                w.pc = c.inst.address + c.inst.size;
                c.exec(w);
                if (++instructions > budget) {
                  throw new LoomError("resource-exhausted", `kernel '${kernel.name}' ran past the simulator's budget of ${budget} wave instructions (${w.where(c.inst.address)}); an endless loop, or raise the budget`);
                }
              }
            }
            // Every wave is at a barrier or done: release the barrier (waves that ended count as arrived).
            let waiting = 0;
            for (const w of list) if (w.state === "barrier") waiting++;
            if (waiting === 0) break;
            for (const w of list) if (w.state === "barrier") w.state = "running";
          }
        }
      }
    }
    return { instructions, waves, workgroups: gx * gy * gz, milliseconds: Date.now() - start };
  }

  private initialState(
    w: Wave,
    waveIndex: number,
    groupId: readonly [number, number, number],
    shape: DispatchShape,
    userSgprs: number,
    workitemIdDims: number,
    cp: number,
    kernargAddress: number,
    packetAddress: number,
    queueAddress: number,
  ): void {
    const kernel = this.program.kernel;
    const d = kernel.descriptor;
    const s = w.s;
    let n = 0;
    const put64 = (v: number) => {
      s[n++] = v >>> 0;
      s[n++] = Math.floor(v / 4294967296) >>> 0;
    };
    if (cp & 1) n += 4; // private segment buffer V#: no scratch, left zero
    if (cp & 2) put64(packetAddress);
    if (cp & 4) put64(queueAddress);
    if (cp & 8) put64(kernargAddress);
    if (cp & 16) put64(0); // dispatch id
    if (cp & 32) n += 2; // flat scratch init
    if (cp & 64) s[n++] = 0; // private segment size
    const preload = d.kernargPreload & 0x7f;
    if (preload > 0) {
      const from = (d.kernargPreload >>> 7) * 4;
      const { region, offset } = this.memory.resolve(kernargAddress + from, preload * 4, () => `kernarg preload of kernel '${kernel.name}'`);
      for (let i = 0; i < preload; i++) s[n++] = region.view.getUint32(offset + i * 4, true);
    }
    if (n > userSgprs) throw new LoomError("data-loss", `kernel '${kernel.name}': its descriptor enables ${n} user SGPRs but USER_SGPR_COUNT is ${userSgprs}`);
    n = userSgprs;
    if (d.rsrc2 & (1 << 7)) s[n++] = groupId[0];
    if (d.rsrc2 & (1 << 8)) s[n++] = groupId[1];
    if (d.rsrc2 & (1 << 9)) s[n++] = groupId[2];
    if (d.rsrc2 & (1 << 10)) s[n++] = 0; // workgroup info
    if (d.rsrc2 & 1) s[n++] = 0; // private segment wave offset
    s[M0] = 0;

    const [sx, sy] = shape.workgroupSize;
    const W = w.width;
    let lo = 0;
    let hi = 0;
    const flat = shape.workgroupSize[0] * shape.workgroupSize[1] * shape.workgroupSize[2];
    for (let lane = 0; lane < W; lane++) {
      const id = waveIndex * W + lane;
      if (id >= flat) continue;
      if (lane < 32) lo |= 1 << lane;
      else hi |= 1 << (lane - 32);
      const x = id % sx;
      const y = Math.floor(id / sx) % sy;
      const z = Math.floor(id / (sx * sy));
      if (this.code.packedWorkitemIds) w.vu[lane] = x | (workitemIdDims >= 1 ? y << 10 : 0) | (workitemIdDims >= 2 ? z << 20 : 0);
      else {
        w.vu[lane] = x;
        if (workitemIdDims >= 1 && w.vgprs > 1) w.vu[W + lane] = y;
        if (workitemIdDims >= 2 && w.vgprs > 2) w.vu[2 * W + lane] = z;
      }
    }
    s[EXEC_LO] = lo >>> 0;
    s[EXEC_LO + 1] = hi >>> 0;
    w.pc = kernel.entryAddress;
  }
}
