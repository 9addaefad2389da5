/**
 * IR section decoder: the inverse of ./encode-ir.ts, for untrusted bytes. Every loop runs at
 * most once per byte consumed, values are referenced only when numbered and in scope
 * (./scopes.ts), nesting is bounded, and the printed size of what is built is bounded by an
 * expansion budget, so time and memory stay proportional to the input.
 */
import { Module, Op, Region, Value, type Literal, type Predicate, type Prop, type Span } from "../../ir/core.js";
import { T, type Type } from "../../ir/types.js";
import { ByteReader } from "../bytes.js";
import { LIMITS, LITERAL_TAG, OP_FLAG_BLANK_BEFORE, PRED_ARG_TAG, PROP_TAG, TRAILING_FLAG_BLANK } from "./format.js";
import { badReference, count, limitExceeded } from "./faults.js";
import { isWireInteger, readBigZigzag, readF64 } from "./numbers.js";
import { Frame, Numbering, withActive } from "./scopes.js";
import { asLiteral, asPredicate, asType } from "./shapes.js";
import { stringAt, type TypeTable } from "./tables-read.js";

export interface IrTables {
  readonly strings: readonly string[];
  readonly types: TypeTable;
  readonly opNames: readonly string[];
  /** Undefined when the file carries no locations. */
  readonly locations: readonly (Span | undefined)[] | undefined;
  /** Printed characters the module may expand to. */
  readonly budget: number;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER), MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export class IrDecoder {
  readonly #r: ByteReader;
  readonly #numbering = new Numbering();
  readonly #values: Value[] = [];
  #spent = 0;
  #ops = 0;
  #regions = 0;
  #declared = { values: 0, ops: 0, regions: 0 };

  constructor(
    bytes: Uint8Array,
    base: number,
    private readonly t: IrTables,
  ) {
    this.#r = new ByteReader(bytes, "ir section", base);
  }

  decode(sourceName: string): Module {
    const r = this.#r;
    this.#declared = { values: count(r, "value count"), ops: count(r, "op count"), regions: count(r, "region count") };
    const m = new Module(sourceName);
    [m.trailingBlank, m.trailingComments] = this.#trailing();
    const top = new Frame();
    top.active = true;
    const n = count(r, "top-level op count");
    for (let i = 0; i < n; i++) m.ops.push(this.#op(null, top, 0));
    const d = this.#declared;
    if (this.#numbering.count !== d.values || this.#ops !== d.ops || this.#regions !== d.regions) {
      r.fail(`declared ${d.values} values, ${d.ops} ops, ${d.regions} regions but found ${this.#numbering.count}, ${this.#ops}, ${this.#regions}`);
    }
    r.expectEnd();
    return m;
  }

  #spend(n: number): void {
    this.#spent += n;
    if (this.#spent > this.t.budget) limitExceeded(this.#r, `the module expands to more than ${this.t.budget} characters`);
  }

  #string(what: string): string {
    const s = stringAt(this.#r, this.t.strings, what);
    this.#spend(s.length + 1);
    return s;
  }

  #strings(what: string): string[] {
    const out: string[] = [];
    const n = count(this.#r, `${what} count`);
    for (let i = 0; i < n; i++) out.push(this.#string(what));
    return out;
  }

  #trailing(): [boolean, string[]] {
    const flags = this.#r.u8("trailing flags");
    if ((flags & ~TRAILING_FLAG_BLANK) !== 0) this.#r.fail(`unknown trailing flag bits ${flags}`);
    return [(flags & TRAILING_FLAG_BLANK) !== 0, this.#strings("comment")];
  }

  #location(): Span | undefined {
    const spans = this.t.locations;
    if (spans === undefined) return undefined;
    const i = this.#r.varuint64("location");
    if (i >= BigInt(spans.length)) badReference(this.#r, `location ${i} does not exist (${spans.length - 1} locations)`);
    return spans[Number(i)];
  }

  #define(v: Value, frame: Frame): void {
    if (this.#values.length >= this.#declared.values) this.#r.fail(`more values than the declared ${this.#declared.values}`);
    this.#numbering.define(frame);
    this.#values.push(v);
    this.#spend(v.name.length + 4);
  }

  #value(what: string): Value {
    const n = this.#r.varuint64(what);
    if (n >= BigInt(this.#values.length)) badReference(this.#r, `${what} #${n} is not defined yet (${this.#values.length} defined so far)`);
    const problem = this.#numbering.problem(Number(n));
    if (problem !== undefined) badReference(this.#r, `${what}: ${problem}`);
    this.#spend(8);
    return this.#values[Number(n)]!;
  }

  #typeIndex(): number {
    const i = this.#r.varuint64("type");
    if (i >= BigInt(this.t.types.length)) badReference(this.#r, `type ${i} does not exist (${this.t.types.length} types)`);
    return Number(i);
  }

  /** The type of entry `i`, after checking the values it names may be referenced here. */
  #type(i: number): Type {
    const entry = this.t.types.entry(i);
    const values = entry.refs.map((n) => {
      const problem = this.#numbering.problem(n);
      if (problem !== undefined) badReference(this.#r, `type ${i}: ${problem}`);
      return this.#values[n]!;
    });
    this.#spend(entry.size);
    return this.t.types.build(i, values);
  }

  #op(parent: Region | null, frame: Frame, depth: number): Op {
    const r = this.#r;
    if (++this.#ops > this.#declared.ops) r.fail(`more ops than the declared ${this.#declared.ops}`);
    const nameIndex = r.varuint64("op name");
    if (nameIndex >= BigInt(this.t.opNames.length)) badReference(r, `op name ${nameIndex} does not exist (${this.t.opNames.length} op names)`);
    const op = new Op(this.t.opNames[Number(nameIndex)]!);
    op.parent = parent;
    this.#spend(op.name.length + 16);
    const flags = r.u8("op flags");
    if ((flags & ~OP_FLAG_BLANK_BEFORE) !== 0) r.fail(`unknown op flag bits ${flags}`);
    op.blankBefore = (flags & OP_FLAG_BLANK_BEFORE) !== 0;
    op.span = this.#location();
    op.comments = this.#strings("comment");

    // Region arguments first; their types may name sibling arguments, so they are built after.
    const own: Frame[] = [];
    const pending: [Value, number][] = [];
    const regionCount = count(r, "region count");
    for (let k = 0; k < regionCount; k++) {
      const region = op.addRegion();
      const f = new Frame();
      own.push(f);
      const argCount = count(r, "argument count");
      for (let i = 0; i < argCount; i++) {
        const name = this.#string("argument name");
        const type = this.#typeIndex();
        const v = region.addArg(name, T.index, this.#location());
        this.#define(v, f);
        pending.push([v, type]);
      }
    }
    const operandCount = count(r, "operand count");
    for (let i = 0; i < operandCount; i++) op.operands.push(this.#value("operand"));
    withActive(own, () => {
      for (const [v, type] of pending) v.type = this.#type(type);
      const propCount = count(r, "prop count");
      for (let i = 0; i < propCount; i++) {
        const key = this.#key(op.props);
        op.props[key] = this.#prop(0);
      }
      const resultCount = count(r, "result count");
      for (let i = 0; i < resultCount; i++) {
        const name = this.#string("result name");
        const type = this.#type(this.#typeIndex());
        this.#define(op.addResult(name, type, this.#location()), frame);
      }
    });
    op.regions.forEach((region, k) => withActive([own[k]!], () => this.#region(region, own[k]!, depth + 1)));
    return op;
  }

  #region(region: Region, frame: Frame, depth: number): void {
    const r = this.#r;
    if (depth > LIMITS.regionDepth) limitExceeded(r, `regions nest deeper than ${LIMITS.regionDepth}`);
    if (++this.#regions > this.#declared.regions) r.fail(`more regions than the declared ${this.#declared.regions}`);
    [region.trailingBlank, region.trailingComments] = this.#trailing();
    const n = count(r, "op count");
    for (let i = 0; i < n; i++) region.ops.push(this.#op(region, frame, depth));
  }

  /** A record or props key: unique in its object, and never one that would reach the prototype. */
  #key(into: object): string {
    const key = this.#string("prop key");
    if (key === "__proto__" || Object.prototype.hasOwnProperty.call(into, key)) this.#r.fail(`prop key '${key}' is repeated or not allowed`);
    return key;
  }

  #prop(depth: number): Prop {
    const r = this.#r;
    if (depth > LIMITS.propDepth) limitExceeded(r, `props nest deeper than ${LIMITS.propDepth}`);
    this.#spend(2);
    const tag = r.u8("prop tag");
    switch (tag) {
      case PROP_TAG.undefined:
        return undefined;
      case PROP_TAG.null:
        return null;
      case PROP_TAG.false:
        return false;
      case PROP_TAG.true:
        return true;
      case PROP_TAG.string:
        return this.#string("string prop");
      case PROP_TAG.integer: {
        const v = r.varint("integer prop");
        if (v < MIN_SAFE || v > MAX_SAFE) r.fail(`integer prop ${v} is not a safe integer`);
        return Number(v);
      }
      case PROP_TAG.float: {
        const x = readF64(r, "float prop");
        if (isWireInteger(x)) r.fail(`float prop ${x} must be written as an integer`);
        return x;
      }
      case PROP_TAG.bigint:
        return this.#bigint("bigint prop");
      case PROP_TAG.value:
        return this.#value("value prop");
      case PROP_TAG.literal:
        return this.#literal();
      case PROP_TAG.predicate:
        return this.#predicate();
      case PROP_TAG.type:
        return this.#type(this.#typeIndex());
      case PROP_TAG.array: {
        const out: Prop[] = [];
        const n = count(r, "array length");
        for (let i = 0; i < n; i++) out.push(this.#prop(depth + 1));
        return out;
      }
      case PROP_TAG.record: {
        const out: { [key: string]: Prop } = {};
        const n = count(r, "record size");
        for (let i = 0; i < n; i++) {
          const key = this.#key(out);
          out[key] = this.#prop(depth + 1);
        }
        if (asLiteral(out) || asPredicate(out) || asType(out)) r.fail("a literal, predicate or type written as a generic record");
        return out;
      }
      default:
        return r.fail(`unknown prop tag ${tag}`);
    }
  }

  #bigint(what: string): bigint {
    // Each LEB128 byte carries 7 bits, at most 3 decimal digits.
    const start = this.#r.position;
    const v = readBigZigzag(this.#r, what);
    this.#spend(3 * (this.#r.position - start) + 1);
    return v;
  }

  #literal(): Literal {
    const r = this.#r;
    const kind = r.u8("literal kind");
    switch (kind) {
      case LITERAL_TAG.int:
        return { kind: "int", value: this.#bigint("integer literal") };
      case LITERAL_TAG.float:
        return { kind: "float", value: readF64(r, "float literal") };
      case LITERAL_TAG.bool: {
        const b = r.u8("bool literal");
        if (b > 1) r.fail(`bool literal ${b} is not 0 or 1`);
        return { kind: "bool", value: b === 1 };
      }
      case LITERAL_TAG.string:
        return { kind: "string", value: this.#string("string literal") };
      case LITERAL_TAG.ident:
        return { kind: "ident", value: this.#string("identifier literal") };
      default:
        return r.fail(`unknown literal kind ${kind}`);
    }
  }

  #predicate(): Predicate {
    const r = this.#r;
    const kind = this.#string("predicate kind");
    const span = this.#location();
    const args: (Value | bigint)[] = [];
    const n = count(r, "predicate argument count");
    for (let i = 0; i < n; i++) {
      const tag = r.u8("predicate argument tag");
      if (tag === PRED_ARG_TAG.value) args.push(this.#value("predicate argument"));
      else if (tag === PRED_ARG_TAG.int) args.push(this.#bigint("predicate argument"));
      else r.fail(`unknown predicate argument tag ${tag}`);
      this.#spend(8);
    }
    return { kind, args, span };
  }
}
