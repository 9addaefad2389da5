/**
 * The target-record ops this process knows (language.md §4.11), by op name.
 *
 * Target packages declare their record op as a `TargetRecordSpec` (also carried by their
 * environment); a `Context` registers the records of its environments and packages, and
 * src/targets/registry.ts those of every built-in package, here. The text
 * syntax, the op table, the verifier, template selection and the linker look record ops up
 * here, so none of them names a target. `target.decl` is not a record op: it is part of the
 * language and binds a record the embedding supplies.
 */
import { isLiteral, type Literal, type Prop } from "../ir/core.js";
import { LoomError } from "./errors.js";
import type { TargetRecordAttribute, TargetRecordSpec } from "./target.js";

const V1_BITWIDTH = (v: bigint) => (v === 64n ? undefined : "must be 64 in Loom v1");
const POSITIVE = (v: bigint) => (v >= 1n ? undefined : "must be positive");

/** The attributes every target record takes, in canonical order (language.md §4.11). */
export const COMMON_TARGET_ATTRIBUTES: readonly TargetRecordAttribute[] = Object.freeze([
  { key: "index_bitwidth", check: V1_BITWIDTH },
  { key: "offset_bitwidth", check: V1_BITWIDTH },
  { key: "max_workgroup_size_x", check: POSITIVE },
  { key: "max_workgroup_size_y", check: POSITIVE },
  { key: "max_workgroup_size_z", check: POSITIVE },
  { key: "max_flat_workgroup_size", check: POSITIVE },
  { key: "max_workgroup_storage_bytes", check: POSITIVE },
  { key: "subgroup_size" },
  { key: "max_workgroup_count_x", check: POSITIVE },
  { key: "max_workgroup_count_y", check: POSITIVE },
  { key: "max_workgroup_count_z", check: POSITIVE },
].map((a) => Object.freeze(a)));

const RECORD_OP = /^[a-z][a-z0-9_]*\.target$/;
const records = new Map<string, TargetRecordSpec>();

/**
 * Makes `spec`'s record op known to the parser, printer, verifier and linker. Registering
 * the same spec again is a no-op; a different spec under a taken op name is refused.
 */
export function registerTargetRecord(spec: TargetRecordSpec): void {
  const prior = records.get(spec.opName);
  if (prior === spec) return;
  if (prior) throw new LoomError("already-exists", `target record '${spec.opName}' is already registered by another package`);
  if (!RECORD_OP.test(spec.opName) || spec.opName !== `${spec.environment}.target`) {
    throw new LoomError("invalid-argument", `target record op '${spec.opName}' must be named '<environment>.target' (environment '${spec.environment}')`);
  }
  const keys = new Set<string>();
  for (const a of spec.attributes) {
    if (keys.has(a.key)) throw new LoomError("invalid-argument", `target record '${spec.opName}' lists attribute '${a.key}' twice`);
    keys.add(a.key);
  }
  records.set(spec.opName, spec);
}

/** The spec of a record op, or undefined when `opName` is not one. */
export function targetRecordSpec(opName: string): TargetRecordSpec | undefined {
  return records.get(opName);
}

/** Every registered record op name, in registration order (for messages). */
export function targetRecordNames(): string[] {
  return [...records.keys()];
}

/** Whether `name` looks like a record op (`<word>.target`), registered or not. */
export function looksLikeTargetRecord(name: string): boolean {
  return RECORD_OP.test(name);
}

/** A record op's `attrs` (what its parser stored): key/literal pairs; nothing else is one. */
export function recordAttrs(prop: Prop): { key: string; value: Literal }[] {
  const out: { key: string; value: Literal }[] = [];
  if (!Array.isArray(prop)) return out;
  for (const a of prop) {
    if (typeof a !== "object" || a === null || Array.isArray(a) || !("key" in a) || !("value" in a)) continue;
    const { key, value } = a;
    if (typeof key === "string" && isLiteral(value)) out.push({ key, value });
  }
  return out;
}

