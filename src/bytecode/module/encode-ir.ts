/**
 * IR section encoder: the op tree in program order, every value numbered at its definition,
 * uses written as value numbers (docs/bytecode.md "ir"). The scoping rule is the reader's
 * (./scopes.ts), so a module the writer accepts has only references the reader accepts.
 */
import { LoomError } from "../../core/errors.js";
import { Op, Value, type Literal, type Module, type Predicate, type Prop, type Region, type Span } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";
import { ByteWriter } from "../bytes.js";
import { LIMITS, LITERAL_TAG, OP_FLAG_BLANK_BEFORE, PRED_ARG_TAG, PROP_TAG, TRAILING_FLAG_BLANK } from "./format.js";
import { isWireInteger, writeBigZigzag, writeF64 } from "./numbers.js";
import { Frame, Numbering, withActive } from "./scopes.js";
import { asLiteral, asPredicate, asType, isPlainRecord } from "./shapes.js";
import type { LocationTable, StringPool, TypeTable } from "./tables-write.js";

function invalid(message: string): never {
  throw new LoomError("invalid-argument", `cannot write .loombc: ${message}`);
}

export interface IrTables {
  readonly strings: StringPool;
  readonly types: TypeTable;
  /** Undefined when the file carries no locations. */
  readonly locations: LocationTable | undefined;
  opIndex(name: string): number;
}

export class IrEncoder {
  readonly #w = new ByteWriter();
  readonly #numbering = new Numbering();
  readonly #numbers = new Map<Value, number>();
  #ops = 0;
  #regions = 0;

  constructor(private readonly t: IrTables) {}

  /** The IR section: totals, then the module. */
  encode(m: Module): Uint8Array {
    const top = new Frame();
    top.active = true;
    this.#trailing(m.trailingComments, m.trailingBlank);
    this.#w.varuint(m.ops.length);
    for (const op of m.ops) this.#op(op, top, 0);
    return new ByteWriter().varuint(this.#numbering.count).varuint(this.#ops).varuint(this.#regions).bytes(this.#w.finish()).finish();
  }

  #define(v: Value, frame: Frame): void {
    if (this.#numbers.has(v)) invalid(`value %${v.name} is defined twice`);
    this.#numbers.set(v, this.#numbering.define(frame));
  }

  #ref(v: Value): number {
    const n = this.#numbers.get(v);
    const problem = n === undefined ? "is used before its definition" : this.#numbering.problem(n);
    if (problem !== undefined) invalid(`value %${v.name} ${problem} (only verified modules can be written)`);
    return n!;
  }

  #refOut = (v: Value): number => {
    if (!(v instanceof Value)) invalid("a value reference is not a Value");
    return this.#ref(v);
  };

  #string(s: string): void {
    this.#w.varuint(this.t.strings.id(s));
  }

  #type(t: Type): void {
    this.#w.varuint(this.t.types.id(t, this.#refOut));
  }

  #location(span: Span | undefined): void {
    if (this.t.locations) this.#w.varuint(this.t.locations.id(span));
  }

  #strings(list: readonly string[]): void {
    this.#w.varuint(list.length);
    for (const s of list) this.#string(s);
  }

  #trailing(comments: readonly string[], blank: boolean): void {
    this.#w.u8(blank ? TRAILING_FLAG_BLANK : 0);
    this.#strings(comments);
  }

  #op(op: Op, frame: Frame, depth: number): void {
    if (!(op instanceof Op)) invalid("an op is not an Op");
    this.#ops++;
    const w = this.#w;
    w.varuint(this.t.opIndex(op.name)).u8(op.blankBefore ? OP_FLAG_BLANK_BEFORE : 0);
    this.#location(op.span);
    this.#strings(op.comments);

    // Region arguments are numbered first: the op's own types and props may name them.
    const own = op.regions.map(() => new Frame());
    op.regions.forEach((r, k) => r.args.forEach((a) => this.#define(a, own[k]!)));
    w.varuint(op.regions.length);
    withActive(own, () => {
      for (const r of op.regions) {
        w.varuint(r.args.length);
        for (const a of r.args) {
          this.#string(a.name);
          this.#type(a.type);
          this.#location(a.span);
        }
      }
    });
    w.varuint(op.operands.length);
    for (const v of op.operands) w.varuint(this.#refOut(v));
    withActive(own, () => {
      const keys = Object.keys(op.props);
      w.varuint(keys.length);
      for (const k of keys) {
        this.#string(k);
        this.#prop(op.props[k], 0);
      }
      w.varuint(op.results.length);
      for (const v of op.results) {
        this.#string(v.name);
        this.#type(v.type);
        this.#location(v.span);
        this.#define(v, frame);
      }
    });
    op.regions.forEach((r, k) => withActive([own[k]!], () => this.#region(r, own[k]!, depth + 1)));
  }

  #region(r: Region, frame: Frame, depth: number): void {
    if (depth > LIMITS.regionDepth) invalid(`regions nest deeper than ${LIMITS.regionDepth}`);
    this.#regions++;
    this.#trailing(r.trailingComments, r.trailingBlank);
    this.#w.varuint(r.ops.length);
    for (const op of r.ops) this.#op(op, frame, depth);
  }

  #prop(p: Prop, depth: number): void {
    const w = this.#w;
    if (depth > LIMITS.propDepth) invalid(`props nest deeper than ${LIMITS.propDepth}`);
    switch (typeof p) {
      case "undefined":
        w.u8(PROP_TAG.undefined);
        return;
      case "boolean":
        w.u8(p ? PROP_TAG.true : PROP_TAG.false);
        return;
      case "string":
        w.u8(PROP_TAG.string);
        this.#string(p);
        return;
      case "number":
        if (isWireInteger(p)) w.u8(PROP_TAG.integer).varint(BigInt(p));
        else writeF64(w.u8(PROP_TAG.float), p);
        return;
      case "bigint":
        writeBigZigzag(w.u8(PROP_TAG.bigint), p);
        return;
      case "object":
        return this.#objectProp(p, depth);
      default:
        invalid(`a prop of type ${typeof p}`);
    }
  }

  #objectProp(p: object | null, depth: number): void {
    const w = this.#w;
    if (p === null) {
      w.u8(PROP_TAG.null);
      return;
    }
    if (p instanceof Value) {
      w.u8(PROP_TAG.value).varuint(this.#ref(p));
      return;
    }
    if (Array.isArray(p)) {
      w.u8(PROP_TAG.array).varuint(p.length);
      for (const x of p as readonly Prop[]) this.#prop(x, depth + 1);
      return;
    }
    if (!isPlainRecord(p)) invalid(`a prop object of class ${p.constructor?.name ?? "?"}`);
    const literal = asLiteral(p);
    if (literal) return this.#literal(literal);
    const predicate = asPredicate(p);
    if (predicate) return this.#predicate(predicate);
    const type = asType(p);
    if (type) {
      w.u8(PROP_TAG.type);
      this.#type(type);
      return;
    }
    const record = p as { readonly [key: string]: Prop };
    const keys = Object.keys(record);
    w.u8(PROP_TAG.record).varuint(keys.length);
    for (const k of keys) {
      this.#string(k);
      this.#prop(record[k], depth + 1);
    }
  }

  #literal(l: Literal): void {
    const w = this.#w.u8(PROP_TAG.literal);
    switch (l.kind) {
      case "int":
        writeBigZigzag(w.u8(LITERAL_TAG.int), l.value);
        return;
      case "float":
        writeF64(w.u8(LITERAL_TAG.float), l.value);
        return;
      case "bool":
        w.u8(LITERAL_TAG.bool).u8(l.value ? 1 : 0);
        return;
      case "string":
        w.u8(LITERAL_TAG.string);
        return this.#string(l.value);
      case "ident":
        w.u8(LITERAL_TAG.ident);
        return this.#string(l.value);
    }
  }

  #predicate(p: Predicate): void {
    this.#w.u8(PROP_TAG.predicate);
    this.#string(p.kind);
    this.#location(p.span);
    this.#w.varuint(p.args.length);
    for (const a of p.args) {
      if (typeof a === "bigint") writeBigZigzag(this.#w.u8(PRED_ARG_TAG.int), a);
      else this.#w.u8(PRED_ARG_TAG.value).varuint(this.#ref(a));
    }
  }
}
