/**
 * The `amdgpu.target<processor> @t {...}` record op (language.md §4.11): the processor is any
 * row of the processor table (profiles.ts), and the record takes the common attributes plus
 * the xnack/sramecc feature settings.
 */
import { COMMON_TARGET_ATTRIBUTES } from "../../core/target-records.js";
import type { TargetProfile, TargetRecordSpec } from "../../core/target.js";
import { AMDGPU_ENVIRONMENT_NAME } from "./profile.js";
import { knownProcessorNames } from "./profiles.js";

/** Values of the feature attributes (`any`: code runs with either device setting). */
const FEATURE_STATES = ["any", "unsupported", "off", "on"] as const;

/**
 * Whether code for processor `written` runs on the profile's processor: the same one, or a
 * generic target's family member (`gfx11-generic` code runs on every gfx11xx processor).
 */
function admits(written: string, profile: TargetProfile): boolean {
  if (written === profile.target) return true;
  const generic = /^(gfx\d+)-generic$/.exec(written);
  return generic !== null && new RegExp(`^${generic[1]}[0-9a-f]{2}$`).test(profile.target);
}

/** The AMDGPU target record: the `amdgpu.*` ops modules may name, and their rules. */
export const AMDGPU_TARGET_RECORD: TargetRecordSpec = Object.freeze<TargetRecordSpec>({
  opName: `${AMDGPU_ENVIRONMENT_NAME}.target`,
  environment: AMDGPU_ENVIRONMENT_NAME,
  param: Object.freeze({ key: "chip", what: "AMDGPU target", values: Object.freeze(knownProcessorNames()) }),
  attributes: Object.freeze([...COMMON_TARGET_ATTRIBUTES, { key: "sramecc", values: FEATURE_STATES }, { key: "xnack", values: FEATURE_STATES }]),
  admits,
});
