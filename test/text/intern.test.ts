/**
 * The name trie of text/intern.ts as the lexer uses it: every name comes back with its own
 * spelling whether it was seen before, is a prefix of a known name, holds non-ASCII chars or
 * arrives after the trie is full; a full trie changes no parse result.
 * (Its own process: the trie is shared by everything lexed in one.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { lex } from "../../src/text/lexer.js";
import { parseModule } from "../../src/text/parser.js";
import { Reporter } from "../../src/text/reporter.js";
import { Tok } from "../../src/text/token.js";
import { fromRoot } from "../util/paths.js";
import { readText } from "./helpers.js";

function texts(source: string): string[] {
  return lex("t.loom", source, new Reporter(new DiagnosticSink())).filter((t) => t.kind !== Tok.EOF).map((t) => t.text);
}

function diagnose(source: string): string[] {
  const sink = new DiagnosticSink();
  verifyModule(parseModule("t.loom", source, sink), sink);
  return sink.diagnostics.map((d) => `${d.code}@${d.location?.line}:${d.location?.column}`);
}

const SAXPY = readText(fromRoot("examples/kernels/saxpy.loom"));

test("names, their prefixes and extensions, sigil names and strings keep their spelling", () => {
  const source = 'abcd ab abcde %ab @abc.d #abc ^a "abc" "h\u00e9llo" "\u00e9" abcd x';
  const expected = ["abcd", "ab", "abcde", "ab", "abc.d", "abc", "a", "abc", "h\u00e9llo", "\u00e9", "abcd", "x"];
  assert.deepEqual(texts(source), expected);
  // Seen before now: the same answers from the trie.
  assert.deepEqual(texts(source), expected);
});

test("a full trie: new names are sliced, known ones still found, parse results unchanged", () => {
  const before = diagnose(SAXPY);
  // 20,000 distinct names of 6-9 chars need far more than the trie's 4,096 nodes.
  const many = Array.from({ length: 20000 }, (_, i) => `n${(i * 7919).toString(36)}_${i % 97}`);
  assert.deepEqual(texts(many.join(" ")), many);
  assert.deepEqual(texts(many.join(" ")), many);
  const fresh = Array.from({ length: 50 }, (_, i) => `fresh_${i}`);
  assert.deepEqual(texts(fresh.join(" ")), fresh);
  assert.deepEqual(diagnose(SAXPY), before);
  assert.deepEqual(diagnose(SAXPY.replace(/%n\b/g, "%a_name_the_trie_has_not_seen")), before);
});
