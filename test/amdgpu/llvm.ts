/**
 * LLVM 19 tools as oracles for AMDGPU tests (toolchain.md §3): probing, running on
 * temporary files, and building reference code objects with llc-19 + ld.lld-19.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { T, type Type } from "../../src/ir/types.js";
import type { AmdgpuIdentity } from "../../src/targets/amdgpu/index.js";
import { requireTool, runTool, type RunResult } from "../util/tools.js";
import type { KernelSpec } from "./fixtures.js";

const FIX = "apt-get install -y --no-install-recommends llvm-19 lld-19; see toolchain.md §3";

/** True when every named LLVM tool exists; otherwise the test is skipped (or fails under REQUIRE_ALL_TOOLS=1). */
export function requireLlvm(t: TestContext, ...tools: string[]): boolean {
  return tools.every((tool) => requireTool(t, tool, FIX));
}

/** Runs a tool and fails on a non-zero exit or a crash; returns stdout and stderr. */
export function mustRun(cmd: string, args: readonly string[], input?: string): RunResult {
  const r = runTool(cmd, args, input);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r;
}

/** Runs `fn` with a fresh temporary directory, removed afterwards. */
export function withTempDir<R>(fn: (dir: string) => R): R {
  const dir = mkdtempSync(join(tmpdir(), "loom-amdgpu-"));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes bytes to a temp file and runs `fn` on its path. */
export function withFile<R>(bytes: Uint8Array, fn: (path: string, dir: string) => R): R {
  return withTempDir((dir) => {
    const path = join(dir, "k.hsaco");
    writeFileSync(path, bytes);
    return fn(path, dir);
  });
}

function irType(t: Type): string {
  if (t === T.index || t === T.offset || t === T.i64) return "i64";
  if (t === T.i1 || t === T.i32) return "i32";
  if (t === T.i8) return "i8";
  if (t === T.i16) return "i16";
  if (t === T.f16) return "half";
  if (t === T.bf16) return "bfloat";
  if (t === T.f32) return "float";
  if (t === T.f64) return "double";
  throw new Error(`no IR type for ${JSON.stringify(t)}`);
}

/** Attributes telling LLVM the kernel reads no implicit inputs (our body only returns). */
const NO_IMPLICIT_INPUTS = [
  "amdgpu-no-implicitarg-ptr", "amdgpu-no-dispatch-ptr", "amdgpu-no-queue-ptr", "amdgpu-no-dispatch-id",
  "amdgpu-no-workgroup-id-x", "amdgpu-no-workgroup-id-y", "amdgpu-no-workgroup-id-z",
  "amdgpu-no-workitem-id-x", "amdgpu-no-workitem-id-y", "amdgpu-no-workitem-id-z",
  "amdgpu-no-heap-ptr", "amdgpu-no-hostcall-ptr", "amdgpu-no-multigrid-sync-arg",
  "amdgpu-no-default-queue", "amdgpu-no-completion-action", "amdgpu-no-lds-kernel-id",
].map((a) => `"${a}"`).join(" ");

/** LLVM IR for kernels with our device ABI and an empty body. */
export function referenceIr(specs: readonly KernelSpec[], codeObjectVersion: 5 | 6): string {
  const lines = ['target triple = "amdgcn-amd-amdhsa"'];
  const extra: string[] = [];
  specs.forEach((k, i) => {
    const params = (k.args ?? []).flatMap(([name, t]) =>
      t === T.buffer ? [`ptr addrspace(1) %${name}`, `i64 %"${name}.length"`] : [`${irType(t)} %${name}`],
    );
    let attrs = NO_IMPLICIT_INPUTS;
    let md = "";
    if (k.staticWorkgroupSize) {
      const [x, y, z] = k.staticWorkgroupSize;
      attrs += ` "amdgpu-flat-work-group-size"="${x * y * z},${x * y * z}"`;
      md = ` !reqd_work_group_size !${100 + i}`;
      extra.push(`!${100 + i} = !{i32 ${x}, i32 ${y}, i32 ${z}}`);
    }
    lines.push(`define amdgpu_kernel void @${k.name}(${params.join(", ")}) #${i}${md} { ret void }`);
    lines.push(`attributes #${i} = { ${attrs} }`);
  });
  lines.push("!llvm.module.flags = !{!0}", `!0 = !{i32 1, !"amdhsa_code_object_version", i32 ${codeObjectVersion * 100}}`, ...extra);
  return lines.join("\n") + "\n";
}

export function llcAttributes(identity: Partial<AmdgpuIdentity>): string[] {
  const attrs: string[] = [];
  if (identity.xnack !== undefined) attrs.push(identity.xnack ? "+xnack" : "-xnack");
  if (identity.sramecc !== undefined) attrs.push(identity.sramecc ? "+sramecc" : "-sramecc");
  if (identity.wavefrontSize === 64) attrs.push("+wavefrontsize64");
  return attrs.length ? [`-mattr=${attrs.join(",")}`] : [];
}

/** A reference code object: llc-19 compiles the IR, ld.lld-19 links it as a shared object. */
export function llvmReference(processor: string, identity: Partial<AmdgpuIdentity>, specs: readonly KernelSpec[], codeObjectVersion: 5 | 6): Uint8Array {
  return withTempDir((dir) => {
    const ll = join(dir, "k.ll");
    const obj = join(dir, "k.o");
    const so = join(dir, "k.hsaco");
    writeFileSync(ll, referenceIr(specs, codeObjectVersion));
    const llc = mustRun("llc-19", ["-mtriple=amdgcn-amd-amdhsa", `-mcpu=${processor}`, ...llcAttributes(identity), "-filetype=obj", ll, "-o", obj]);
    if (/not a recognized processor/.test(llc.stderr)) throw new Error(llc.stderr);
    mustRun("ld.lld-19", ["-shared", obj, "-o", so]);
    return new Uint8Array(readFileSync(so));
  });
}
