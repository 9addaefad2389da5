/** The compiler version: part of every artifact cache key (bump on any change to emitted bytes). */
export const LOOMC_VERSION = "0.1.0";
