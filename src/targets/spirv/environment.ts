/**
 * The SPIR-V `TargetEnvironment`: `check` lowers each kernel into a scratch module and
 * returns the TARGET diagnostics (so limits and unsupported ops fail `compileModule`);
 * `emit` checks the kernels `check` has not already passed (prepared kernels are immutable),
 * then lowers every kernel into one module (one entry point per kernel) and serializes it.
 * Lowering is deterministic, so check and emit see the same thing.
 */
import { LoomError } from "../../core/errors.js";
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import { makeDiagnostic, type Diagnostic } from "../../core/diag/diagnostic.js";
import { D } from "../../core/diag/catalog.js";
import type { PreparedKernel, PreparedModule } from "../../core/prepared.js";
import type { EmitOutput, EmitRequest, TargetEnvironment } from "../../core/target.js";
import { SharedGlobals } from "./lower/context.js";
import { lowerKernel } from "./lower/kernel.js";
import type { KernelLowering } from "./lower/context.js";
import { spirvKernelInterfaces } from "./interface.js";
import { SpirvModule } from "./module.js";
import { registerSpirvEnvironment, spirvInfoOf, SPIRV_ENVIRONMENT_NAME, type SpirvTargetInfo } from "./profile.js";
import { AddressingModel, ExecutionMode, ExecutionModel, MemoryModel } from "./spec.js";

function spirvKernels(module: PreparedModule): PreparedKernel[] {
  return module.kernels.filter((k) => k.profile.environment === SPIRV_ENVIRONMENT_NAME);
}

function newModule(info: SpirvTargetInfo): SpirvModule {
  const physical = info.abi === "device-address";
  const m = new SpirvModule(physical ? AddressingModel.PhysicalStorageBuffer64 : AddressingModel.Logical, MemoryModel.GLSL450);
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

/** Prepared kernels whose lowering produced no diagnostic (they never change after compile). */
const passedCheck = new WeakSet<PreparedKernel>();

export function checkSpirvModule(module: PreparedModule): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const k of spirvKernels(module)) {
    if (passedCheck.has(k)) continue;
    const info = spirvInfoOf(k.profile);
    if (!info) {
      out.push(makeDiagnostic(D.backendInternal, k.op.span, [`profile '${k.profile.identifier}' of '@${k.symbol}' was not made by createSpirvProfile`]));
      continue;
    }
    const found = guarded(k, () => {
      const m = newModule(info);
      return lowerKernel(m, new SharedGlobals(m), k, info, { ownModule: true }).diagnostics;
    });
    if (found.length === 0) passedCheck.add(k);
    out.push(...found);
  }
  return out;
}

/** Bytes of one SPIR-V module holding an entry point for every SPIR-V kernel of `module`. */
export function emitSpirvModule(module: PreparedModule, request: EmitRequest): EmitOutput {
  if (request.artifactFormat !== ARTIFACT_FORMAT.SPIRV) {
    throw new LoomError("invalid-argument", `the SPIR-V environment emits only ${JSON.stringify(ARTIFACT_FORMAT.SPIRV)}, not ${JSON.stringify(request.artifactFormat)}`);
  }
  const options = request.target ?? {};
  const unknown = Object.keys(options);
  if (unknown.length > 0) throw new LoomError("invalid-argument", `emit target options: '${unknown[0]}' is not a SPIR-V emit option (there are none)`);
  const kernels = spirvKernels(module);
  const diagnostics = checkSpirvModule(module);
  if (diagnostics.length > 0) return { diagnostics };
  if (kernels.length === 0) return { diagnostics: [makeDiagnostic(D.backendInternal, undefined, ["no kernel was specialized for SPIR-V"])] };
  const infos = kernels.map((k) => spirvInfoOf(k.profile)!);
  if (infos.some((i) => i.abi !== infos[0]!.abi)) {
    return { diagnostics: [makeDiagnostic(D.backendInternal, kernels[0]!.op.span, ["SPIR-V kernels with different profile ABIs cannot share one module; emit them from separate modules"])] };
  }
  const m = newModule(infos[0]!);
  const shared = new SharedGlobals(m);
  const lowered: KernelLowering[] = [];
  for (const [i, k] of kernels.entries()) {
    diagnostics.push(
      ...guarded(k, () => {
        const cx = lowerKernel(m, shared, k, infos[i]!, { ownModule: false });
        lowered.push(cx);
        return cx.diagnostics;
      }),
    );
  }
  if (diagnostics.length > 0) return { diagnostics };
  const words = m.finish(ExecutionModel.GLCompute, ExecutionMode.LocalSize);
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w, true));
  return { diagnostics, contents: bytes, kernelInterfaces: spirvKernelInterfaces(m, lowered, infos[0]!) };
}

export function createSpirvTargetEnvironment(): TargetEnvironment {
  const env: TargetEnvironment = Object.freeze({
    name: SPIRV_ENVIRONMENT_NAME,
    formats: Object.freeze([ARTIFACT_FORMAT.SPIRV]),
    check: (module: PreparedModule) => checkSpirvModule(module),
    emit: (module: PreparedModule, request: EmitRequest) => emitSpirvModule(module, request),
  });
  registerSpirvEnvironment(env);
  return env;
}
