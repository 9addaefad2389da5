/**
 * Words of the source text (identifiers, op names and sigil names), shared between tokens and between
 * compiles: the lexer looks each name up and gets back one string per
 * distinct spelling instead of slicing a fresh one per token.
 *
 * Why: a name that is the same string object every time has its hash computed once (the op
 * and syntax tables are maps keyed by name), compares by pointer, and costs no allocation. The op names and words seeded from the declarations are string literals, so
 * `op.name === "kernel.def"` in every later pass is a pointer comparison.
 *
 * A trie of the names seen, which the lexer walks while it scans a name (`trieStep`, one step
 * per char): at the name's end the node holds the shared string, found without hashing the
 * name or comparing its text a second time. Node 0 is the root; its child for the ASCII char
 * c is node c, so the first step costs nothing; a deeper step is one probe (usually) of a table
 * of edges keyed by parent and char: a chain of siblings per node was the lexer's hottest line
 * (names like `%s0_lo` … `%s7_lo` give a node dozens of children).
 *
 * Bounded: the trie stops growing at `TRIE_NODES` nodes; after that (or for long names) the lexer slices as before. Names it keeps are
 * copied, never slices of a source text, so the table holds no source text alive, and
 * one-byte: a source with one non-Latin-1 character (a comment's `→`) is a two-byte string in
 * V8, and so is every slice of it, which hashes, compares and copies slower in every later
 * map and concatenation (matmul_tiled and row_softmax4 compiled measurably slower for a comment).
 */

const TRIE_NODES = 4096;
/** Longest name the trie takes from source text (seeded names may be longer). */
const MAX_KEPT_LENGTH = 40;

/** Edges of the trie below the root, by hash of (parent node, char): an open-addressing table kept at most half full. */
const EDGE_SLOTS = TRIE_NODES * 2;
const edgeKeys = new Int32Array(EDGE_SLOTS);
const edgeChild = new Uint16Array(EDGE_SLOTS);
const nodeName: (string | undefined)[] = new Array<string | undefined>(TRIE_NODES).fill(undefined);
let used = 128;

/** The slot of the edge `key` (`node << 16 | char`, never 0), or the empty slot where it goes. */
function edgeSlot(key: number): number {
  let slot = Math.imul(key, 0x9e3779b1) >>> 19;
  while (edgeKeys[slot] !== key && edgeKeys[slot] !== 0) slot = (slot + 1) & (EDGE_SLOTS - 1);
  return slot;
}

/** The trie node after `node` (0: the root) and char `c`, or -1 when no name kept goes that way (`node` -1 stays -1). */
export function trieStep(node: number, c: number): number {
  if (node <= 0) return node === 0 && c < 128 ? c : -1;
  const key = (node << 16) | c;
  const slot = edgeSlot(key);
  return edgeKeys[slot] === key ? edgeChild[slot]! : -1;
}

/** The node spelling `text.slice(start, end)` from the root, made where missing; -1 when the trie cannot hold it. */
function grow(text: string, start: number, end: number): number {
  if (used + end - start > TRIE_NODES) return -1;
  let node = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    let next = trieStep(node, c);
    if (next < 0) {
      if (node === 0) return -1;
      const slot = edgeSlot((node << 16) | c);
      edgeKeys[slot] = (node << 16) | c;
      next = edgeChild[slot] = used++;
    }
    node = next;
  }
  return node;
}

/**
 * The shared string for the name `text.slice(start, end)` (not empty) whose walk from the root
 * ended at `node`: the node's own when the name was seen before, else a kept copy (or, when the
 * trie is full, a slice).
 */
export function internWalked(node: number, text: string, start: number, end: number): string {
  const known = node > 0 ? nodeName[node] : undefined;
  if (known !== undefined) return known;
  const at = end - start > MAX_KEPT_LENGTH ? -1 : grow(text, start, end);
  if (at < 0) return text.slice(start, end);
  // A copy, not a slice (a kept name must not keep the whole source text alive), built from
  // char codes so that V8 stores it one-byte whatever the source's representation.
  const codes = new Array<number>(end - start);
  for (let i = start; i < end; i++) codes[i - start] = text.charCodeAt(i);
  const copy = String.fromCharCode(...codes);
  return (nodeName[at] = seeds.get(copy) ?? copy);
}

/** `text.slice(start, end)` (not empty), as the shared string when the trie has (or can take) it. */
export function internSlice(text: string, start: number, end: number): string {
  let node = 0;
  for (let i = start; i < end && node >= 0; i++) node = trieStep(node, text.charCodeAt(i));
  return internWalked(node, text, start, end);
}

/**
 * Names the front end compares against (op names, keywords), each the shared string of its
 * spelling once a source uses it. Not put in the trie up front: the 243 op names would make
 * every node's sibling chain as long as the declarations' rather than the sources'.
 */
const seeds = new Map<string, string>();

export function internNames(words: Iterable<string>): void {
  for (const w of words) seeds.set(w, w);
}
