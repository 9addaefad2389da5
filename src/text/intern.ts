/**
 * Words of the source text (identifiers, op names and sigil names), shared between tokens and between
 * compiles: the lexer looks each name up and gets back one string per
 * distinct spelling instead of slicing a fresh one per token.
 *
 * Why: a name that is the same string object every time has its hash computed once (the op
 * and syntax tables are maps keyed by name), compares by pointer, and costs no allocation. The op names and words seeded from the declarations are string literals, so
 * `op.name === "kernel.def"` in every later pass is a pointer comparison.
 *
 * Bounded: a fixed-size open-addressing table that stops taking new names when half full;
 * after that (or for long names) the lexer slices as before. Names it keeps are copied, never
 * slices of a source text, so the table holds no source text alive, and one-byte: a source
 * with one non-Latin-1 character (a comment's `→`) is a two-byte string in V8, and so is
 * every slice of it, which hashes, compares and copies slower in every later map and
 * concatenation (matmul_tiled and row_softmax4 compiled measurably slower for a comment).
 */

const SLOTS = 1 << 13;
const MASK = SLOTS - 1;
/** Longest name the table takes from source text (seeded names may be longer). */
const MAX_KEPT_LENGTH = 40;

const names: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
const hashes = new Int32Array(SLOTS);
let used = 0;

/**
 * A name's hash from its length and three of its chars (first, middle, last): O(1), so the
 * lexer pays nothing per char; names that collide are told apart by comparing text.
 */
function nameHash(text: string, start: number, end: number): number {
  const h = Math.imul(end - start, 0x9e3779b1) ^ text.charCodeAt(start);
  return Math.imul(Math.imul(h, 0x01000193) ^ text.charCodeAt((start + end) >> 1), 0x01000193) ^ (text.charCodeAt(end - 1) << 7);
}

function sameText(name: string, text: string, start: number, end: number): boolean {
  if (name.length !== end - start) return false;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** `text.slice(start, end)` (not empty), as the shared string when the table has (or can take) it. */
export function internSlice(text: string, start: number, end: number): string {
  const hash = nameHash(text, start, end);
  let slot = hash & MASK;
  for (;;) {
    const name = names[slot];
    if (name === undefined) break;
    if (hashes[slot] === hash && sameText(name, text, start, end)) return name;
    slot = (slot + 1) & MASK;
  }
  if (used >= SLOTS / 2 || end - start > MAX_KEPT_LENGTH) return text.slice(start, end);
  // A copy, not a slice (a kept name must not keep the whole source text alive), built from
  // char codes so that V8 stores it one-byte whatever the source's representation.
  const codes = new Array<number>(end - start);
  for (let i = start; i < end; i++) codes[i - start] = text.charCodeAt(i);
  const kept = String.fromCharCode(...codes);
  names[slot] = kept;
  hashes[slot] = hash;
  used++;
  return kept;
}

/** Seeds the table with names the front end compares against (op names, keywords). */
export function internNames(words: Iterable<string>): void {
  for (const w of words) {
    if (used >= SLOTS / 2) return;
    const hash = nameHash(w, 0, w.length);
    let slot = hash & MASK;
    while (names[slot] !== undefined && names[slot] !== w) slot = (slot + 1) & MASK;
    if (names[slot] === undefined) {
      names[slot] = w;
      hashes[slot] = hash;
      used++;
    }
  }
}
