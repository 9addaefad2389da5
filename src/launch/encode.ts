/**
 * `LaunchFunction`s → `.loombc` bytes (docs/launch-config.md). The writer is the exact
 * inverse of `decode.ts`. The compiler does not decode its own output on every compile: the
 * pipeline checks the decoder's limits first (STRUCTURE/906, passes/launch-limits.ts) and
 * `lowerLaunchFunction` refuses anything outside the launch-config subset; the tests decode
 * what is encoded for every example kernel and corpus program (test/launch/).
 */
import { LoomError } from "../core/errors.js";
import { ByteWriter } from "../bytecode/bytes.js";
import { writeContainer } from "../bytecode/container.js";
import { SECTION } from "../bytecode/sections.js";
import { StringTableBuilder } from "../bytecode/strings.js";
import { floatToBits } from "../dialects/scalar/semantics.js";
import { lowerLaunchFunction } from "./lower.js";
import { LAUNCH_ENCODING_VERSION, LIMITS, PREDICATE_KINDS, TYPE_IDS, isFloatType, type LOp, type LPredicate, type LaunchFunction, type LaunchSourceLocation, countLocatedOps } from "./model.js";
import { OP_BY_NAME } from "./ops.js";
import type { LaunchFunctionSource } from "./source.js";

export const DEFAULT_PRODUCER = "loomc-ts";

/** Encodes the launch-config companion of the given kernels. */
export function encodeLaunchConfig(functions: readonly LaunchFunctionSource[], producer = DEFAULT_PRODUCER): Uint8Array {
  return encodeLaunchFunctions(lowerLaunchFunctions(functions), producer);
}

/**
 * Lowers the kernels' config regions and checks they can be encoded together: everything
 * that can refuse a program. Serializing the result cannot fail, so compileModule lowers
 * eagerly and writes the bytes only when the artifact is read.
 */
export function lowerLaunchFunctions(functions: readonly LaunchFunctionSource[]): LaunchFunction[] {
  const lowered = functions.map(lowerLaunchFunction);
  checkDistinctNames(lowered);
  return lowered;
}

function checkDistinctNames(functions: readonly LaunchFunction[]): void {
  for (let i = 1; i < functions.length; i++) {
    const name = functions[i]!.exportName;
    for (let j = 0; j < i; j++) if (functions[j]!.exportName === name) throw new LoomError("invalid-argument", `two launch-config functions are named '${name}'`);
  }
}

/** Serializes already-lowered functions (deterministic: same input, same bytes). */
export function encodeLaunchFunctions(functions: readonly LaunchFunction[], producer = DEFAULT_PRODUCER): Uint8Array {
  checkDistinctNames(functions);
  const strings = new StringTableBuilder();
  const w = new ByteWriter().varuint(LAUNCH_ENCODING_VERSION).varuint(functions.length);
  for (const f of functions) writeFunction(w, f, strings);
  // The location table interns its source names after the launch section's strings, so an
  // artifact with locations shares every string index with the same artifact without them.
  const locations = functions.some((f) => f.locations) ? writeLocations(functions, strings) : undefined;
  const table = strings.write();
  // The sections are views of the writers' scratch buffers, copied once into the container.
  const out = writeContainer({
    locationMode: locations ? 0 : 1,
    producer,
    sections: locations
      ? [{ kind: SECTION.strings, bytes: table.view() }, { kind: SECTION.launch, bytes: w.view() }, { kind: SECTION.launchLocations, bytes: locations.view() }]
      : [{ kind: SECTION.strings, bytes: table.view() }, { kind: SECTION.launch, bytes: w.view() }],
  });
  table.release();
  w.release();
  locations?.release();
  return out;
}

/** The `launch-locations` section (docs/launch-config.md "Source locations"). */
function writeLocations(functions: readonly LaunchFunction[], strings: StringTableBuilder): ByteWriter {
  const w = new ByteWriter().varuint(functions.length);
  const loc = (l: LaunchSourceLocation | undefined): void => {
    if (l === undefined) return void w.varuint(0);
    const inRange = (n: number) => Number.isInteger(n) && n >= 1 && n <= LIMITS.u32;
    const valid = l.source !== "" && inRange(l.line) && inRange(l.column);
    if (!valid) throw new LoomError("invalid-argument", `launch-config location ${JSON.stringify(l.source)}:${l.line}:${l.column} needs a source name and a line and column in [1, 2^32-1]`);
    w.varuint(strings.intern(l.source)).varuint(l.line).varuint(l.column);
  };
  for (const f of functions) {
    const l = f.locations;
    loc(l?.function);
    w.varuint(f.where.length);
    for (let i = 0; i < f.where.length; i++) loc(l?.where[i]);
    const ops = countLocatedOps(f.body);
    w.varuint(ops);
    for (let i = 0; i < ops; i++) loc(l?.ops[i]);
  }
  return w;
}

function writeFunction(w: ByteWriter, f: LaunchFunction, strings: StringTableBuilder): void {
  w.varuint(strings.intern(f.exportName)).varuint(f.subgroupSize).varuint(f.workgroupStorageBytes);
  for (const v of f.limits.maxWorkgroupCount) w.varuint(v);
  for (const v of f.limits.maxWorkgroupSize) w.varuint(v);
  w.varuint(f.limits.maxFlatWorkgroupSize);
  w.varuint(f.args.length);
  for (const a of f.args) w.varuint(strings.intern(a.name)).u8(TYPE_IDS[a.type]);
  writePredicates(w, f.where);
  writeRegion(w, f.body, f);
}

function writePredicates(w: ByteWriter, preds: readonly LPredicate[]): void {
  w.varuint(preds.length);
  for (const p of preds) {
    w.u8((PREDICATE_KINDS as readonly string[]).indexOf(p.kind));
    for (const a of p.args) {
      if (typeof a === "number") w.u8(0).varuint(a);
      else w.u8(1).varint(a);
    }
  }
}

function writeRegion(w: ByteWriter, ops: readonly LOp[], f: LaunchFunction): void {
  w.varuint(ops.length);
  for (const op of ops) writeOp(w, op, f);
}

function opcode(name: string): number {
  const info = OP_BY_NAME.get(name);
  if (!info) throw new LoomError("invalid-argument", `'${name}' has no launch-config opcode`);
  return info.opcode;
}

function writeOp(w: ByteWriter, op: LOp, f: LaunchFunction): void {
  switch (op.kind) {
    case "constant": {
      w.varuint(opcode(op.name)).u8(TYPE_IDS[op.type]);
      if (isFloatType(op.type)) w.varuint(floatToBits(op.value as number, op.type));
      else if (op.type === "index") w.varint(op.value as bigint);
      else w.varuint(op.value as bigint);
      return;
    }
    case "simple": {
      const info = OP_BY_NAME.get(op.name)!;
      w.varuint(info.opcode).u8(TYPE_IDS[op.type]).varuint(op.flags);
      if (info.predicates) w.u8(info.predicates.indexOf(op.predicate!));
      for (const r of op.operands) w.varuint(r);
      return;
    }
    case "assume":
      w.varuint(opcode(op.name)).varuint(op.operands.length);
      for (const r of op.operands) w.varuint(r);
      writePredicates(w, op.predicates);
      return;
    case "select":
      w.varuint(opcode("scf.select"));
      for (const r of op.operands) w.varuint(r);
      return;
    case "if":
      w.varuint(opcode("scf.if")).varuint(op.cond).varuint(op.resultTypes.length);
      for (const t of op.resultTypes) w.u8(TYPE_IDS[t]);
      writeRegion(w, op.then, f);
      w.u8(op.hasElse ? 1 : 0);
      if (op.hasElse) writeRegion(w, op.else, f);
      return;
    case "for":
      w.varuint(opcode("scf.for")).varuint(op.lo).varuint(op.hi).varuint(op.step).varuint(op.inits.length);
      for (const r of op.inits) w.varuint(r);
      writeRegion(w, op.body, f);
      return;
    case "yield":
      w.varuint(opcode("scf.yield")).varuint(op.operands.length);
      for (const r of op.operands) w.varuint(r);
      return;
    case "launch":
      w.varuint(opcode("kernel.launch.config")).u8(op.operands.length === 9 ? 1 : 0);
      for (const r of op.operands) w.varuint(r);
      return;
  }
}
