/** Hand-built prepared modules (what compileModule would leave) for AMDGPU tests. */
import { Op, Region, type Value } from "../../src/ir/core.js";
import { forEachUse, walkRegion } from "../../src/ir/walk.js";
import { T, type Type } from "../../src/ir/types.js";
import type { ArgSlot, PreparedKernel, PreparedModule } from "../../src/core/prepared.js";
import type { TargetProfile } from "../../src/core/target.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment, type AmdgpuIdentity } from "../../src/targets/amdgpu/index.js";

export const env = createAmdgpuTargetEnvironment();

export function profile(target: string, identity: Partial<AmdgpuIdentity> = {}): TargetProfile {
  return createAmdgpuProfile(env, { identifier: `test-${target}`, identity: { target, ...identity } });
}

const span = (line: number) => ({ source: "k.loom", line, column: 3, endLine: line, endColumn: 20 });

const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;

export interface KernelSpec {
  readonly name: string;
  readonly args?: readonly (readonly [string, Type])[];
  /** Extra body ops placed before kernel.return. */
  readonly ops?: (body: Region) => void;
  readonly workgroupStorageBytes?: number;
  readonly staticWorkgroupSize?: readonly [number, number, number];
  readonly subgroupSize?: number;
}

/** The device-arg layout of language.md §7, computed independently of src/passes/abi.ts. */
function slots(body: Region, args: readonly (readonly [string, Type])[]): { slots: ArgSlot[]; size: number } {
  const out: ArgSlot[] = [];
  let end = 0;
  for (const [name, type] of args) {
    const value = body.addArg(name, type);
    const [size, align] = type === T.buffer ? [16, 8] : type === T.index || type === T.offset || type === T.i64 || type === T.f64 ? [8, 8] : type === T.i1 ? [4, 4] : type === T.i8 ? [1, 1] : type === T.i16 || type === T.f16 || type === T.bf16 ? [2, 2] : [4, 4];
    const offset = alignUp(end, align);
    out.push({ name, type, value, offset, size, align });
    end = offset + size;
  }
  return { slots: out, size: alignUp(end, 8) };
}

/** Use counts of the body's values, as the pipeline records them. */
function useCounts(body: Region): Map<Value, number> {
  const uses = new Map<Value, number>();
  walkRegion(body, (op) => forEachUse(op, (v) => void uses.set(v, (uses.get(v) ?? 0) + 1)));
  return uses;
}

export function kernel(p: TargetProfile, spec: KernelSpec, line = 1): PreparedKernel {
  const op = new Op("kernel.def", span(line));
  op.props.symbol = spec.name;
  op.addRegion();
  const body = op.addRegion();
  const { slots: args, size } = slots(body, spec.args ?? []);
  spec.ops?.(body);
  const ret = new Op("kernel.return", span(line + 1));
  ret.parent = body;
  body.ops.push(ret);
  const k: PreparedKernel = {
    symbol: spec.name,
    exportName: spec.name,
    profile: p,
    op,
    body,
    args,
    argBlockSize: size,
    workgroupStorageBytes: spec.workgroupStorageBytes ?? 0,
    subgroupSize: spec.subgroupSize ?? 0,
    allocations: new Map(),
    uses: useCounts(body),
    ...(spec.staticWorkgroupSize ? { staticWorkgroupSize: spec.staticWorkgroupSize } : {}),
  };
  return k;
}

export function preparedModule(p: TargetProfile, specs: readonly KernelSpec[]): PreparedModule {
  return { moduleName: "test_module", kernels: specs.map((s, i) => kernel(p, s, 1 + 10 * i)) };
}

/** The seed example: no arguments, body = kernel.return. */
export const SEED: KernelSpec = { name: "seed" };
/** saxpy's signature: index, f32, buffer. */
export const SAXPY: KernelSpec = { name: "saxpy", args: [["n", T.index], ["a", T.f32], ["x", T.buffer]] };

export function emitHsaco(p: TargetProfile, specs: readonly KernelSpec[], target?: Record<string, unknown>): Uint8Array {
  const out = env.emit(preparedModule(p, specs), { artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco", primary: true, ...(target ? { target } : {}) });
  if (!out.contents) throw new Error(`emit failed: ${JSON.stringify(out.diagnostics)}`);
  return out.contents;
}
