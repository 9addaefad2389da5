/**
 * Runs the suite child (suite-child.ts) in a fresh Node process under
 * VK_LAYER_KHRONOS_validation and returns its outcome plus every "Validation Error" line.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { quietEnv } from "../runtime/vulkan/probe.js";
import type { SuiteJob, SuiteOutcome } from "./suite-child.js";

const CHILD = fileURLToPath(new URL("./suite-child.js", import.meta.url));

export interface SuiteRun {
  readonly outcome: SuiteOutcome;
  readonly validationErrors: readonly string[];
  /** Where the child wrote the SPIR-V (kept for spirv-val; the OS cleans tmp). */
  readonly dir: string;
}

export function runSuiteChild(job: Omit<SuiteJob, "outDir">): SuiteRun {
  const dir = mkdtempSync(join(tmpdir(), "loom-e2e-"));
  const jobFile = join(dir, "job.json");
  const resultFile = join(dir, "result.json");
  writeFileSync(jobFile, JSON.stringify({ ...job, outDir: dir }));
  const r = spawnSync(process.execPath, [CHILD, jobFile, resultFile], {
    encoding: "utf8",
    env: quietEnv({ VK_INSTANCE_LAYERS: "VK_LAYER_KHRONOS_validation" }),
    maxBuffer: 64 << 20,
    timeout: 120_000, // a hang is a failure, not a stuck runner
  });
  if (r.error) throw r.error;
  const output = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`suite child exited with ${r.status ?? r.signal}:\n${output.slice(-4000)}`);
  return {
    outcome: JSON.parse(readFileSync(resultFile, "utf8")) as SuiteOutcome,
    validationErrors: output.split("\n").filter((l) => l.includes("Validation Error")),
    dir,
  };
}
