/**
 * Every target package, by environment name: the one list a new target joins (one line in
 * `BUILT_IN`). Importing this module registers each package's target-record op with
 * core/target-records.ts, so the parser, verifier and linker know it; the API's `Context`,
 * the CLI and compile-pool workers import it. Callers that describe targets as plain data
 * (`{ environment: "<name>", options: {...} }`) resolve them here.
 */
import type { TargetPackage } from "../core/target.js";
import { registerTargetRecord } from "../core/target-records.js";
import { LoomError } from "../core/errors.js";
import { AMDGPU_PACKAGE } from "./amdgpu/index.js";
import { SPIRV_PACKAGE } from "./spirv/index.js";
import { PTX_PACKAGE } from "./ptx/index.js";
import { WGSL_PACKAGE } from "./wgsl/index.js";

const BUILT_IN: readonly TargetPackage[] = [
  AMDGPU_PACKAGE,
  SPIRV_PACKAGE,
  PTX_PACKAGE,
  WGSL_PACKAGE,
];

const packages = new Map<string, TargetPackage>();

/**
 * Adds a target package (the built-in ones at load; tests register their own). Its record
 * op becomes known process-wide; a second package under a taken name is refused.
 */
export function registerTargetPackage(pkg: TargetPackage): void {
  const prior = packages.get(pkg.name);
  if (prior === pkg) return;
  if (prior) throw new LoomError("already-exists", `target package '${pkg.name}' registered twice`);
  if (pkg.record) {
    if (pkg.record.environment !== pkg.name) throw new LoomError("invalid-argument", `target package '${pkg.name}' declares the record of environment '${pkg.record.environment}'`);
    registerTargetRecord(pkg.record);
  }
  packages.set(pkg.name, pkg);
}

for (const pkg of BUILT_IN) registerTargetPackage(pkg);

/** The registered package of an environment, or undefined. */
export function findTargetPackage(environment: string): TargetPackage | undefined {
  return packages.get(environment);
}

/** Registered environment names, built-in ones first. */
export function targetPackageNames(): string[] {
  return [...packages.keys()];
}

export function targetPackage(environment: string): TargetPackage {
  const p = packages.get(environment);
  if (!p) throw new LoomError("invalid-argument", `unknown target environment '${environment}' (known: ${targetPackageNames().join(", ")})`);
  return p;
}
