/**
 * The reference's `test.target<low_core> @t` record (language.md §11): the target its own test
 * files pin to when they exercise the target-independent core alone. It admits no device
 * profile (no target package has environment `test`), so code pinned to it never compiles for
 * a real device — `loom check` reports such a case unsupported (`TARGET/052`) — while check
 * cases that launch nothing pinned to it run as usual.
 */
import { COMMON_TARGET_ATTRIBUTES, registerTargetRecord } from "../core/target-records.js";
import type { TargetRecordSpec } from "../core/target.js";

/** The reference's test profiles: `low_core` is the one its test files name. */
const TEST_PROFILES = ["low_core"] as const;

/** The entry-point ABI its kernel tests write (`{abi = hal_kernel, subgroup_size = 64}`); printed first, as there. */
const TEST_ABIS = ["hal_kernel"] as const;

// The reference's test target record: it admits no device profile.
const TEST_TARGET_RECORD: TargetRecordSpec = Object.freeze<TargetRecordSpec>({
  opName: "test.target",
  environment: "test",
  param: Object.freeze({ key: "profile", what: "test profile", values: Object.freeze([...TEST_PROFILES]) }),
  attributes: Object.freeze([Object.freeze({ key: "abi", values: Object.freeze([...TEST_ABIS]) }), ...COMMON_TARGET_ATTRIBUTES]),
  admits: () => false,
});

registerTargetRecord(TEST_TARGET_RECORD);
