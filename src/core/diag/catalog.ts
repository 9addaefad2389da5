/**
 * The diagnostic catalog (language.md §8): every code loom can report, with its severity
 * and message template. Raise sites name an entry and pass arguments; wording lives here.
 * `{0}`, `{1}` ... are replaced by the arguments.
 */
export interface CatalogEntry {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly template: string;
  /** What the code means and what to do about it, in a few sentences (`loom explain CODE`, docs/diagnostics.md). */
  readonly explanation?: string;
}

function entry(code: string, template: string, explanation?: string): CatalogEntry {
  return explanation === undefined ? { code, severity: "error", template } : { code, severity: "error", template, explanation };
}

function warning(code: string, template: string, explanation?: string): CatalogEntry {
  return { ...entry(code, template, explanation), severity: "warning" };
}

export const D = {
  // PARSE
  undefinedValue: entry("PARSE/001", "undefined SSA value '%{0}'",
    "A value is used by name (`%x`) but no op or block argument in scope defines it. Define it first, or fix the spelling; values are visible in the region that defines them and the regions nested in it."),
  redefinedValue: entry("PARSE/002", "SSA name '%{0}' is already defined in this scope",
    "Two definitions in one scope use the same `%name`. SSA names are single-assignment: rename one of them."),
  unexpectedToken: entry("PARSE/003", "unexpected {0}, expected {1}",
    "The parser met a token it did not expect at this point; the message says what it expected instead. Usually a missing `:`, `,`, bracket or type."),
  invalidType: entry("PARSE/004", "invalid type syntax: {0}",
    "A type is written in a form the language does not have, e.g. a view without a shape or a vector without an element type. See docs/language.md \"Types\"."),
  unterminatedString: entry("PARSE/005", "unterminated string literal",
    "A string literal runs to the end of its line without its closing quote."),
  unknownOp: entry("PARSE/006", "unknown op '{0}'",
    "No dialect declares an op of this name. The help line suggests the nearest op name when there is one; every op is listed in docs/ops-reference.md."),
  unknownType: entry("PARSE/007", "unknown type '{0}'",
    "A type name is not one of the language's types (index, offset, i1, i8, i16, i32, i64, f16, bf16, f32, f64, buffer, view<…>, vector<…>)."),
  resultCount: entry("PARSE/009", "'{0}' produces {1} result(s), but {2} name(s) were given",
    "The op yields a different number of results than names were written on the left of `=`."),
  operandCount: entry("PARSE/010", "'{0}' expects {1} operand(s), got {2}",
    "The op takes a fixed number of operands and a different number was written."),
  tooManyErrors: entry("PARSE/012", "too many errors ({0}); stopping",
    "The parser stops after this many errors so one mistake does not flood the output. Fix the first ones and run again."),
  badInteger: entry("PARSE/015", "invalid integer literal '{0}'",
    "An integer literal is malformed or does not fit its type."),
  badFloat: entry("PARSE/016", "invalid float literal '{0}'",
    "A float literal is malformed (use decimal, exponent or hex-float forms)."),
  unknownPredicate: entry("PARSE/013", "unknown predicate '{0}'",
    "A `where` predicate or a comparison names a predicate the language does not define."),
  badAlias: entry("PARSE/014", "invalid alias: {0}",
    "A `#alias = …` definition is malformed or names something an alias cannot stand for."),
  unknownEnum: entry("PARSE/017", "unknown {0} '{1}' (expected one of: {2})",
    "A keyword argument takes one of a fixed set of words (the message lists them) and another word was written."),
  unknownModifier: entry("PARSE/018", "unknown or misplaced {0} '{1}'",
    "A modifier (such as `pure` or `export(…)`) is unknown or written where it does not belong."),
  invalidUtf8: entry("PARSE/019", "invalid UTF-8 in source",
    "The source bytes are not valid UTF-8. Loom sources are UTF-8 text."),
  duplicateAttribute: entry("PARSE/020", "duplicate attribute key '{0}'",
    "An attribute dictionary names the same key twice."),
  unresolvedSignatureRef: entry("PARSE/022", "dimension '%{0}' does not name an index argument of this signature",
    "A shape dimension names `%n`, but `%n` is not an `index` argument of the signature it belongs to."),
  badEscape: entry("PARSE/023", "invalid escape or control character in string: {0}",
    "A string contains an escape the language does not define, or a raw control character."),
  sigilWithoutName: entry("PARSE/024", "'{0}' must be followed by a name",
    "A sigil (`%`, `@`, `#`, `^`) stands alone; it must be followed directly by a name."),
  unexpectedCharacter: entry("PARSE/025", "unexpected character '{0}'",
    "A character that starts no token of the language."),
  unterminatedAngle: entry("PARSE/026", "unterminated '<'",
    "An angle-bracket list (`<…>`) is not closed."),
  predicateArity: entry("PARSE/031", "predicate '{0}' takes {1} argument(s), got {2}",
    "A predicate was given a different number of arguments than it takes."),
  // SYMBOL
  unresolvedSymbol: entry("SYMBOL/002", "unresolved symbol '@{0}'",
    "A `@symbol` is referred to but not defined in the module. Define it, or link the library that defines it (`--library LIB`)."),
  wrongSymbolKind: entry("SYMBOL/003", "'@{0}' is a {1}, expected a {2}",
    "A `@symbol` names the wrong kind of thing here, e.g. a kernel where a function is expected."),
  duplicateSymbol: entry("SYMBOL/005", "symbol '@{0}' is defined more than once",
    "Two top-level ops define the same `@symbol`. Symbols are unique per module."),
  // DOMINANCE
  notDominated: entry("DOMINANCE/001", "use of '%{0}' is not dominated by its definition",
    "A value is used where its definition does not necessarily run first, e.g. a value defined in one branch of `scf.if` used after it. Yield it out of the region instead."),
  // TYPE
  typeMismatch: entry("TYPE/001", "type mismatch: {0}",
    "An operand or result has a type other than the op requires; the message names both."),
  elementTypeMismatch: entry("TYPE/002", "element type mismatch: {0}",
    "Element types disagree, e.g. storing an f32 into a view of i32."),
  operandConstraint: entry("TYPE/003", "operand constraint violated: {0}",
    "An operand breaks the op's type rule (wrong class of type, or unlike another operand it must match)."),
  resultConstraint: entry("TYPE/004", "result constraint violated: {0}",
    "A declared result type breaks the op's type rule."),
  literalKind: entry("TYPE/005", "literal kind does not match type: {0}",
    "A literal's kind does not match its type, e.g. a float literal for an integer constant."),
  yieldType: entry("TYPE/009", "yielded types do not match: {0}",
    "The values a region yields do not have the types the op declares for its results."),
  blockArgType: entry("TYPE/013", "block argument type mismatch: {0}",
    "A block argument (a loop's induction variable or carried value) has a type other than the op gives it."),
  // STRUCTURE
  missingTerminator: entry("STRUCTURE/005", "region must end with {0}",
    "Every region ends with a terminator (`kernel.return`, `scf.yield`, `func.return`, …); this one does not."),
  blockCount: entry("STRUCTURE/006", "wrong number of regions: {0}",
    "The op has a fixed number of regions and a different number was written."),
  yieldCount: entry("STRUCTURE/008", "wrong number of yielded values: {0}",
    "A terminator yields a different number of values than its parent op returns."),
  notAllowedAtTopLevel: entry("STRUCTURE/011", "'{0}' is not allowed at top level",
    "Only definitions (kernels, functions, templates, config and target records) may appear at the top level of a module."),
  opAfterTerminator: entry("STRUCTURE/012", "op after the region terminator '{0}'",
    "Ops written after a region's terminator would never run; remove them or move the terminator."),
  countMismatch: entry("STRUCTURE/013", "count mismatch: {0}",
    "Two lists that must have equal lengths do not (operands against types, initial values against carried values, …)."),
  valueOutOfRange: entry("STRUCTURE/014", "value out of range: {0}",
    "A constant property is outside the range the op allows."),
  pureHasEffects: entry("STRUCTURE/017", "'pure' body has effects: {0}",
    "A function marked `pure` performs an effect (a store, a barrier, an atomic). Remove `pure` or the effect."),
  wrongTerminator: entry("STRUCTURE/018", "{0}",
    "A structural rule of the op is broken; the message says which."),
  badStringValue: entry("STRUCTURE/027", "{0}",
    "A structural rule of the op is broken; the message says which."),
  wrongRegion: entry("STRUCTURE/029", "'{0}' is not allowed in {1}",
    "The op is not allowed in this kind of region: each op lists where it may appear (launch-config region, kernel body, function body)."),
  workgroupAllocaPlacement: entry("STRUCTURE/031", "buffer.alloca<workgroup> must be at the top level of a kernel body",
    "Workgroup memory is allocated once per workgroup, so `buffer.alloca<workgroup>` must sit directly in the kernel body, not inside a loop or branch."),
  pureCallImpure: entry("STRUCTURE/034", "'pure' call to impure callee '@{0}'",
    "A `pure` function calls one that is not pure."),
  nonPositiveStep: entry("STRUCTURE/035", "loop step must be positive, got {0}",
    "A loop's step is a constant zero or negative; `scf.for` counts upward by a positive step."),
  nonUniformBarrier: entry("STRUCTURE/038", "{0} under control flow that is not uniform at its scope",
    "A barrier or a subgroup/workgroup collective must be reached by every invocation of its scope, so it may not sit under a condition that can differ between them."),
  impureInLaunchConfig: entry("STRUCTURE/052", "non-pure '{0}' in a launch-config region",
    "The launch-config region runs on the host and may only compute: an op with effects cannot be there."),
  fullUnrollNotConstant: entry("STRUCTURE/901", "full unroll requires a constant trip count",
    "A loop asked to be fully unrolled has a trip count that is not a compile-time constant."),
  unboundedAlloca: entry("STRUCTURE/902", "buffer.alloca size has no finite proven maximum",
    "A `buffer.alloca` needs a size with a proven upper bound; add an `index.assume` (or a `where` fact) that bounds it."),
  recursion: entry("STRUCTURE/903", "recursive call cycle through '@{0}'",
    "Calls form a cycle; the language has no recursion, since device code has no call stack to grow."),
  configPredicate: entry("STRUCTURE/904", "config value for '@{0}' violates its predicate {1}",
    "A config value given for a `config.def` key fails the key's predicate."),
  configUnbound: entry("STRUCTURE/905", "config key '@{0}' has no value: bind it in compileModule's 'config' or with config.def",
    "A `config.def` key has neither a default nor a value supplied by the compile request."),
  /** An implementation limit or compile budget (docs/language.md "Limits"): what, then the limit. */
  limitExceeded: entry("STRUCTURE/906", "implementation limit exceeded: {0} (the limit is {1})",
    "The program exceeds one of the compiler's implementation limits (region nesting, vector lanes, name length, ops brought in by inlining, …); the message names the limit. The limits keep hostile inputs from exhausting memory or time; docs/language.md \"Limits\" lists them."),
  // SUBRANGE
  indexCount: entry("SUBRANGE/001", "{0} indices given for a rank-{1} value",
    "An access gives a different number of indices than the view has dimensions."),
  subviewOutOfBounds: entry("SUBRANGE/004", "static subview out of bounds: {0}",
    "A subview with constant offsets and sizes reaches outside its parent view."),
  vectorFootprint: warning("SUBRANGE/009", "cannot prove the vector access footprint in bounds: {0}",
    "A vector access must be proven in bounds; the compiler could not prove it from the view's shape and the facts it knows. Add an `index.assume` or a guard."),
  // LOWERING
  noProvider: entry("LOWERING/901", "template.apply<@{0}>: {1}",
    "No provider of a `template.apply` family fits this profile, or the chosen provider failed to apply; the message names which."),
  // TARGET
  unsupported: entry("TARGET/001", "{0} is not supported on {1}",
    "The chosen profile cannot run this op or type, e.g. 64-bit integers on a Vulkan profile without shaderInt64, or a subgroup operation the device lacks. Pick a profile that has it (`--target`, `--feature`, `--subgroup-ops`, or a `--target ENV:device` that takes the live device's own profile), or avoid the op."),
  workgroupDimTooLarge: entry("TARGET/024", "workgroup size {0} = {1} exceeds the target limit {2}",
    "A constant workgroup size exceeds the profile's limit in one dimension."),
  workgroupDimTooSmall: entry("TARGET/904", "workgroup size {0} = {1} is not positive",
    "A constant workgroup size is 0 in some dimension; every dimension must be at least 1."),
  workgroupFlatTooLarge: entry("TARGET/025", "workgroup size {0} exceeds the target's max flat workgroup size {1}",
    "A constant workgroup size has more invocations in total than the profile allows."),
  storageTooLarge: entry("TARGET/051", "workgroup storage of {0} bytes exceeds the target limit of {1} bytes",
    "The kernel's workgroup memory (its `buffer.alloca<workgroup>` allocations) is more than the profile provides."),
  targetIncompatible: entry("TARGET/052", "'@{0}' is pinned to target '{1}', incompatible with profile '{2}'",
    "The kernel is pinned to a target record that does not admit the chosen profile."),
  clusterNotOne: entry("TARGET/062", "cluster size must be 1x1x1 in Loom v1",
    "Workgroup clusters are not in Loom v1: the cluster size must be 1x1x1."),
  argBlockTooLarge: entry("TARGET/901", "device argument block of {0} bytes exceeds the target limit of {1} bytes",
    "The kernel's argument block is larger than the profile can pass (push constants on Vulkan, the parameter space on CUDA)."),
  dynamicWorkgroupSize: entry("TARGET/902", "workgroup size must be a compile-time constant on {0}",
    "This target needs the workgroup size as a compile-time constant."),
  unresolvedTargetQuery: entry("TARGET/903", "{0} cannot be resolved for this target",
    "A query the kernel makes of the target has no answer for this profile."),
  // BYTECODE (module bytecode reader, src/bytecode/module; 9xx: ours, language.md §8)
  bytecodeTruncated: entry("BYTECODE/901", "truncated .loombc: {0}",
    "The .loombc data ends before its structure does; the file is cut short."),
  bytecodeBadHeader: entry("BYTECODE/902", "not a readable .loombc module: {0}",
    "The data is not a .loombc module (wrong magic or an unsupported version)."),
  bytecodeMalformed: entry("BYTECODE/903", "malformed .loombc: {0}",
    "The .loombc structure is malformed."),
  bytecodeBadReference: entry("BYTECODE/904", "bad reference in .loombc: {0}",
    "A reference inside the .loombc data points at nothing."),
  bytecodeLimit: entry("BYTECODE/905", "limit exceeded in .loombc: {0}",
    "The .loombc data exceeds a decoder limit (counts and sizes are bounded so hostile files cannot exhaust memory)."),
  bytecodeNotCanonical: entry("BYTECODE/906", "the module in this .loombc is not well-formed: {0}",
    "The .loombc decodes, but the module in it fails verification."),
  bytecodeInternal: entry("BYTECODE/907", "internal error while reading .loombc: {0}",
    "The decoder failed unexpectedly on this .loombc; please report it with the file."),
  // BACKEND
  backendInternal: entry("BACKEND/001", "{0}",
    "The back end failed on a program the checks accepted. This is a compiler bug: please report it with the kernel."),
} as const satisfies Record<string, CatalogEntry>;

/** Every diagnostic code with its explanation (`loom explain CODE`, docs/diagnostics.md). */
export const DIAGNOSTIC_EXPLANATIONS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.values(D).flatMap((e): [string, string][] => (e.explanation ? [[e.code, e.explanation]] : []))),
);


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
