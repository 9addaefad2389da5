/**
 * Props are read with their declared types (the op registry: `isOp`, `propOf`, `PropsOf<N>`), so a
 * `props.x as T` cast in src/ is either a wrong declaration or a missing narrowing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fromRoot } from "../util/paths.js";

/** The registry's own typed read: the one place a props value meets its declared type. */
const ALLOWED = new Set(["src/dialects/registry.ts: return op.props[key] as PropType<K> | undefined;"]);

const CAST = /\bprops(?:\.[A-Za-z_$][\w$]*|\[[^\]]+\])?\s+as\s/;

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** Lines of `text` that cast a props read, as `file:line: text`. */
function propsCasts(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (CAST.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test("no props read in src/ is cast (declare the op's props type instead)", () => {
  const root = fromRoot("src");
  const found = [...sources(root)].flatMap((f) => propsCasts(relative(fromRoot(), f), readFileSync(f, "utf8"))).filter((l) => !ALLOWED.has(l.replace(/:\d+:/, ":")));
  assert.deepEqual(found, []);
});

test("the cast check sees the forms it forbids", () => {
  assert.equal(propsCasts("x.ts", "const a = op.props.value as Literal;").length, 1);
  assert.equal(propsCasts("x.ts", "w.literal(op.props.value as never);").length, 1);
  assert.equal(propsCasts("x.ts", "const p = op.props as Record<string, string>;").length, 1);
  assert.equal(propsCasts("x.ts", 'const q = op.props["indices"] as X;').length, 1);
  assert.equal(propsCasts("x.ts", 'const v = propOf(op, "value");').length, 0);
  assert.equal(propsCasts("x.ts", " *  kernel.decl     props as kernel.def").length, 0);
});
