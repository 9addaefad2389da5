/**
 * Writer side of the module tables: strings (with the checks the container's builder leaves
 * to its caller), types, sources and locations. Each table interns entries in first-use order,
 * so the output is deterministic; type and location entries are deduplicated by their bytes.
 */
import { LoomError } from "../../core/errors.js";
import type { Span, Value } from "../../ir/core.js";
import type { PrimType, Type } from "../../ir/types.js";
import { ByteWriter } from "../bytes.js";
import { MAX_STRING_BYTES, MAX_STRINGS, StringTableBuilder } from "../strings.js";
import { DIM_TAG, ELEMENT_WIRE, ENCODING_ROLE_LAYOUT, LAYOUT_TAG, LIMITS, LOCATION_MODE, MAX_STATIC_STRIDE, TYPE_KIND } from "./format.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextEncoder();

function invalid(message: string): never {
  throw new LoomError("invalid-argument", `cannot write .loombc: ${message}`);
}

export class StringPool {
  readonly #table = new StringTableBuilder();
  readonly #seen = new Map<string, number>();

  id(s: string): number {
    const known = this.#seen.get(s);
    if (known !== undefined) return known;
    if (typeof s !== "string") invalid(`expected a string, got ${typeof s}`);
    if (LONE_SURROGATE.test(s)) invalid(`string ${JSON.stringify(s)} is not valid Unicode (lone surrogate)`);
    if (utf8.encode(s).length > MAX_STRING_BYTES) invalid(`a string is longer than ${MAX_STRING_BYTES} bytes`);
    if (this.#seen.size + 1 >= MAX_STRINGS) invalid(`more than ${MAX_STRINGS} strings`);
    const id = this.#table.intern(s);
    this.#seen.set(s, id);
    return id;
  }

  encode(): Uint8Array {
    return this.#table.encode();
  }
}

/** Interns entries by their encoded bytes; index i is the i-th distinct entry. */
class EntryTable {
  readonly #index = new Map<string, number>();
  readonly #entries: Uint8Array[] = [];

  protected intern(bytes: Uint8Array): number {
    const key = Buffer.from(bytes).toString("latin1");
    let i = this.#index.get(key);
    if (i === undefined) {
      i = this.#entries.length;
      this.#entries.push(bytes);
      this.#index.set(key, i);
    }
    return i;
  }

  encode(): Uint8Array {
    const w = new ByteWriter().varuint(this.#entries.length);
    for (const e of this.#entries) w.bytes(e);
    return w.finish();
  }
}

function elementWire(t: PrimType, what: string): number {
  const wire = t && t.kind === "prim" ? ELEMENT_WIRE.get(t.name) : undefined;
  if (wire === undefined) invalid(`${what} element type is not a scalar or index`);
  return wire;
}

/** A static strided layout: its count byte, then each stride (docs/bytecode.md, layout byte 3). */
function writeStrides(w: ByteWriter, strides: readonly number[]): void {
  if (strides.length > LIMITS.rank) invalid(`stride count ${strides.length} exceeds ${LIMITS.rank}`);
  w.u8(strides.length);
  for (const s of strides) {
    if (!Number.isSafeInteger(s) || s < 0 || s > MAX_STATIC_STRIDE) invalid(`stride ${s} is outside [0, ${MAX_STATIC_STRIDE}]`);
    w.varuint(s);
  }
}

function extent(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) invalid(`type extent ${n} is not a non-negative integer`);
  return n;
}

/** The type table; `ref` numbers a value a type refers to (and checks it may be referenced). */
export class TypeTable extends EntryTable {
  constructor(private readonly strings: StringPool) {
    super();
  }

  id(t: Type, ref: (v: Value) => number): number {
    const w = new ByteWriter();
    switch (t?.kind) {
      case "prim":
        if (t.name === "buffer") w.u8(TYPE_KIND.buffer);
        else if (t.name === "encoding<layout>") w.u8(TYPE_KIND.encoding).u8(ENCODING_ROLE_LAYOUT);
        else w.u8(TYPE_KIND.scalar).u8(elementWire(t, "scalar"));
        break;
      case "vector":
        if (t.shape.length > LIMITS.rank) invalid(`vector rank ${t.shape.length} exceeds ${LIMITS.rank}`);
        w.u8(TYPE_KIND.vector).u8(elementWire(t.element, "vector")).u8(t.shape.length);
        for (const s of t.shape) w.varuint(extent(s));
        break;
      case "view":
      case "tensor":
        if (t.dims.length > LIMITS.rank) invalid(`${t.kind} rank ${t.dims.length} exceeds ${LIMITS.rank}`);
        // A tensor is written as a view is, always without a layout.
        w.u8(t.kind === "view" ? TYPE_KIND.view : TYPE_KIND.tensor).u8(elementWire(t.element, t.kind)).u8(t.dims.length);
        if (t.kind === "tensor" || t.layout === undefined) w.u8(LAYOUT_TAG.none);
        else if (t.layout.kind === "named") w.u8(LAYOUT_TAG.named).varuint(this.strings.id(t.layout.name));
        else if (t.layout.kind === "strided") writeStrides(w.u8(LAYOUT_TAG.strided), t.layout.strides);
        else w.u8(LAYOUT_TAG.value).varuint(ref(t.layout.value));
        for (const d of t.dims) {
          if (d.kind === "static") w.u8(DIM_TAG.static).varuint(extent(d.size));
          else w.u8(DIM_TAG.dynamic).varuint(ref(d.value));
        }
        break;
      default:
        invalid(`unknown type ${JSON.stringify((t as { kind?: unknown })?.kind)}`);
    }
    return this.intern(w.finish());
  }
}

function position(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 1) invalid(`span ${what} ${n} is not a positive integer`);
  return n;
}

/**
 * Sources and locations. Source index 0 is the module's own source (a reader substitutes the
 * name it reads the file under); others are SOURCES entries + 1. Location 0 means "no span".
 */
export class LocationTable extends EntryTable {
  readonly #sources = new Map<string, number>();
  readonly #sourceList: number[] = [];

  constructor(
    private readonly mode: number,
    private readonly moduleSource: string,
    private readonly strings: StringPool,
  ) {
    super();
  }

  id(span: Span | undefined): number {
    if (span === undefined) return 0;
    const w = new ByteWriter().varuint(this.#source(span.source));
    w.varuint(position(span.line, "line")).varuint(position(span.column, "column"));
    if (this.mode === LOCATION_MODE.full) {
      const endLine = position(span.endLine, "end line");
      if (endLine < span.line) invalid(`span ends (line ${endLine}) before it starts (line ${span.line})`);
      w.varuint(endLine - span.line).varuint(position(span.endColumn, "end column"));
    }
    return this.intern(w.finish()) + 1;
  }

  #source(name: string): number {
    if (name === this.moduleSource) return 0;
    let i = this.#sources.get(name);
    if (i === undefined) {
      this.#sourceList.push(this.strings.id(name));
      i = this.#sourceList.length;
      this.#sources.set(name, i);
    }
    return i;
  }

  encodeSources(): Uint8Array {
    const w = new ByteWriter().varuint(this.#sourceList.length);
    for (const id of this.#sourceList) w.varuint(id);
    return w.finish();
  }
}
