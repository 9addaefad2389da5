/**
 * Source locations in launch-config artifacts (docs/launch-config.md "Source locations"):
 * evaluation errors cite `file:line:col` of the failing `where` predicate or op, the table
 * survives decode → encode byte for byte, artifacts without it still load, and hostile
 * tables fail as `data-loss`, never as another exception.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LaunchConfigError, LaunchConfigProgram, LoomError, compileModule } from "../../src/index.js";
import { crc32 } from "../../src/bytecode/crc32.js";
import { ByteWriter } from "../../src/bytecode/bytes.js";
import { writeContainer } from "../../src/bytecode/container.js";
import { decodeLaunchConfig } from "../../src/launch/decode.js";
import { encodeLaunchFunctions } from "../../src/launch/encode.js";
import type { LaunchFunction } from "../../src/launch/model.js";
import { independentRead } from "../bytecode/independent-reader.js";
import { prepared } from "../api/helpers.js";

// Line numbers below are asserted: keep the layout.
const SOURCE = `kernel.def export("grid") @grid(%n: index, %step: index) where [ge(%n, 1), le(%n, 4096)] {
  %c0 = index.constant 0 : index
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  %sum = scf.for %i = [%c0 to %n step %step](%acc = %c0 : index) -> (index) {
    %next = index.add %acc, %c1 : index
    scf.yield %next : index
  }
  %groups = index.div %sum, %c64 : index
  %size = index.sub %c64, %groups : index
  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%size, %c1, %c1) : index
} launch() {
  kernel.return
}
`;

function compileGrid(name = "grid.loom"): Uint8Array {
  const s = prepared();
  const module = s.parse(SOURCE, name);
  assert.ok(module.ok, module.formatDiagnostics());
  const compiled = compileModule(s.compiler, s.workspace, s.pipeline, module.value!, {
    specializations: [{ functionSymbol: "@grid", targetProfile: s.profile }],
    artifacts: { launchConfig: true },
  });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  return compiled.findArtifact("launch-config")!.contents;
}

/** Runs `invoke` on both evaluators and returns the (identical) error. */
function failure(bytes: Uint8Array, args: bigint[]): LaunchConfigError {
  const errors = [true, false].map((codegen) => {
    const p = LaunchConfigProgram.load(bytes, { codegen });
    const fn = p.lookupFunction("grid");
    try {
      p.invoke(fn, args);
    } catch (e) {
      return e;
    }
    return assert.fail(`invoke(${args}) succeeded`);
  });
  const [a, b] = errors;
  assert.ok(a instanceof LaunchConfigError && b instanceof LaunchConfigError, String(a));
  assert.ok(a instanceof LoomError);
  assert.equal(a.message, b.message);
  assert.deepEqual(a.location, b.location);
  return a;
}

test("a false workload predicate cites its own line and column", () => {
  const bytes = compileGrid();
  const e = failure(bytes, [0n, 1n]);
  assert.equal(e.status, "out-of-range");
  assert.deepEqual(e.location, { source: "grid.loom", line: 1, column: 65 });
  assert.equal(e.message, "grid.loom:1:65: launch-config function 'grid': workload predicate ge(%n, 1) is violated (%n = 0)");
  assert.equal(e.reason, "launch-config function 'grid': workload predicate ge(%n, 1) is violated (%n = 0)");
  assert.deepEqual(failure(bytes, [5000n, 1n]).location, { source: "grid.loom", line: 1, column: 76 });
});

test("a non-positive scf.for step, an undefined op result and a launch outside the limits cite their op", () => {
  const bytes = compileGrid();
  const step = failure(bytes, [10n, 0n]);
  assert.match(step.message, /^grid\.loom:5:10: launch-config function 'grid': scf\.for \(op \d+\) has step 0, which is not positive$/);
  assert.equal(step.op?.name, "scf.for");
  // 4096 iterations → 64 workgroups → size 0: the launch op's own line.
  const size = failure(bytes, [4096n, 1n]);
  assert.equal(size.location?.line, 11);
  assert.match(size.message, /^grid\.loom:11:3: launch-config function 'grid': kernel\.launch\.config: workgroup size x = 0 is outside/);
  assert.equal(size.op?.name, "kernel.launch.config");
});

test("a bad workload argument list cites the kernel declaration", () => {
  const p = LaunchConfigProgram.load(compileGrid());
  const fn = p.lookupFunction("grid");
  assert.throws(() => p.invoke(fn, [1n]), (e: unknown) => e instanceof LaunchConfigError && e.status === "invalid-argument" && /^grid\.loom:1:1: .*expects 2 workload argument\(s\), got 1$/.test(e.message));
  assert.throws(() => p.invokeNumbers(fn, [1, 1.5]), (e: unknown) => e instanceof LaunchConfigError && e.location?.line === 1);
});

test("the table is deterministic, survives decode → encode, and names the source it was compiled from", () => {
  const bytes = compileGrid();
  assert.deepEqual(compileGrid(), bytes);
  assert.equal(bytes[5], 0, "location mode 0: source locations");
  assert.deepEqual(independentRead(bytes).sections.map((s) => s.kind), [0, 256, 257]);
  const decoded = decodeLaunchConfig(bytes);
  assert.deepEqual(encodeLaunchFunctions(decoded.functions, decoded.producer), bytes);
  const f = decoded.functions[0]!;
  assert.equal(f.locations?.where.length, 2);
  assert.ok(f.locations?.ops.every((l) => l?.source === "grid.loom"));
  assert.notDeepEqual(compileGrid("other.loom"), bytes);
});

test("an artifact without the table (older writers) loads, and its errors cite op numbers only", () => {
  const { functions, producer } = decodeLaunchConfig(compileGrid());
  const bare = functions.map(({ locations: _, ...f }) => f as LaunchFunction);
  const bytes = encodeLaunchFunctions(bare, producer);
  assert.equal(bytes[5], 1);
  assert.deepEqual(independentRead(bytes).sections.map((s) => s.kind), [0, 256]);
  const e = failure(bytes, [0n, 1n]);
  assert.equal(e.location, undefined);
  assert.equal(e.message, "launch-config function 'grid': workload predicate ge(%n, 1) is violated (%n = 0)");
});

// ---- hostile tables ------------------------------------------------------------------------

function isDataLoss(e: unknown): boolean {
  return e instanceof LoomError && e.status === "data-loss";
}

function reseal(b: Uint8Array): Uint8Array {
  const c = b.slice();
  new DataView(c.buffer).setUint32(8, crc32(c, 8), true);
  return c;
}

/** Rebuilds the artifact with another location section (and location mode). */
function withLocations(bytes: Uint8Array, locations: Uint8Array | undefined, mode: 0 | 1 | 2 = locations ? 0 : 1): Uint8Array {
  const sections = independentRead(bytes).sections.filter((s) => s.kind !== 257);
  return writeContainer({ locationMode: mode, producer: "t", sections: [...sections, ...(locations ? [{ kind: 257, bytes: locations }] : [])] });
}

function locationSection(bytes: Uint8Array): Uint8Array {
  return independentRead(bytes).sections.find((s) => s.kind === 257)!.bytes;
}

function rejects(bytes: Uint8Array, text: RegExp): void {
  assert.throws(() => decodeLaunchConfig(bytes), (e: unknown) => isDataLoss(e) && text.test((e as Error).message), String(text));
  assert.throws(() => LaunchConfigProgram.load(bytes), isDataLoss);
}

test("the decoder validates the table: mode, counts, string indices, lines, columns, leftovers", () => {
  const good = compileGrid();
  const table = locationSection(good);
  const f = decodeLaunchConfig(good).functions[0]!;
  const ops = f.locations!.ops.length;
  rejects(withLocations(good, undefined, 0), /location mode 0 without a launch-locations section/);
  rejects(withLocations(good, table, 1), /location mode 1 with a launch-locations section/);
  const write = (build: (w: ByteWriter) => void) => {
    const w = new ByteWriter();
    build(w);
    return w.finish();
  };
  const known = (w: ByteWriter, line = 1, column = 1) => w.varuint(1).varuint(line).varuint(column);
  const unknown = (w: ByteWriter, n: number) => {
    for (let i = 0; i < n; i++) w.varuint(0);
  };
  rejects(withLocations(good, write((w) => w.varuint(2))), /2 function\(s\), but the launch section has 1/);
  rejects(withLocations(good, write((w) => (w.varuint(1), known(w), w.varuint(1)))), /1 where location\(s\) for 2 predicate/);
  rejects(withLocations(good, write((w) => (w.varuint(1), known(w), w.varuint(2), unknown(w, 2), w.varuint(ops + 1)))), /op location\(s\) for/);
  rejects(withLocations(good, write((w) => w.varuint(1).varuint(9999))), /source 9999 exceeds the limit/);
  rejects(withLocations(good, write((w) => w.varuint(1).varuint(1).varuint(0).varuint(3))), /line 0, column 3/);
  rejects(withLocations(good, write((w) => w.varuint(1).varuint(1).varuint(1).varuint(2 ** 32))), /column 4294967296 exceeds/);
  rejects(withLocations(good, write((w) => (w.varuint(1), unknown(w, 1), w.varuint(2), unknown(w, 2), w.varuint(ops), unknown(w, ops)))), /no location is known/);
  rejects(withLocations(good, write((w) => (w.varuint(1), known(w), w.varuint(2), unknown(w, 2), w.varuint(ops), unknown(w, ops), w.u8(0)))), /expected the end|left over|trailing/i);
  // A valid hand-written table: only the function's own location known.
  const minimal = withLocations(good, write((w) => (w.varuint(1), known(w, 7, 3), w.varuint(2), unknown(w, 2), w.varuint(ops), unknown(w, ops))));
  const e = failure(minimal, [0n, 1n]);
  assert.equal(e.location?.line, 7);
  assert.equal(table.length > 0, true);
});

test("property: mutated tables, re-sealed, decode or fail as data-loss only", () => {
  const good = compileGrid();
  const table = locationSection(good);
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(table.length + 4), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat(table.length), (edits, cut) => {
      const t = table.slice(0, Math.max(0, table.length - (cut % 3 === 0 ? cut : 0)));
      const m = new Uint8Array(Math.max(t.length, ...edits.map(([i]) => i + 1)));
      m.set(t);
      for (const [i, v] of edits) m[i] = v;
      const bytes = reseal(withLocations(good, m));
      try {
        const p = LaunchConfigProgram.load(bytes);
        try {
          p.invoke(p.lookupFunction("grid"), [0n, 1n]);
        } catch (e) {
          if (!(e instanceof LaunchConfigError)) throw e;
        }
      } catch (e) {
        if (!isDataLoss(e)) throw e;
      }
    }),
    { numRuns: 400, seed: 11 },
  );
});

test("every truncation and single-bit flip of a located artifact is data-loss", () => {
  const good = compileGrid();
  for (let n = 0; n < good.length; n++) assert.throws(() => decodeLaunchConfig(good.subarray(0, n)), isDataLoss);
  const start = good.length - locationSection(good).length - 8;
  for (let i = Math.max(0, start); i < good.length; i++) {
    for (let bit = 0; bit < 8; bit++) {
      const b = good.slice();
      b[i] = b[i]! ^ (1 << bit);
      assert.throws(() => decodeLaunchConfig(b), isDataLoss);
    }
  }
});
