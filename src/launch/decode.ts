/**
 * `.loombc` bytes → `LaunchFunction`s, validating everything (docs/launch-config.md):
 * container and string table, opcodes, type ids, flags and predicates allowed per op,
 * every operand register defined before use and visible (structured scoping), types
 * consistent per op, regions properly terminated, counts and nesting bounded. Any problem
 * is `LoomError("data-loss")` naming the function, the byte offset and what was wrong.
 */
import { LoomError } from "../core/errors.js";
import { ByteReader } from "../bytecode/bytes.js";
import { findSection, readContainer } from "../bytecode/container.js";
import { SECTION } from "../bytecode/sections.js";
import { decodeStringTable } from "../bytecode/strings.js";
import { I64_MAX } from "../dialects/index/semantics.js";
import { PREDICATE_ARITY, bitsToFloat, floatToBits } from "../dialects/scalar/semantics.js";
import {
  EXPORT_NAME, LAUNCH_ENCODING_VERSION, LIMITS, PREDICATE_KINDS, TYPE_BY_ID, countLocatedOps,
  isAddressType, isFloatType, isIntType, typeWidth, type LOp, type LPredArg, type LPredicate, type LType, type LaunchFunction,
  type LaunchLocations, type LaunchSourceLocation,
} from "./model.js";
import { OP_LIST } from "./ops.js";

export interface DecodedLaunchProgram {
  readonly producer: string;
  readonly functions: readonly LaunchFunction[];
}

export function decodeLaunchConfig(bytes: Uint8Array): DecodedLaunchProgram {
  const container = readContainer(bytes);
  const stringSection = findSection(container, SECTION.strings);
  const launchSection = findSection(container, SECTION.launch);
  if (!stringSection || !launchSection) {
    throw new LoomError("data-loss", "malformed .loombc: a launch-config program needs a strings section and a launch section");
  }
  const strings = decodeStringTable(stringSection.bytes, stringSection.offset ?? 0);
  const r = new ByteReader(launchSection.bytes, "launch section", launchSection.offset ?? 0);
  const version = r.varuint("launch encoding version", 0xffff);
  if (version !== LAUNCH_ENCODING_VERSION) r.fail(`unsupported launch encoding version ${version} (this reader accepts only ${LAUNCH_ENCODING_VERSION})`);
  const count = r.varuint("function count", Math.min(LIMITS.functions, r.remaining));
  const functions: LaunchFunction[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const f = new FunctionDecoder(r, strings, i).run();
    if (names.has(f.exportName)) r.fail(`function name '${f.exportName}' appears twice`);
    names.add(f.exportName);
    functions.push(f);
  }
  r.expectEnd();
  const locationSection = findSection(container, SECTION.launchLocations);
  if ((locationSection !== undefined) !== (container.locationMode === 0)) {
    throw new LoomError("data-loss", `malformed .loombc: location mode ${container.locationMode} ${locationSection ? "with" : "without"} a launch-locations section (it is present exactly when the mode is 0)`);
  }
  if (!locationSection) return { producer: container.producer, functions };
  const located = decodeLocations(new ByteReader(locationSection.bytes, "launch-locations section", locationSection.offset ?? 0), strings, functions);
  return { producer: container.producer, functions: located };
}

/**
 * The optional `launch-locations` section: one entry per function, per `where` predicate and
 * per op other than scf.yield, counts checked against the launch section. A function whose
 * entries are all unknown gets no `locations` (and a section with no known entry at all is
 * refused), so decode → encode stays the identity.
 */
function decodeLocations(r: ByteReader, strings: readonly string[], functions: readonly LaunchFunction[]): LaunchFunction[] {
  const count = r.varuint("function count", LIMITS.functions);
  if (count !== functions.length) r.fail(`${count} function(s), but the launch section has ${functions.length}`);
  let known = false;
  const loc = (what: string): LaunchSourceLocation | undefined => {
    const source = r.varuint(`${what} source`, strings.length - 1);
    if (source === 0) return undefined;
    known = true;
    const line = r.varuint(`${what} line`, LIMITS.u32);
    const column = r.varuint(`${what} column`, LIMITS.u32);
    if (line === 0 || column === 0) r.fail(`${what} has line ${line}, column ${column} (both start at 1)`);
    return { source: strings[source]!, line, column };
  };
  const out = functions.map((f) => {
    const what = `function '${f.exportName}'`;
    const fn = loc(what);
    const whereCount = r.varuint(`${what} where count`, LIMITS.predicates);
    if (whereCount !== f.where.length) r.fail(`${what}: ${whereCount} where location(s) for ${f.where.length} predicate(s)`);
    const where = Array.from({ length: whereCount }, (_, i) => loc(`${what} where ${i}`));
    const expected = countLocatedOps(f.body);
    const opCount = r.varuint(`${what} op count`, LIMITS.opsPerFunction);
    if (opCount !== expected) r.fail(`${what}: ${opCount} op location(s) for ${expected} op(s) other than scf.yield`);
    const ops = Array.from({ length: opCount }, (_, i) => loc(`${what} op ${i}`));
    const locations: LaunchLocations = { function: fn, where, ops };
    const any = fn !== undefined || where.some((l) => l !== undefined) || ops.some((l) => l !== undefined);
    return any ? { ...f, locations } : f;
  });
  r.expectEnd();
  if (!known) r.fail("no location is known (an artifact without locations has no launch-locations section)");
  return out;
}

class FunctionDecoder {
  readonly types: LType[] = [];
  /** 1 while a register's definition is in scope. */
  readonly visible: number[] = [];
  #ops = 0;
  #name: string;

  constructor(readonly r: ByteReader, readonly strings: readonly string[], readonly index: number) {
    this.#name = `function ${index}`;
  }

  fail(what: string): never {
    return this.r.fail(`${this.#name}: ${what}`);
  }

  string(what: string): string {
    const i = this.r.varuint(what, this.strings.length - 1);
    return this.strings[i]!;
  }
  u32(what: string): number {
    return this.r.varuint(what, LIMITS.u32);
  }
  type(what: string): LType {
    const id = this.r.u8(what);
    return TYPE_BY_ID.get(id) ?? this.fail(`unknown type id ${id} for ${what}`);
  }

  run(): LaunchFunction {
    const exportName = this.string("export name");
    if (!EXPORT_NAME.test(exportName)) this.fail(`export name '${exportName}' is not an identifier`);
    this.#name = `function '${exportName}'`;
    const subgroupSize = this.u32("subgroup size");
    const workgroupStorageBytes = this.u32("workgroup storage bytes");
    const maxWorkgroupCount: [number, number, number] = [this.u32("max workgroup count"), this.u32("max workgroup count"), this.u32("max workgroup count")];
    const maxWorkgroupSize: [number, number, number] = [this.u32("max workgroup size"), this.u32("max workgroup size"), this.u32("max workgroup size")];
    const maxFlatWorkgroupSize = this.u32("max flat workgroup size");
    const argCount = this.r.varuint("argument count", LIMITS.args);
    const args: { name: string; type: LType }[] = [];
    for (let i = 0; i < argCount; i++) {
      const name = this.string("argument name");
      const type = this.type("argument type");
      args.push({ name, type });
      this.define(type);
    }
    const where = this.predicates("where");
    const body = this.region(0, "launch", []).ops;
    return { exportName, args, where, subgroupSize, workgroupStorageBytes, limits: { maxWorkgroupCount, maxWorkgroupSize, maxFlatWorkgroupSize }, body, registerTypes: this.types };
  }

  define(t: LType): number {
    if (this.types.length >= LIMITS.registers) this.fail(`more than ${LIMITS.registers} values`);
    this.types.push(t);
    this.visible.push(1);
    return this.types.length - 1;
  }

  reg(what: string): number {
    const n = this.r.varuint64(what);
    if (n >= BigInt(this.types.length)) this.fail(`${what} refers to value ${n}, which is not defined yet`);
    const i = Number(n);
    if (!this.visible[i]) this.fail(`${what} refers to value ${i}, which is out of scope`);
    return i;
  }

  predicates(what: string): LPredicate[] {
    const n = this.r.varuint(`${what} predicate count`, LIMITS.predicates);
    const out: LPredicate[] = [];
    for (let i = 0; i < n; i++) {
      const id = this.r.u8("predicate kind");
      const kind = PREDICATE_KINDS[id] ?? this.fail(`unknown predicate kind ${id}`);
      const args: LPredArg[] = [];
      for (let k = 0; k < PREDICATE_ARITY[kind]!; k++) {
        const tag = this.r.u8("predicate argument tag");
        if (tag === 0) args.push(this.reg(`${kind} argument`));
        else if (tag === 1) args.push(this.r.varint(`${kind} literal`));
        else this.fail(`predicate argument tag ${tag} is not 0 or 1`);
      }
      out.push({ kind, args });
    }
    return out;
  }

  /** Decodes a region; `expect` is the terminator and, for yield, the yielded types. */
  region(depth: number, expect: "launch" | readonly LType[], argTypes: readonly LType[]): { ops: LOp[]; args: number[] } {
    if (depth > LIMITS.nesting) this.fail(`regions nested deeper than ${LIMITS.nesting}`);
    const start = this.types.length;
    const args = argTypes.map((t) => this.define(t));
    const n = this.r.varuint("op count", LIMITS.opsPerFunction);
    if (n === 0) this.fail("empty region (a region ends with its terminator)");
    const ops: LOp[] = [];
    for (let i = 0; i < n; i++) {
      if (++this.#ops > LIMITS.opsPerFunction) this.fail(`more than ${LIMITS.opsPerFunction} ops`);
      const op = this.op(depth);
      const last = i === n - 1;
      if (op.kind === "launch" && !(last && expect === "launch")) this.fail("kernel.launch.config must be the last op of the config region");
      if (op.kind === "yield") {
        if (!last || expect === "launch") this.fail("scf.yield must be the last op of an scf region");
        const got = op.operands.map((o) => this.types[o]!);
        if (got.length !== expect.length || got.some((t, k) => t !== expect[k])) this.fail(`scf.yield yields (${got.join(", ")}), expected (${expect.join(", ")})`);
      }
      if (last && op.kind !== (expect === "launch" ? "launch" : "yield")) this.fail(`region does not end with ${expect === "launch" ? "kernel.launch.config" : "scf.yield"}`);
      ops.push(op);
    }
    for (let i = start; i < this.types.length; i++) this.visible[i] = 0;
    return { ops, args };
  }

  op(depth: number): LOp {
    const opcode = this.r.varuint("opcode", 0xffff);
    const info = OP_LIST[opcode] ?? this.fail(`unknown opcode ${opcode}`);
    const name = info.name;
    switch (info.shape) {
      case "constant": {
        const type = this.type(`${name} type`);
        this.check(info.check([], type), name);
        const value = this.constantValue(type, name);
        return { kind: "constant", name: name as "index.constant", type, value, result: this.define(type) };
      }
      case "simple": {
        const type = this.type(`${name} result type`);
        const flags = this.r.varuint(`${name} flags`, 0x1ff);
        if ((flags & ~info.flags) !== 0) this.fail(`${name} does not accept flags ${flags}`);
        let predicate: string | undefined;
        if (info.predicates) {
          const p = this.r.u8(`${name} predicate`);
          predicate = info.predicates[p] ?? this.fail(`${name} predicate ${p} is unknown`);
        }
        const operands: number[] = [];
        for (let i = 0; i < info.arity; i++) operands.push(this.reg(`${name} operand ${i}`));
        this.check(info.check(operands.map((o) => this.types[o]!), type), name);
        const result = this.define(type);
        return predicate === undefined ? { kind: "simple", name, type, operands, flags, result } : { kind: "simple", name, type, operands, flags, predicate, result };
      }
      case "assume": {
        const n = this.r.varuint(`${name} value count`, LIMITS.assumeValues);
        if (n === 0) this.fail(`${name} without values`);
        const operands: number[] = [];
        for (let i = 0; i < n; i++) operands.push(this.reg(`${name} operand ${i}`));
        const types = operands.map((o) => this.types[o]!);
        const allowed = (t: LType): boolean => (name === "index.assume" ? isAddressType(t) : isIntType(t) || isFloatType(t));
        if (!types.every(allowed)) this.fail(`${name} of (${types.join(", ")})`);
        const predicates = this.predicates(name);
        return { kind: "assume", name: name as "index.assume", operands, predicates, results: types.map((t) => this.define(t)) };
      }
      case "select": {
        const c = this.reg("scf.select condition"), a = this.reg("scf.select operand"), b = this.reg("scf.select operand");
        if (this.types[c] !== "i1" || this.types[a] !== this.types[b]) this.fail(`scf.select of (${this.types[c]}, ${this.types[a]}, ${this.types[b]})`);
        return { kind: "select", operands: [c, a, b], result: this.define(this.types[a]!) };
      }
      case "if": {
        const cond = this.reg("scf.if condition");
        if (this.types[cond] !== "i1") this.fail(`scf.if condition has type ${this.types[cond]}`);
        const n = this.r.varuint("scf.if result count", LIMITS.yieldValues);
        const resultTypes: LType[] = [];
        for (let i = 0; i < n; i++) resultTypes.push(this.type("scf.if result type"));
        const then = this.region(depth + 1, resultTypes, []).ops;
        const hasElse = this.r.u8("scf.if else flag");
        if (hasElse > 1) this.fail(`scf.if else flag ${hasElse} is not 0 or 1`);
        if (!hasElse && n > 0) this.fail("scf.if with results needs an else region");
        const els = hasElse ? this.region(depth + 1, resultTypes, []).ops : [];
        return { kind: "if", cond, resultTypes, then, else: els, hasElse: hasElse === 1, results: resultTypes.map((t) => this.define(t)) };
      }
      case "for": {
        const lo = this.reg("scf.for lower bound"), hi = this.reg("scf.for upper bound"), step = this.reg("scf.for step");
        const t = this.types[lo]!;
        if (!isAddressType(t) || this.types[hi] !== t || this.types[step] !== t) this.fail(`scf.for bounds (${this.types[lo]}, ${this.types[hi]}, ${this.types[step]}) must be all index or all offset`);
        const n = this.r.varuint("scf.for init count", LIMITS.yieldValues);
        const inits: number[] = [];
        for (let i = 0; i < n; i++) inits.push(this.reg("scf.for init"));
        const initTypes = inits.map((o) => this.types[o]!);
        const body = this.region(depth + 1, initTypes, [t, ...initTypes]);
        const [iv, ...iterArgs] = body.args;
        return { kind: "for", lo, hi, step, inits, iv: iv!, iterArgs, body: body.ops, results: initTypes.map((ty) => this.define(ty)) };
      }
      case "yield": {
        const n = this.r.varuint("scf.yield value count", LIMITS.yieldValues);
        const operands: number[] = [];
        for (let i = 0; i < n; i++) operands.push(this.reg("scf.yield operand"));
        return { kind: "yield", operands };
      }
      case "launch": {
        if (depth !== 0) this.fail("kernel.launch.config inside a nested region");
        const cluster = this.r.u8("kernel.launch.config cluster flag");
        if (cluster > 1) this.fail(`cluster flag ${cluster} is not 0 or 1`);
        const operands: number[] = [];
        for (let i = 0; i < (cluster ? 9 : 6); i++) operands.push(this.reg("kernel.launch.config operand"));
        if (operands.some((o) => this.types[o] !== "index")) this.fail("kernel.launch.config operands must be index");
        return { kind: "launch", operands };
      }
    }
  }

  check(error: string | undefined, name: string): void {
    if (error !== undefined) this.fail(`${name}: ${error}`);
  }

  constantValue(type: LType, name: string): bigint | number {
    if (type === "index") return this.r.varint(`${name} value`);
    const bits = this.r.varuint64(`${name} value`);
    if (bits >= 1n << BigInt(typeWidth(type))) this.fail(`${name} value ${bits} does not fit ${type}`);
    if (type === "offset" && bits > I64_MAX) this.fail(`offset constant ${bits} exceeds 2^63-1`);
    if (!isFloatType(type)) return bits;
    const value = bitsToFloat(bits, type);
    if (floatToBits(value, type) !== bits) this.fail(`${name} is a non-canonical NaN (bits ${bits})`);
    return value;
  }
}
