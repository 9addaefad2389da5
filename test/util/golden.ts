/**
 * Golden files (docs/testing.md): expected output checked in under test/golden/, compared
 * byte for byte. `UPDATE=1 npm test` rewrites every golden from today's output and deletes
 * goldens no test claims, so a change in output becomes a reviewed diff. Without UPDATE a
 * missing golden fails, and so does a golden that nothing produced (an "honest" snapshot
 * set: deleting a case must delete its goldens).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fromRoot } from "./paths.js";

export const UPDATING = process.env.UPDATE === "1";
const ROOT = fromRoot("test", "golden");

/** Golden paths (relative to test/golden, `/`-separated) compared in this process. */
const claimed = new Set<string>();

/** Compares `actual` with test/golden/`path`; under UPDATE=1 writes it instead. */
export function expectGolden(path: string, actual: string): void {
  if (claimed.has(path)) throw new Error(`golden '${path}' is produced twice (give one of the runs a label)`);
  claimed.add(path);
  const file = join(ROOT, path);
  const text = actual.endsWith("\n") ? actual : `${actual}\n`;
  if (UPDATING) {
    if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    return;
  }
  if (!existsSync(file)) assert.fail(`missing golden test/golden/${path}; run UPDATE=1 npm test and review the new file`);
  assert.equal(text, readFileSync(file, "utf8"), `test/golden/${path} differs from today's output; if the change is intended, run UPDATE=1 npm test and review the diff`);
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * Goldens under test/golden that no `expectGolden` call of this process claimed. Under
 * UPDATE=1 they are deleted (and the list is empty); otherwise the caller fails on them.
 */
export function unclaimedGoldens(): string[] {
  const stale = listFiles(ROOT).map((f) => relative(ROOT, f).split("\\").join("/")).filter((p) => !claimed.has(p)).sort();
  if (!UPDATING) return stale;
  for (const p of stale) rmSync(join(ROOT, p));
  return [];
}
