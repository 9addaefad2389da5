/** The status channel (api.md §1): API misuse or infrastructure failure, thrown. */
export type LoomStatus =
  | "invalid-argument"
  | "not-found"
  | "already-exists"
  | "failed-precondition"
  | "out-of-range"
  | "unimplemented"
  | "resource-exhausted"
  | "data-loss"
  | "internal"
  | "cancelled";

export class LoomError extends Error {
  override readonly name = "LoomError";
  constructor(
    readonly status: LoomStatus,
    message: string,
  ) {
    super(message);
  }
}

