/**
 * Every public export reachable from typedoc.json's entry points has TSDoc: typedoc's
 * `notDocumented` validation, with validation warnings treated as errors.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fromRoot } from "../util/paths.js";

const TYPEDOC = fromRoot("node_modules/typedoc/bin/typedoc");

test("typedoc finds no undocumented public export", (t) => {
  if (!existsSync(TYPEDOC)) {
    const reason = "typedoc is not installed (npm ci installs it)";
    if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
    console.log(`SKIP ${t.name}: ${reason}`);
    t.skip(reason);
    return;
  }
  const run = spawnSync(process.execPath, [TYPEDOC, "--emit", "none", "--validation.notDocumented", "--treatValidationWarningsAsErrors", "--logLevel", "Warn"], {
    cwd: fromRoot("."),
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const log = `${run.stdout}${run.stderr}`;
  const missing = log.split("\n").filter((l) => l.includes("does not have any documentation"));
  assert.deepEqual(missing, [], `undocumented exports:\n${missing.join("\n")}`);
  assert.equal(run.status, 0, log);
});
