/**
 * Property tests over mutated module files (fast-check; 11,000 cases in all): whatever the
 * bytes, the reader returns a module that prints and verifies, or exactly one BYTECODE
 * diagnostic — never an exception, never BYTECODE/907.
 */
import "../../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { readContainer, writeContainer } from "../../../src/bytecode/container.js";
import { readModuleBytecode } from "../../../src/bytecode/module/reader.js";
import { writeModuleBytecode } from "../../../src/bytecode/module/writer.js";
import { DiagnosticSink } from "../../../src/core/diag/diagnostic.js";
import { printModule } from "../../../src/text/printer.js";
import { seeds } from "../../../bench/fuzz/corpus.js";
import { mutateBytes, mutateFile, prng } from "../../../bench/fuzz/mutate.js";
import { repoRoot } from "../../util/paths.js";
import { outcome } from "./outcome.js";

const corpus = seeds(repoRoot);

test("mutated files (edits, flips, splices, varint corruption, count inflation) are handled cleanly", () => {
  const codes = new Set<string>();
  fc.assert(
    fc.property(fc.integer(), fc.nat(corpus.length - 1), fc.nat(corpus.length - 1), (seed, i, j) => {
      codes.add(outcome(mutateFile(corpus[i]!.bytes, prng(seed), corpus[j]!.bytes), `seed ${seed}`));
    }),
    { numRuns: 8000, seed: 4242 },
  );
  for (const c of ["ok", "BYTECODE/901", "BYTECODE/903", "BYTECODE/904"]) assert.ok(codes.has(c), `${c} never reached: ${[...codes]}`);
});

test("a section replaced by random bytes is handled cleanly", () => {
  fc.assert(
    fc.property(fc.nat(corpus.length - 1), fc.nat(6), fc.uint8Array({ maxLength: 64 }), (i, k, junk) => {
      const c = readContainer(corpus[i]!.bytes);
      const sections = c.sections.map((s, n) => ({ kind: s.kind, bytes: n === k % c.sections.length ? junk : s.bytes }));
      outcome(writeContainer({ locationMode: c.locationMode, producer: c.producer, sections }), "random section");
    }),
    { numRuns: 2000, seed: 4243 },
  );
});

test("repeated mutation of one section keeps the reader clean", () => {
  fc.assert(
    fc.property(fc.integer(), fc.nat(corpus.length - 1), (seed, i) => {
      const rand = prng(seed);
      const c = readContainer(corpus[i]!.bytes);
      const k = Math.floor(rand() * c.sections.length);
      let bytes = c.sections[k]!.bytes;
      for (let n = 0; n < 8; n++) bytes = mutateBytes(bytes, rand);
      const sections = c.sections.map((s, n) => ({ kind: s.kind, bytes: n === k ? bytes : s.bytes }));
      outcome(writeContainer({ locationMode: c.locationMode, producer: c.producer, sections }), `seed ${seed}`);
    }),
    { numRuns: 800, seed: 4244 },
  );
});

test("any producer string and location mode round trip", () => {
  fc.assert(
    fc.property(fc.nat(corpus.length - 1), fc.constantFrom("full", "lines", "none") as fc.Arbitrary<"full" | "lines" | "none">, fc.string({ maxLength: 40 }).filter((s) => !s.includes("\0")), (i, locations, producer) => {
      const { module } = corpus[i]!;
      const bytes = writeModuleBytecode(module, { locations, producer });
      assert.equal(readContainer(bytes).producer, producer);
      const back = readModuleBytecode("p.loombc", bytes, new DiagnosticSink());
      assert.ok(back);
      assert.equal(printModule(back), printModule(module));
    }),
    { numRuns: 200, seed: 4245 },
  );
});
