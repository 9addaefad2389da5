/**
 * Names of the source text (identifiers, op names, `%`/`@` names), shared between tokens and
 * between compiles: the lexer hashes a name while it scans it and gets back one string per
 * distinct spelling instead of slicing a fresh one per token.
 *
 * Why: a name that is the same string object every time has its hash computed once (the
 * parser's scopes and the op tables are maps keyed by name), compares by pointer, and costs no
 * allocation. The op names and words seeded from the declarations are string literals, so
 * `op.name === "kernel.def"` in every later pass is a pointer comparison.
 *
 * Bounded: a fixed-size open-addressing table that stops taking new names when half full;
 * after that (or for long names) the lexer slices as before. Names it keeps are copied, never
 * slices of a source text, so the table holds no source text alive.
 */

const SLOTS = 1 << 13;
const MASK = SLOTS - 1;
/** Longest name the table takes from source text (seeded names may be longer). */
const MAX_KEPT_LENGTH = 40;

const names: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined);
const hashes = new Int32Array(SLOTS);
let used = 0;

/** FNV-1a step; the lexer folds each char code of a name in while scanning it. */
export function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}
export const HASH_SEED = 0x811c9dc5 | 0;

function hashOf(s: string): number {
  let h = HASH_SEED;
  for (let i = 0; i < s.length; i++) h = hashStep(h, s.charCodeAt(i));
  return h;
}

function sameText(name: string, text: string, start: number, end: number): boolean {
  if (name.length !== end - start) return false;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** `text.slice(start, end)`, as the shared string when the table has (or can take) it; `hash` is of that slice. */
export function internSlice(text: string, start: number, end: number, hash: number): string {
  let slot = hash & MASK;
  for (;;) {
    const name = names[slot];
    if (name === undefined) break;
    if (hashes[slot] === hash && sameText(name, text, start, end)) return name;
    slot = (slot + 1) & MASK;
  }
  const s = text.slice(start, end);
  if (used >= SLOTS / 2 || s.length > MAX_KEPT_LENGTH) return s;
  // A copy, not a slice: a kept name must not keep the whole source text alive.
  const kept = s.length < 13 ? s : String.fromCharCode(...Array.from(s, (ch) => ch.charCodeAt(0)));
  names[slot] = kept;
  hashes[slot] = hash;
  used++;
  return kept;
}

/** Seeds the table with names the front end compares against (op names, keywords). */
export function internNames(words: Iterable<string>): void {
  for (const w of words) {
    if (used >= SLOTS / 2) return;
    const hash = hashOf(w);
    let slot = hash & MASK;
    while (names[slot] !== undefined && names[slot] !== w) slot = (slot + 1) & MASK;
    if (names[slot] === undefined) {
      names[slot] = w;
      hashes[slot] = hash;
      used++;
    }
  }
}
