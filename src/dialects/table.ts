/**
 * The v1 op table (language.md §4): one declarative entry per op.
 *
 * - `placement`: the letters of the C/D/F columns — where the op may appear
 *   (C = launch-config region, D = kernel body and nested `scf` regions, F = `func.def` /
 *   `template.def` body). Top-level ops have `""` and `topLevel: true`.
 *   `func.call` / `template.apply` / `template.call` list C because they are allowed there when
 *   `pure` (the verifier checks the modifier: STRUCTURE/052).
 * - `pure`: the op itself has no memory effects and no synchronisation, so it may be removed or
 *   moved freely. Region ops (`scf.*`) are pure as ops; their nested ops decide. Calls are not
 *   (their `pure` modifier and callee decide).
 * - `terminator`: ends a region block.
 *
 * Target-record ops (`<environment>.target`) are not listed: each target package declares its
 * own, and `lookupOp` answers for the ones registered in core/target-records.ts.
 *
 * The parser uses it to recognise v1 op names (anything else is PARSE/006); the verifier uses it
 * for placement (STRUCTURE/029) and effects (STRUCTURE/017).
 */

import { targetRecordSpec } from "../core/target-records.js";

export interface OpInfo {
  readonly name: string;
  readonly placement: string;
  readonly pure: boolean;
  readonly terminator: boolean;
  readonly topLevel: boolean;
  readonly doc: string;
}

const entries: OpInfo[] = [];

function op(name: string, placement: string, pure: boolean, doc: string, extra?: { terminator?: boolean; topLevel?: boolean }): void {
  entries.push({ name, placement, pure, terminator: extra?.terminator ?? false, topLevel: extra?.topLevel ?? false, doc });
}
function ops(prefix: string, names: string, placement: string, pure: boolean, doc: string): void {
  for (const n of names.split(" ")) op(`${prefix}.${n}`, placement, pure, doc);
}
function top(name: string, doc: string): void {
  op(name, "", false, doc, { topLevel: true });
}

// §2, §4.1, §4.8–§4.11: top-level ops.
top("kernel.def", "dispatchable kernel: launch-config region and device body");
top("kernel.decl", "declaration of a kernel defined in another module");
top("func.def", "function definition (inlined into kernels in v1)");
top("func.decl", "declaration of a function defined elsewhere");
top("template.decl", "template family: a signature that providers implement");
top("template.def", "template provider of a family");
top("config.decl", "declaration of a compile-time config key");
top("config.def", "value binding of a config key");
top("target.decl", "target record bound by the embedding at compile time");
top("module.import", "restricts which provider module may define the listed declarations");
top("alias", "`#name = #encoding.layout.dense` attribute alias");

// §4.1 kernel
op("kernel.launch.config", "C", true, "yields the launch geometry; last op of the config region", { terminator: true });
op("kernel.return", "D", true, "ends the invocation; terminator of the kernel body", { terminator: true });
ops("kernel", "workitem.id workgroup.id workgroup.size workgroup.count workitem.dispatch.id", "D", true, "launch coordinate query along a dimension");
ops("kernel", "subgroup.id subgroup.size subgroup.lane.id subgroup.count", "D", true, "subgroup coordinate query");
op("kernel.barrier", "DF", false, "workgroup/global memory barrier at a scope");
op("kernel.subgroup.reduce", "D", false, "subgroup collective reduction");
op("kernel.subgroup.shuffle", "D", false, "subgroup lane shuffle");
op("kernel.subgroup.broadcast", "D", false, "subgroup broadcast from one lane");
op("kernel.workgroup.reduce", "D", false, "workgroup collective reduction (may use compiler scratch)");
op("kernel.assert", "D", false, "traps the dispatch when the condition is false");

// §4.2 index
op("index.constant", "CDF", true, "index/offset constant");
op("index.cast", "CDF", true, "conversion between integers and the address domain");
ops("index", "add sub", "CDF", true, "index/offset arithmetic");
ops("index", "mul div rem min max madd", "CDF", true, "index arithmetic");
op("index.scale", "CDF", true, "index times offset, as a byte offset");
ops("index", "andi ori xori shli shrsi shrui rotli rotri", "CDF", true, "bitwise op on the 64-bit index carrier");
ops("index", "ctlzi cttzi ctpopi", "CDF", true, "bit count of the 64-bit index carrier");
op("index.cmp", "CDF", true, "index/offset comparison");
op("index.assume", "CDF", true, "identity carrying predicate facts");

// §4.3 scalar
op("scalar.constant", "CDF", true, "integer or float constant");
ops("scalar", "addi subi muli divsi divui remsi remui ceildivsi ceildivui floordivsi negi absi minsi maxsi minui maxui andi ori xori shli shrsi shrui", "CDF", true, "integer arithmetic");
ops("scalar", "addf subf mulf divf remf negf absf copysignf fmaf minimumf maximumf minnumf maxnumf", "CDF", true, "float arithmetic");
ops("scalar", "expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff powf", "DF", true, "float math function");
ops("scalar", "ceilf floorf roundf roundevenf truncf", "CDF", true, "float rounding");
ops("scalar", "cmpi cmpf", "CDF", true, "comparison producing i1");
ops("scalar", "sitofp uitofp fptosi fptoui extf fptrunc extsi extui trunci bitcast", "CDF", true, "scalar conversion");
op("scalar.assume", "CDF", true, "identity carrying predicate facts");

// §4.4 scf
op("scf.if", "CDF", true, "two-way structured branch");
op("scf.for", "CDF", true, "counted loop with iter-args");
op("scf.while", "DF", true, "condition-first loop");
op("scf.yield", "CDF", true, "forwards values out of an scf region", { terminator: true });
op("scf.condition", "DF", true, "scf.while before-region terminator", { terminator: true });
op("scf.select", "CDF", true, "whole-value select");

// §4.5 buffer and layouts
op("buffer.view", "DF", true, "typed view of a buffer at a byte offset");
op("buffer.alloca", "DF", false, "fresh workgroup/private scratch buffer");
ops("buffer", "assume.noalias assume.alignment assume.memory_space", "DF", true, "buffer facts");
op("buffer.length", "DF", true, "byte length of a buffer root");
ops("encoding", "layout.dense layout.strided", "DF", true, "layout value");

// §4.6 view
op("view.load", "DF", false, "reads one element");
op("view.store", "DF", false, "writes one element");
op("view.subview", "DF", true, "moves a view's origin");
ops("view", "atomic.rmw atomic.reduce atomic.cmpxchg atomic.load atomic.store", "DF", false, "atomic element access");

// §4.7 vector
op("vector.constant", "DF", true, "vector with every lane set to a literal");
op("vector.splat", "DF", true, "broadcast a scalar");
op("vector.from_elements", "DF", true, "vector from lanes");
ops("vector", "extract insert", "DF", true, "lane or sub-vector access");
op("vector.load", "DF", false, "reads a lane grid from a view");
op("vector.store", "DF", false, "writes a lane grid to a view");
ops("vector", "addf subf mulf divf minimumf maximumf minnumf maxnumf fmaf", "DF", true, "lanewise float arithmetic");
ops("vector", "addi subi muli divsi divui remsi remui minsi maxsi minui maxui andi ori xori shli shrsi shrui", "DF", true, "lanewise integer arithmetic");
ops("vector", "negf absf expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff ceilf floorf roundf roundevenf truncf negi absi", "DF", true, "lanewise unary op");
ops("vector", "cmpi cmpf", "DF", true, "lanewise comparison");
op("vector.select", "DF", true, "lanewise select");
ops("vector", "sitofp uitofp fptosi fptoui extf fptrunc extsi extui trunci bitcast", "DF", true, "lanewise conversion");
op("vector.reduce", "DF", true, "in-order fold of the lanes");

// §4.8 func, §4.9 template, §4.10 config, §4.11 target
op("func.call", "CDF", false, "direct call (C only when `pure`)");
op("func.return", "F", true, "returns from a func.def", { terminator: true });
op("template.apply", "CDF", false, "call of a template family, resolved to a provider (C only when `pure`)");
op("template.call", "CDF", false, "direct call of a template provider (C only when `pure`)");
op("template.return", "F", true, "returns from a template.def", { terminator: true });
op("config.get", "CDF", true, "value of a config key");
op("target.subgroup.size", "CDF", true, "the compiled version's subgroup size");

export const opTable: ReadonlyMap<string, OpInfo> = new Map(entries.map((e) => [e.name, e]));

const recordOps = new Map<string, OpInfo>();

export function lookupOp(name: string): OpInfo | undefined {
  const info = opTable.get(name);
  if (info) return info;
  const record = targetRecordSpec(name);
  if (!record) return undefined;
  let entry = recordOps.get(name);
  if (!entry) {
    entry = Object.freeze({ name, placement: "", pure: false, terminator: false, topLevel: true, doc: record.doc });
    recordOps.set(name, entry);
  }
  return entry;
}
