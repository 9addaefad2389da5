/**
 * Searches the order of src/browser.ts's side-effect imports of target modules for the smallest
 * `loomc/browser` bundle (gzip level 9 of esbuild's minified ESM, as test/browser/entry.test.ts
 * measures it). esbuild emits modules in import order and gzip matches only within 32 KB, so
 * putting similar modules of the four back ends side by side compresses better; which order is
 * best is found by measuring, not by reasoning. Local search from the current order: move a
 * target module (listed or not) to another place, or drop one; keep a change when the bundle
 * shrinks. Rewrites the import block in place when it found a smaller order.
 *
 *   npm run build && node dist/bench/bundle-order.js [SECONDS=600] [SEED=1]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { repoPath } from "./stats.js";

const ENTRY = repoPath("src/browser.ts");
const IMPORT = /^import "(\.\/targets\/[^"]+\.js)";$/;

const text = readFileSync(ENTRY, "utf8");
const lines = text.split("\n");
const first = lines.findIndex((l) => IMPORT.test(l));
let last = first;
while (IMPORT.test(lines[last + 1] ?? "")) last++;
if (first < 0) throw new Error("src/browser.ts has no block of target imports");
const head = lines.slice(0, first), tail = lines.slice(last + 1);

const options = { bundle: true, platform: "browser", format: "esm", minify: true, write: false, logLevel: "silent", target: "es2022" } as const;

async function gzipBytes(order: readonly string[]): Promise<number> {
  const contents = [...head, ...order.map((m) => `import "${m}";`), ...tail].join("\n");
  const out = await build({ ...options, stdin: { contents, resolveDir: repoPath("src"), loader: "ts", sourcefile: "browser.ts" } });
  return gzipSync(out.outputFiles[0]!.text, { level: 9 }).length;
}

/** A small deterministic PRNG (mulberry32), so a seed repeats a search. */
function random(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const seconds = Number(process.argv[2] ?? 600);
const pick = random(Number(process.argv[3] ?? 1));
const meta = await build({ ...options, entryPoints: [ENTRY], metafile: true, absWorkingDir: repoPath(".") });
// Target modules other than their packages' entry points (which browser.ts imports by name).
const pool = Object.keys(meta.metafile.inputs)
  .filter((k) => k.startsWith("src/targets/") && !/\/(index|api)\.ts$/.test(k))
  .map((k) => `./${k.slice("src/".length).replace(/\.ts$/, ".js")}`);

let order = lines.slice(first, last + 1).map((l) => IMPORT.exec(l)![1]!);
const start = await gzipBytes(order);
let best = start;
for (const end = Date.now() + seconds * 1000; Date.now() < end; ) {
  const next = order.slice();
  const move = pick(20);
  if (move < 3) next.splice(pick(next.length), 1);
  else {
    const m = move < 12 ? pool[pick(pool.length)]! : next[pick(next.length)]!;
    const at = next.indexOf(m);
    if (at >= 0) next.splice(at, 1);
    next.splice(pick(next.length + 1), 0, m);
  }
  const bytes = await gzipBytes(next);
  if (bytes < best) {
    best = bytes;
    order = next;
    console.log(`${best} B gzipped (${order.length} imports)`);
  }
}
if (best < start) writeFileSync(ENTRY, [...head, ...order.map((m) => `import "${m}";`), ...tail].join("\n"));
console.log(JSON.stringify({ before: start, after: best, imports: order.length }));
