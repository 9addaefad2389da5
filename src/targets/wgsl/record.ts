/**
 * The `wgsl.target<webgpu> @t {...}` record op (language.md §4.11): the one WebGPU device
 * class as parameter, and the common attributes.
 */
import { COMMON_TARGET_ATTRIBUTES } from "../../core/target-records.js";
import type { TargetProfile, TargetRecordSpec } from "../../core/target.js";
import { KNOWN_DEVICES, WGSL_ENVIRONMENT_NAME } from "./profile.js";

/** The WGSL target record op `wgsl.target<webgpu> @t {...}` that modules may name: its parameter, attributes and which profiles it admits. */
export const WGSL_TARGET_RECORD: TargetRecordSpec = Object.freeze<TargetRecordSpec>({
  opName: `${WGSL_ENVIRONMENT_NAME}.target`,
  environment: WGSL_ENVIRONMENT_NAME,
  param: Object.freeze({ key: "device", what: "WebGPU device class", values: Object.freeze([...KNOWN_DEVICES]) }),
  attributes: COMMON_TARGET_ATTRIBUTES,
  admits: (written: string, profile: TargetProfile) => written === profile.target,
});
