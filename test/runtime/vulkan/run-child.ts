/**
 * Runs one child scenario (child.ts) in a fresh Node process and returns its JSON result with
 * the process's output. By default the child runs under VK_LAYER_KHRONOS_validation, and the
 * layer's reports (printed to stdout or stderr) are collected as `validationErrors`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildJob } from "./child.js";
import { quietEnv } from "./probe.js";

export interface ChildRun<T> {
  readonly result: T;
  readonly stdout: string;
  readonly stderr: string;
  /** Lines containing "Validation Error". */
  readonly validationErrors: readonly string[];
}

const CHILD = fileURLToPath(new URL("./child.js", import.meta.url));

export function runChild<T>(job: ChildJob, options: { validation?: boolean; env?: Record<string, string> } = {}): ChildRun<T> {
  const dir = mkdtempSync(join(tmpdir(), "loom-vk-child-"));
  try {
    const jobFile = join(dir, "job.json");
    const resultFile = join(dir, "result.json");
    writeFileSync(jobFile, JSON.stringify(job));
    const layers: Record<string, string> = options.validation === false ? {} : { VK_INSTANCE_LAYERS: "VK_LAYER_KHRONOS_validation" };
    const r = spawnSync(process.execPath, [CHILD, jobFile, resultFile], {
      encoding: "utf8",
      env: quietEnv({ ...layers, ...(options.env ?? {}) }),
      maxBuffer: 256 << 20,
      timeout: 120_000, // a hang is a failure, not a stuck runner
    });
    if (r.error) throw r.error;
    const output = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0) {
      throw new Error(`child '${job.scenario}' exited with ${r.status ?? r.signal}:\n${output.slice(-4000)}`);
    }
    const validationErrors = output.split("\n").filter((l) => l.includes("Validation Error"));
    return { result: JSON.parse(readFileSync(resultFile, "utf8")) as T, stdout: r.stdout, stderr: r.stderr, validationErrors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
