/** Running the built `loom` binary as a subprocess, and temporary directories that are removed after the test. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { fromRoot } from "../util/paths.js";

export const CLI = fromRoot("dist/src/cli/main.js");

export interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

export interface LoomOptions {
  readonly input?: string | Uint8Array;
  readonly env?: Record<string, string | undefined>;
  readonly timeout?: number;
  readonly cwd?: string;
}

export function loomWith(options: LoomOptions, ...args: string[]): Ran {
  const env: Record<string, string | undefined> = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp", ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", input: options.input, env, timeout: options.timeout ?? 120_000, ...(options.cwd ? { cwd: options.cwd } : {}) });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export function loom(...args: string[]): Ran {
  return loomWith({}, ...args);
}

/** A fresh directory under the system temp dir, removed when the test ends. */
export function tempDir(t: TestContext, prefix = "loom-cli-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The one JSON document `--json` prints. */
export function doc(r: Ran): { schema: string; command: string; ok: boolean; exitCode: number; errorCount: number; diagnostics: { code: string; file?: string; help?: string; message: string }[]; result: Record<string, unknown>; error?: { kind: string; message: string } } {
  const lines = r.out.trim().split("\n");
  if (lines.length !== 1) throw new Error(`expected one JSON line on stdout, got ${lines.length}: ${r.out}`);
  return JSON.parse(lines[0]!);
}
