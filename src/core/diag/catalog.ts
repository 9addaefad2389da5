/**
 * The diagnostic catalog (language.md §8): every code loom can report, with its severity
 * and message template. Raise sites name an entry and pass arguments; wording lives here.
 * `{0}`, `{1}` ... are replaced by the arguments.
 */
export interface CatalogEntry {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly template: string;
}

function entry(code: string, template: string, severity: "error" | "warning" = "error"): CatalogEntry {
  return { code, severity, template };
}

export const D = {
  // PARSE
  undefinedValue: entry("PARSE/001", "undefined SSA value '%{0}'"),
  redefinedValue: entry("PARSE/002", "SSA name '%{0}' is already defined in this scope"),
  unexpectedToken: entry("PARSE/003", "unexpected {0}, expected {1}"),
  invalidType: entry("PARSE/004", "invalid type syntax: {0}"),
  unterminatedString: entry("PARSE/005", "unterminated string literal"),
  unknownOp: entry("PARSE/006", "unknown op '{0}'"),
  unknownType: entry("PARSE/007", "unknown type '{0}'"),
  resultCount: entry("PARSE/009", "'{0}' produces {1} result(s), but {2} name(s) were given"),
  operandCount: entry("PARSE/010", "'{0}' expects {1} operand(s), got {2}"),
  tooManyErrors: entry("PARSE/012", "too many errors ({0}); stopping"),
  badInteger: entry("PARSE/015", "invalid integer literal '{0}'"),
  badFloat: entry("PARSE/016", "invalid float literal '{0}'"),
  unknownPredicate: entry("PARSE/013", "unknown predicate '{0}'"),
  badAlias: entry("PARSE/014", "invalid alias: {0}"),
  unknownEnum: entry("PARSE/017", "unknown {0} '{1}' (expected one of: {2})"),
  unknownModifier: entry("PARSE/018", "unknown or misplaced {0} '{1}'"),
  invalidUtf8: entry("PARSE/019", "invalid UTF-8 in source"),
  duplicateAttribute: entry("PARSE/020", "duplicate attribute key '{0}'"),
  unresolvedSignatureRef: entry("PARSE/022", "dimension '%{0}' does not name an index argument of this signature"),
  badEscape: entry("PARSE/023", "invalid escape or control character in string: {0}"),
  sigilWithoutName: entry("PARSE/024", "'{0}' must be followed by a name"),
  unexpectedCharacter: entry("PARSE/025", "unexpected character '{0}'"),
  unterminatedAngle: entry("PARSE/026", "unterminated '<'"),
  predicateArity: entry("PARSE/031", "predicate '{0}' takes {1} argument(s), got {2}"),
  // SYMBOL
  unresolvedSymbol: entry("SYMBOL/002", "unresolved symbol '@{0}'"),
  wrongSymbolKind: entry("SYMBOL/003", "'@{0}' is a {1}, expected a {2}"),
  duplicateSymbol: entry("SYMBOL/005", "symbol '@{0}' is defined more than once"),
  // DOMINANCE
  notDominated: entry("DOMINANCE/001", "use of '%{0}' is not dominated by its definition"),
  // TYPE
  typeMismatch: entry("TYPE/001", "type mismatch: {0}"),
  elementTypeMismatch: entry("TYPE/002", "element type mismatch: {0}"),
  operandConstraint: entry("TYPE/003", "operand constraint violated: {0}"),
  resultConstraint: entry("TYPE/004", "result constraint violated: {0}"),
  literalKind: entry("TYPE/005", "literal kind does not match type: {0}"),
  yieldType: entry("TYPE/009", "yielded types do not match: {0}"),
  blockArgType: entry("TYPE/013", "block argument type mismatch: {0}"),
  // SHAPE
  strideCount: entry("SHAPE/001", "shape mismatch: {0}"),
  /** Two values of one rank whose extents must agree (the reference's SHAPE/002). */
  extentMismatch: entry("SHAPE/002", "extents differ: {0}"),
  // STRUCTURE
  missingTerminator: entry("STRUCTURE/005", "region must end with {0}"),
  blockCount: entry("STRUCTURE/006", "wrong number of regions: {0}"),
  yieldCount: entry("STRUCTURE/008", "wrong number of yielded values: {0}"),
  notAllowedAtTopLevel: entry("STRUCTURE/011", "'{0}' is not allowed at top level"),
  opAfterTerminator: entry("STRUCTURE/012", "op after the region terminator '{0}'"),
  countMismatch: entry("STRUCTURE/013", "count mismatch: {0}"),
  valueOutOfRange: entry("STRUCTURE/014", "value out of range: {0}"),
  pureHasEffects: entry("STRUCTURE/017", "'pure' body has effects: {0}"),
  wrongTerminator: entry("STRUCTURE/018", "{0}"),
  badStringValue: entry("STRUCTURE/027", "{0}"),
  wrongRegion: entry("STRUCTURE/029", "'{0}' is not allowed in {1}"),
  /** A reference that must name a value of a given origin (a `where` argument that is not a signature argument). */
  valueOrigin: entry("STRUCTURE/032", "'{0}' field '{1}' must reference {2}"),
  workgroupAllocaPlacement: entry("STRUCTURE/031", "buffer.alloca<workgroup> must be at the top level of a kernel body"),
  pureCallImpure: entry("STRUCTURE/034", "'pure' call to impure callee '@{0}'"),
  nonPositiveStep: entry("STRUCTURE/035", "loop step must be positive, got {0}"),
  nonUniformBarrier: entry("STRUCTURE/038", "{0} under control flow that is not uniform at its scope"),
  impureInLaunchConfig: entry("STRUCTURE/052", "non-pure '{0}' in a launch-config region"),
  fullUnrollNotConstant: entry("STRUCTURE/901", "full unroll requires a constant trip count"),
  unboundedAlloca: entry("STRUCTURE/902", "buffer.alloca size has no finite proven maximum"),
  recursion: entry("STRUCTURE/903", "recursive call cycle through '@{0}'"),
  configPredicate: entry("STRUCTURE/904", "config value for '@{0}' violates its predicate {1}"),
  configUnbound: entry("STRUCTURE/905", "config key '@{0}' has no value: bind it in compileModule's 'config' or with config.def"),
  /** An implementation limit or compile budget (docs/language.md "Limits"): what, then the limit. */
  limitExceeded: entry("STRUCTURE/906", "implementation limit exceeded: {0} (the limit is {1})"),
  // SUBRANGE
  indexCount: entry("SUBRANGE/001", "{0} indices given for a rank-{1} value"),
  // An access, vector footprint or subview at constant indices past a static extent (the message keeps its first wording, "subview").
  staticOutOfBounds: entry("SUBRANGE/004", "static subview out of bounds: {0}"),
  vectorFootprint: entry("SUBRANGE/009", "cannot prove the vector access footprint in bounds: {0}", "warning"),
  // LOWERING
  noProvider: entry("LOWERING/901", "template.apply<@{0}>: {1}"),
  // TARGET
  unsupported: entry("TARGET/001", "{0} is not supported on {1}"),
  workgroupDimTooLarge: entry("TARGET/024", "workgroup size {0} = {1} exceeds the target limit {2}"),
  workgroupDimTooSmall: entry("TARGET/904", "workgroup size {0} = {1} is not positive"),
  workgroupFlatTooLarge: entry("TARGET/025", "workgroup size {0} exceeds the target's max flat workgroup size {1}"),
  storageTooLarge: entry("TARGET/051", "workgroup storage of {0} bytes exceeds the target limit of {1} bytes"),
  targetIncompatible: entry("TARGET/052", "'@{0}' is pinned to target '{1}', incompatible with profile '{2}'"),
  clusterNotOne: entry("TARGET/062", "cluster size must be 1x1x1 in Loom v1"),
  argBlockTooLarge: entry("TARGET/901", "device argument block of {0} bytes exceeds the target limit of {1} bytes"),
  dynamicWorkgroupSize: entry("TARGET/902", "workgroup size must be a compile-time constant on {0}"),
  unresolvedTargetQuery: entry("TARGET/903", "{0} cannot be resolved for this target"),
  // BYTECODE (module bytecode reader, src/bytecode/module; 9xx: ours, language.md §8)
  bytecodeTruncated: entry("BYTECODE/901", "truncated .loombc: {0}"),
  bytecodeBadHeader: entry("BYTECODE/902", "not a readable .loombc module: {0}"),
  bytecodeMalformed: entry("BYTECODE/903", "malformed .loombc: {0}"),
  bytecodeBadReference: entry("BYTECODE/904", "bad reference in .loombc: {0}"),
  bytecodeLimit: entry("BYTECODE/905", "limit exceeded in .loombc: {0}"),
  bytecodeNotCanonical: entry("BYTECODE/906", "the module in this .loombc is not well-formed: {0}"),
  bytecodeInternal: entry("BYTECODE/907", "internal error while reading .loombc: {0}"),
  // BACKEND
  backendInternal: entry("BACKEND/001", "{0}"),
} as const satisfies Record<string, CatalogEntry>;


export function formatTemplate(template: string, args: readonly unknown[]): string {
  return template.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
}

/** Fails at module load if two entries share a code (the TypeScript compiler's rule). */
(function checkUnique() {
  const seen = new Set<string>();
  for (const e of Object.values(D)) {
    if (seen.has(e.code)) throw new Error(`duplicate diagnostic code ${e.code}`);
    seen.add(e.code);
  }
})();
