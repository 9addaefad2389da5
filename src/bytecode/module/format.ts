/**
 * Wire constants of module bytecode (docs/bytecode.md "Module sections"), shared by the writer
 * and the reader: section kinds, location modes, type kinds and element ids, prop and literal
 * tags, and the limits a reader enforces on untrusted input.
 */
import type { PrimName } from "../../ir/types.js";
import { SECTION } from "../sections.js";

/** The sections of a module file, in the order the writer emits them. */
export const MODULE_SECTIONS = {
  strings: SECTION.strings,
  sources: SECTION.sources,
  types: SECTION.types,
  ops: SECTION.ops,
  locations: SECTION.locations,
  symbols: SECTION.symbols,
  ir: SECTION.ir,
} as const;

/** Header location mode (reference §15 numbering): 0 start line/column, 1 none, 2 full ranges. */
export const LOCATION_MODE = { lines: 0, none: 1, full: 2 } as const;
export type LocationChoice = keyof typeof LOCATION_MODE;

/** Type table entry kinds (reference §15 TYPES numbering). */
export const TYPE_KIND = { scalar: 1, tensor: 3, encoding: 7, vector: 9, view: 10, buffer: 11 } as const;
/** Role byte of an `encoding` type entry; v1 has only `encoding<layout>`. */
export const ENCODING_ROLE_LAYOUT = 1;

/** Element ids of scalar entries and vector/view elements (reference §15 wire ids). */
export const ELEMENT_WIRE: ReadonlyMap<PrimName, number> = new Map<PrimName, number>([
  ["index", 1], ["offset", 2], ["i1", 3], ["i8", 4], ["i16", 5], ["i32", 6], ["i64", 7],
  ["f16", 10], ["bf16", 11], ["f32", 12], ["f64", 13],
]);
export const ELEMENT_BY_WIRE: ReadonlyMap<number, PrimName> = new Map([...ELEMENT_WIRE].map(([n, w]) => [w, n]));

/** View layout attachment byte; `strided` (a static `#encoding.layout.strided<strides=[…]>`) came after version 1's first readers. */
export const LAYOUT_TAG = { none: 0, named: 1, value: 2, strided: 3 } as const;
/** The largest stride of a static strided layout attribute (the parser's bound). */
export const MAX_STATIC_STRIDE = 0x7fffffff;
/** View dimension byte. */
export const DIM_TAG = { static: 0, dynamic: 1 } as const;

/** Tags of the generic `props` encoding (one byte before every prop value). */
export const PROP_TAG = {
  undefined: 0,
  null: 1,
  false: 2,
  true: 3,
  string: 4,
  /** A safe integer (not −0): zigzag varint. */
  integer: 5,
  /** Any other number: IEEE-754 double, little-endian. */
  float: 6,
  bigint: 7,
  value: 8,
  literal: 9,
  predicate: 10,
  type: 11,
  array: 12,
  record: 13,
} as const;

/** Literal kind byte after PROP_TAG.literal. */
export const LITERAL_TAG = { int: 0, float: 1, bool: 2, string: 3, ident: 4 } as const;
/** Predicate argument byte. */
export const PRED_ARG_TAG = { value: 0, int: 1 } as const;

/** Op flag bits (the byte after the op-name index). */
export const OP_FLAG_BLANK_BEFORE = 1;
/** Region and module flag bits. */
export const TRAILING_FLAG_BLANK = 1;

/** Bit pattern written for every NaN, so output is deterministic; readers accept only it. */
export const CANONICAL_NAN_BITS = 0x7ff8000000000000n;

export const LIMITS = {
  /** Whole file. */
  fileBytes: 256 << 20,
  /** Nesting of regions inside regions. */
  regionDepth: 128,
  /** Nesting of arrays and records inside one prop. */
  propDepth: 16,
  /** Rank of a vector or view type entry. */
  rank: 8,
  /** Magnitude bytes of a bigint (zigzag LEB128 groups). */
  bigintBytes: 1024,
  /** Printed size of the decoded module, in characters: strings and types referenced many times
   *  are cheap in bytes but not in memory, so the reader bounds what they expand to. */
  expansionPerByte: 64,
  expansionBase: 1 << 20,
} as const;
