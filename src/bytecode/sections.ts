/**
 * The registry of `.loombc` section kinds (docs/bytecode.md "Section kinds").
 *
 * Kinds 0–11 keep the numbers of the reference format (loom-language.md §15) so that the
 * module-bytecode sections added later line up with it; kinds ≥ 256 are ours. Readers skip
 * kinds they do not know, so adding a kind never breaks an older reader. Register a new kind
 * here (or with `registerSectionKind` from the module that owns it) — never reuse a number.
 */

const names = new Map<number, string>();

/** Registers a section kind; a number or name used twice is a programming error. */
export function registerSectionKind(kind: number, name: string): number {
  if (!Number.isInteger(kind) || kind < 0 || kind > 0xffff) throw new Error(`section kind ${kind} is not a u16`);
  const existing = names.get(kind);
  if (existing !== undefined && existing !== name) throw new Error(`section kind ${kind} is already '${existing}'`);
  for (const [k, n] of names) if (n === name && k !== kind) throw new Error(`section name '${name}' is already kind ${k}`);
  names.set(kind, name);
  return kind;
}

/** The registered name of a kind, or `kind#N` when unknown. */
export function sectionKindName(kind: number): string {
  return names.get(kind) ?? `kind#${kind}`;
}

export function isKnownSectionKind(kind: number): boolean {
  return names.has(kind);
}

export const SECTION = {
  strings: registerSectionKind(0, "strings"),
  sources: registerSectionKind(1, "sources"),
  types: registerSectionKind(2, "types"),
  encodings: registerSectionKind(3, "encodings"),
  ops: registerSectionKind(4, "ops"),
  locations: registerSectionKind(5, "locations"),
  symbols: registerSectionKind(6, "symbols"),
  ir: registerSectionKind(7, "ir"),
  resources: registerSectionKind(8, "resources"),
  sourceTrivia: registerSectionKind(9, "source-trivia"),
  providerImports: registerSectionKind(10, "provider-imports"),
  symbolReferences: registerSectionKind(11, "symbol-references"),
  /** Launch-config functions (docs/launch-config.md). */
  launch: registerSectionKind(256, "launch"),
  /** Source locations of launch-config functions (docs/launch-config.md "Source locations"). */
  launchLocations: registerSectionKind(257, "launch-locations"),
} as const;
