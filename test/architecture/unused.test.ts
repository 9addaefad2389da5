/** No unused exports, files or dependencies (knip, with knip.json). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fromRoot } from "../util/paths.js";

test("knip finds no unused export, file or dependency", () => {
  const r = spawnSync(process.execPath, [fromRoot("node_modules/knip/bin/knip.js"), "--no-progress", "--no-config-hints"], { cwd: fromRoot(), encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(r.error, undefined);
  assert.equal(`${r.stdout}${r.stderr}`.trim(), "");
  assert.equal(r.status, 0);
});
