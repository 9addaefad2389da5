/**
 * The `spirv.target<vulkan1_3> @t {...}` record op (language.md §4.11): the environment is
 * written with `_` for the `.` of the profile's environment name, and the record takes the
 * common attributes plus the entry-point ABI.
 */
import { COMMON_TARGET_ATTRIBUTES } from "../../core/target-records.js";
import type { TargetProfile, TargetRecordSpec } from "../../core/target.js";
import { KNOWN_ENVIRONMENTS, SPIRV_ENVIRONMENT_NAME } from "./profile.js";

const RECORD_ABIS = ["hal_kernel", "shader_entry_point"] as const;

/** `vulkan1.3` → `vulkan1_3`: a record parameter is one word. */
function spelled(environment: string): string {
  return environment.replace(/\./g, "_");
}

/** The SPIR-V target record: the `spirv.*` ops modules may name, and their rules. */
export const SPIRV_TARGET_RECORD: TargetRecordSpec = Object.freeze<TargetRecordSpec>({
  opName: `${SPIRV_ENVIRONMENT_NAME}.target`,
  environment: SPIRV_ENVIRONMENT_NAME,
  param: Object.freeze({ key: "env", what: "SPIR-V environment", values: Object.freeze(KNOWN_ENVIRONMENTS.map(spelled)) }),
  attributes: Object.freeze([...COMMON_TARGET_ATTRIBUTES, { key: "abi", values: RECORD_ABIS }]),
  admits: (written: string, profile: TargetProfile) => written.replace(/_/g, ".") === profile.target,
});
