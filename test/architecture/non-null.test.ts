/**
 * A ratchet on `xs[i]!`: an index read asserted non-null. Where the types can prove the element
 * is there (a tuple from `OpOf<N>`, destructuring, `for…of`), no `!` is needed; the ones left sit
 * in hot index loops or untyped code. Each top-level folder of src/ has a ceiling: the count may
 * fall (lower the ceiling with it), never rise.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { fromRoot } from "../util/paths.js";

/** `]!` allowed per folder of src/ (`(root)`: the files directly in src/). */
const CEILINGS: Readonly<Record<string, number>> = {
  "(root)": 0,
  abi: 0,
  api: 11,
  bytecode: 36,
  cli: 1,
  core: 5,
  dialects: 8,
  harness: 5,
  interp: 94,
  ir: 4,
  launch: 134,
  passes: 56,
  pool: 0,
  runtime: 259,
  targets: 496,
  text: 15,
};

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** How many `x[i]!` the TypeScript source `text` holds (syntax, so strings and comments do not count). */
function indexAssertions(file: string, text: string): number {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isNonNullExpression(node) && ts.isElementAccessExpression(node.expression)) n++;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return n;
}

test("no folder of src/ holds more `]!` than its ceiling", () => {
  const root = fromRoot("src");
  const counts: Record<string, number> = {};
  for (const file of sources(root)) {
    const parts = relative(root, file).split(sep);
    const folder = parts.length > 1 ? (parts[0] ?? "(root)") : "(root)";
    counts[folder] = (counts[folder] ?? 0) + indexAssertions(file, readFileSync(file, "utf8"));
  }
  const rows = Object.keys({ ...CEILINGS, ...counts }).sort();
  const table = rows.map((f) => `${f.padEnd(10)} ${String(counts[f] ?? 0).padStart(4)} / ${CEILINGS[f] ?? "none"}`);
  console.log(`]! per folder of src/ (count / ceiling):\n${table.join("\n")}\ntotal ${Object.values(counts).reduce((a, b) => a + b, 0)}`);
  const over = rows.filter((f) => (counts[f] ?? 0) > (CEILINGS[f] ?? 0)).map((f) => `${f}: ${counts[f] ?? 0} > ${CEILINGS[f] ?? 0}`);
  assert.deepEqual(over, [], "a folder gained `]!`: prove the element with types (a tuple, destructuring, for…of, a checked .at()) instead");
});

test("the count sees index assertions and nothing else", () => {
  assert.equal(indexAssertions("x.ts", "const a = xs[0]!; const b = m.get(k)!; const c = o.p!;"), 1);
  assert.equal(indexAssertions("x.ts", "f(op.operands[i]!.type, ys[i + 1]![0]!);"), 3);
  assert.equal(indexAssertions("x.ts", 'if (xs[0] !== y) g("a]!b"); // xs[1]!'), 0);
});
