/**
 * A small golden-file compare for PTX text: `UPDATE=1` rewrites test/golden/ptx/<name>.ptx,
 * otherwise the emitted text must equal the checked-in file byte for byte.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fromRoot } from "../util/paths.js";

export function goldenPath(name: string): string {
  return fromRoot("test", "golden", "ptx", `${name}.ptx`);
}

export function assertGolden(name: string, text: string): void {
  const path = goldenPath(name);
  if (process.env.UPDATE === "1") {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  assert.ok(existsSync(path), `no golden file ${path} (run the test with UPDATE=1 to create it)`);
  assert.equal(text, readFileSync(path, "utf8"), `${path} differs from the emitted PTX (UPDATE=1 rewrites it after a reviewed change)`);
}
