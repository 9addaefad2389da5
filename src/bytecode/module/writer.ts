/**
 * `.loombc` module writer: IR `Module` → bytes (docs/bytecode.md "Module sections").
 *
 * Everything the canonical printer needs travels (ops, values with their SSA names, types,
 * props, comments, blank-line flags) plus spans as chosen by `locations`. Output is
 * deterministic: tables intern in first-use order and the container layout is canonical.
 *
 * The writer only produces files its reader accepts: after encoding it reads the bytes back,
 * and a module the reader would reject (e.g. one with a use before its definition, which only
 * unverified modules have) is `LoomError("invalid-argument")` instead of a file.
 */
import { LoomError } from "../../core/errors.js";
import type { Module } from "../../ir/core.js";
import { DiagnosticSink } from "../../core/diag/diagnostic.js";
import { ByteWriter } from "../bytes.js";
import { writeContainer, type Section } from "../container.js";
import { IrEncoder } from "./encode-ir.js";
import { LOCATION_MODE, MODULE_SECTIONS, type LocationChoice } from "./format.js";
import { isKnownOpName } from "./op-names.js";
import { readModuleBytecode } from "./reader.js";
import { encodeSymbols } from "./symbols.js";
import { LocationTable, StringPool, TypeTable } from "./tables-write.js";

export const DEFAULT_MODULE_PRODUCER = "loomc-ts";

export interface ModuleBytecodeOptions {
  /** Informational producer string in the header (default "loomc-ts"). */
  readonly producer?: string;
  /** Spans kept: "full" ranges (default), start "lines" only, or "none". */
  readonly locations?: LocationChoice;
}

export function writeModuleBytecode(m: Module, options: ModuleBytecodeOptions = {}): Uint8Array {
  const bytes = encodeModule(m, options);
  const sink = new DiagnosticSink(1);
  if (readModuleBytecode(m.sourceName, bytes, sink) === undefined) {
    throw new LoomError("invalid-argument", `cannot write ${m.sourceName} as .loombc: ${sink.diagnostics[0]?.message ?? "it does not read back"}`);
  }
  return bytes;
}

/** The encoding alone, without the read-back check (tests use it to build hostile files). */
export function encodeModule(m: Module, options: ModuleBytecodeOptions = {}): Uint8Array {
  const choice = options.locations ?? "full";
  const mode = LOCATION_MODE[choice];
  if (mode === undefined) throw new LoomError("invalid-argument", `locations must be "full", "lines" or "none", got ${String(choice)}`);
  const strings = new StringPool();
  const types = new TypeTable(strings);
  const locations = mode === LOCATION_MODE.none ? undefined : new LocationTable(mode, m.sourceName, strings);
  const opNames = new Map<string, number>();
  const opIndex = (name: string): number => {
    let i = opNames.get(name);
    if (i === undefined) {
      if (typeof name !== "string" || !isKnownOpName(name)) throw new LoomError("invalid-argument", `cannot write .loombc: unknown op '${String(name)}'`);
      i = opNames.size;
      opNames.set(name, i);
    }
    return i;
  };
  const ir = new IrEncoder({ strings, types, locations, opIndex }).encode(m);
  const symbols = encodeSymbols(m, (s) => strings.id(s), (name) => opNames.get(name))!;
  const ops = new ByteWriter().varuint(opNames.size);
  for (const name of opNames.keys()) ops.varuint(strings.id(name));

  const sections: Section[] = [{ kind: MODULE_SECTIONS.strings, bytes: strings.encode() }];
  if (locations) sections.push({ kind: MODULE_SECTIONS.sources, bytes: locations.encodeSources() });
  sections.push({ kind: MODULE_SECTIONS.types, bytes: types.encode() }, { kind: MODULE_SECTIONS.ops, bytes: ops.finish() });
  if (locations) sections.push({ kind: MODULE_SECTIONS.locations, bytes: locations.encode() });
  sections.push({ kind: MODULE_SECTIONS.symbols, bytes: symbols }, { kind: MODULE_SECTIONS.ir, bytes: ir });
  return writeContainer({ locationMode: mode, producer: options.producer ?? DEFAULT_MODULE_PRODUCER, sections });
}
