/**
 * The op registry: every v1 op's declaration (decl.ts), assembled from the dialect files in
 * src/dialects/ops. `OpName` and `PropsOf` are derived from it, so an op name that is not
 * declared is a type error and props are read with their declared types. `isOp` narrows an
 * `Op` to one declared op.
 */
import type { Op, Prop, Region, Value } from "../ir/core.js";
import type { Annotated, OpDecl } from "./decl.js";
import type { ValueOrInt } from "../ir/props.js";
import { BUFFER_OPS } from "./ops/buffer.js";
import type { CHECK_OPS } from "./ops/check.js";
import { CONFIG_OPS } from "./ops/config.js";
import { FUNC_OPS } from "./ops/func.js";
import { INDEX_OPS } from "./ops/index.js";
import { KERNEL_OPS } from "./ops/kernel.js";
import { LAUNCH_OPS } from "./ops/launch.js";
import { SCALAR_OPS } from "./ops/scalar.js";
import { SCF_OPS } from "./ops/scf.js";
import { TEMPLATE_OPS } from "./ops/template.js";
import { TOP_OPS } from "./ops/top.js";
import { VECTOR_OPS } from "./ops/vector.js";
import { VIEW_OPS } from "./ops/view.js";

const OPS = { ...KERNEL_OPS, ...INDEX_OPS, ...SCALAR_OPS, ...SCF_OPS, ...BUFFER_OPS, ...VIEW_OPS, ...VECTOR_OPS, ...FUNC_OPS, ...TEMPLATE_OPS, ...CONFIG_OPS, ...TOP_OPS, ...LAUNCH_OPS } as const;

// The check harness's ops (ops/check.ts) are part of the language's types everywhere, but their
// declarations register at run time only where the harness is loaded (`registerOps`, from
// api/check-dialect.ts): `loomc/browser` leaves them out.
type Registry = typeof OPS & typeof CHECK_OPS;

/** Every declared op name. */
export type OpName = keyof Registry & string;

/** The props type declared for op `N` (`Annotated` when the declaration names none). */
export type PropsOf<N extends OpName> = Registry[N] extends { readonly props?: infer P } ? (unknown extends P ? Annotated : NonNullable<P>) : Annotated;

/** `n` elements, or at least `min` of them; unstated counts stay a plain list. */
type Tuple<N extends number, E, T extends readonly E[] = readonly []> = T["length"] extends N ? T : Tuple<N, E, readonly [...T, E]>;
type ListOf<A, E> = A extends number ? Tuple<A, E> : A extends { readonly min: infer M extends number } ? readonly [...Tuple<M, E>, ...E[]] : readonly E[];
type ValuesOf<A> = ListOf<A, Value>;

/** The operand list of op `N` as its declaration states it: `readonly [Value, Value]` for two. */
export type OperandsOf<N extends OpName> = Registry[N] extends { readonly operands: infer A } ? ValuesOf<A> : readonly Value[];
/** The result list of op `N` as its declaration states it. */
export type ResultsOf<N extends OpName> = Registry[N] extends { readonly results: infer A } ? ValuesOf<A> : readonly Value[];
/** The region list of op `N` as its declaration states it. */
export type RegionsOf<N extends OpName> = Registry[N] extends { readonly regions: infer A } ? ListOf<A, Region> : readonly Region[];

/**
 * An op known to be `N`, with its declared props (writable: parsers and passes set them) and its
 * declared operand, result and region counts, so `op.operands[0]` of a two-operand op is a `Value`.
 */
export type OpOf<N extends OpName> = Op & {
  readonly name: N;
  props: { -readonly [K in keyof PropsOf<N>]: PropsOf<N>[K] } & Record<string, Prop>;
  operands: OperandsOf<N>;
  results: ResultsOf<N>;
  regions: RegionsOf<N>;
};

/** Ops whose names are in a union, e.g. `OpIn<"func.def" | "func.decl">`. */
export type OpIn<N extends OpName> = { [K in N]: OpOf<K> }[N];

/** A declaration together with its name. */
export interface OpInfo extends OpDecl {
  readonly name: OpName;
  readonly terminator: boolean;
  readonly topLevel: boolean;
}

function infoOf(name: OpName, d: OpDecl): OpInfo {
  return { name, ...d, terminator: d.terminator ?? false, topLevel: d.topLevel ?? false };
}

const DECLS: readonly (readonly [string, OpDecl])[] = Object.entries(OPS);
const infos: OpInfo[] = [
  // Top-level ops lead, as in language.md §2.
  ...DECLS.filter(([, d]) => d.topLevel),
  ...DECLS.filter(([, d]) => !d.topLevel),
].map(([n, d]) => infoOf(n as OpName, d));

/** All declarations registered so far, top-level ops first (then in language.md §4 order). */
export const OP_INFOS: readonly OpInfo[] = infos;

const BY_NAME = new Map<string, OpInfo>(infos.map((i) => [i.name, i]));

/** The registered declarations by name (the parser's and verifier's op table, dialects/table.ts). */
export const OP_BY_NAME: ReadonlyMap<string, OpInfo> = BY_NAME;

/**
 * Registers the declarations of a dialect loaded on demand (the check harness's, ops/check.ts):
 * top-level ops join the other top-level ones. Registering a name twice is a no-op.
 */
export function registerOps(ops: Readonly<Record<string, OpDecl>>): void {
  for (const [name, d] of Object.entries(ops)) {
    if (BY_NAME.has(name)) continue;
    const info = infoOf(name as OpName, d);
    BY_NAME.set(name, info);
    if (info.topLevel) infos.splice(infos.findIndex((i) => !i.topLevel), 0, info);
    else infos.push(info);
  }
}

/** The declaration of a name, or undefined for an undeclared one. */
export function opInfo(name: string): OpInfo | undefined {
  return BY_NAME.get(name);
}

/** Narrows `op` to op `name` with its declared props. */
export function isOp<N extends OpName>(op: Op | null | undefined, name: N): op is OpOf<N> {
  return op?.name === name;
}

/** All declared names of one dialect prefix, e.g. `namesWithPrefix("vector.")`. */
export function namesWithPrefix(prefix: string): OpName[] {
  return OP_INFOS.filter((i) => i.name.startsWith(prefix)).map((i) => i.name);
}

/** Every props key some op declares. */
export type PropKey = { [N in OpName]: keyof PropsOf<N> }[OpName] & string;

/** The declared type of prop `K`, across the ops that declare it. */
export type PropType<K extends PropKey> = { [N in OpName]: K extends keyof PropsOf<N> ? PropsOf<N>[K] : never }[OpName];

/** The index list of an indexed access (`view.*`, `vector.extract/insert/load/store`); empty for any other op. */
export function indicesOf(op: Op): readonly ValueOrInt[] {
  return propOf(op, "indices") ?? [];
}

/**
 * Reads prop `key` of an op that generic code knows only as one of several ops: typed by the
 * declarations (a key no op declares is a type error), undefined when the op has none.
 */
export function propOf<K extends PropKey>(op: Op, key: K): PropType<K> | undefined {
  return op.props[key] as PropType<K> | undefined;
}
