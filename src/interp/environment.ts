/**
 * A target environment for running kernels on the interpreter only: its `check` accepts
 * every prepared kernel and it emits nothing. Compiling against it gives the prepared-low
 * kernels and the launch-config artifact of any module, independent of what a hardware
 * backend can lower yet.
 */
import { D } from "../core/diag/catalog.js";
import { makeDiagnostic } from "../core/diag/diagnostic.js";
import type { TargetEnvironment, TargetFacts, TargetProfile } from "../core/target.js";

export const REFERENCE_ENVIRONMENT_NAME = "reference";

export function createReferenceEnvironment(): TargetEnvironment {
  return Object.freeze({
    name: REFERENCE_ENVIRONMENT_NAME,
    formats: Object.freeze([]) as readonly string[],
    check: () => [],
    emit: () => ({ diagnostics: [makeDiagnostic(D.backendInternal, undefined, ["the reference environment runs kernels on the interpreter and emits no executable"])] }),
  });
}

/** A profile with generous limits; `subgroupSize` is the width the kernels are specialized for. */
export function createReferenceProfile(options: { identifier?: string; subgroupSize?: number; facts?: Partial<TargetFacts> } = {}): TargetProfile {
  const facts: TargetFacts = {
    subgroupSize: options.subgroupSize ?? 32,
    maxWorkgroupSize: [1024, 1024, 1024],
    maxFlatWorkgroupSize: 1024,
    maxWorkgroupCount: [2 ** 32 - 1, 2 ** 32 - 1, 2 ** 32 - 1],
    maxWorkgroupStorageBytes: 64 * 1024,
    maxArgumentBlockBytes: 4096,
    ...options.facts,
  };
  return Object.freeze({ identifier: options.identifier ?? "reference", environment: REFERENCE_ENVIRONMENT_NAME, target: "interpreter", facts: Object.freeze(facts) });
}
