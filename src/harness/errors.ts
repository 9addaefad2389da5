/** A case that cannot be built or run as asked (a usage problem of the caller, not a kernel bug). */
export class CaseError extends Error {
  override readonly name = "CaseError";
}
