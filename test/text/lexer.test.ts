/** The lexer: token kinds, dimension mode, positions in code points, lexical diagnostics. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { lex } from "../../src/text/lexer.js";
import { Reporter } from "../../src/text/reporter.js";
import { Tok, type Token } from "../../src/text/token.js";

function tokens(text: string): { toks: Token[]; diags: string[] } {
  const sink = new DiagnosticSink();
  const reporter = new Reporter(sink);
  const toks = lex("t.loom", text, reporter);
  reporter.flush();
  return { toks, diags: sink.diagnostics.map((d) => `${d.code}@${d.location!.line}:${d.location!.column}`) };
}

/** Tok member names in declaration order (a const enum has no reverse mapping). */
const TOK_NAMES = ["EOF", "Ident", "OpName", "Int", "Float", "String", "Value", "Symbol", "Hash", "Label", "LParen", "RParen", "LBrace", "RBrace", "LBracket", "RBracket", "Less", "Greater", "Equal", "Colon", "Comma", "Pipe", "Arrow", "DimX", "Error"];

function kinds(text: string): string {
  return tokens(text)
    .toks.filter((t) => t.kind !== Tok.EOF)
    .map((t) => `${TOK_NAMES[t.kind] ?? t.kind}${t.text ? ":" + t.text : ""}`)
    .join(" ");
}

test("dimension mode splits shaped types at x", () => {
  assert.equal(kinds("vector<4x8xf32>"), "Ident:vector Less Int:4 DimX:x Int:8 DimX:x Ident:f32 Greater");
  assert.equal(kinds("view<[%m]x16xindex>"), "Ident:view Less LBracket Value:m RBracket DimX:x Int:16 DimX:x Ident:index Greater");
  // Hex is not recognised inside a dimension list; outside it is.
  assert.equal(kinds("view<0x4xf32>"), "Ident:view Less Int:0 DimX:x Int:4 DimX:x Ident:f32 Greater");
  assert.equal(kinds("0x1F"), "Int:0x1F");
  // Dimension mode ends at the element type: the layout after it lexes normally.
  assert.equal(kinds("view<4xf32, #dense> x4"), "Ident:view Less Int:4 DimX:x Ident:f32 Comma Hash:dense Greater Ident:x4");
});

test("numbers, names and punctuation", () => {
  assert.equal(kinds("-12 1.5 -2.5e-3 1e10 -inf -nan inf"), "Int:-12 Float:1.5 Float:-2.5e-3 Float:1e10 Float:-inf Float:-nan Ident:inf");
  assert.equal(kinds("%a-b %0 @model.hidden_size #target.subgroup.size ^bb0"), "Value:a-b Value:0 Symbol:model.hidden_size Hash:target.subgroup.size Label:bb0");
  assert.equal(kinds("kernel.def launch -> ( ) { } [ ] = : , |"), "OpName:kernel.def Ident:launch Arrow LParen RParen LBrace RBrace LBracket RBracket Equal Colon Comma Pipe");
  const { toks } = tokens("0x10 -0x10");
  assert.equal(toks[0]!.int, 16n);
  assert.equal(toks[1]!.int, -16n);
});

test("strings decode JSON escapes and surrogate pairs", () => {
  const { toks, diags } = tokens('"a\\"b\\\\c\\/d\\n\\t\\u0041\\ud83d\\ude00"');
  assert.deepEqual(diags, []);
  assert.equal(toks[0]!.kind, Tok.String);
  assert.equal(toks[0]!.text, 'a"b\\c/d\n\tA😀');
});

test("columns count code points, tabs as one column", () => {
  const { toks } = tokens('"😀😀" %x\n\t%y');
  const x = toks.find((t) => t.text === "x")!;
  assert.equal(x.col, 6);
  const y = toks.find((t) => t.text === "y")!;
  assert.deepEqual([y.line, y.col], [2, 2]);
});

test("comments attach to the next token with blank-line flags", () => {
  const { toks } = tokens("%a // one\r\n\n// two\n%b");
  const b = toks.find((t) => t.text === "b")!;
  assert.deepEqual(
    b.comments?.map((c) => [c.text, c.blankBefore]),
    [
      [" one", false],
      [" two", true],
    ],
  );
  assert.equal(b.firstOnLine, true);
});

test("lexical diagnostics carry their positions", () => {
  const cases: [string, string][] = [
    ['x "abc', "PARSE/005@1:3"],
    ["0x", "PARSE/015@1:1"],
    ["  1.", "PARSE/016@1:3"],
    ["1.5e+", "PARSE/016@1:1"],
    ["a \uDC00", "PARSE/019@1:3"],
    ['"\\x"', "PARSE/023@1:2"],
    ['"a\u0001"', "PARSE/023@1:3"],
    ['"\\ud800"', "PARSE/023@1:2"],
    ["%", "PARSE/024@1:1"],
    ["@ x", "PARSE/024@1:1"],
    ["a ; b", "PARSE/025@1:3"],
    ["x - 1", "PARSE/025@1:3"],
    ["f<a\ng>", "PARSE/026@1:2"],
  ];
  for (const [text, expected] of cases) assert.deepEqual(tokens(text).diags, [expected], JSON.stringify(text));
  // After an astral character the next error column still counts code points.
  assert.deepEqual(tokens("😀 é x").diags, ["PARSE/025@1:1", "PARSE/025@1:3"]);
});

test("brace depth is recorded for recovery", () => {
  const { toks } = tokens("a { b { c } d } e");
  assert.deepEqual(
    toks.filter((t) => t.kind === Tok.Ident).map((t) => `${t.text}${t.depth}`),
    ["a0", "b1", "c2", "d1", "e0"],
  );
});
