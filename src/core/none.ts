/** The frozen empty list that every "none" shares: no allocation per use, and a stray push throws. */
export const NONE: readonly never[] = Object.freeze([]);
