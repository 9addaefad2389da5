/**
 * Every public export reachable from typedoc.json's entry points has TSDoc: typedoc's
 * `notDocumented` validation, with validation warnings treated as errors.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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

test("typedoc.json documents every entry point of package.json's exports map", () => {
  const pkg = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as { exports: Record<string, string | { types?: string }> };
  const config = JSON.parse(readFileSync(fromRoot("typedoc.json"), "utf8")) as { entryPoints: string[] };
  const sources = Object.entries(pkg.exports)
    .filter(([key]) => key !== "./package.json")
    .map(([key, target]) => {
      const types = typeof target === "string" ? undefined : target.types;
      if (!types?.startsWith("./dist/src/") || !types.endsWith(".d.ts")) return assert.fail(`${key}: types ${String(types)} is not under ./dist/src/`);
      return types.slice("./dist/".length).replace(/\.d\.ts$/, ".ts");
    });
  for (const s of sources) assert.ok(existsSync(fromRoot(s)), `${s} does not exist`);
  assert.deepEqual([...config.entryPoints].sort(), [...new Set(sources)].sort());
});
