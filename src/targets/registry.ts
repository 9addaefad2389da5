/**
 * Target packages by environment name, for callers that describe targets as plain data
 * (the CLI, compile-pool workers): `{ environment: "amdgpu", options: {...} }`.
 */
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "./amdgpu/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "./spirv/index.js";
import { createPtxProfile, createPtxTargetEnvironment } from "./ptx/index.js";
import type { TargetEnvironment, TargetProfile } from "../core/target.js";
import { ARTIFACT_FORMAT } from "../core/artifact.js";
import { LoomError } from "../core/errors.js";

export interface TargetPackage {
  readonly createEnvironment: () => TargetEnvironment;
  /** `options` as the package's own create*Profile takes them. */
  readonly createProfile: (env: TargetEnvironment, options: never) => TargetProfile;
  /** The executable format and its usual file extension. */
  readonly format: string;
  readonly extension: string;
}

export const TARGET_PACKAGES: Readonly<Record<string, TargetPackage>> = Object.freeze({
  amdgpu: { createEnvironment: createAmdgpuTargetEnvironment, createProfile: createAmdgpuProfile as TargetPackage["createProfile"], format: ARTIFACT_FORMAT.AMDGPU_HSACO, extension: ".hsaco" },
  spirv: { createEnvironment: createSpirvTargetEnvironment, createProfile: createSpirvProfile as TargetPackage["createProfile"], format: ARTIFACT_FORMAT.SPIRV, extension: ".spv" },
  ptx: { createEnvironment: createPtxTargetEnvironment, createProfile: createPtxProfile as TargetPackage["createProfile"], format: ARTIFACT_FORMAT.PTX, extension: ".ptx" },
});

export function targetPackage(environment: string): TargetPackage {
  const p = TARGET_PACKAGES[environment];
  if (!p) throw new LoomError("invalid-argument", `unknown target environment '${environment}' (known: ${Object.keys(TARGET_PACKAGES).join(", ")})`);
  return p;
}
