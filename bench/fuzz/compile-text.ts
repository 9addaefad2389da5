/**
 * Hostile-text fuzzing of the whole in-memory compiler (issue 12 items 1 and 16): each case
 * is one valid repository kernel with a few text mutations aimed at limits (literals near and
 * past 2^63/2^64, huge vector widths, long names, duplicated or deleted lines, deep nesting),
 * parsed, compiled for SPIR-V with the launch-config artifact and emitted. The property: no
 * call throws — a bad program is a failed Result with coded diagnostics. Used by the bench
 * (`node dist/bench/fuzz/compile-text.js [cases] [seed]`, prints JSON) and, with a small fixed
 * seed, by test/fuzz/compile-text.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { prng, type Rand } from "./mutate.js";
import { validLoomFiles } from "./corpus.js";

const LITERALS = ["0", "-1", "1", "7", "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551617", "-9223372036854775809", "9".repeat(400), "1099511627776"];
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** One mutation of `text`: at most a few kilobytes bigger, so a case stays cheap. */
export function mutateText(rand: Rand, text: string): string {
  const lines = text.split("\n");
  const at = Math.floor(rand() * lines.length);
  switch (Math.floor(rand() * 7)) {
    case 0: // a literal replaced by a boundary value
      return text.replace(/\b\d+\b/g, (m) => (rand() < 0.15 ? pick(rand, LITERALS) : m));
    case 1: // a vector or view width replaced
      return text.replace(/(vector|view)<(\d+)/g, (m, kind: string) => (rand() < 0.5 ? `${kind}<${pick(rand, ["0", "1025", "2147483647", "1000000", "4"])}` : m));
    case 2: // a long name
      return text.replace(/export\("([A-Za-z_0-9]+)"\)/, () => `export("${"n".repeat(pick(rand, [1024, 1025, 70_000]))}")`);
    case 3: // a line duplicated
      lines.splice(at, 0, lines[at] ?? "");
      return lines.join("\n");
    case 4: // a line deleted
      lines.splice(at, 1);
      return lines.join("\n");
    case 5: { // a nest of scf.if around a line
      const depth = pick(rand, [3, 63, 65, 257]);
      lines.splice(at, 0, `  %__t = scalar.constant true : i1\n${"  scf.if %__t {\n".repeat(depth)}${"  }\n".repeat(depth)}`);
      return lines.join("\n");
    }
    default: // two lines swapped
      if (lines.length > 1) {
        const b = Math.floor(rand() * lines.length);
        [lines[at], lines[b]] = [lines[b]!, lines[at]!];
      }
      return lines.join("\n");
  }
}

export interface FuzzReport {
  cases: number;
  parsed: number;
  compiled: number;
  emitted: number;
  /** Cases where a call threw (the property's violations), with replay seeds. */
  threw: { seed: number; error: string }[];
}

export function fuzzCompileText(repoRoot: string, cases: number, seed: number): FuzzReport {
  const env = createSpirvTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createSpirvProfile(env, { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: false }).value!;
  const workspace = new Workspace(context);
  const seeds = validLoomFiles(repoRoot)
    .map((p) => readFileSync(join(repoRoot, p), "utf8"))
    .filter((t) => t.includes("kernel.def") && !t.includes(".target"));
  const report: FuzzReport = { cases, parsed: 0, compiled: 0, emitted: 0, threw: [] };
  for (let i = 0; i < cases; i++) {
    const caseSeed = (seed * 1_000_003 + i) >>> 0;
    const rand = prng(caseSeed);
    let text = pick(rand, seeds);
    for (let m = 1 + Math.floor(rand() * 3); m > 0; m--) text = mutateText(rand, text);
    try {
      const parsed = workspace.parseModule(Source.fromText("fuzz.loom", text));
      if (!parsed.ok) continue;
      report.parsed++;
      const module = parsed.value!;
      const kernels = [...new Set(module.kernels().filter((k) => k.defined).map((k) => k.symbol))];
      if (kernels.length === 0) continue;
      const result = compileModule(compiler, workspace, pipeline, module, { specializations: kernels.map((functionSymbol) => ({ functionSymbol, targetProfile: profile })), artifacts: { launchConfig: true } });
      if (!result.ok) continue;
      report.compiled++;
      if (emitModule(env, workspace, module, { artifactFormat: env.formats[0]! }).ok) report.emitted++;
    } catch (e) {
      report.threw.push({ seed: caseSeed, error: String((e as Error)?.message ?? e).slice(0, 300) });
    }
  }
  return report;
}

if (process.argv[1]?.endsWith("compile-text.js") && import.meta.url.endsWith("bench/fuzz/compile-text.js")) {
  const cases = Number(process.argv[2] ?? 2000);
  const seed = Number(process.argv[3] ?? 1);
  const root = new URL("../../../", import.meta.url).pathname;
  const t0 = performance.now();
  const report = fuzzCompileText(root, cases, seed);
  console.log(JSON.stringify({ bench: "fuzz-compile-text", seed, ms: Math.round(performance.now() - t0), ...report, threw: report.threw.slice(0, 20), threwCount: report.threw.length }, null, 2));
}
