/**
 * Reader side of the module tables: sources, ops, types and locations (the strings table is
 * the container's `decodeStringTable`). Every index is bounds-checked here or at its use, every
 * count is checked against the bytes left before a loop runs, and entries must be unique (the
 * writer deduplicates them), so a table is never larger than its section.
 */
import type { Span, Value } from "../../ir/core.js";
import { prim, T, type Dim, type Layout, type PrimType, type Type } from "../../ir/types.js";
import { ByteReader } from "../bytes.js";
import { DIM_TAG, ELEMENT_BY_WIRE, ENCODING_ROLE_LAYOUT, LAYOUT_TAG, LIMITS, LOCATION_MODE, MAX_STATIC_STRIDE, TYPE_KIND } from "./format.js";
import { badReference, count, limitExceeded } from "./faults.js";
import { isKnownOpName } from "./op-names.js";

const MAX_EXTENT = 0x7fffffff;
const MAX_POSITION = 0xffffffff;

export function stringAt(r: ByteReader, strings: readonly string[], what: string): string {
  const i = r.varuint64(what);
  if (i >= BigInt(strings.length)) badReference(r, `${what} ${i} is not a string index (${strings.length} strings)`);
  return strings[Number(i)]!;
}

/** Reads `count` entries, rejecting one whose bytes repeat an earlier entry. */
function uniqueEntries<E>(r: ByteReader, what: string, decode: (i: number) => E): E[] {
  const n = count(r, `${what} count`);
  const out: E[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const start = r.position;
    out.push(decode(i));
    const key = Buffer.from(r.bytes.subarray(start, r.position)).toString("latin1");
    if (seen.has(key)) r.fail(`${what} ${i} repeats an earlier entry`);
    seen.add(key);
  }
  r.expectEnd();
  return out;
}

/** Source names; index 0 is the module itself (named `sourceName`), SOURCES entry i is i + 1. */
export function decodeSources(bytes: Uint8Array, base: number, strings: readonly string[], sourceName: string): string[] {
  const r = new ByteReader(bytes, "sources section", base);
  return [sourceName, ...uniqueEntries(r, "source", () => stringAt(r, strings, "source name"))];
}

export function decodeOpNames(bytes: Uint8Array, base: number, strings: readonly string[]): string[] {
  const r = new ByteReader(bytes, "ops section", base);
  return uniqueEntries(r, "op name", () => {
    const name = stringAt(r, strings, "op name");
    if (!isKnownOpName(name)) r.fail(`unknown op '${name}'`);
    return name;
  });
}

/** Spans; index 0 is "no span", LOCATIONS entry i is i + 1. */
export function decodeLocations(bytes: Uint8Array, base: number, sources: readonly string[], mode: number): (Span | undefined)[] {
  const r = new ByteReader(bytes, "locations section", base);
  const spans = uniqueEntries(r, "location", (): Span => {
    const s = r.varuint64("location source");
    if (s >= BigInt(sources.length)) badReference(r, `location source ${s} does not exist (${sources.length} sources)`);
    const line = r.varuint("line", MAX_POSITION), column = r.varuint("column", MAX_POSITION);
    if (line === 0 || column === 0) r.fail("lines and columns start at 1");
    if (mode !== LOCATION_MODE.full) return { source: sources[Number(s)]!, line, column, endLine: line, endColumn: column };
    const endLine = line + r.varuint("end line offset", MAX_POSITION), endColumn = r.varuint("end column", MAX_POSITION);
    if (endColumn === 0) r.fail("end columns start at 1");
    return { source: sources[Number(s)]!, line, column, endLine, endColumn };
  });
  return [undefined, ...spans];
}

/**
 * A type table entry. Entries naming values (dynamic dimensions, layout values) hold value
 * numbers; `TypeTable.at` checks them at each use and builds the Type once.
 */
interface TypeEntry {
  /** Value numbers the type names, in order. */
  readonly refs: readonly number[];
  readonly build: (values: readonly Value[]) => Type;
  /** Rough printed size, for the reader's expansion budget. */
  readonly size: number;
}

function element(r: ByteReader, what: string): PrimType {
  const name = ELEMENT_BY_WIRE.get(r.u8(`${what} element`));
  if (name === undefined) r.fail(`${what} element id is not a known scalar`);
  return prim(name);
}

function rank(r: ByteReader, what: string): number {
  const n = r.u8(`${what} rank`);
  if (n === 0) r.fail(`${what} rank is 0`);
  if (n > LIMITS.rank) limitExceeded(r, `${what} rank ${n} exceeds ${LIMITS.rank}`);
  return n;
}

function decodeType(r: ByteReader, strings: readonly string[]): TypeEntry {
  const kind = r.u8("type kind");
  switch (kind) {
    case TYPE_KIND.scalar: {
      const t = element(r, "scalar");
      return { refs: [], build: () => t, size: 8 };
    }
    case TYPE_KIND.buffer:
      return { refs: [], build: () => T.buffer, size: 8 };
    case TYPE_KIND.encoding:
      if (r.u8("encoding role") !== ENCODING_ROLE_LAYOUT) r.fail("encoding role is not 'layout' (1)");
      return { refs: [], build: () => T.layout, size: 16 };
    case TYPE_KIND.vector: {
      const el = element(r, "vector"), n = rank(r, "vector");
      const shape: number[] = [];
      for (let i = 0; i < n; i++) shape.push(r.varuint("vector extent", MAX_EXTENT));
      const t: Type = { kind: "vector", shape, element: el };
      return { refs: [], build: () => t, size: 16 + 11 * n };
    }
    case TYPE_KIND.view:
      return decodeView(r, strings);
    case TYPE_KIND.tensor:
      return decodeView(r, strings, true);
    default:
      return r.fail(`unknown type kind ${kind}`);
  }
}

function decodeView(r: ByteReader, strings: readonly string[], tensor = false): TypeEntry {
  const el = element(r, tensor ? "tensor" : "view"), n = rank(r, tensor ? "tensor" : "view");
  const refs: number[] = [];
  const valueRef = (what: string): number => {
    refs.push(r.varuint(what, Number.MAX_SAFE_INTEGER));
    return refs.length - 1;
  };
  const layoutTag = r.u8("layout tag");
  let layout: ((values: readonly Value[]) => Layout) | undefined;
  let size = 16;
  if (layoutTag === LAYOUT_TAG.named) {
    const name = stringAt(r, strings, "layout name");
    layout = () => ({ kind: "named", name });
    size += name.length;
  } else if (layoutTag === LAYOUT_TAG.value) {
    const k = valueRef("layout value");
    layout = (vs) => ({ kind: "value", value: vs[k]! });
  } else if (layoutTag === LAYOUT_TAG.strided) {
    const count = r.u8("stride count");
    if (count > LIMITS.rank) limitExceeded(r, `stride count ${count} exceeds ${LIMITS.rank}`);
    const strides: number[] = [];
    for (let i = 0; i < count; i++) strides.push(r.varuint("stride", MAX_STATIC_STRIDE));
    const fixed: Layout = { kind: "strided", strides };
    layout = () => fixed;
    size += 8 * count;
  } else if (layoutTag !== LAYOUT_TAG.none) {
    r.fail(`unknown layout tag ${layoutTag}`);
  }
  const dims: ((values: readonly Value[]) => Dim)[] = [];
  for (let i = 0; i < n; i++) {
    const tag = r.u8("dimension tag");
    if (tag === DIM_TAG.static) {
      const d: Dim = { kind: "static", size: r.varuint("view extent", MAX_EXTENT) };
      dims.push(() => d);
    } else if (tag === DIM_TAG.dynamic) {
      const k = valueRef("dimension value");
      dims.push((vs) => ({ kind: "dynamic", value: vs[k]! }));
    } else {
      r.fail(`unknown dimension tag ${tag}`);
    }
    size += 12;
  }
  if (tensor && layoutTag !== LAYOUT_TAG.none) r.fail("a tensor type has a layout");
  const build = (vs: readonly Value[]): Type => {
    const d = dims.map((f) => f(vs));
    if (tensor) return { kind: "tensor", dims: d, element: el };
    return layout ? { kind: "view", dims: d, element: el, layout: layout(vs) } : { kind: "view", dims: d, element: el };
  };
  return { refs, build, size };
}

export class TypeTable {
  readonly #entries: TypeEntry[];
  readonly #built: (Type | undefined)[];

  constructor(bytes: Uint8Array, base: number, strings: readonly string[]) {
    const r = new ByteReader(bytes, "types section", base);
    this.#entries = uniqueEntries(r, "type", () => decodeType(r, strings));
    this.#built = new Array<Type | undefined>(this.#entries.length);
  }

  get length(): number {
    return this.#entries.length;
  }

  /** Entry `i` (already bounds-checked by the caller): its value references and builder. */
  entry(i: number): TypeEntry {
    return this.#entries[i]!;
  }

  /** The Type of entry `i`; `values[k]` is the value of the entry's k-th reference. */
  build(i: number, values: readonly Value[]): Type {
    return (this.#built[i] ??= this.#entries[i]!.build(values));
  }
}
