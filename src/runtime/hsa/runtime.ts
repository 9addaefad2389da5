/**
 * The raw HSA handoff: agent and memory-pool discovery, an HSACO loaded from memory into an
 * executable, kernel objects and kernarg sizes, and AQL kernel dispatches on a queue with a
 * completion signal. It runs where ROCm (or Debian's libhsa-runtime64-1) and an AMD GPU with
 * the amdgpu kernel driver are installed (docs/runtime-hsa.md); elsewhere it fails with a
 * LoomError at open().
 */
import { describesExecutable, type ExecutableInterface, type KernelInterface } from "../../abi/index.js";
import { LoomError } from "../../core/errors.js";
import { dispatchPacket, PACKET_BYTES } from "./aql.js";
import { check, loadHsa, type HsaLibrary, type NativeArg } from "./ffi.js";
import { kernargSegment, packExplicitArguments, type ArgValue, type BufferArgument, type LaunchDims } from "./kernarg.js";
import { readHsacoMetadata, type HsacoKernelMetadata } from "./metadata.js";
import { profileFromAgent, type AmdgpuProfileData, type HsaAgentInfo } from "./profile.js";

// hsa.h / hsa_ext_amd.h enumerators used here.
const AGENT_INFO = { NAME: 0, VENDOR_NAME: 1, PROFILE: 4, WAVEFRONT_SIZE: 6, WORKGROUP_MAX_SIZE: 8, QUEUE_MAX_SIZE: 14, DEVICE: 17 } as const;
const ISA_INFO = { NAME_LENGTH: 0, NAME: 1 } as const;
const POOL_INFO = { SEGMENT: 0, GLOBAL_FLAGS: 1, SIZE: 2, RUNTIME_ALLOC_ALLOWED: 5 } as const;
const SEGMENT_GLOBAL = 0;
const FLAG_KERNARG_INIT = 1;
const FLAG_FINE_GRAINED = 2;
const SYMBOL_INFO = { KERNARG_SEGMENT_SIZE: 11, GROUP_SEGMENT_SIZE: 13, PRIVATE_SEGMENT_SIZE: 14, KERNEL_OBJECT: 22 } as const;
const QUEUE_TYPE_SINGLE = 1;
const SIGNAL_CONDITION_LT = 2;
const WAIT_STATE_BLOCKED = 0;
const U32_MAX = 0xffffffff;

export interface HsaMemoryPool {
  readonly handle: bigint;
  readonly agent: bigint;
  readonly segment: number;
  readonly globalFlags: number;
  readonly size: number;
  readonly allocatable: boolean;
}

const cString = (bytes: Uint8Array): string => new TextDecoder().decode(bytes.subarray(0, Math.max(0, bytes.indexOf(0) < 0 ? bytes.length : bytes.indexOf(0))));

/** A buffer in fine-grained system memory, visible to the GPU agent and the host. */
export class HsaBuffer implements BufferArgument {
  constructor(
    readonly address: bigint,
    readonly byteLength: number,
    readonly runtime: HsaRuntime,
  ) {}
}

export interface HsaKernel {
  readonly name: string;
  readonly kernelObject: bigint;
  readonly kernargSegmentSize: number;
  readonly groupSegmentSize: number;
  readonly privateSegmentSize: number;
  readonly metadata: HsacoKernelMetadata;
  readonly record: KernelInterface;
}

export class HsaExecutable {
  constructor(
    readonly handle: bigint,
    readonly reader: bigint,
    readonly kernels: readonly HsaKernel[],
    /** Kept alive while the reader may read it. */ readonly bytes: Uint8Array,
  ) {}
  /** The kernel named `name`; `LoomError("not-found")` listing the kernels the executable has. */
  kernel(name: string): HsaKernel {
    const k = this.kernels.find((x) => x.name === name);
    if (!k) throw new LoomError("not-found", `no kernel '${name}' in the executable (it has ${this.kernels.map((x) => x.name).join(", ")})`);
    return k;
  }
}

export interface HsaLaunchOptions {
  readonly dynamicLdsBytes?: number;
  /** Wait at most this long for completion (default 10 s). */
  readonly timeoutMs?: number;
}

export class HsaRuntime {
  private queue = 0n;
  private constructor(
    private readonly lib: HsaLibrary,
    readonly agents: readonly HsaAgentInfo[],
    readonly pools: readonly HsaMemoryPool[],
    readonly gpu: HsaAgentInfo,
  ) {}

  /**
   * Opens the HSA runtime and picks the first GPU agent (or the one whose ISA names `processor`).
   * LoomError when the library is missing, hsa_init fails, or there is no such GPU agent.
   */
  static open(options: { readonly processor?: string } = {}): HsaRuntime {
    const lib = loadHsa();
    const agents = discoverAgents(lib);
    const gpus = agents.filter((a) => a.deviceType === 1 && (!options.processor || a.isaName.endsWith(`--${options.processor}`) || a.isaName.includes(`--${options.processor}:`)));
    const [gpu] = gpus;
    if (gpu === undefined) {
      throw new LoomError("not-found", `the HSA runtime (${lib.file}) reports no GPU agent${options.processor ? ` for ${options.processor}` : ""} (agents: ${agents.map((a) => `${a.name} (${a.deviceType === 0 ? "CPU" : a.isaName || "?"})`).join(", ") || "none"})`);
    }
    const pools = agents.flatMap((a) => discoverPools(lib, a.handle));
    return new HsaRuntime(lib, agents, pools, gpu);
  }

  /** The GPU agent as AMDGPU profile options (plain data for createAmdgpuProfile). */
  profile(): AmdgpuProfileData {
    return profileFromAgent(this.gpu);
  }

  private systemPool(flag: number): HsaMemoryPool {
    const pool = this.pools.find((p) => p.segment === SEGMENT_GLOBAL && p.allocatable && (p.globalFlags & flag) !== 0 && this.agents.find((a) => a.handle === p.agent)?.deviceType === 0);
    if (!pool) throw new LoomError("not-found", `no allocatable fine-grained system memory pool${flag === FLAG_KERNARG_INIT ? " for kernel arguments" : ""}`);
    return pool;
  }

  private allocateIn(pool: HsaMemoryPool, bytes: number): bigint {
    const out = new BigUint64Array(1);
    check(this.lib, this.lib.hsa.hsa_amd_memory_pool_allocate!(pool.handle, Math.max(bytes, 16), 0, out) as number, "hsa_amd_memory_pool_allocate");
    const agents = new BigUint64Array([this.gpu.handle]);
    check(this.lib, this.lib.hsa.hsa_amd_agents_allow_access!(1, agents, null, out[0]!) as number, "hsa_amd_agents_allow_access");
    return out[0]!;
  }

  /**
   * A buffer of `byteLength` bytes in fine-grained system memory the GPU can reach; `invalid-
   * argument` for a negative or non-integer size.
   */
  allocate(byteLength: number): HsaBuffer {
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) throw new LoomError("invalid-argument", `buffer size must be a non-negative integer, got ${byteLength}`);
    return new HsaBuffer(this.allocateIn(this.systemPool(FLAG_FINE_GRAINED), byteLength), byteLength, this);
  }

  /** Returns a buffer's memory to its pool; the buffer must not be used afterwards. */
  free(buffer: HsaBuffer): void {
    check(this.lib, this.lib.hsa.hsa_amd_memory_pool_free!(buffer.address) as number, "hsa_amd_memory_pool_free");
  }

  /** Copies `data` into the buffer at `byteOffset` (bytes); `out-of-range` when it does not fit. */
  upload(buffer: HsaBuffer, data: ArrayBufferView, byteOffset = 0): void {
    if (byteOffset < 0 || byteOffset + data.byteLength > buffer.byteLength) throw new LoomError("out-of-range", `upload of ${data.byteLength} bytes at ${byteOffset} does not fit the ${buffer.byteLength}-byte buffer`);
    new Uint8Array(this.lib.koffi.view(buffer.address, buffer.byteLength)).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), byteOffset);
  }

  /** A copy of the buffer's whole contents. */
  download(buffer: HsaBuffer): Uint8Array {
    return new Uint8Array(this.lib.koffi.view(buffer.address, buffer.byteLength)).slice();
  }

  /** Loads an HSACO (with loom's kernel-interface record for it) into a frozen executable for the GPU agent. */
  loadExecutable(bytes: Uint8Array, record: ExecutableInterface): HsaExecutable {
    if (!describesExecutable(record, bytes)) throw new LoomError("invalid-argument", `the kernel-interface record '${record.identifier}' describes other bytes than this ${bytes.byteLength}-byte code object`);
    const metadata = readHsacoMetadata(bytes);
    const { hsa } = this.lib;
    const out = new BigUint64Array(1);
    check(this.lib, hsa.hsa_code_object_reader_create_from_memory!(bytes, bytes.byteLength, out) as number, "hsa_code_object_reader_create_from_memory");
    const reader = out[0]!;
    const profile = new Uint32Array(1);
    check(this.lib, hsa.hsa_agent_get_info!(this.gpu.handle, AGENT_INFO.PROFILE, profile) as number, "hsa_agent_get_info(PROFILE)");
    check(this.lib, hsa.hsa_executable_create_alt!(profile[0]!, 0, null, out) as number, "hsa_executable_create_alt");
    const executable = out[0]!;
    check(this.lib, hsa.hsa_executable_load_agent_code_object!(executable, this.gpu.handle, reader, null, out) as number, "hsa_executable_load_agent_code_object");
    check(this.lib, hsa.hsa_executable_freeze!(executable, null) as number, "hsa_executable_freeze");
    const kernels = record.kernels.map((k): HsaKernel => {
      const md = metadata.kernels.find((m) => m.name === k.entryName);
      if (!md) throw new LoomError("data-loss", `kernel '${k.entryName}' of the record is not in the code object's metadata`);
      const sym = new BigUint64Array(1);
      check(this.lib, hsa.hsa_executable_get_symbol_by_name!(executable, md.symbol, new BigUint64Array([this.gpu.handle]), sym) as number, `hsa_executable_get_symbol_by_name(${md.symbol})`);
      const u64 = new BigUint64Array(1);
      const u32 = new Uint32Array(1);
      const info32 = (attr: number, what: string): number => {
        check(this.lib, hsa.hsa_executable_symbol_get_info!(sym[0]!, attr, u32) as number, `hsa_executable_symbol_get_info(${what})`);
        return u32[0]!;
      };
      check(this.lib, hsa.hsa_executable_symbol_get_info!(sym[0]!, SYMBOL_INFO.KERNEL_OBJECT, u64) as number, "hsa_executable_symbol_get_info(KERNEL_OBJECT)");
      return {
        name: k.entryName,
        kernelObject: u64[0]!,
        kernargSegmentSize: info32(SYMBOL_INFO.KERNARG_SEGMENT_SIZE, "KERNARG_SEGMENT_SIZE"),
        groupSegmentSize: info32(SYMBOL_INFO.GROUP_SEGMENT_SIZE, "GROUP_SEGMENT_SIZE"),
        privateSegmentSize: info32(SYMBOL_INFO.PRIVATE_SEGMENT_SIZE, "PRIVATE_SEGMENT_SIZE"),
        metadata: md,
        record: k,
      };
    });
    return new HsaExecutable(executable, reader, kernels, bytes);
  }

  private ensureQueue(): bigint {
    if (this.queue !== 0n) return this.queue;
    const size = new Uint32Array(1);
    check(this.lib, this.lib.hsa.hsa_agent_get_info!(this.gpu.handle, AGENT_INFO.QUEUE_MAX_SIZE, size) as number, "hsa_agent_get_info(QUEUE_MAX_SIZE)");
    const out = new BigUint64Array(1);
    check(this.lib, this.lib.hsa.hsa_queue_create!(this.gpu.handle, Math.min(size[0]! || 256, 256), QUEUE_TYPE_SINGLE, null, null, U32_MAX, U32_MAX, out) as number, "hsa_queue_create");
    this.queue = out[0]!;
    return this.queue;
  }

  /** Dispatches `kernel` (a zero count dispatches nothing) and waits for its completion signal. */
  launch(kernel: HsaKernel, dims: LaunchDims, values: readonly ArgValue[], options: HsaLaunchOptions = {}): void {
    if (dims.workgroups.some((g) => g === 0)) return;
    const { hsa, koffi } = this.lib;
    const segment = kernargSegment(kernel.metadata, packExplicitArguments(kernel.record, values), dims);
    if (kernel.kernargSegmentSize > 0 && segment.length > kernel.kernargSegmentSize) {
      throw new LoomError("data-loss", `kernel '${kernel.name}': the packed kernarg segment (${segment.length} bytes) exceeds the loader's ${kernel.kernargSegmentSize}`);
    }
    const kernarg = this.allocateIn(this.systemPool(FLAG_KERNARG_INIT), segment.length);
    const signalOut = new BigUint64Array(1);
    try {
      new Uint8Array(koffi.view(kernarg, segment.length)).set(segment);
      check(this.lib, hsa.hsa_signal_create!(1, 0, null, signalOut) as number, "hsa_signal_create");
      const signal = signalOut[0]!;
      const queue = this.ensureQueue();
      // hsa_queue_t: base_address at 8, doorbell_signal at 16, size at 24.
      const q = new DataView(koffi.view(queue, 40));
      const base = q.getBigUint64(8, true);
      const doorbell = q.getBigUint64(16, true);
      const size = BigInt(q.getUint32(24, true));
      const index = hsa.hsa_queue_add_write_index_screlease!(queue, 1) as bigint;
      while (index - (hsa.hsa_queue_load_read_index_scacquire!(queue) as bigint) >= size) {
        // The queue is full: wait for the packet processor to consume a slot.
      }
      const { body, headerAndSetup } = dispatchPacket({
        workgroups: dims.workgroups,
        workgroupSize: dims.workgroupSize,
        privateSegmentBytes: kernel.privateSegmentSize,
        groupSegmentBytes: kernel.groupSegmentSize + (dims.dynamicLdsBytes ?? 0),
        kernelObject: kernel.kernelObject,
        kernargAddress: kernarg,
        completionSignal: signal,
      });
      const slot = base + (index % size) * BigInt(PACKET_BYTES);
      const packet = new Uint8Array(koffi.view(slot, PACKET_BYTES));
      packet.set(body.subarray(4), 4);
      // The header word goes last: it hands the slot to the packet processor (x86 stores are not reordered).
      new Uint32Array(packet.buffer, packet.byteOffset, 1)[0] = headerAndSetup;
      hsa.hsa_signal_store_screlease!(doorbell, index);
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      while ((hsa.hsa_signal_wait_scacquire!(signal, SIGNAL_CONDITION_LT, 1, 1_000_000n, WAIT_STATE_BLOCKED) as bigint) >= 1n) {
        if (Date.now() > deadline) throw new LoomError("cancelled", `kernel '${kernel.name}' did not complete within ${options.timeoutMs ?? 10_000} ms`);
      }
    } finally {
      if (signalOut[0]) hsa.hsa_signal_destroy!(signalOut[0]);
      hsa.hsa_amd_memory_pool_free!(kernarg);
    }
  }

  /** Destroys an executable and its code object reader; its kernels must not be launched afterwards. */
  destroyExecutable(executable: HsaExecutable): void {
    this.lib.hsa.hsa_executable_destroy!(executable.handle);
    this.lib.hsa.hsa_code_object_reader_destroy!(executable.reader);
  }

  /** Destroys the dispatch queue (when one was created). Buffers and executables are freed by their own calls. */
  dispose(): void {
    if (this.queue !== 0n) this.lib.hsa.hsa_queue_destroy!(this.queue);
    this.queue = 0n;
  }
}

function discoverAgents(lib: HsaLibrary): HsaAgentInfo[] {
  const handles: bigint[] = [];
  const visit = (agent: bigint) => {
    handles.push(BigInt(agent));
    return 0;
  };
  check(lib, lib.hsa.hsa_iterate_agents!(visit as unknown as NativeArg, null) as number, "hsa_iterate_agents");
  return handles.map((handle) => {
    const text = (attr: number) => {
      const b = new Uint8Array(64);
      check(lib, lib.hsa.hsa_agent_get_info!(handle, attr, b) as number, `hsa_agent_get_info(${attr})`);
      return cString(b);
    };
    const u32 = (attr: number) => {
      const v = new Uint32Array(1);
      check(lib, lib.hsa.hsa_agent_get_info!(handle, attr, v) as number, `hsa_agent_get_info(${attr})`);
      return v[0]!;
    };
    const deviceType = u32(AGENT_INFO.DEVICE);
    let isaName = "";
    if (deviceType === 1) {
      const isas: bigint[] = [];
      lib.hsa.hsa_agent_iterate_isas!(handle, ((isa: bigint) => (isas.push(BigInt(isa)), 0)) as unknown as NativeArg, null);
      if (isas[0] !== undefined) {
        const len = new Uint32Array(1);
        check(lib, lib.hsa.hsa_isa_get_info_alt!(isas[0], ISA_INFO.NAME_LENGTH, len) as number, "hsa_isa_get_info_alt(NAME_LENGTH)");
        const name = new Uint8Array(len[0]! + 1);
        check(lib, lib.hsa.hsa_isa_get_info_alt!(isas[0], ISA_INFO.NAME, name) as number, "hsa_isa_get_info_alt(NAME)");
        isaName = cString(name);
      }
    }
    return {
      handle,
      name: text(AGENT_INFO.NAME),
      vendor: text(AGENT_INFO.VENDOR_NAME),
      deviceType,
      isaName,
      wavefrontSize: deviceType === 1 ? u32(AGENT_INFO.WAVEFRONT_SIZE) : 0,
      workgroupMaxSize: deviceType === 1 ? u32(AGENT_INFO.WORKGROUP_MAX_SIZE) : 0,
    };
  });
}

function discoverPools(lib: HsaLibrary, agent: bigint): HsaMemoryPool[] {
  const handles: bigint[] = [];
  check(lib, lib.hsa.hsa_amd_agent_iterate_memory_pools!(agent, ((pool: bigint) => (handles.push(BigInt(pool)), 0)) as unknown as NativeArg, null) as number, "hsa_amd_agent_iterate_memory_pools");
  return handles.map((handle) => {
    const u32 = new Uint32Array(1);
    const u64 = new BigUint64Array(1);
    const flag = new Uint8Array(1);
    check(lib, lib.hsa.hsa_amd_memory_pool_get_info!(handle, POOL_INFO.SEGMENT, u32) as number, "hsa_amd_memory_pool_get_info(SEGMENT)");
    const segment = u32[0]!;
    u32[0] = 0;
    if (segment === SEGMENT_GLOBAL) check(lib, lib.hsa.hsa_amd_memory_pool_get_info!(handle, POOL_INFO.GLOBAL_FLAGS, u32) as number, "hsa_amd_memory_pool_get_info(GLOBAL_FLAGS)");
    check(lib, lib.hsa.hsa_amd_memory_pool_get_info!(handle, POOL_INFO.SIZE, u64) as number, "hsa_amd_memory_pool_get_info(SIZE)");
    check(lib, lib.hsa.hsa_amd_memory_pool_get_info!(handle, POOL_INFO.RUNTIME_ALLOC_ALLOWED, flag) as number, "hsa_amd_memory_pool_get_info(RUNTIME_ALLOC_ALLOWED)");
    return { handle, agent, segment, globalFlags: u32[0], size: Number(u64[0]!), allocatable: flag[0] !== 0 };
  });
}
