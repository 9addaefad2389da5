/**
 * A module-bytecode reader written from docs/bytecode.md "Module sections", not from
 * src/bytecode/module (verification.md ".loombc bytecode" 2). It asserts the documented rules
 * (minimal varints, section order and presence, unique table entries, in-range indices, value
 * numbers defined before use) and returns a plain summary of the module for comparison with
 * the IR the text parser builds. The container itself is read by ../independent-reader.ts.
 */
import assert from "node:assert/strict";
import { independentRead } from "../independent-reader.js";

class Cursor {
  p = 0;
  constructor(readonly b: Uint8Array, readonly name: string) {}
  u8(): number {
    assert.ok(this.p < this.b.length, `${this.name}: read past the end`);
    return this.b[this.p++]!;
  }
  /** Unsigned LEB128, ≤ 10 bytes, minimal. */
  big(): bigint {
    let v = 0n;
    for (let i = 0; i < 10; i++) {
      const byte = this.u8();
      v |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (!(byte & 0x80)) {
        assert.ok(i === 0 || byte !== 0, `${this.name}: non-minimal varint`);
        return v;
      }
    }
    assert.fail(`${this.name}: varint longer than 10 bytes`);
  }
  n(): number {
    const v = this.big();
    assert.ok(v <= BigInt(Number.MAX_SAFE_INTEGER));
    return Number(v);
  }
  /** Arbitrary-length zigzag. */
  zigzag(): bigint {
    let v = 0n, shift = 0n;
    for (;;) {
      const byte = this.u8();
      v |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if (!(byte & 0x80)) break;
    }
    return v & 1n ? -((v + 1n) >> 1n) : v >> 1n;
  }
  end(): void {
    assert.equal(this.p, this.b.length, `${this.name}: trailing bytes`);
  }
}

export interface SummaryOp {
  name: string;
  comments: string[];
  blankBefore: boolean;
  args: string[][]; // per region: "%name: type"
  operands: string[];
  propKeys: string[];
  results: string[]; // "%name: type"
  regions: SummaryOp[][];
}

export interface ModuleSummary {
  locationMode: number;
  strings: string[];
  symbols: { name: string; op: string; position: number }[];
  ops: SummaryOp[];
  trailingComments: string[];
}

const ELEMENTS: Record<number, string> = { 1: "index", 2: "offset", 3: "i1", 4: "i8", 5: "i16", 6: "i32", 7: "i64", 10: "f16", 11: "bf16", 12: "f32", 13: "f64" };

export function readModuleSummary(file: Uint8Array): ModuleSummary {
  const container = independentRead(file);
  const locationMode = file[5]!;
  const withLocations = locationMode !== 1;
  const expectedKinds = withLocations ? [0, 1, 2, 4, 5, 6, 7] : [0, 2, 4, 6, 7];
  assert.deepEqual(container.sections.map((s) => s.kind), expectedKinds, "module sections in order");
  const sec = (kind: number) => new Cursor(container.sections.find((s) => s.kind === kind)!.bytes, `section ${kind}`);

  const sc = sec(0);
  const strings: string[] = [];
  for (let i = sc.n(); i > 0; i--) {
    const len = sc.n();
    strings.push(new TextDecoder("utf-8", { fatal: true }).decode(sc.b.subarray(sc.p, sc.p + len)));
    sc.p += len;
  }
  sc.end();
  assert.equal(strings[0], "");
  assert.equal(new Set(strings).size, strings.length, "unique strings");
  const str = (c: Cursor) => {
    const i = c.n();
    assert.ok(i < strings.length, "string index in range");
    return strings[i]!;
  };

  // Types are kept as spelling templates: "$k" stands for the k-th value number of the entry.
  const tc = sec(2);
  const types: { text: string; refs: number[] }[] = [];
  for (let i = tc.n(); i > 0; i--) {
    const kind = tc.u8();
    const refs: number[] = [];
    let text: string;
    if (kind === 1) text = ELEMENTS[tc.u8()]!;
    else if (kind === 7) {
      assert.equal(tc.u8(), 1);
      text = "encoding<layout>";
    } else if (kind === 11) text = "buffer";
    else if (kind === 9) {
      const el = ELEMENTS[tc.u8()]!;
      const dims: string[] = [];
      for (let r = tc.u8(); r > 0; r--) dims.push(`${tc.n()}x`);
      text = `vector<${dims.join("")}${el}>`;
    } else {
      // 10 view, 3 tensor (written as a view without a layout).
      assert.ok(kind === 10 || kind === 3, `type kind ${kind}`);
      const el = ELEMENTS[tc.u8()]!;
      const rank = tc.u8();
      const lt = tc.u8();
      let layout = "";
      if (lt === 1) layout = `, #${str(tc)}`;
      else if (lt === 2) {
        refs.push(tc.n());
        layout = `, $${refs.length - 1}`;
      } else if (lt === 3) {
        // A static strided layout: a count byte, then the strides as varints.
        const strides: number[] = [];
        for (let c = tc.u8(); c > 0; c--) strides.push(tc.n());
        layout = `, #encoding.layout.strided<strides=[${strides.join(", ")}]>`;
      } else assert.equal(lt, 0);
      const dims: string[] = [];
      for (let r = rank; r > 0; r--) {
        if (tc.u8() === 0) dims.push(`${tc.n()}x`);
        else {
          refs.push(tc.n());
          dims.push(`[$${refs.length - 1}]x`);
        }
      }
      if (kind === 3) assert.equal(lt, 0, "a tensor has no layout");
      text = `${kind === 3 ? "tensor" : "view"}<${dims.join("")}${el}${layout}>`;
    }
    assert.ok(el(text), `type ${types.length} has a known element`);
    types.push({ text, refs });
  }
  tc.end();

  const oc = sec(4);
  const opNames: string[] = [];
  for (let i = oc.n(); i > 0; i--) opNames.push(str(oc));
  oc.end();
  assert.equal(new Set(opNames).size, opNames.length, "unique op names");

  let locationCount = 0;
  if (withLocations) {
    const lc = sec(5);
    locationCount = lc.n();
    for (let i = 0; i < locationCount; i++) {
      lc.n();
      assert.ok(lc.n() >= 1 && lc.n() >= 1, "line and column start at 1");
      if (locationMode === 2) {
        lc.n();
        assert.ok(lc.n() >= 1);
      }
    }
    lc.end();
  }

  const ir = sec(7);
  const names: string[] = []; // value number → SSA name
  const declared = { values: ir.n(), ops: ir.n(), regions: ir.n() };
  let ops = 0, regions = 0;
  const location = () => {
    if (withLocations) assert.ok(ir.n() <= locationCount, "location index in range");
  };
  const value = () => {
    const n = ir.n();
    assert.ok(n < names.length, "value defined before use");
    return `%${names[n]}`;
  };
  const typeText = (i: number) => {
    assert.ok(i < types.length, "type index in range");
    const t = types[i]!;
    return t.text.replace(/\$(\d+)/g, (_, k: string) => {
      const n = t.refs[Number(k)]!;
      assert.ok(n < names.length, "type names a defined value");
      return `%${names[n]}`;
    });
  };
  const trailing = (): [boolean, string[]] => {
    const flags = ir.u8();
    assert.ok(flags <= 1);
    const comments: string[] = [];
    for (let i = ir.n(); i > 0; i--) comments.push(str(ir));
    return [flags === 1, comments];
  };
  const prop = (): void => {
    const tag = ir.u8();
    if (tag <= 3) return;
    if (tag === 4) str(ir);
    else if (tag === 5 || tag === 7) ir.zigzag();
    else if (tag === 6) ir.p += 8;
    else if (tag === 8) value();
    else if (tag === 9) {
      const k = ir.u8();
      if (k === 0) ir.zigzag();
      else if (k === 1) ir.p += 8;
      else if (k === 2) assert.ok(ir.u8() <= 1);
      else str(ir);
    } else if (tag === 10) {
      str(ir);
      location();
      for (let i = ir.n(); i > 0; i--) {
        if (ir.u8() === 0) value();
        else ir.zigzag();
      }
    } else if (tag === 11) typeText(ir.n());
    else if (tag === 12) for (let i = ir.n(); i > 0; i--) prop();
    else {
      assert.equal(tag, 13, "prop tag");
      for (let i = ir.n(); i > 0; i--) {
        str(ir);
        prop();
      }
    }
  };
  const op = (): SummaryOp => {
    ops++;
    const nameIndex = ir.n();
    assert.ok(nameIndex < opNames.length);
    const flags = ir.u8();
    assert.ok(flags <= 1);
    location();
    const comments: string[] = [];
    for (let i = ir.n(); i > 0; i--) comments.push(str(ir));
    const args: string[][] = [];
    const argTypes: [number, number][] = [];
    for (let k = ir.n(); k > 0; k--) {
      const list: string[] = [];
      for (let i = ir.n(); i > 0; i--) {
        names.push(str(ir));
        argTypes.push([args.length, list.length]);
        list.push(String(ir.n())); // type index, spelled after all arguments are numbered
        location();
      }
      args.push(list);
    }
    const firstArg = names.length - argTypes.length;
    argTypes.forEach(([k, i], j) => (args[k]![i] = `%${names[firstArg + j]}: ${typeText(Number(args[k]![i]))}`));
    const operands: string[] = [];
    for (let i = ir.n(); i > 0; i--) operands.push(value());
    const propKeys: string[] = [];
    for (let i = ir.n(); i > 0; i--) {
      propKeys.push(str(ir));
      prop();
    }
    const results: string[] = [];
    for (let i = ir.n(); i > 0; i--) {
      const name = str(ir);
      results.push(`%${name}: ${typeText(ir.n())}`);
      location();
      names.push(name);
    }
    const body: SummaryOp[][] = args.map(() => {
      regions++;
      trailing();
      const list: SummaryOp[] = [];
      for (let i = ir.n(); i > 0; i--) list.push(op());
      return list;
    });
    return { name: opNames[nameIndex]!, comments, blankBefore: flags === 1, args, operands, propKeys, results, regions: body };
  };
  const [, trailingComments] = trailing();
  const top: SummaryOp[] = [];
  for (let i = ir.n(); i > 0; i--) top.push(op());
  ir.end();
  assert.deepEqual({ values: names.length, ops, regions }, declared, "declared totals");

  const yc = sec(6);
  const symbols: ModuleSummary["symbols"] = [];
  for (let i = yc.n(); i > 0; i--) symbols.push({ name: str(yc), op: opNames[yc.n()]!, position: yc.n() });
  yc.end();
  return { locationMode, strings, symbols, ops: top, trailingComments };
}

function el(text: string): boolean {
  return !text.includes("undefined");
}
