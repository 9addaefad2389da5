/**
 * The SPIR-V `TargetEnvironment`. Each kernel is lowered once: at compile time (`check`),
 * all SPIR-V kernels of the prepared module go into one SPIR-V module (one entry point per
 * kernel), whose TARGET diagnostics fail `compileModule` and which is kept sealed; `emit`
 * writes its bytes (prepared kernels are immutable). A prepared module `check` never
 * saw (built by hand) is lowered by `emit` itself, the same way.
 */
import { LoomError } from "../../core/errors.js";
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import { makeDiagnostic, type Diagnostic } from "../../core/diag/diagnostic.js";
import { D } from "../../core/diag/catalog.js";
import { LoweredFormKey, type PreparedKernel, type PreparedModule } from "../../core/prepared.js";
import type { EmitOutput, EmitRequest, TargetEnvironment } from "../../core/target.js";
import type { TargetKernelInterface } from "../../abi/index.js";
import { SharedGlobals } from "./lower/context.js";
import { lowerKernel } from "./lower/kernel.js";
import type { KernelLowering } from "./lower/context.js";
import { spirvKernelInterfaces } from "./interface.js";
import { SpirvModule, writeModule, type SealedModule } from "./module.js";
import { SPIRV_TARGET_RECORD } from "./record.js";
import { registerSpirvEnvironment, spirvInfoOf, SPIRV_ENVIRONMENT_NAME, type SpirvTargetInfo } from "./profile.js";
import { AddressingModel, ExecutionMode, ExecutionModel, MemoryModel } from "./spec.js";

function spirvKernels(module: PreparedModule): PreparedKernel[] {
  return module.kernels.filter((k) => k.profile.environment === SPIRV_ENVIRONMENT_NAME);
}

function newModule(info: SpirvTargetInfo, lineInfo = false): SpirvModule {
  const physical = info.abi === "device-address";
  const m = new SpirvModule(physical ? AddressingModel.PhysicalStorageBuffer64 : AddressingModel.Logical, MemoryModel.GLSL450);
  m.lineInfo = lineInfo;
  if (physical) m.require("PhysicalStorageBufferAddresses");
  return m;
}

/** Runs `fn`, turning an internal lowering error into a BACKEND diagnostic at the kernel. */
function guarded(k: PreparedKernel, fn: () => Diagnostic[]): Diagnostic[] {
  try {
    return fn();
  } catch (e) {
    if (e instanceof LoomError) throw e;
    return [makeDiagnostic(D.backendInternal, k.op.span, [`SPIR-V backend internal error in '@${k.symbol}': ${(e as Error)?.message ?? e}`])];
  }
}

/** The SPIR-V module lowered at compile time, for the emit of exactly those kernels. */
interface LoweredModule {
  readonly kernels: readonly PreparedKernel[];
  /** Sealed at compile time (so a SPIR-V limit is a compile diagnostic); each emit writes its own bytes. */
  readonly module: SealedModule;
  /** What each kernel's interface record needs from the lowering (docs/abi.md). */
  readonly interfaces: readonly TargetKernelInterface[];
}
/** What `check` lowered (the whole SPIR-V module), kept on the prepared module for `emit` (core/prepared.ts). */
const LOWERED = new LoweredFormKey<LoweredModule>(SPIRV_ENVIRONMENT_NAME);

function sameKernels(a: readonly PreparedKernel[], b: readonly PreparedKernel[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** SPIR-V words are little-endian in a file: on such a host the word array is the bytes. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function serialize(m: SealedModule): Uint8Array {
  const words = writeModule(m);
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i]!, true);
  return bytes;
}

/**
 * Lowers every SPIR-V kernel of `module` once, into one module (one entry point per
 * kernel), returning the TARGET diagnostics and, when there are none, the module's bytes.
 * Kernels whose profiles differ in ABI cannot share a module: each is then lowered into
 * its own, for its diagnostics only (emit refuses the mix).
 */
function lowerSpirvKernels(kernels: readonly PreparedKernel[], lineInfo = false): { diagnostics: Diagnostic[]; sealed?: SealedModule; interfaces?: TargetKernelInterface[] } {
  const diagnostics: Diagnostic[] = [];
  const lowerable: [PreparedKernel, SpirvTargetInfo][] = [];
  for (const k of kernels) {
    const info = spirvInfoOf(k.profile);
    if (info) lowerable.push([k, info]);
    else diagnostics.push(makeDiagnostic(D.backendInternal, k.op.span, [`profile '${k.profile.identifier}' of '@${k.symbol}' was not made by createSpirvProfile`]));
  }
  const first = lowerable[0]?.[1];
  const shareable = first !== undefined && lowerable.every(([, i]) => i.abi === first.abi);
  let shared: SharedGlobals | undefined;
  const lowered: KernelLowering[] = [];
  for (const [k, info] of lowerable) {
    if (!shared || !shareable) shared = new SharedGlobals(newModule(info, lineInfo));
    const globals = shared;
    diagnostics.push(
      ...guarded(k, () => {
        const cx = lowerKernel(globals.module, globals, k, info);
        lowered.push(cx);
        return cx.diagnostics;
      }),
    );
  }
  if (diagnostics.length > 0 || !shareable || !shared || !first) return { diagnostics };
  const module = shared.module;
  // Sealing can still meet a SPIR-V limit (an instruction of more than 65535 words, e.g.
  // a name that long): a diagnostic at the first kernel, never an exception.
  let sealed: SealedModule | undefined;
  try {
    sealed = module.seal(ExecutionModel.GLCompute, ExecutionMode.LocalSize);
  } catch (e) {
    if (e instanceof LoomError) throw e;
    diagnostics.push(makeDiagnostic(D.backendInternal, lowerable[0]![0].op.span, [`the SPIR-V module cannot be written: ${(e as Error)?.message ?? e}`]));
  }
  if (!sealed) return { diagnostics };
  return { diagnostics, sealed, interfaces: spirvKernelInterfaces(module, lowered, first) };
}

/**
 * Compile-time `check`: lowers the module's SPIR-V kernels (the only lowering they get) and
 * keeps the bytes for `emit`, so the TARGET diagnostics fail `compileModule`.
 */
export function checkSpirvModule(module: PreparedModule): Diagnostic[] {
  const kernels = spirvKernels(module);
  const [head] = kernels;
  if (!head) return [];
  const { diagnostics, sealed, interfaces } = lowerSpirvKernels(kernels);
  if (sealed && interfaces) module.lowered?.set(LOWERED, { kernels, module: sealed, interfaces });
  return diagnostics;
}

/** Bytes of one SPIR-V module holding an entry point for every SPIR-V kernel of `module`. */
export function emitSpirvModule(module: PreparedModule, request: EmitRequest): EmitOutput {
  if (request.artifactFormat !== ARTIFACT_FORMAT.SPIRV) {
    throw new LoomError("invalid-argument", `the SPIR-V environment emits only ${JSON.stringify(ARTIFACT_FORMAT.SPIRV)}, not ${JSON.stringify(request.artifactFormat)}`);
  }
  const options = request.target ?? {};
  const unknown = Object.keys(options).filter((k) => k !== "debugInfo");
  if (unknown.length > 0) throw new LoomError("invalid-argument", `emit target options: '${unknown[0]}' is not a SPIR-V emit option (the only one is 'debugInfo')`);
  const debugInfo = options.debugInfo ?? false;
  if (typeof debugInfo !== "boolean") throw new LoomError("invalid-argument", "emit target options: 'debugInfo' must be a boolean");
  const kernels = spirvKernels(module);
  const [head] = kernels;
  if (!head) return { diagnostics: [makeDiagnostic(D.backendInternal, undefined, ["no kernel was specialized for SPIR-V"])] };
  // Line info is lowered on request (the compile-time lowering has none).
  const kept = debugInfo ? undefined : module.lowered?.get(LOWERED);
  // Fresh bytes per emit: the caller owns the artifact's bytes; emitting again must not see its edits.
  if (kept && sameKernels(kept.kernels, kernels)) return { diagnostics: [], contents: serialize(kept.module), kernelInterfaces: kept.interfaces };
  const infos = kernels.map((k) => spirvInfoOf(k.profile));
  const abis = new Set(infos.map((i) => i?.abi));
  if (!abis.has(undefined) && abis.size > 1) {
    return { diagnostics: [makeDiagnostic(D.backendInternal, head.op.span, ["SPIR-V kernels with different profile ABIs cannot share one module; emit them from separate modules"])] };
  }
  const { diagnostics, sealed, interfaces } = lowerSpirvKernels(kernels, debugInfo);
  return sealed ? { diagnostics, contents: serialize(sealed), kernelInterfaces: interfaces } : { diagnostics };
}

export function createSpirvTargetEnvironment(): TargetEnvironment {
  const env: TargetEnvironment = Object.freeze({
    name: SPIRV_ENVIRONMENT_NAME,
    record: SPIRV_TARGET_RECORD,
    formats: Object.freeze([ARTIFACT_FORMAT.SPIRV]),
    check: (module: PreparedModule) => checkSpirvModule(module),
    emit: (module: PreparedModule, request: EmitRequest) => emitSpirvModule(module, request),
  });
  registerSpirvEnvironment(env);
  return env;
}
