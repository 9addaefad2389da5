/**
 * The `props` schema of every v1 op: what the parser stores, the printer prints, and the
 * verifier, passes and backends read. One entry per op family; operand and region layout
 * is stated beside it. Keys not listed are absent. (`Value` = SSA value, `Lit` = Literal.)
 *
 * Top level
 *  kernel.def      props { symbol, exportName?: string, retain: boolean, target?: string (symbol),
 *                          workloadWhere?: Predicate[], launchWhere?: Predicate[] }
 *                  regions [config (args = workload args), body (args = device args)]
 *  kernel.decl     props like kernel.def; regions [workload sig, launch sig] — *signature regions*: args only, no ops
 *  (Declarations keep their parameters as the args of op-less "signature regions" so that
 *   `view<[%n]xf32>` in a declared type can refer to a sibling argument like in a definition.)
 *  func.def        props { symbol, modifiers: string[] (grammar order: public retain host|device pure hot|cold inline|noinline),
 *                          target?, resultTypes: Type[], where?: Predicate[] }   regions [body (args = params)]
 *  func.decl       props { symbol, modifiers, target?, resultTypes, where? }  regions [signature region]
 *  template.decl   props { symbol, modifiers, target?, requires?: Lit[] (ident text e.g. "target.subgroup.size<32>"),
 *                          resultTypes, where? }  regions [signature region]
 *  template.def    props { symbol, family: string, modifiers, target?, requires?, priority?: number,
 *                          resultTypes: Type[], where? }   regions [body]
 *  config.decl     props { symbol, type: Type, where?: Predicate[] }  regions [] for `@key : T`, or
 *                  [signature region with the one arg %value] for `@key : %value: T where [...]`
 *  config.def      props { symbol, value: Lit, type: Type }
 *  <env>.target    (a target package's record op, core/target.ts TargetRecordSpec) props { symbol,
 *                  [param.key]: string, attrs: {key: Lit}[] in the spec's (canonical) order }
 *  target.decl     props { symbol }
 *  module.import   props { key: string, symbols: string[] }
 *  alias           op name "alias": props { alias: string (without #), target: string (e.g. "encoding.layout.dense") }
 *
 * kernel
 *  kernel.launch.config  operands [gx, gy, gz, sx, sy, sz, (cx, cy, cz)?]  props { cluster: boolean }
 *  kernel.return         -
 *  kernel.workitem.id / workgroup.id / workgroup.size / workgroup.count / workitem.dispatch.id
 *                        props { dim: "x" | "y" | "z" }
 *  kernel.subgroup.id / .size / .lane.id / .count    -
 *  kernel.barrier        props { memory: "workgroup" | "global", scope: string, ordering: string }
 *  kernel.subgroup.reduce / kernel.workgroup.reduce  operands [v]  props { kind: string, clusterSize?: number }
 *  kernel.subgroup.shuffle   operands [v, off, width]  props { mode: "xor" | "up" | "down" | "index" }
 *  kernel.subgroup.broadcast operands [v, lane]
 *  kernel.assert         operands [ok]  props { message?: string }
 *
 * index / scalar / vector (arithmetic)
 *  *.constant            props { value: Lit }           (result type = the annotation)
 *  binary / unary / fma  operands in order              props { flags?: string[] } (canonical order)
 *  index.cmp / scalar.cmpi / scalar.cmpf / vector.cmp*   props { predicate: string, flags? }
 *  conversions           operands [a]                   (source type = operand type, target = result type)
 *  index.assume / scalar.assume   operands [a, ...]  results one per operand  props { predicates: Predicate[] }
 *  index.scale           operands [i, s]
 *  vector.reduce         operands [v, init]  props { kind: string, flags? }
 *  vector.extract        operands [v]  props { indices: (Value | bigint)[] }
 *  vector.insert         operands [x, v]  props { indices }
 *
 * scf
 *  scf.if      operands [cond]  regions [then, else?]  results = yielded values
 *  scf.for     operands [lo, hi, step, ...inits]  regions [body (args = [iv, ...iterArgs])]
 *              props { unroll?: "full" | Value, schedule?: string }
 *  scf.while   operands [...inits]  regions [before (args = carried), after (args = forwarded)]
 *              props { hasDoArgs: boolean }
 *  scf.yield / scf.condition   operands (condition first for scf.condition)
 *  scf.select  operands [c, a, b]
 *
 * buffer / encoding / view
 *  buffer.view         operands [b, off]               result type = view type
 *  buffer.alloca       operands [bytes]  props { space: "workgroup" | "private", align: number, legacy?: never }
 *  buffer.assume.noalias        operands [...]   results one per operand
 *  buffer.assume.alignment      operands [...]   props { minimumAlignment: number }
 *  buffer.assume.memory_space   operands [b]     props { space: string }
 *  buffer.length       operands [b]
 *  encoding.layout.dense  -     encoding.layout.strided  props { strides: (Value | bigint)[] }
 *  view.load           operands [v]        props { indices: (Value | bigint)[] }
 *  view.store          operands [x, v]     props { indices }
 *  view.subview        operands [v]        props { indices }
 *  view.atomic.rmw / reduce  operands [x, v]  props { kind, indices, ordering, scope }
 *  view.atomic.cmpxchg operands [exp, new, v]  props { indices, successOrdering, failureOrdering, scope }
 *  view.atomic.load    operands [v]  props { indices, ordering, scope }
 *  view.atomic.store   operands [x, v]  props { indices, ordering, scope }
 *  vector.load / store like view.load / view.store
 *
 * func / template / config
 *  func.call        operands args  props { symbol, modifiers: string[] }  results
 *  func.return      operands
 *  template.apply   operands args  props { family: string, modifiers: string[] }
 *  template.call    operands args  props { symbol, modifiers }
 *  template.return  operands
 *  config.get       props { symbol }
 *  target.subgroup.size  -
 *
 * Attribute dicts that the grammar keeps as dicts (target records) are stored as
 * `attrs: { key: string, value: Literal }[]`.
 */
import type { Value } from "./core.js";

/** A predicate argument or index-list entry: a value or an integer literal. */
export type ValueOrInt = Value | bigint;
