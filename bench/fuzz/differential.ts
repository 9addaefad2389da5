/**
 * Differential fuzzing of generated programs (issue 12 item 16): each program from
 * ./generate.ts runs
 *  - in the reference interpreter on the parsed, unoptimised kernel (the oracle, "I");
 *  - in the interpreter after the whole prepared-low pipeline (folding, inlining, lowering: "P");
 *  - with its inputs as constants, so constant folding evaluates it, against "I" on the same
 *    constant program ("F", a few sampled inputs per program);
 *  - as SPIR-V on lavapipe ("D"), one dispatch of `invocations` inputs.
 * Results are compared word for word under the documented device freedoms
 * (docs/language.md "NaN payloads, scalar.fmaf and signed zero"): a NaN the interpreter made by
 * arithmetic (the canonical NaN) matches any NaN, a NaN it moved must keep its bits; a
 * zero-or-subnormal matches a zero-or-subnormal (devices may flush subnormals); a program with
 * `fmaf` may match either its fused or its unfused result.
 *
 * A case is one program evaluated on one invocation's input by two evaluators (I vs P, I vs D,
 * I vs F each count): `node dist/bench/fuzz/differential.js [programs] [seed] [invocations]`
 * prints JSON {programs, dispatches, cases, failures, freedoms, rate, seed, …}.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { parseModule } from "../../src/text/parser.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { prepareInterpreter } from "../../src/interp/index.js";
import { isOp } from "../../src/dialects/registry.js";
import { compileForDevice, vulkanDevice, type HarnessDevice } from "../../src/harness/index.js";
import { VulkanRuntime } from "../../src/runtime/vulkan/index.js";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, prepareReferenceKernel } from "../../src/index.js";
import { createReferenceEnvironment, createReferenceProfile } from "../../src/interp/index.js";
import { prng } from "./mutate.js";
import { IN_SLOTS, NEG_ZERO_SLOT, OUT_SLOTS, WORKGROUP, fillInputs, generateProgram, registryTemplates, type GeneratedProgram } from "./generate.js";

const CANONICAL_NAN_F32 = 0x7fc00000;
const isNaN32 = (w: number) => (w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0;
const isTiny32 = (w: number) => (w & 0x7f800000) === 0;
const isSubnormal32 = (w: number) => isTiny32(w) && (w & 0x7fffff) !== 0;

export type Freedom = "nan-payload-of-arithmetic" | "subnormal-flush" | "fma-unfused" | "lavapipe-nonfinite" | "lavapipe-signed-zero" | "fptrunc-rounding";

export interface Mismatch {
  readonly leg: string;
  readonly programSeed: number;
  readonly invocation: number;
  readonly slot: number;
  readonly want: number;
  readonly got: number;
}

export interface DifferentialReport {
  programs: number;
  dispatches: number;
  cases: number;
  byLeg: Record<string, number>;
  failures: number;
  freedoms: Record<Freedom, number>;
  /** Programs the device compile refused with a diagnostic (listed by code). */
  refused: Record<string, number>;
  mismatches: Mismatch[];
  /** Interpreter or compiler exceptions (generator or compiler defects), with replay seeds. */
  errors: { seed: number; leg: string; error: string }[];
  opsCovered: number;
}

/** Compares one invocation's output row; returns the slot of the first real mismatch, or -1. */
function compareRow(p: GeneratedProgram, want: Uint32Array, alt: Uint32Array | undefined, got: Uint32Array, row: number, freedoms: Record<Freedom, number>, device: boolean): number {
  let used: Freedom | undefined;
  for (let k = 0; k < OUT_SLOTS; k++) {
    const i = row * OUT_SLOTS + k;
    const w = want[i]!, g = got[i]!;
    if (w === g) continue;
    if (alt && alt[i] === g) { used = "fma-unfused"; continue; }
    if (p.outputs[k] === "f32") {
      if (w === CANONICAL_NAN_F32 && isNaN32(g)) { used = "nan-payload-of-arithmetic"; continue; }
      if (isTiny32(w) && isTiny32(g) && (isSubnormal32(w) || isSubnormal32(g))) { used = "subnormal-flush"; continue; }
    }
    // lavapipe's constant-operand folds ignore SignedZeroInfNanPreserve (x·0 → 0, x/0 → 0),
    // so a NaN or infinity the interpreter computed (never a moved NaN) may come out otherwise.
    if (device && (w === CANONICAL_NAN_F32 || (w & 0x7fffffff) === 0x7f800000)) { used = "lavapipe-nonfinite"; continue; }
    // …and fold x + 0.0 to x, so +0 may come out as −0 there.
    if (device && ((w | g) >>> 0) === 0x80000000 && (w & g) === 0) { used = "lavapipe-signed-zero"; continue; }
    // Vulkan leaves the rounding of a narrowing float conversion open (no RoundingModeRTE declared).
    if (device && p.outputs[k] === "f32" && Math.abs(w - g) === 1 && (p.ops.includes("scalar.fptrunc") || p.ops.includes("vector.fptrunc"))) { used = "fptrunc-rounding"; continue; }
    return k;
  }
  if (used) freedoms[used]++;
  return -1;
}

interface Evaluators {
  readonly device: HarnessDevice | undefined;
  readonly compiler: Compiler;
  readonly context: Context;
  readonly pipeline: PassProgram;
  readonly profile: ReturnType<typeof createReferenceProfile>;
}

function parsedKernel(text: string) {
  const sink = new DiagnosticSink();
  const module = parseModule("fuzz.loom", text, sink);
  if (!sink.hasErrors) verifyModule(module, sink);
  if (sink.hasErrors) throw new Error(`generated program does not verify: ${sink.diagnostics.slice(0, 3).map((d) => `${d.code} ${d.message}`).join("; ")}`);
  const kernel = module.ops.find((o) => isOp(o, "kernel.def"))!;
  return { module, kernel };
}

function interpret(text: string, n: number, input: Uint8Array, subgroupSize: number): Uint32Array {
  const { module, kernel } = parsedKernel(text);
  const out = new Uint32Array(n * OUT_SLOTS);
  prepareInterpreter(kernel, { module }).run({
    workgroupCount: [n / WORKGROUP, 1, 1], workgroupSize: [WORKGROUP, 1, 1], subgroupSize,
    args: [BigInt(n), input.slice(), new Uint8Array(out.buffer)],
  });
  return out;
}

/** The prepared-low kernel (folded, lowered) run in the interpreter. */
function interpretPrepared(ev: Evaluators, text: string, n: number, input: Uint8Array, subgroupSize: number): Uint32Array {
  const workspace = new Workspace(ev.context);
  const parsed = workspace.parseModule(Source.fromText("fuzz.loom", text));
  if (!parsed.ok || !parsed.value) throw new Error(`parse: ${parsed.formatDiagnostics()}`);
  const compiled = compileModule(ev.compiler, workspace, ev.pipeline, parsed.value, { specializations: [{ functionSymbol: "fuzz", targetProfile: ev.profile }] });
  if (!compiled.ok) throw new Error(`prepared-low compile: ${compiled.formatDiagnostics()}`);
  const out = new Uint32Array(n * OUT_SLOTS);
  prepareReferenceKernel(parsed.value, "fuzz").run({
    workgroupCount: [n / WORKGROUP, 1, 1], workgroupSize: [WORKGROUP, 1, 1], subgroupSize,
    args: [BigInt(n), input.slice(), new Uint8Array(out.buffer)],
  });
  return out;
}

/** The program with invocation `row`'s inputs as constants (floats through an integer bitcast, so NaN payloads are kept). */
function withConstantInputs(p: GeneratedProgram, text: string, words: Uint32Array, row: number): string {
  return text.replace(/^ {2}%in(\d+) = view\.load %in_(i32|f32)\[%gid, \d+\] : [^\n]*$/gm, (_m, j: string, t: string) => {
    const w = words[row * IN_SLOTS + Number(j)]! | 0;
    return t === "i32" ? `  %in${j} = scalar.constant ${w} : i32` : `  %in${j}_bits = scalar.constant ${w} : i32\n  %in${j} = scalar.bitcast %in${j}_bits : i32 to f32`;
  });
}

function deviceRun(ev: Evaluators, p: GeneratedProgram, n: number, input: Uint8Array, report: DifferentialReport): Uint32Array | undefined {
  const dev = ev.device!;
  const compiled = compileForDevice("fuzz.loom", p.text, dev.target.profile as Parameters<typeof compileForDevice>[2]);
  if (!compiled.ok) {
    const code = /[A-Z]+\/\d{3}/.exec(compiled.diagnostics)?.[0] ?? "unknown";
    report.refused[code] = (report.refused[code] ?? 0) + 1;
    if (!code.startsWith("TARGET/")) throw new Error(`device compile: ${compiled.diagnostics.slice(0, 400)}`);
    return undefined;
  }
  const loaded = dev.load(compiled.kernel);
  const bin = dev.createBuffer(input.byteLength), bout = dev.createBuffer(n * OUT_SLOTS * 4);
  try {
    bin.upload(input);
    bout.upload(new Uint8Array(n * OUT_SLOTS * 4));
    loaded.dispatch(compiled.kernel.launch([BigInt(n)]), [BigInt(n), bin, bout], false);
    report.dispatches++;
    const bytes = bout.download();
    return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  } finally {
    bin.destroy();
    bout.destroy();
    loaded.destroy();
  }
}

export interface DifferentialOptions {
  readonly programs: number;
  readonly seed: number;
  /** Invocations (inputs) per program; a multiple of 64. */
  readonly invocations: number;
  /** Run SPIR-V on lavapipe (needs the Vulkan runtime). */
  readonly device: boolean;
  /** Inputs per program evaluated with the inputs as constants (the folding leg). */
  readonly foldSamples?: number;
  /** Replay exactly these program seeds (from a report's mismatches) instead of `programs` from `seed`. */
  readonly programSeeds?: readonly number[];
}

export function runDifferential(o: DifferentialOptions): DifferentialReport {
  const report: DifferentialReport = {
    programs: 0, dispatches: 0, cases: 0, byLeg: { prepared: 0, device: 0, fold: 0 }, failures: 0,
    freedoms: { "nan-payload-of-arithmetic": 0, "subnormal-flush": 0, "fma-unfused": 0, "lavapipe-nonfinite": 0, "lavapipe-signed-zero": 0, "fptrunc-rounding": 0 }, refused: {}, mismatches: [], errors: [], opsCovered: 0,
  };
  const env = createReferenceEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const rt = o.device ? VulkanRuntime.create() : undefined;
  const device = rt ? vulkanDevice(rt) : undefined;
  const ev: Evaluators = {
    device, context, compiler: Compiler.create(context),
    pipeline: PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: false }).value!,
    profile: createReferenceProfile(),
  };
  const subgroupSize = device?.defaultSubgroupSize ?? 8;
  const covered = new Set<string>();
  const n = o.invocations;
  try {
    const total = o.programSeeds?.length ?? o.programs;
    for (let i = 0; i < total; i++) {
      const programSeed = o.programSeeds?.[i] ?? (o.seed * 7_919 + i) >>> 0;
      const rand = prng(programSeed);
      const p = generateProgram(rand);
      p.ops.forEach((x) => covered.add(x));
      const words = new Uint32Array(n * IN_SLOTS);
      fillInputs(rand, p, words);
      const input = new Uint8Array(words.buffer);
      report.programs++;
      let want: Uint32Array, alt: Uint32Array | undefined;
      try {
        want = interpret(p.text, n, input, subgroupSize);
        alt = p.unfused ? interpret(p.unfused, n, input, subgroupSize) : undefined;
      } catch (e) {
        report.errors.push({ seed: programSeed, leg: "interpreter", error: String((e as Error).message ?? e).slice(0, 400) });
        continue;
      }
      const check = (leg: string, got: Uint32Array, rows: readonly number[], ref = want, refAlt = alt) => {
        for (const row of rows) {
          report.cases++;
          report.byLeg[leg] = (report.byLeg[leg] ?? 0) + 1;
          const slot = compareRow(p, ref, refAlt, got, row, report.freedoms, leg === "device");
          if (slot >= 0) {
            report.failures++;
            if (report.mismatches.length < 50) report.mismatches.push({ leg, programSeed, invocation: row, slot, want: ref[row * OUT_SLOTS + slot]!, got: got[row * OUT_SLOTS + slot]! });
          }
        }
      };
      const allRows = Array.from({ length: n }, (_, r) => r);
      const guarded = (leg: string, f: () => void) => {
        try { f(); } catch (e) { report.errors.push({ seed: programSeed, leg, error: String((e as Error).message ?? e).slice(0, 400) }); }
      };
      guarded("prepared", () => check("prepared", interpretPrepared(ev, p.text, n, input, subgroupSize), allRows));
      if (device) guarded("device", () => { const got = deviceRun(ev, p, n, input, report); if (got) check("device", got, allRows); });
      // Folding: inputs as constants, one workgroup (every lane sees the same inputs).
      for (let s = 0; s < (o.foldSamples ?? 2); s++) {
        const row = Math.floor(rand() * n);
        guarded("fold", () => {
          const oneWords = new Uint32Array(WORKGROUP * IN_SLOTS);
          for (let r = 0; r < WORKGROUP; r++) oneWords[r * IN_SLOTS + NEG_ZERO_SLOT] = 0x80000000;
          const one = new Uint8Array(oneWords.buffer);
          const text = withConstantInputs(p, p.text, words, row);
          const ref = interpret(text, WORKGROUP, one, subgroupSize);
          const refAlt = p.unfused ? interpret(withConstantInputs(p, p.unfused, words, row), WORKGROUP, one, subgroupSize) : undefined;
          check("fold", interpretPrepared(ev, text, WORKGROUP, one, subgroupSize), [0], ref, refAlt);
        });
      }
    }
  } finally {
    device?.destroy();
  }
  report.opsCovered = covered.size;
  return report;
}

if (process.argv[1]?.endsWith("differential.js") && import.meta.url.endsWith("bench/fuzz/differential.js")) {
  const programs = Number(process.argv[2] ?? 100);
  const seed = Number(process.argv[3] ?? 1);
  const invocations = Number(process.argv[4] ?? 1024);
  const device = process.env.FUZZ_DEVICE !== "0";
  const replay = process.env.FUZZ_REPLAY?.split(",").map(Number);
  const t0 = performance.now();
  const report = runDifferential({ programs, seed, invocations, device, ...(replay ? { programSeeds: replay } : {}) });
  const seconds = (performance.now() - t0) / 1000;
  const { skipped } = registryTemplates();
  console.log(JSON.stringify({
    bench: "fuzz-differential",
    caseDefinition: "one generated program evaluated on one invocation's input by the interpreter and one other evaluator (prepared-low interpreter, lavapipe SPIR-V, or constant folding), every output word compared",
    seed, invocations, seconds: Math.round(seconds), ratePerSec: Math.round(report.cases / seconds),
    ...report, errorsCount: report.errors.length, errors: report.errors.slice(0, 10), notGenerated: Object.keys(skipped).length,
  }));
}
