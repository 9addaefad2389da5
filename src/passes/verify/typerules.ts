/**
 * Word lists the type rules check against (language.md §4.1, §4.6). The per-op type rules
 * themselves are part of each op's declaration (src/dialects/ops, `types`).
 */

/** Combining kinds of reductions (§4.1) by element kind. */
export const COMBINING_KINDS = {
  int: "addi muli minsi maxsi minui maxui andi ori xori".split(" "),
  float: "addf mulf minimumf maximumf minnumf maxnumf".split(" "),
};

/** `view.atomic.rmw/reduce` kinds (§4.6). */
export const ATOMIC_KINDS = {
  int: "xchgi addi subi andi ori xori minsi maxsi minui maxui".split(" "),
  float: ["xchgf", "addf"],
};
