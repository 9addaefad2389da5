/**
 * Compatibility measures of issue 13 over real reference-Loom files kept OUTSIDE the repository
 * (the project holds only files we write). Usage, after `npm run build`:
 *
 *   node dist/bench/compat/measure.js DIR [--device vulkan|interp|sim|none] [--json] [--list]
 *
 * DIR is a folder holding copies of the reference's files, in any layout. It reports:
 *   fmt        of the `.loom` files whose constructs are all in v1 (no out-of-v1 construct, see
 *              OUT_OF_V1 below): how many `loom fmt` prints byte-identically (file order as read);
 *   verify     of the v1 cases of `// RUN: verify` `.loom-test` files that carry `ERROR@`
 *              annotations or none: how many `loom test --match codes` passes (codes at lines);
 *   roundtrip  of the v1 cases of `// RUN: roundtrip` files: how many `loom test` passes;
 *   check      of the `.loom` files holding `check.case`: the cases `loom check --device D` runs,
 *              with their passed/failed/unsupported counts.
 * A case is "v1" when its text names no construct that the v1 language lists as out of v1; the
 * classification is textual, so it is stated in the output, with the counts it excluded.
 * `--list` prints each miss with its first reason, which is how the top causes are found.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseLoomTestFile, runLoomTest } from "../../src/harness/index.js";
import { namesWithPrefix } from "../../src/dialects/registry.js";

/** Constructs the v1 language lists as out of v1 (its "Out of v1" paragraph), as patterns over case text. */
const OUT_OF_V1: readonly [string, RegExp][] = [
  // f8 element types appear after a dimension `x` too (`vector<4xf8E4M3>`), so no word boundary before them.
  ["tensor/tile/f8 types", /\b(?:tensor|tile)<|f8E[45]M[23]/],
  // v1 has layouts only (`encoding.layout.dense|strided`, `encoding<layout>`, `#dense`): schemas, storage, transforms and configs of encodings are out.
  ["encodings", /\bencoding<(?:schema|storage|transform)>|#q\d|\bencoding\.(?!layout\.(?:dense|strided)\b)[a-z]|\bconfig\.(?:def|decl)\b[^\n]*:\s*encoding</],
  ["cache policies", /\bcache_(?:scope|temporal)\b/],
  ["other dialects", /(?:^|[\s=(])(?:(?:check|command|low|cfg|pipeline|pass|sanitizer|global|globals|pool|group|metadata|hal|llvmir)\.|test\.(?!target\b))[a-z]/m],
  ["other target records", /(?:^|\s)(?:hal|llvmir)\.target\b/m],
  ["host kernel ops", /\bkernel\.(?:launch(?!\.config)|dispatch|entry\.decl|exit|async\.|tensor\.|cluster\.)/],
  ["collectives outside v1", /\bkernel\.(?:subgroup\.(?:scan|vote\.|active\.mask|match\.|broadcast\.first)|workgroup\.vote\.|barrier\.(?:arrive|wait))/],
  ["memory ops outside v1", /\bbuffer\.(?:pack|assume\.same_root)\b|\bview\.(?:refine|prefetch)\b/],
  ["scf ops outside v1", /\bscf\.(?:switch|lookup|schedule\.fence)\b/],
  // v1 vectors have static extents (language.md §3): `vector<[%n]x…>` is the reference's dynamic form.
  ["dynamic vector extents", /\bvector<\[/],
  ["poison/empty", /\b(?:scalar|vector)\.poison\b|\bvector\.empty\b/],
  // (Every other `vector.*` op that v1 does not declare is caught by `undeclaredVectorOp` below.)
  ["vector ops outside v1", /\bvector\.(?:masked|gather|scatter|fragment|mma|dot(?!f\b)|bitpack|table|encode|decode)/],
  ["ukernels/providers", /\b(?:template|func)\.ukernel\b|\bfunc\.provider\.decl\b/],
  ["clauses outside v1", /\b(?:pipeline|linkage|abi|import|loc)\(/],
  ["volatile", /<volatile>/],
  ["cluster sizes", /\bcluster_size\(/],
  ["func.ref and indirect calls", /\bfunc\.(?:ref\b|null\b|address\b|compare\.null\b|call\.indirect\b)/],
  ["modifiers outside v1", /\b(?:initializer|deinitializer|export_metadata)\b/],
  ["generic target records", /\btarget\.generic</],
  ["view element or attachment outside v1", /\bview<[^>]*x(?:index|offset)\b|\bview<[^>]*,\s*align\(/],
  ["named results", /->\s*\(%[\w.$-]+\s*:/],
  ["dynamic workgroup storage", /\bdynamic_workgroup_storage\(|\bkernel\.workgroup\.storage\b/],
  ["atomic preservation flags", /\bview\.atomic\.(?:reduce|rmw)<\w+,\s*\w+>/],
  // Ops the reference has that the v1 language does not define at all (neither listed as v1 nor as out of v1).
  ["ops the v1 language does not define", /\bbuffer\.(?:fill|fence|load\.i\d+|store\.i\d+)\b|\bscalar\.(?:bitfield\.|geluf\b)|\bfunc\.location\b/],
];

/** `kernel.workgroup.scan` and the legacy func spellings are outside v1 but implemented: counted as extras. */
const EXTRAS: readonly [string, RegExp][] = [
  ["kernel.workgroup.scan", /\bkernel\.workgroup\.scan\b/],
  ["legacy func.template/func.apply", /\bfunc\.(?:template|apply)\b/],
  ["the reference's test.target record", /\btest\.target\b/],
];

/** The reference's newer check forms (scenarios with trials, target-against-oracle comparisons, entropy streams, generator calls): not implemented. */
const NEWER_CHECK_FORMS = /\bcheck\.(?:scenario|trial|compare|invoke|entropy)\b|\bcheck\.generate</;

/** The check harness (language.md §11): outside v1, implemented; a file using only it and v1 counts as an extra. */
const CHECK_HARNESS = /\bcheck\.[a-z]|\btensor<|\bkernel\.(?:launch(?!\.config)|dispatch|entry\.decl)\b/;

/** The v1 vector ops (the op registry's `vector.*` names): the reference has many more. */
const V1_VECTOR_OPS = new Set<string>(namesWithPrefix("vector."));

/** The first `vector.*` op named in `code` that v1 does not declare (e.g. `vector.reduce.axes`, `vector.load.mask`, `vector.ctpopi`). */
function undeclaredVectorOp(code: string): string | undefined {
  for (const m of code.matchAll(/(?:^|[\s=(])(vector\.[a-z][\w.]*)/gm)) if (!V1_VECTOR_OPS.has(m[1]!)) return m[1];
  return undefined;
}

function outOfV1(text: string): string | undefined {
  const code = text.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n");
  if (undeclaredVectorOp(code)) return "vector ops outside v1";
  if (NEWER_CHECK_FORMS.test(code)) return "newer check forms (check.scenario/trial/compare)";
  if (CHECK_HARNESS.test(code)) {
    const rest = code.replace(/\bcheck\.[a-z][\w.]*|\btensor<|\bkernel\.(?:launch(?!\.config)|dispatch|entry\.decl)\b|\btest\.target\b/g, "");
    for (const [why, re] of OUT_OF_V1) if (re.test(rest)) return why;
    return "extra: check harness";
  }
  for (const [why, re] of OUT_OF_V1) if (re.test(code)) return why;
  for (const [why, re] of EXTRAS) if (re.test(code)) return `extra: ${why}`;
  return undefined;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

interface Tally {
  total: number;
  passed: number;
  excluded: Record<string, number>;
  extras: { total: number; passed: number };
  unsupported: number;
  misses: string[];
}
const tally = (): Tally => ({ total: 0, passed: 0, excluded: {}, extras: { total: 0, passed: 0 }, unsupported: 0, misses: [] });

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith("--"));
const deviceIdx = args.indexOf("--device");
const device = deviceIdx >= 0 ? args[deviceIdx + 1] ?? "vulkan" : "vulkan";
if (!root) {
  console.error("usage: node dist/bench/compat/measure.js DIR [--device vulkan|interp|sim|none] [--json] [--list]");
  process.exit(2);
}
const cli = fileURLToPath(new URL("../../src/cli/main.js", import.meta.url));
const files = walk(root);
const fmt = tally(), verify = tally(), roundtrip = tally();
const check = { files: 0, passed: 0, failed: 0, unsupported: 0, errors: 0, errorsOutsideV1: 0, misses: [] as string[] };

for (const file of files) {
  const rel = relative(root, file);
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".loom-test")) {
    const parsed = parseLoomTestFile(text);
    // Each case under its own modes (a RUN line inside a case sets that case's): verify and roundtrip outcomes are tallied apart.
    if (![...parsed.modes, ...parsed.cases.flatMap((c) => c.modes ?? [])].some((m) => m === "verify" || m === "roundtrip")) continue;
    const report = runLoomTest(file, text, { match: "codes" });
    for (const o of report.outcomes) {
      if (o.mode !== "verify" && o.mode !== "roundtrip") continue;
      const t = o.mode === "verify" ? verify : roundtrip;
      const why = outOfV1(o.case.input);
      const pass = o.status === "pass";
      if (why?.startsWith("extra: ")) {
        t.extras.total++;
        if (pass) t.extras.passed++;
        else t.misses.push(`${rel}:${o.case.line} ${o.case.name} (${why}): ${o.details[0] ?? o.status}`);
        continue;
      }
      if (why) {
        t.excluded[why] = (t.excluded[why] ?? 0) + 1;
        continue;
      }
      // An unsupported case (e.g. one expecting errors under roundtrip) is neither passed nor failed.
      if (o.status === "unsupported") {
        t.unsupported++;
        continue;
      }
      t.total++;
      if (pass) t.passed++;
      else t.misses.push(`${rel}:${o.case.line} ${o.case.name}: ${o.details[0] ?? o.status}`);
    }
  } else if (file.endsWith(".loom")) {
    if (/\bcheck\.case\b/.test(text) && device !== "none") {
      check.files++;
      // A test module that declares its kernels (kernel.decl, or func.decl of a kernel) links the other .loom files of its folder, as the reference's test packages do;
      // a file holding check.case is another test module, not a library.
      const libraries = /\b(?:kernel|func)\.decl\b/.test(text) ? files.filter((f) => f !== file && f.endsWith(".loom") && dirname(f) === dirname(file) && !/\bcheck\.case\b/.test(readFileSync(f, "utf8"))).flatMap((f) => ["--library", f]) : [];
      const r = spawnSync(process.execPath, [cli, "check", file, ...libraries, "--device", device, "--no-bench", "--json"], { encoding: "utf8", env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp/xdg" } });
      try {
        const doc = JSON.parse(r.stdout) as { ok?: boolean; diagnostics?: { code: string; message: string; location?: { line: number } }[]; result?: { cases?: { case: string; line: number; status: string; samples?: { status: string; reason?: string }[] }[] } };
        for (const c of doc.result?.cases ?? []) {
          if (c.status === "pass") check.passed++;
          else if (c.status === "unsupported") check.unsupported++;
          else {
            check.failed++;
            check.misses.push(`${rel}:${c.line} @${c.case}: ${c.status} ${c.samples?.find((s) => s.status !== "pass")?.reason ?? ""}`);
          }
        }
        if (!doc.result?.cases) {
          // The file did not load (e.g. constructs outside v1): a file error, with its first diagnostic and why the text is outside v1.
          check.errors++;
          const first = doc.diagnostics?.[0];
          const why = outOfV1(text);
          if (why && !why.startsWith("extra: ")) check.errorsOutsideV1++;
          check.misses.push(`${rel}: ${first ? `${first.code} at line ${first.location?.line ?? 0}: ${first.message}` : `exit ${r.status}`}${why && !why.startsWith("extra: ") ? ` (${why})` : ""}`);
        }
      } catch {
        check.errors++;
        check.misses.push(`${rel}: ${(r.stderr || r.stdout).split("\n").find((l) => l.trim()) ?? `exit ${r.status}`}`);
      }
    }
    const why = outOfV1(text);
    if (why && !why.startsWith("extra: ")) {
      fmt.excluded[why] = (fmt.excluded[why] ?? 0) + 1;
      continue;
    }
    const extra = why !== undefined;
    if (extra) fmt.extras.total++;
    else fmt.total++;
    const r = spawnSync(process.execPath, [cli, "fmt", file], { encoding: "utf8" });
    if (r.status === 0 && r.stdout === text) {
      if (extra) fmt.extras.passed++;
      else fmt.passed++;
    } else {
      const a = text.split("\n"), b = (r.stdout ?? "").split("\n");
      const i = a.findIndex((l, k) => l !== b[k]);
      fmt.misses.push(`${rel}: ${r.status !== 0 ? (r.stderr.split("\n").find((l) => /error/.test(l)) ?? `exit ${r.status}`) : `line ${i < 0 ? a.length + 1 : i + 1}: ${JSON.stringify(a[i] ?? "(end)")} printed ${JSON.stringify(b[i] ?? "(end)")}`}`);
    }
  }
}

const summary = {
  root,
  fmt: { identical: fmt.passed, of: fmt.total, excluded: fmt.excluded, checkFiles: fmt.extras },
  verify: { exact: verify.passed, of: verify.total, excluded: verify.excluded, extras: verify.extras, unsupported: verify.unsupported },
  roundtrip: { matching: roundtrip.passed, of: roundtrip.total, excluded: roundtrip.excluded, extras: roundtrip.extras, unsupported: roundtrip.unsupported },
  check: { device, files: check.files, passed: check.passed, failed: check.failed, unsupported: check.unsupported, fileErrors: check.errors, fileErrorsOutsideV1: check.errorsOutsideV1 },
};
if (args.includes("--json")) console.log(JSON.stringify(summary, null, 2));
else {
  console.log(`fmt:       ${fmt.passed}/${fmt.total} v1 .loom files print byte-identically; extras (check harness, legacy func.template, workgroup scan) ${fmt.extras.passed}/${fmt.extras.total} (excluded: ${JSON.stringify(fmt.excluded)})`);
  console.log(`verify:    ${verify.passed}/${verify.total} v1 verify cases exact (code+line); extras ${verify.extras.passed}/${verify.extras.total} (excluded: ${JSON.stringify(verify.excluded)})`);
  console.log(`roundtrip: ${roundtrip.passed}/${roundtrip.total} v1 roundtrip cases match; extras ${roundtrip.extras.passed}/${roundtrip.extras.total}; ${roundtrip.unsupported} unsupported (cases expecting errors) (excluded: ${JSON.stringify(roundtrip.excluded)})`);
  console.log(`check:     ${check.files} file(s) on ${device}: ${check.passed} passed, ${check.failed} failed, ${check.unsupported} unsupported, ${check.errors} file error(s), ${check.errorsOutsideV1} of them in files using constructs outside v1`);
}
if (args.includes("--list")) {
  for (const [name, t] of [["fmt", fmt.misses], ["verify", verify.misses], ["roundtrip", roundtrip.misses], ["check", check.misses]] as const) {
    for (const m of t) console.log(`MISS ${name} ${m}`);
  }
}
