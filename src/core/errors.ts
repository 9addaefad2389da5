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

/**
 * The error every misuse of loom's API throws: a coded `status` (see {@link LoomStatus}) and a
 * message naming what was wrong. Bad programs are not errors: they give a failed `Result`.
 */
export class LoomError extends Error {
  override readonly name = "LoomError";
  constructor(
    readonly status: LoomStatus,
    message: string,
  ) {
    super(message);
  }
}

