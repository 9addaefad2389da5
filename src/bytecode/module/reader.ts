/**
 * `.loombc` module reader: untrusted bytes → IR `Module` (docs/bytecode.md "Module sections").
 *
 * Never throws. A bad file yields `undefined` and exactly one BYTECODE diagnostic:
 *  901 truncated, 902 not a module file (magic, version, missing sections), 903 malformed,
 *  904 bad reference (string, type, op name, location or value index; a value used before its
 *  definition or out of scope), 905 limit exceeded, 906 decoded IR is not what the parser builds
 *  from its printed text, 907 a reader bug (reported, never thrown).
 * Work and memory are O(input size): see ./decode-ir.ts.
 */
import { LoomError } from "../../core/errors.js";
import type { Module, Span } from "../../ir/core.js";
import { D, type CatalogEntry } from "../../core/diag/catalog.js";
import type { DiagnosticSink } from "../../core/diag/diagnostic.js";
import { findSection, readContainer, type Container } from "../container.js";
import { decodeStringTable } from "../strings.js";
import { canonicalProblem } from "./canonical.js";
import { IrDecoder } from "./decode-ir.js";
import { BytecodeFault } from "./faults.js";
import { LIMITS, LOCATION_MODE, MODULE_SECTIONS } from "./format.js";
import { encodeSymbols } from "./symbols.js";
import { decodeLocations, decodeOpNames, decodeSources, TypeTable } from "./tables-read.js";

export function readModuleBytecode(sourceName: string, bytes: Uint8Array, sink: DiagnosticSink): Module | undefined {
  let entry: CatalogEntry, detail: string;
  try {
    const m = decodeModule(String(sourceName), bytes);
    const problem = canonicalProblem(m);
    if (problem === undefined) return m;
    [entry, detail] = [D.bytecodeNotCanonical, problem];
  } catch (e) {
    [entry, detail] = classify(e);
  }
  sink.report(entry, undefined, [`${String(sourceName)}: ${detail}`]);
  return undefined;
}

function classify(e: unknown): [CatalogEntry, string] {
  if (e instanceof BytecodeFault) return [e.entry, e.message];
  if (e instanceof LoomError && (e.status === "data-loss" || e.status === "invalid-argument")) {
    const message = e.message.replace(/^malformed \.loombc: /, "");
    if (/magic|format version|not a module/.test(message)) return [D.bytecodeBadHeader, message];
    if (/truncated/.test(message)) return [D.bytecodeTruncated, message];
    return [D.bytecodeMalformed, message];
  }
  return [D.bytecodeInternal, e instanceof Error ? `${e.name}: ${e.message}` : String(e)];
}

function notAModule(message: string): never {
  throw new LoomError("data-loss", `not a module file: ${message}`);
}

function section(c: Container, kind: number, name: string): { bytes: Uint8Array; base: number } {
  const s = findSection(c, kind);
  if (s === undefined) notAModule(`it has no ${name} section`);
  return { bytes: s.bytes, base: s.offset ?? 0 };
}

function decodeModule(sourceName: string, bytes: Uint8Array): Module {
  if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "not a module file: bytecode must be a Uint8Array");
  if (bytes.length > LIMITS.fileBytes) throw new BytecodeFault(D.bytecodeLimit, `file of ${bytes.length} bytes exceeds ${LIMITS.fileBytes}`);
  const c = readContainer(bytes);
  const withLocations = c.locationMode !== LOCATION_MODE.none;
  for (const kind of [MODULE_SECTIONS.sources, MODULE_SECTIONS.locations]) {
    if (!withLocations && findSection(c, kind)) throw new LoomError("data-loss", `malformed .loombc: location mode 'none' with a ${kind === MODULE_SECTIONS.sources ? "sources" : "locations"} section`);
  }
  const ir = section(c, MODULE_SECTIONS.ir, "ir");
  const str = section(c, MODULE_SECTIONS.strings, "strings");
  const strings = decodeStringTable(str.bytes, str.base);
  const ops = section(c, MODULE_SECTIONS.ops, "ops");
  const opNames = decodeOpNames(ops.bytes, ops.base, strings);
  const ty = section(c, MODULE_SECTIONS.types, "types");
  const types = new TypeTable(ty.bytes, ty.base, strings);
  let locations: (Span | undefined)[] | undefined;
  if (withLocations) {
    const src = section(c, MODULE_SECTIONS.sources, "sources");
    const sources = decodeSources(src.bytes, src.base, strings, sourceName);
    const loc = section(c, MODULE_SECTIONS.locations, "locations");
    locations = decodeLocations(loc.bytes, loc.base, sources, c.locationMode);
  }
  const budget = LIMITS.expansionPerByte * bytes.length + LIMITS.expansionBase;
  const m = new IrDecoder(ir.bytes, ir.base, { strings, types, opNames, locations, budget }).decode(sourceName);

  const sym = section(c, MODULE_SECTIONS.symbols, "symbols");
  const stringIndex = new Map(strings.map((s, i) => [s, i]));
  const opIndex = new Map(opNames.map((s, i) => [s, i]));
  const expected = encodeSymbols(m, (s) => stringIndex.get(s), (n) => opIndex.get(n));
  if (expected === undefined || expected.length !== sym.bytes.length || expected.some((b, i) => b !== sym.bytes[i])) {
    throw new LoomError("data-loss", `malformed .loombc: symbols section at byte ${sym.base} does not match the module's symbols`);
  }
  return m;
}
