/**
 * A target package that exists only in the tests: one folder, registered through the
 * registry's `registerTargetPackage`, with no line of src/ naming it. It proves the
 * compiler learns a target — record op, profiles, formats — from the package alone.
 *
 * `faketarget.target<toy1|toy2|toy-any> @t {..., banks = N, mode = fast|exact}`:
 * `toy-any` code runs on every toy device. The environment "emits" a text listing of the
 * prepared kernels, which is enough to see what the core handed it.
 */
import { COMMON_TARGET_ATTRIBUTES } from "../../../src/core/target-records.js";
import type { Diagnostic } from "../../../src/core/diag/diagnostic.js";
import type { PreparedModule } from "../../../src/core/prepared.js";
import type { EmitRequest, TargetEnvironment, TargetPackage, TargetProfile, TargetRecordSpec } from "../../../src/core/target.js";
import { deepFreeze, describeValue, invalidArgument, isRecord, rejectUnknownKeys } from "../../../src/core/validate.js";

export const FAKE = "faketarget";
export const FAKE_FORMAT = "fake-listing";
const DEVICES = ["toy1", "toy2"] as const;

export const FAKE_RECORD: TargetRecordSpec = {
  opName: `${FAKE}.target`,
  environment: FAKE,
  param: { key: "device", what: "toy device", values: [...DEVICES, "toy-any"] },
  attributes: [
    ...COMMON_TARGET_ATTRIBUTES,
    { key: "banks", check: (v) => (v >= 1n && v <= 4n ? undefined : "must be between 1 and 4") },
    { key: "mode", values: ["fast", "exact"] },
  ],
  admits: (written, profile) => written === "toy-any" || written === profile.target,
};

const environments = new WeakSet<TargetEnvironment>();

export function createFakeEnvironment(): TargetEnvironment {
  const env: TargetEnvironment = {
    name: FAKE,
    record: FAKE_RECORD,
    formats: [FAKE_FORMAT],
    check(): Diagnostic[] {
      return [];
    },
    emit(module: PreparedModule, request: EmitRequest) {
      const lines = module.kernels.map((k) => `${k.profile.target} ${k.exportName} args=${k.argBlockSize} subgroup=${k.subgroupSize} wg=${k.staticWorkgroupSize?.join("x") ?? "dynamic"}`);
      return { diagnostics: [], contents: new TextEncoder().encode(`${request.identifier}\n${lines.join("\n")}\n`) };
    },
  };
  environments.add(env);
  return deepFreeze(env);
}

/** `{ identifier, device: "toy1" | "toy2", subgroupSize? }` */
export function createFakeProfile(env: TargetEnvironment, options: unknown): TargetProfile {
  if (!environments.has(env)) throw invalidArgument("env must come from createFakeEnvironment()");
  if (!isRecord(options)) throw invalidArgument(`options must be an object, got ${describeValue(options)}`);
  rejectUnknownKeys(options, ["identifier", "device", "subgroupSize"], "options", "a toy profile option");
  const { identifier, device, subgroupSize = 16 } = options;
  if (typeof identifier !== "string") throw invalidArgument(`options.identifier must be a string, got ${describeValue(identifier)}`);
  if (!(DEVICES as readonly unknown[]).includes(device)) throw invalidArgument(`options.device: unknown toy device ${describeValue(device)} (known: ${DEVICES.join(", ")})`);
  if (subgroupSize !== 16 && subgroupSize !== 32) throw invalidArgument(`options.subgroupSize must be 16 or 32, got ${describeValue(subgroupSize)}`);
  return deepFreeze({
    identifier,
    environment: FAKE,
    target: device as string,
    facts: {
      subgroupSize,
      maxWorkgroupSize: [256, 256, 64],
      maxFlatWorkgroupSize: 256,
      maxWorkgroupCount: [65535, 65535, 65535],
      maxWorkgroupStorageBytes: 16384,
      maxArgumentBlockBytes: 256,
    },
  });
}

export const FAKE_PACKAGE: TargetPackage = {
  name: FAKE,
  record: FAKE_RECORD,
  createEnvironment: createFakeEnvironment,
  createProfile: createFakeProfile as TargetPackage["createProfile"],
  format: FAKE_FORMAT,
  extension: ".toy",
  commandLineProfile(device, facts) {
    if (facts.features.length > 0) throw invalidArgument("toy devices have no features");
    const subgroupSize = facts.limits.subgroupSize;
    return { identifier: `cli-${device}`, device, ...(subgroupSize === undefined ? {} : { subgroupSize }) };
  },
};
