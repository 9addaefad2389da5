/** The result channel (api.md §1): the compiler ran; inspect `state` and `diagnostics`. */
import type { Diagnostic } from "../core/diag/diagnostic.js";
import type { Artifact } from "../core/artifact.js";
import { renderDiagnostics, type SourceLookup } from "../core/diag/render.js";
import { NONE } from "../core/none.js";


/**
 * A frozen copy (most compiles have no diagnostics: those share one empty list); a list that
 * is already frozen cannot change, so it is kept (the compiler hands over its own lists frozen).
 */
function frozenCopy<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? NONE : Object.isFrozen(list) ? list : Object.freeze([...list]);
}

/** Outcome of an API call that can fail on bad input: `state` (`succeeded`/`failed`), coded diagnostics (file:line:col) and, when succeeded, a value and artifacts. */
export class Result<T = void> {
  readonly state: "succeeded" | "failed";
  readonly value?: T;
  readonly diagnostics: readonly Diagnostic[];
  readonly artifacts: readonly Artifact[];
  /** Source texts for rendering carets; not part of the contract. */
  readonly #lookup: SourceLookup | undefined;

  constructor(init: { diagnostics?: readonly Diagnostic[]; artifacts?: readonly Artifact[]; value?: T; failed?: boolean; lookup?: SourceLookup }) {
    const diagnostics = init.diagnostics ?? [];
    const failed = init.failed ?? diagnostics.some((d) => d.severity === "error");
    this.state = failed ? "failed" : "succeeded";
    if (!failed && init.value !== undefined) this.value = init.value;
    this.diagnostics = frozenCopy(diagnostics);
    this.artifacts = frozenCopy(init.artifacts ?? NONE);
    this.#lookup = init.lookup;
  }

  get ok(): boolean {
    return this.state === "succeeded";
  }

  /** The first artifact of `kind` (and `format`, if given), or `undefined`. */
  findArtifact(kind: Artifact["kind"], format?: string): Artifact | undefined {
    return this.artifacts.find((a) => a.kind === kind && (format === undefined || a.format === format));
  }

  /** file:line:col, code, message, source line and caret for each diagnostic. */
  formatDiagnostics(options?: { color?: boolean }): string {
    return renderDiagnostics(this.diagnostics, this.#lookup, options);
  }

  /** A JSON-safe view: state, diagnostics and artifact metadata (contents as byte counts, not bytes). */
  toJSON(): object {
    return {
      state: this.state,
      diagnostics: this.diagnostics,
      artifacts: this.artifacts.map((a) => ({ kind: a.kind, format: a.format, identifier: a.identifier, bytes: a.contents.byteLength })),
    };
  }
}
