/**
 * Lowering one prepared kernel to one WGSL entry point (docs/abi.md "WGSL"):
 *
 *   @group(0) @binding(k) var<storage, read|read_write> <export>_<arg>: array<T>;  (buffer argument k)
 *   struct <export>_Args { …fields at their §7 offsets… }
 *   @group(0) @binding(B) var<uniform> <export>_args: <export>_Args;              (B = buffer count)
 *   var<workgroup> <export>_shared<i>: array<T, N>;
 *   @compute @workgroup_size(x, y, z)
 *   fn <export>(@builtin(…) …) { private arrays; argument lets; body }
 */
import { makeDiagnostic } from "../../../core/diag/diagnostic.js";
import { D } from "../../../core/diag/catalog.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import { regionLowering } from "../../../dialects/lowering.js";
import { isOp } from "../../../dialects/registry.js";
import type { WgslTargetInfo } from "../profile.js";
import { BUILTIN_TYPES, BYTES, builtinParameter, KernelLowering, scalarOf, wgslTypeOf, type Lowered, type WType } from "./context.js";
import { WGSL_RULES } from "./rules.js";
import { kernelRoots, safeName, type Root } from "./storage.js";

const lowerRegionOps = regionLowering<KernelLowering, Lowered>("WGSL", WGSL_RULES, { kind: "invalid" });

/** Words WGSL reserves (keywords, reserved words) or that name builtins this back end calls. */
const RESERVED = new Set(
  ("alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if let loop override requires return " +
    "struct switch true var while array atomic bool f16 f32 i32 u32 mat2x2 mat3x3 mat4x4 ptr sampler texture_2d vec2 vec3 vec4 " +
    "abs pack2x16float unpack2x16float atomicAdd atomicAnd atomicCompareExchangeWeak atomicExchange atomicLoad atomicMax atomicMin atomicOr atomicStore atomicSub atomicXor bitcast ceil cos " +
    "countLeadingZeros countOneBits countTrailingZeros exp exp2 floor fma inverseSqrt log log2 max min pow round select sign sin sqrt storageBarrier " +
    "subgroupAdd subgroupAnd subgroupBroadcast subgroupMax subgroupMin subgroupMul subgroupOr subgroupShuffle subgroupShuffleXor subgroupXor tanh trunc " +
    "workgroupBarrier loom_erf loom_round NULL Self abstract active as asm async attribute auto await become cast catch class co_await co_return co_yield " +
    "coherent column_major common compile compile_fragment concept const_cast consteval constexpr constinit crate debugger decltype delete demote " +
    "demote_to_helper do dynamic_cast enum explicit export extends extern external fallthrough filter final finally friend from fxgroup get goto groupshared " +
    "highp impl implements import inline instanceof interface layout lowp macro macro_rules match mediump meta mod module move mut mutable namespace new nil " +
    "noexcept noinline nointerpolation non_coherent noncoherent noperspective null nullptr of operator package packoffset partition pass patch pixelfragment " +
    "precise precision premerge priv protected pub public readonly ref regardless register reinterpret_cast require resource restrict self set shared " +
    "sizeof smooth snorm static static_assert static_cast std subroutine super target template this thread_local throw trait try type typedef typeid " +
    "typename typeof union unless unorm unsafe unsized use using varying virtual volatile wgsl where with writeonly yield").split(" "),
);

export function validIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith("__") && name !== "_" && !RESERVED.has(name);
}

/** Reads every used scalar argument from the argument block into a `let`. */
function bindArguments(cx: KernelLowering): Lowered[] {
  const k = cx.kernel;
  return k.args.map((slot): Lowered => {
    const root = cx.roots.get(slot.value);
    if (root) return { kind: "buffer", root, length: cx.int("u32", 0) };
    if (!k.uses.has(slot.value) || slot.type.kind !== "prim") return { kind: "invalid" };
    const name = slot.type.name;
    if (!cx.carries(slot.value, name, `an argument of type '${name}'`)) return { kind: "invalid" };
    const t = wgslTypeOf(name)!;
    const field = cx.uniform(slot.offset, safeName(slot.name), t === "bool" ? "u32" : t);
    // The member name is unique in the struct, so it is a unique local name too.
    const local = field.e.slice(cx.argsName.length + 1);
    cx.line(`let ${local}: ${t} = ${t === "bool" ? `(${field.e} != 0u)` : field.e};`);
    return scalarOf(local, t);
  });
}

/** `struct` members at the argument block's offsets, padded with `@size` so each sits exactly there. */
function argumentStruct(cx: KernelLowering): string[] {
  const fields = [...cx.uniformFields.entries()].sort((a, b) => a[0] - b[0]);
  if (fields.length === 0) return [];
  const end = cx.kernel.argBlockSize;
  const members: string[] = [];
  const first = fields[0]![0];
  if (first > 0) members.push(`  @size(${first}) pad: ${first % 4 === 0 ? "u32" : "f16"},`);
  fields.forEach(([offset, f], i) => {
    const next = fields[i + 1]?.[0] ?? end;
    const natural = BYTES[f.t];
    members.push(next - offset === natural ? `  ${f.name}: ${f.t},` : `  @size(${next - offset}) ${f.name}: ${f.t},`);
  });
  const struct = `${cx.entryName}_Args`;
  return [`struct ${struct} {`, ...members, "}", `@group(0) @binding(${bindingCount(cx)}) var<uniform> ${cx.argsName}: ${struct};`];
}

function bindingCount(cx: KernelLowering): number {
  return [...cx.roots.values()].filter((r) => r.kind === "binding").length;
}

function arrayType(root: Root, word: WType, length?: number): string {
  const element = root.atomic ? `atomic<${word}>` : word;
  return length === undefined ? `array<${element}>` : `array<${element}, ${length}>`;
}

/** Module-scope and function-scope declarations of the kernel's storage roots. */
function storageDeclarations(cx: KernelLowering): { globals: string[]; locals: string[] } {
  const globals: string[] = [];
  const locals: string[] = [];
  for (const root of cx.roots.values()) {
    if (!root.accessed || typeof root.word !== "string") continue;
    const word = root.word;
    if (root.kind === "binding") {
      const access = root.written || root.atomic ? "read_write" : "read";
      globals.push(`@group(0) @binding(${root.binding}) var<storage, ${access}> ${root.name}: ${arrayType(root, word)};`);
      continue;
    }
    const bytes = cx.kernel.allocations.get(root.alloca!)?.bytes ?? 0;
    const length = Math.max(1, Math.ceil(bytes / BYTES[word]));
    if (root.kind === "workgroup") globals.push(`var<workgroup> ${root.name}: ${arrayType(root, word, length)};`);
    else locals.push(`  var ${root.name}: ${arrayType(root, word, length)};`);
  }
  return { globals, locals };
}

export interface LoweredKernel {
  readonly cx: KernelLowering;
  /**
   * The kernel's module-scope declarations and entry point, when it lowered cleanly: its lines,
   * the last one empty (the module joins every kernel's lines once, environment.ts).
   */
  readonly lines?: readonly string[];
  /** Buffer arguments (binding numbers) the kernel only reads: `var<storage, read>`. */
  readonly readOnlyBindings: readonly number[];
}

export function lowerKernel(kernel: PreparedKernel, info: WgslTargetInfo): LoweredKernel {
  const cx = new KernelLowering(kernel, info, kernelRoots(kernel), lowerRegionOps);
  const at = kernel.op.span;
  if (!validIdentifier(kernel.exportName)) {
    cx.unsupported(kernel.op, `the entry name '${kernel.exportName}'`, "WGSL entry points need an identifier that is not a WGSL keyword, reserved word or builtin; choose another export name");
  }
  if (!kernel.staticWorkgroupSize) cx.report(makeDiagnostic(D.dynamicWorkgroupSize, at, [cx.target]));
  const buffers = bindingCount(cx);
  const maxBuffers = info.limits.maxStorageBuffersPerShaderStage;
  if (buffers > maxBuffers) cx.unsupported(kernel.op, `a kernel with ${buffers} buffer arguments`, `the profile allows ${maxBuffers} storage buffers per shader stage (maxStorageBuffersPerShaderStage)`);

  const args = bindArguments(cx);
  const term = lowerRegionOps(cx, kernel.body, args);
  if (!isOp(term, "kernel.return")) throw new Error(`WGSL lowering: the body of '@${kernel.symbol}' ends in ${term.name}`);
  const { globals, locals } = storageDeclarations(cx);
  const readOnlyBindings = [...cx.roots.values()].filter((r) => r.kind === "binding" && r.accessed && !r.written && !r.atomic).map((r) => r.binding!);
  if (cx.diagnostics.length > 0) return { cx, readOnlyBindings };

  const size = kernel.staticWorkgroupSize ?? [1, 1, 1];
  const parameters = [...cx.builtins].sort().map((b) => `@builtin(${b}) ${builtinParameter(b)}: ${BUILTIN_TYPES[b]}`);
  const head: string[] = [...globals, ...argumentStruct(cx), ...cx.globals];
  if (head.length > 0) head.push("");
  head.push(`@compute @workgroup_size(${size[0]}, ${size[1]}, ${size[2]})`);
  head.push(`fn ${cx.entryName}(${parameters.join(", ")}) {`, ...locals);
  // The body can be thousands of lines: the few head lines go in front of it, not it after them.
  const lines = cx.lines;
  lines.splice(0, 0, ...head);
  lines.push("}", "");
  return { cx, lines, readOnlyBindings };
}
