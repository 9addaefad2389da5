/**
 * Compile-time checks of prepared kernels against their AMDGPU profile: ops the backend
 * cannot lower yet, argument types and subgroup (wave) size, read from the prepared
 * kernel's recorded facts, then selection, allocation and encoding, once per kernel and
 * compile (emit reuses the machine code).
 * Everything here is a diagnostic at the offending op; nothing throws.
 */
import { makeDiagnostic, type Diagnostic } from "../../core/diag/diagnostic.js";
import { D } from "../../core/diag/catalog.js";
import { typeToString } from "../../ir/types.js";
import { LoweredFormKey, type ArgSlot, type PreparedKernel, type PreparedModule } from "../../core/prepared.js";
import { lowerKernel, type MachineKernel } from "./lower/kernel.js";
import { isOp } from "../../dialects/registry.js";
import { amdgpuInfoOf, AMDGPU_ENVIRONMENT_NAME, type AmdgpuTargetInfo } from "./profile.js";
import type { WavefrontSize } from "./profiles.js";

/** The kernels of a module that this environment emits. */
export function amdgpuKernels(module: PreparedModule): PreparedKernel[] {
  return module.kernels.filter((k) => k.profile.environment === AMDGPU_ENVIRONMENT_NAME);
}

/** The wave size a kernel runs with: its fixed subgroup size, else the profile's. */
export function kernelWavefrontSize(k: PreparedKernel, info: AmdgpuTargetInfo): WavefrontSize {
  return (k.subgroupSize || info.wavefrontSize) as WavefrontSize;
}

function isPassableArg(a: ArgSlot): boolean {
  const t = a.type;
  return t.kind === "prim" && t.name !== "encoding<layout>";
}

/**
 * What `check` lowered: the machine code of each kernel that lowered cleanly, kept on the
 * prepared module for `emit` (core/prepared.ts); kernels absent here are checked again.
 */
const LOWERED = new LoweredFormKey<Map<PreparedKernel, MachineKernel>>(AMDGPU_ENVIRONMENT_NAME);

/** The machine code `check` kept for a kernel of this compile (undefined: not lowered, or it failed). */
export function machineCodeOf(module: PreparedModule, k: PreparedKernel): MachineKernel | undefined {
  return module.lowered?.get(LOWERED)?.get(k);
}

function checkKernel(k: PreparedKernel, info: AmdgpuTargetInfo, module: PreparedModule, kept: Map<PreparedKernel, MachineKernel>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const p = info.processor;
  const at = k.op.span;

  for (const a of k.args) {
    if (!isPassableArg(a)) out.push(makeDiagnostic(D.unsupported, a.value.span ?? at, [`argument type '${typeToString(a.type)}'`, info.targetId]));
  }
  if (k.subgroupSize !== 0 && !(p.wavefrontSizes as readonly number[]).includes(k.subgroupSize)) {
    out.push(makeDiagnostic(D.unsupported, at, [`subgroup size ${k.subgroupSize}`, `${info.targetId} (wave ${p.wavefrontSizes.join(" or ")})`]));
  }
  // Generic limits (argument block, workgroup size and storage) are checked by the core
  // pipeline against the profile's facts; this file adds what only AMDGPU knows.
  if (out.length > 0) return out;
  if (!isOp(k.body.ops.at(-1), "kernel.return")) {
    out.push(makeDiagnostic(D.backendInternal, at, [`the device body of '@${k.symbol}' does not end in kernel.return`]));
    return out;
  }
  // Selection, allocation and encoding run here once; emit reuses the machine code.
  const lowered = lowerKernel(k, info, kernelWavefrontSize(k, info), module.analyses);
  out.push(...lowered.cx.diagnostics);
  if (lowered.machine && out.length === 0) kept.set(k, lowered.machine);
  return out;
}

/**
 * Checks every AMDGPU kernel of `module` not yet lowered in this compile: lowers it and keeps
 * the machine code of those that pass (on `module.lowered`, and in the returned map, which
 * is all there is for a hand-built module without that slot).
 */
export function checkModule(module: PreparedModule): { diagnostics: Diagnostic[]; machine: ReadonlyMap<PreparedKernel, MachineKernel> } {
  const out: Diagnostic[] = [];
  const kept = module.lowered?.get(LOWERED) ?? new Map<PreparedKernel, MachineKernel>();
  module.lowered?.set(LOWERED, kept);
  for (const k of amdgpuKernels(module)) {
    if (kept.has(k)) continue;
    const info = amdgpuInfoOf(k.profile);
    if (!info) {
      out.push(makeDiagnostic(D.backendInternal, k.op.span, [`profile '${k.profile.identifier}' of '@${k.symbol}' was not made by createAmdgpuProfile`]));
      continue;
    }
    out.push(...checkKernel(k, info, module, kept));
  }
  return { diagnostics: out, machine: kept };
}
