/**
 * Probes for the outside tools tests use as oracles (verification.md "When a tool is missing").
 * A missing tool skips the test with one printed line naming test, tool and fix; under
 * REQUIRE_ALL_TOOLS=1 (CI) a missing tool fails instead. A tool that is present but fails
 * is always a failure.
 */
import { spawnSync } from "node:child_process";
import type { TestContext } from "node:test";

const cache = new Map<string, boolean>();

export function haveCommand(cmd: string): boolean {
  let ok = cache.get(cmd);
  if (ok === undefined) {
    ok = spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).status === 0;
    cache.set(cmd, ok);
  }
  return ok;
}

/**
 * Returns true when `cmd` is available. Otherwise skips the test (printing why) or, under
 * REQUIRE_ALL_TOOLS=1, throws so the test fails.
 */
export function requireTool(t: TestContext, cmd: string, fix: string): boolean {
  if (haveCommand(cmd)) return true;
  skipOrFail(t, `${cmd} not found on PATH (${fix})`);
  return false;
}

/** Skips the test printing `reason` (a missing tool or service), or throws under REQUIRE_ALL_TOOLS=1. */
export function skipOrFail(t: TestContext, reason: string): void {
  if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
  console.log(`SKIP ${t.name}: ${reason}`);
  t.skip(reason);
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool synchronously; input bytes go to stdin when given. */
export function runTool(cmd: string, args: readonly string[], input?: Uint8Array | string): RunResult {
  const r = spawnSync(cmd, args, { input, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
