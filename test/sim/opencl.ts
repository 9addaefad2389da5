/**
 * Builds the simulator's reference kernels (test/sim/opencl/*.cl, OpenCL C equivalents of
 * examples/kernels) with clang-19 and ld.lld-19 (toolchain.md §3: no device libraries, ids and
 * barriers through __builtin_amdgcn_*), once per process and processor; and the instruction
 * probes of test/sim/opencl-ops, loaded in the simulator with what LLVM's tools say of them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { SimRuntime, type SimModule } from "../../src/runtime/sim/index.js";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";

export const OPENCL_DIR = fromRoot("test", "sim", "opencl");
/** The builds of the reference kernels: RDNA3 in wave32 (its default) and wave64, CDNA3 (wave64). */
export const REFERENCE_BUILDS = [
  { name: "gfx1100", mcpu: "gfx1100", flags: [] },
  { name: "gfx1100-wave64", mcpu: "gfx1100", flags: ["-mwavefrontsize64"] },
  { name: "gfx942", mcpu: "gfx942", flags: [] },
] as const;
export type ReferenceBuild = (typeof REFERENCE_BUILDS)[number];

export const OPENCL_KERNELS: readonly string[] = readdirSync(OPENCL_DIR)
  .filter((f) => f.endsWith(".cl"))
  .map((f) => f.slice(0, -3))
  .sort();

export interface BuiltKernel {
  readonly path: string;
  readonly bytes: Uint8Array;
}

let outDir: string | undefined;
const built = new Map<string, BuiltKernel>();

/** True when clang-19 and ld.lld-19 are there (else the test is skipped, or fails under REQUIRE_ALL_TOOLS=1). */
export function requireOpenclTools(t: TestContext): boolean {
  return requireTool(t, "clang-19", "apt-get install clang-19") && requireTool(t, "ld.lld-19", "apt-get install lld-19");
}

export function buildOpencl(kernel: string, mcpu: string, flags: readonly string[] = []): BuiltKernel {
  const key = `${kernel}-${mcpu}${flags.join("")}`;
  const hit = built.get(key);
  if (hit) return hit;
  outDir ??= mkdtempSync(join(tmpdir(), "loom-sim-"));
  const object = join(outDir, `${key}.o`);
  const path = join(outDir, `${key}.hsaco`);
  const cc = runTool("clang-19", ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, ...flags, "-nogpulib", "-O2", "-c", join(OPENCL_DIR, `${kernel}.cl`), "-o", object]);
  if (cc.status !== 0) throw new Error(`clang-19 failed on ${kernel}.cl for ${mcpu}:\n${cc.stderr}`);
  const ld = runTool("ld.lld-19", ["-shared", object, "-o", path]);
  if (ld.status !== 0) throw new Error(`ld.lld-19 failed on ${kernel} for ${mcpu}:\n${ld.stderr}`);
  const result = { path, bytes: new Uint8Array(readFileSync(path)) };
  built.set(key, result);
  return result;
}

export const OPENCL_OPS_DIR = fromRoot("test", "sim", "opencl-ops");

export interface ProbeOptions {
  /** Extra clang-19 flags. */
  readonly clangFlags?: readonly string[];
  /** What `listing` holds: llvm-objdump-19's disassembly (the default) or llvm-readelf-19's notes. */
  readonly dump?: "disassembly" | "notes";
  /** Instructions the disassembly must name: clang-19's code exercises them. */
  readonly uses?: readonly string[];
  /** Whether a `uses` name may carry a VOP encoding suffix (`_e32`, `_e64`). */
  readonly encodingSuffix?: boolean;
}

/** A probe kernel, loaded in a fresh simulator. */
export interface LoadedProbe {
  readonly rt: SimRuntime;
  readonly module: SimModule;
  readonly listing: string;
}

/**
 * The probe `test/sim/opencl-ops/<name>.cl` built by clang-19 -O2 and ld.lld-19 for `mcpu`,
 * its listing checked for `options.uses`, loaded in a new `SimRuntime`; undefined when the
 * tools are missing (the test is skipped, or fails under REQUIRE_ALL_TOOLS=1).
 */
export function loadOpsProbe(t: TestContext, name: string, mcpu: string, options: ProbeOptions = {}): LoadedProbe | undefined {
  if (!requireOpenclTools(t)) return undefined;
  outDir ??= mkdtempSync(join(tmpdir(), "loom-sim-"));
  const key = `${name}-${mcpu}${(options.clangFlags ?? []).join("")}`;
  const object = join(outDir, `${key}.o`), path = join(outDir, `${key}.hsaco`);
  const cc = runTool("clang-19", ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-nogpulib", "-O2", ...(options.clangFlags ?? []), "-c", join(OPENCL_OPS_DIR, `${name}.cl`), "-o", object]);
  assert.equal(cc.status, 0, cc.stderr);
  const ld = runTool("ld.lld-19", ["-shared", object, "-o", path]);
  assert.equal(ld.status, 0, ld.stderr);
  const dump = options.dump === "notes" ? runTool("llvm-readelf-19", ["--notes", path]) : runTool("llvm-objdump-19", ["-d", `--mcpu=${mcpu}`, path]);
  assert.equal(dump.status, 0, dump.stderr);
  const listing = dump.stdout;
  const suffix = options.encodingSuffix ? "(_e32|_e64)?" : "";
  for (const instruction of options.uses ?? []) assert.match(listing, new RegExp(`\\b${instruction}${suffix}\\b`), `clang-19's code uses ${instruction}`);
  const rt = new SimRuntime();
  return { rt, module: rt.loadCodeObject(new Uint8Array(readFileSync(path))), listing };
}
