/**
 * `env.emit`: one HSA code object for all AMDGPU kernels of a prepared module. Bad
 * requests throw `LoomError`; kernels the backend cannot compile give diagnostics and no
 * bytes (never a partial or silently wrong code object).
 */
import { LoomError } from "../../core/errors.js";
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import { D } from "../../core/diag/catalog.js";
import { makeDiagnostic, type Diagnostic } from "../../core/diag/diagnostic.js";
import type { PreparedKernel, PreparedModule } from "../../core/prepared.js";
import type { EmitOutput, EmitRequest } from "../../core/target.js";
import { amdgpuKernels, checkModule, kernelWavefrontSize, machineCodeOf } from "./check.js";
import { buildCodeObject, type CodeObjectKernel } from "./code-object.js";
import { LoomError as InternalError } from "../../core/errors.js";
import { amdgpuInfoOf, type AmdgpuTargetInfo } from "./profile.js";
import type { MachineKernel } from "./lower/kernel.js";

/** AMDGPU-specific emit options (the code object version). */
export interface AmdgpuEmitOptions {
  /** Code object version: 5 (default for specific processors) or 6 (required for generic ones). */
  readonly codeObjectVersion?: 5 | 6;
}

function parseEmitOptions(target: Readonly<Record<string, unknown>> | undefined): AmdgpuEmitOptions {
  if (target === undefined) return {};
  if (typeof target !== "object" || target === null) throw new LoomError("invalid-argument", "request.target must be an object");
  for (const key of Object.keys(target)) {
    if (key !== "codeObjectVersion") throw new LoomError("invalid-argument", `request.target.${key} is not an AMDGPU emit option (known: codeObjectVersion)`);
  }
  const v = target.codeObjectVersion;
  if (v !== undefined && v !== 5 && v !== 6) throw new LoomError("invalid-argument", `request.target.codeObjectVersion must be 5 or 6, got ${String(v)}`);
  return v === undefined ? {} : { codeObjectVersion: v };
}

/** Problems that only exist when kernels share one code object. */
function checkTogether(targets: readonly { readonly k: PreparedKernel; readonly info: AmdgpuTargetInfo }[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const [first] = targets;
  const names = new Set<string>();
  for (const { k, info } of targets) {
    if (first && info.targetId !== first.info.targetId) {
      out.push(makeDiagnostic(D.backendInternal, k.op.span, [`'@${k.symbol}' targets ${info.targetId}, but '@${first.k.symbol}' targets ${first.info.targetId}; one code object holds one target`]));
    }
    const name = k.exportName;
    if (name.length === 0 || name.includes("\0")) {
      out.push(makeDiagnostic(D.backendInternal, k.op.span, [`export name ${JSON.stringify(name)} of '@${k.symbol}' is not a valid ELF symbol name`]));
    }
    for (const sym of [name, `${name}.kd`]) {
      if (names.has(sym)) out.push(makeDiagnostic(D.backendInternal, k.op.span, [`symbol '${sym}' of '@${k.symbol}' is defined twice in the code object`]));
      names.add(sym);
    }
  }
  return out;
}

function internalError(message: string): never {
  throw new InternalError("internal", `AMDGPU emit: ${message}`);
}

/** What the code object needs of one lowered kernel (its code, resources and ABI facts). */
export function codeObjectKernel(k: PreparedKernel, info: AmdgpuTargetInfo, lowered: MachineKernel): CodeObjectKernel {
  const size = k.staticWorkgroupSize;
  return {
    name: k.exportName,
    program: lowered.program,
    words: lowered.words,
    resources: lowered.resources,
    args: k.args,
    hiddenArguments: lowered.hiddenArguments,
    kernargSize: lowered.kernargSize,
    groupSegmentFixedSize: k.workgroupStorageBytes,
    wavefrontSize: kernelWavefrontSize(k, info),
    maxFlatWorkgroupSize: size ? size[0] * size[1] * size[2] : info.processor.maxFlatWorkgroupSize,
    // Absent (not undefined) without a fixed size, as the metadata writes it only when present.
    ...(size ? { requiredWorkgroupSize: size } : {}),
  };
}

export function emitAmdgpu(module: PreparedModule, request: EmitRequest): EmitOutput {
  if (request.artifactFormat !== ARTIFACT_FORMAT.AMDGPU_HSACO) {
    throw new LoomError("invalid-argument", `request.artifactFormat '${request.artifactFormat}' is not emitted by the amdgpu environment (it emits '${ARTIFACT_FORMAT.AMDGPU_HSACO}')`);
  }
  const options = parseEmitOptions(request.target);
  const kernels = amdgpuKernels(module);
  if (kernels.length === 0) {
    throw new LoomError("failed-precondition", `module '${module.moduleName}' has no kernel specialized for an AMDGPU profile`);
  }

  const checked = checkModule(module);
  const diagnostics = checked.diagnostics;
  const targets: { readonly k: PreparedKernel; readonly info: AmdgpuTargetInfo }[] = [];
  for (const k of kernels) {
    const info = amdgpuInfoOf(k.profile);
    if (info) targets.push({ k, info });
  }
  if (targets.length === kernels.length) diagnostics.push(...checkTogether(targets));
  if (diagnostics.some((d) => d.severity === "error")) return { diagnostics };
  // checkModule reported every kernel without AMDGPU target facts, so each has them here.
  const info = targets[0]?.info ?? internalError("a kernel passed check without AMDGPU target facts");

  const codeObjectVersion = options.codeObjectVersion ?? info.codeObjectVersion;
  if (codeObjectVersion < info.codeObjectVersion) {
    throw new LoomError("invalid-argument", `request.target.codeObjectVersion ${codeObjectVersion}: generic processor ${info.processor.name} needs code object version 6`);
  }

  const objects: CodeObjectKernel[] = kernels.map((k) => {
    const lowered = checked.machine.get(k);
    if (!lowered) throw new InternalError("internal", `AMDGPU emit: '@${k.symbol}' passed check without machine code`);
    return codeObjectKernel(k, info, lowered);
  });
  const contents = buildCodeObject(info, objects, { codeObjectVersion });
  // The listing is printed only when asked for (`--emit asm`), not on every compile.
  let listing: string | undefined;
  const listed: Listed = contents;
  Object.defineProperty(listed, LISTING, { value: () => (listing ??= listingOf(kernels, checked.machine)) });
  return { diagnostics, contents };
}

/**
 * The bytes carry their own listing, so it lives exactly as long as they do. (A process-wide
 * WeakMap from bytes to listing kept every compile's machine code and IR alive through V8's
 * minor GCs, which do not clear an old table's entries: each compile's garbage was promoted.)
 */
const LISTING = Symbol("amdgpu listing");
type Listed = Uint8Array & { readonly [LISTING]?: () => string };

/** The assembly listing of an HSACO `env.emit` returned (undefined for other bytes). */
export function amdgpuListingOf(hsaco: Uint8Array): string | undefined {
  return (hsaco as Listed)[LISTING]?.();
}

/**
 * The assembly listing of every AMDGPU kernel of a prepared module that compiled (for
 * `loom compile --emit asm`): `<name>:` then the instructions; `llvm-mc-19` assembles each
 * kernel's lines to the bytes of its `.text` entry.
 */
export function amdgpuListing(module: PreparedModule): string {
  const machine = new Map<PreparedKernel, MachineKernel>();
  for (const k of amdgpuKernels(module)) {
    const m = machineCodeOf(module, k);
    if (m) machine.set(k, m);
  }
  return listingOf(amdgpuKernels(module), machine);
}

function listingOf(kernels: readonly PreparedKernel[], machine: ReadonlyMap<PreparedKernel, MachineKernel>): string {
  return kernels
    .map((k) => {
      const m = machine.get(k);
      return m ? `${k.exportName}:\n${m.listing}` : `; ${k.exportName}: not compiled\n`;
    })
    .join("\n");
}
