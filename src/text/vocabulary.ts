/** Word lists of the Loom v1 syntax (language.md §4, §5), in their canonical print order. */

export const FLAG_SETS = {
  /** Fast-math flags; `fast` = all seven. */
  fm: ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"],
  /** Integer overflow flags. */
  ovf: ["nsw", "nuw"],
} as const satisfies Record<string, readonly string[]>;
export type FlagSetName = keyof typeof FLAG_SETS;

/** Predicate kinds and their argument counts (§5). */
export const PREDICATE_ARITY: Readonly<Record<string, number>> = {
  eq: 2,
  ne: 2,
  lt: 2,
  le: 2,
  gt: 2,
  ge: 2,
  mul: 2,
  min: 2,
  max: 2,
  pow2: 1,
  range: 3,
  not_nan: 1,
  not_inf: 1,
  finite: 1,
};

// The compare predicates are the semantics' own lists (one spelling for the parser, the folder and the back ends).
export { COMPARE_PREDICATES as INT_PREDICATES } from "../dialects/index/semantics.js";
export { CMPF_PREDICATES as FLOAT_PREDICATES } from "../dialects/scalar/semantics.js";
export const INT_COMBINING = ["addi", "muli", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori"] as const;
export const FLOAT_COMBINING = ["addf", "mulf", "minimumf", "maximumf", "minnumf", "maxnumf"] as const;
export const COMBINING = [...INT_COMBINING, ...FLOAT_COMBINING] as const;
export const ATOMIC_RMW_KINDS = ["xchgi", "addi", "subi", "andi", "ori", "xori", "minsi", "maxsi", "minui", "maxui", "xchgf", "addf"] as const;
export const ORDERINGS = ["relaxed", "acquire", "release", "acq_rel", "seq_cst"] as const;
export const SCOPES = ["thread", "subgroup", "workgroup", "device", "system"] as const;
export const BARRIER_MEMORY = ["workgroup", "global"] as const;
export const BARRIER_SCOPES = ["subgroup", "workgroup"] as const;
export const BARRIER_ORDERINGS = ["acq_rel", "acquire", "release"] as const;
/**
 * What the parser accepts for a barrier, as the reference does: every memory space, scope and
 * ordering word it knows. The verifier then rejects the combinations a barrier cannot have
 * (STRUCTURE/014), so a misplaced word is a domain error at the op, not a parse error.
 */
export const BARRIER_MEMORY_SPELLINGS = [...BARRIER_MEMORY, "private"] as const;
export const BARRIER_SCOPE_SPELLINGS = [...BARRIER_SCOPES, "device", "system"] as const;
export const BARRIER_ORDERING_SPELLINGS = ["relaxed", ...BARRIER_ORDERINGS, "seq_cst"] as const;
export const SHUFFLE_MODES = ["xor", "up", "down", "index"] as const;
export const ALLOCA_SPACES = ["workgroup", "private"] as const;
/** Spaces the reference's verifier accepts on `buffer.alloca` that loom's back ends do not allocate in (compile reports them). */
export const ALLOCA_DEFERRED_SPACES = ["global", "host", "generic"] as const;
export const MEMORY_SPACES = ["global", "workgroup", "private"] as const;
export const SCHEDULES = ["linear", "interleaved", "recurrence"] as const;
/** Modifier words of symbol ops, in grammar (print) order; groups are mutually exclusive. */
export const FUNC_MODIFIER_GROUPS: readonly (readonly string[])[] = [["public"], ["retain"], ["host", "device"], ["pure"], ["hot", "cold"], ["inline", "noinline"]];
export const CALL_MODIFIER_GROUPS: readonly (readonly string[])[] = [["pure"], ["hot", "cold"], ["inline", "noinline"]];
