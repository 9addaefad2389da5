/**
 * Lowering one prepared kernel to one SPIR-V entry point (docs/abi.md "SPIR-V"):
 *
 *   push-constant block (used args, at their §7 offsets) → buffer roots (binding = k-th
 *   buffer arg) → the device body through the rule table → OpReturn → OpEntryPoint with its
 *   interface and LocalSize.
 *
 * The rule table is data (rules.ts: one entry per declared op). An op without a rule, or whose
 * types the profile cannot express, is TARGET/001 at that op.
 */
import { makeDiagnostic } from "../../../core/diag/diagnostic.js";
import { D } from "../../../core/diag/catalog.js";
import type { Op, Value } from "../../../ir/core.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import { FunctionBuilder } from "../function.js";
import * as I from "../instructions.js";
import { BOOL, U32, U64, type ScalarType, type SpirvModule } from "../module.js";
import type { BooleanFeature, SpirvTargetInfo } from "../profile.js";
import { Op as S, StorageClass } from "../spec.js";
import { KernelLowering, scalarTypeOf, type Lowered, type SharedGlobals } from "./context.js";
import { SPIRV_RULES } from "./rules.js";
import { regionLowering } from "../../../dialects/lowering.js";
import { isOp } from "../../../dialects/registry.js";

// OpLines for `loom compile -g` come from KernelLowering.beforeRule, which the driver calls before each rule.
const lowerRegionOps = regionLowering<KernelLowering, Lowered>("SPIR-V", SPIRV_RULES, { kind: "invalid" });

/** A push-constant member; its byte offset names it (a buffer's address at the slot, its length 8 bytes on). */
interface PushMember {
  readonly type: ScalarType;
  readonly offset: number;
}

/** Requirements of a push-constant member type: [feature, what, capability?]. */
function pushRequirements(t: ScalarType): [BooleanFeature, string, ("StoragePushConstant8" | "StoragePushConstant16")?][] {
  if (t.kind === "bool") return [];
  const out: [BooleanFeature, string, ("StoragePushConstant8" | "StoragePushConstant16")?][] = [];
  if (t.kind === "int" && t.width === 64) out.push(["shaderInt64", "a 64-bit argument"]);
  if (t.kind === "float" && t.width === 64) out.push(["shaderFloat64", "an f64 argument"]);
  if (t.kind === "float" && t.width === 16) out.push(["shaderFloat16", "an f16 argument"]);
  if (t.kind === "int" && t.width === 16) out.push(["shaderInt16", "an i16 argument"]);
  if (t.kind === "int" && t.width === 8) out.push(["shaderInt8", "an i8 argument"]);
  if (t.width === 16) out.push(["storagePushConstant16", "a 16-bit push-constant argument", "StoragePushConstant16"]);
  if (t.width === 8) out.push(["storagePushConstant8", "an 8-bit push-constant argument", "StoragePushConstant8"]);
  return out;
}

/** Declares the push-constant block for the args the body uses, then binds every arg. */
function bindArguments(cx: KernelLowering, used: ReadonlyMap<Value, number>): Lowered[] {
  const k = cx.kernel;
  const members: PushMember[] = [];
  let ok = true;
  for (const slot of k.args) {
    if (!used.has(slot.value) || slot.type.kind !== "prim") continue;
    if (slot.type.name === "buffer") {
      if (cx.info.abi === "device-address") members.push({ type: U64, offset: slot.offset });
      members.push({ type: U64, offset: slot.offset + 8 });
      if (!cx.requireFeature(slot.value, "shaderInt64", "a buffer argument (its 64-bit length)")) ok = false;
      continue;
    }
    const t = scalarTypeOf(slot.type.name);
    if (!t) {
      cx.unsupported(slot.value, `an argument of type '${slot.type.name}'`);
      ok = false;
      continue;
    }
    const memberType = t.kind === "bool" ? U32 : t;
    for (const [feature, what, capability] of pushRequirements(memberType)) {
      if (!cx.requireFeature(slot.value, feature, what)) ok = false;
      else if (capability) cx.module.require(capability);
    }
    members.push({ type: memberType, offset: slot.offset });
  }
  if (ok && members.length > 0) {
    const m = cx.module;
    const block = m.typeBlock(members.map((x) => ({ type: m.scalar(x.type), offset: x.offset })));
    const variable = m.globalVariable(m.typePointer(StorageClass.PushConstant, block), StorageClass.PushConstant);
    m.name(variable, `${k.exportName}_args`);
    cx.iface.add(variable);
    cx.push = { variable, members: new Map(members.map((x, index) => [x.offset, { index, type: x.type }])) };
  }
  let binding = 0;
  return k.args.map((slot): Lowered => {
    if (slot.type.kind === "prim" && slot.type.name === "buffer") return { kind: "buffer", root: { kind: "argument", slot, binding: binding++ } };
    if (!cx.push || !used.has(slot.value)) return { kind: "invalid" };
    const t = scalarTypeOf((slot.type as { name: Parameters<typeof scalarTypeOf>[0] }).name)!;
    const raw = cx.loadPush(slot.offset);
    // i1 travels as a u32 0/1 (language.md §7).
    if (t.kind === "bool") return { kind: "scalar", id: cx.binary(S.INotEqual, BOOL, raw, cx.u32(0)), type: BOOL };
    return { kind: "scalar", id: raw, type: t };
  });
}

/** Capabilities that follow from types, and the feature each needs (a last guard). */
/**
 * Float widths to declare SignedZeroInfNanPreserve for (docs/language.md "NaN payloads"):
 * every width the profile says the device preserves, 32 always when it does (SPIR-V has no f32
 * capability to test) and 16/64 only when the kernel uses that width. Without the mode a
 * driver may assume no NaN or infinity and fold `x - x` to 0 (Mesa does).
 */
function preservedWidths(module: SpirvModule, info: SpirvTargetInfo): number[] {
  const f = info.features;
  const widths: number[] = [];
  if (f.shaderSignedZeroInfNanPreserveFloat16 && module.kernelRequires("Float16")) widths.push(16);
  if (f.shaderSignedZeroInfNanPreserveFloat32) widths.push(32);
  if (f.shaderSignedZeroInfNanPreserveFloat64 && module.kernelRequires("Float64")) widths.push(64);
  return widths;
}

const CAPABILITY_FEATURES: readonly [Parameters<SpirvModule["kernelRequires"]>[0], BooleanFeature][] = [
  ["Int64", "shaderInt64"],
  ["Float64", "shaderFloat64"],
  ["Float16", "shaderFloat16"],
  ["Int16", "shaderInt16"],
  ["Int8", "shaderInt8"],
];

/**
 * Lowers `kernel` into `module` and records its entry point. Returns the diagnostics; when
 * there are any, the module must not be serialized.
 */
export function lowerKernel(module: SpirvModule, shared: SharedGlobals, kernel: PreparedKernel, info: SpirvTargetInfo): KernelLowering {
  module.startKernel();
  const voidType = module.typeVoid();
  const fnId = module.id();
  const fn = new FunctionBuilder(fnId, voidType, module.typeFunction(voidType, []), module.id());
  const cx = new KernelLowering(module, shared, kernel, info, fn, lowerRegionOps);
  const at = kernel.op.span;

  // Generic limits (argument block ≤ maxPushConstantsSize, storage ≤ maxComputeSharedMemorySize,
  // workgroup size) are the profile's facts, checked once by the pipeline; this is Vulkan's own.
  if (!kernel.staticWorkgroupSize) cx.report(makeDiagnostic(D.dynamicWorkgroupSize, at, [cx.target]));

  const args = bindArguments(cx, kernel.uses);
  const term = lowerRegionOps(cx, kernel.body, args);
  if (!isOp(term, "kernel.return")) throw new Error(`SPIR-V lowering: the body of '@${kernel.symbol}' ends in ${term.name}`);
  fn.terminate(I.returnVoid());

  // Every type capability this kernel's lowering required needs its feature: a last guard.
  if (cx.diagnostics.length === 0) {
    for (const [capability, feature] of CAPABILITY_FEATURES) {
      if (module.kernelRequires(capability)) cx.requireFeature(kernel.op, feature, `'@${kernel.symbol}' (it needs the ${capability} capability)`);
    }
  }

  module.addFunction(fn.finish());
  module.name(fnId, kernel.exportName);
  const preserveFloatWidths = preservedWidths(module, info);
  if (preserveFloatWidths.length > 0) module.require("SignedZeroInfNanPreserve");
  module.addEntryPoint({ fn: fnId, name: kernel.exportName, iface: [...cx.iface], localSize: kernel.staticWorkgroupSize ?? [1, 1, 1], preserveFloatWidths });
  return cx;
}
