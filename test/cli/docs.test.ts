/**
 * The docs stand alone (issue 11 item 14): every relative link in README.md and docs/ resolves,
 * no doc points outside the repository, docs/diagnostics.md is what `loom explain --markdown`
 * prints and covers every code of the compiler's catalog, docs/ops-reference.md is generated
 * from the op registry (UPDATE=1 rewrites it), and the `loom` commands the README shows run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { D } from "../../src/core/diag/catalog.js";
import { OP_INFOS } from "../../src/dialects/registry.js";
// Every op of the language: the check harness's too, which register when loaded.
import "../../src/dialects/ops/check.js";
import { EXPLANATIONS } from "../../src/cli/explanations.js";
import { fromRoot } from "../util/paths.js";
import { haveCommand } from "../util/tools.js";
import { loom, loomWith, tempDir } from "./helpers.js";

const DOCS = readdirSync(fromRoot("docs")).filter((f) => f.endsWith(".md")).map((f) => fromRoot("docs", f));
const PAGES = [fromRoot("README.md"), ...DOCS];

test("every relative link in README.md and docs/ resolves, and none leaves the repository", () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(page, "utf8").replace(/```[\s\S]*?```/g, "");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target) || target.startsWith("#")) continue;
      const path = resolve(dirname(page), target.split("#")[0]!);
      if (!path.startsWith(fromRoot())) broken.push(`${page}: ${target} leaves the repository`);
      else if (!existsSync(path)) broken.push(`${page}: ${target} does not exist`);
    }
    if (/\.\.\/shared|\/work\/|shared folder/.test(text)) broken.push(`${page}: points at the project's shared folder`);
  }
  assert.deepEqual(broken, []);
});

test("docs/diagnostics.md is `loom explain --markdown` and explains every diagnostic code", () => {
  const codes = Object.values(D).map((e) => e.code).sort();
  const missing = codes.filter((c) => EXPLANATIONS[c] === undefined);
  assert.deepEqual(missing, [], "codes without an explanation in src/cli/explanations.ts");
  const stale = Object.keys(EXPLANATIONS).filter((c) => !codes.includes(c));
  assert.deepEqual(stale, [], "explanations of codes the catalog no longer has");
  const r = loom("explain", "--markdown");
  assert.equal(r.code, 0, r.err);
  assert.equal(readFileSync(fromRoot("docs/diagnostics.md"), "utf8"), r.out, "regenerate with: node dist/src/cli/main.js explain --markdown > docs/diagnostics.md");
  const one = loom("explain", "STRUCTURE/038");
  assert.match(one.out, /^STRUCTURE\/038: .*barrier/);
  const typo = loom("explain", "TARGET/0001");
  assert.equal(typo.code, 2);
  assert.match(typo.err, /did you mean 'TARGET\/001'\?/);
});

/**
 * Each op's one-line semantics as docs/ops-reference.md states it: the prose lives in that file
 * (the compiler never reads it, so the declarations and the browser bundle leave it out); the
 * rest of each entry is generated.
 */
function opDescriptions(text: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^### `([^`]+)`\n\n(.*)$/gm)) out.set(m[1]!, m[2]!.replace(/ \([^()]*\)$/, ""));
  return out;
}

/** The op reference: one section per dialect, one entry per op, with a line from a real file. */
function opsReference(descriptions: ReadonlyMap<string, string>): string {
  const files = [...listLoom(fromRoot("test/fixtures/valid")), ...listLoom(fromRoot("examples"))].sort();
  const lines = files.flatMap((f) => readFileSync(f, "utf8").split("\n").map((l) => l.trim()));
  const example = (name: string): string | undefined => {
    const re = new RegExp(`(^|= |^\\S+ = )${name.replace(/\./g, "\\.")}(?=[\\s<(@]|$)`);
    return lines.find((l) => !l.startsWith("//") && re.test(l) && l.length <= 160);
  };
  const where = (p: string) =>
    [...p].map((c) => ({ C: "launch-config region", D: "kernel body", F: "function body", H: "check case", T: "top level" })[c as "C"]).filter(Boolean).join(", ") || "top level";
  const out = [
    "# Op reference",
    "",
    "Every op of the language, generated from the op registry (`src/dialects/ops/*.ts`) by",
    "test/cli/docs.test.ts (`UPDATE=1` rewrites this file). The meaning of each op in prose, its",
    "types and its undefined behaviour are in [language.md](language.md) §4; each entry here",
    "gives where the op may appear, whether it is pure, its one-line semantics, and a line",
    "that uses it in a file of this repository. The one-line semantics are written here (the",
    "declarations hold only what the compiler reads); the rest is generated, and a new op",
    "needs its heading and line added (anywhere: the update puts them in place).",
    "",
  ];
  let dialect = "";
  for (const info of OP_INFOS) {
    const d = info.name.split(".")[0]!;
    if (d !== dialect) {
      dialect = d;
      out.push(`## \`${d}\``, "");
    }
    const traits = [info.topLevel ? "top level" : `in: ${where(info.placement)}`, info.pure ? "pure" : "has effects", ...(info.terminator ? ["terminator"] : []), ...(info.collective ? [`${info.collective} collective`] : [])];
    out.push(`### \`${info.name}\``, "", `${descriptions.get(info.name) ?? ""} (${traits.join("; ")})`, "");
    const e = example(info.name);
    if (e) out.push("```", e, "```", "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function listLoom(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listLoom(join(dir, e.name)) : e.name.endsWith(".loom") ? [join(dir, e.name)] : []));
}

test("docs/ops-reference.md is generated from the op registry and lists every op with an example", () => {
  const file = fromRoot("docs/ops-reference.md");
  const descriptions = opDescriptions(readFileSync(file, "utf8"));
  const undescribed = OP_INFOS.filter((i) => !descriptions.get(i.name)).map((i) => i.name);
  assert.deepEqual(undescribed, [], "ops without a one-line description in docs/ops-reference.md: add a `### `name`` heading with the line below it anywhere in the file, and UPDATE=1 puts it in place");
  const text = opsReference(descriptions);
  if (process.env.UPDATE === "1") writeFileSync(file, text);
  assert.equal(readFileSync(file, "utf8"), text, "docs/ops-reference.md is stale: run UPDATE=1 node --test dist/test/cli/docs.test.js");
  const withoutExample = OP_INFOS.filter((i) => !text.includes(`### \`${i.name}\`\n\n${descriptions.get(i.name)!} (`)).map((i) => i.name);
  assert.deepEqual(withoutExample, []);
});

test("the loom commands README.md shows run, in a copy of the repository's examples", (t) => {
  const dir = tempDir(t);
  cpSync(fromRoot("examples"), join(dir, "examples"), { recursive: true });
  // The suite manifest beside the kernels, as in the repository (dist/examples/kernels/suite.js).
  symlinkSync(fromRoot("dist/examples/kernels/suite.js"), join(dir, "examples/kernels/suite.js"));
  const readme = readFileSync(fromRoot("README.md"), "utf8");
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const commands = blocks.flatMap((b) => b.split("\n")).map((l) => l.replace(/\s+#.*$/, "").trim()).filter((l) => l.startsWith("npx loom "));
  assert.ok(commands.length >= 8, "the README shows the loom commands");
  const scripts = Object.keys((JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
  for (const l of blocks.flatMap((b) => b.split("\n")).filter((x) => x.startsWith("npm "))) {
    for (const m of l.matchAll(/npm (?:run )?(\w+)/g)) if (!["install", "ci"].includes(m[1]!)) assert.ok(scripts.includes(m[1]!), `npm script '${m[1]}' exists`);
  }
  const vulkan = haveCommand("vulkaninfo") || process.env.REQUIRE_ALL_TOOLS === "1";
  for (const command of commands) {
    if (command.includes("--device vulkan") && !vulkan) {
      console.log(`SKIP ${command}: no Vulkan device (apt-get install mesa-vulkan-drivers vulkan-tools)`);
      continue;
    }
    const words = command.slice("npx loom ".length).split(/\s+/);
    // The shell would expand the glob; do it here.
    const args = words.flatMap((w) => (w.includes("*") ? readdirSync(join(dir, dirname(w))).filter((f) => f.endsWith(w.split("*")[1]!)).map((f) => join(dirname(w), f)).sort() : [w]));
    const r = loomWith({ cwd: dir }, ...args);
    assert.equal(r.code, 0, `${command}\n${r.out}${r.err}`);
  }
});

test("every name the docs import from loomc is exported by the package", async () => {
  const missing: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(page, "utf8");
    for (const block of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      for (const m of block[1]!.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"(loomc[^"]*)"/g)) {
        let mod: Record<string, unknown>;
        try {
          mod = (await import(m[2]!)) as Record<string, unknown>;
        } catch (e) {
          missing.push(`${page}: "${m[2]}" does not resolve (${(e as Error).message})`);
          continue;
        }
        for (const raw of m[1]!.split(",")) {
          const name = raw.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!;
          if (name === "" || raw.trim().startsWith("type ")) continue;
          if (!(name in mod)) missing.push(`${page}: "${m[2]}" has no export '${name}'`);
        }
      }
    }
  }
  assert.deepEqual(missing, []);
  const root = (await import("loomc")) as Record<string, unknown>;
  assert.equal(typeof root.createLaunchConfig, "function", "docs/launch-config.md's createLaunchConfig");
  assert.equal(typeof root.prepareReferenceKernel, "function", "docs/interpreter.md's prepareReferenceKernel");
});

test("the shell commands docs/ shows name scripts, files and loom commands that exist", () => {
  const problems: string[] = [];
  const scripts = Object.keys((JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
  const runnable: string[] = [];
  for (const name of readdirSync(fromRoot("docs")).filter((f) => f.endsWith(".md"))) {
    const text = readFileSync(fromRoot(`docs/${name}`), "utf8");
    const lines = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? "").split("\n")).map((l) => l.replace(/\s+#.*$/, "").trim());
    for (const l of lines) {
      for (const m of l.matchAll(/\bnpm run (\w[\w:-]*)/g)) if (!scripts.includes(m[1] ?? "")) problems.push(`docs/${name}: npm script '${m[1]}' does not exist`);
      for (const m of l.matchAll(/\b(?:node|python3) ((?:dist|bench|examples)\/[\w./-]+\.(?:js|py|mjs))/g)) if (!existsSync(fromRoot(m[1] ?? ""))) problems.push(`docs/${name}: ${m[1]} does not exist`);
      if (l.startsWith("node dist/src/cli/main.js ")) runnable.push(l);
    }
  }
  assert.deepEqual(problems, []);
  // The loom commands a page shows run (a Vulkan one where a Vulkan device is, as for README.md).
  const vulkan = haveCommand("vulkaninfo") || process.env.REQUIRE_ALL_TOOLS === "1";
  for (const command of runnable) {
    if (command.includes("--device vulkan") && !vulkan) {
      console.log(`SKIP ${command}: no Vulkan device (apt-get install mesa-vulkan-drivers vulkan-tools)`);
      continue;
    }
    const r = loomWith({ cwd: fromRoot() }, ...command.slice("node dist/src/cli/main.js ".length).split(/\s+/));
    assert.equal(r.code, 0, `${command}\n${r.out}${r.err}`);
  }
});
