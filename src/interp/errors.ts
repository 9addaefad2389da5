/**
 * Runtime failures of the reference interpreter. Every failure is a `LoomError` subclass
 * that names the op (with its source location) and the invocation that hit it, so a
 * mismatch against a device run can be traced back to one line of the kernel.
 */
import { LoomError, type LoomStatus } from "../core/errors.js";
import type { Op, Span } from "../ir/core.js";

/** Why the dispatch stopped. */
export type InterpretFailure =
  /** A `kernel.assert` condition was false (the dispatch traps). */
  | "assert"
  /** A view access outside `[0, D)` or outside its buffer, or a view footprint outside its buffer. */
  | "out-of-bounds"
  /** Undefined behaviour of language.md §4 (division by zero, overflow under a flag, false assume, ...). */
  | "undefined-behaviour"
  /** A barrier or collective not reached by every invocation of its scope. */
  | "divergence"
  /** The step budget ran out (a non-terminating or oversized kernel). */
  | "step-budget"
  /** An op or form the interpreter does not execute. */
  | "unsupported";

const STATUS: Readonly<Record<InterpretFailure, LoomStatus>> = {
  assert: "failed-precondition",
  "out-of-bounds": "out-of-range",
  "undefined-behaviour": "failed-precondition",
  divergence: "failed-precondition",
  "step-budget": "resource-exhausted",
  unsupported: "unimplemented",
};

/** Which invocation failed: workgroup and work-item coordinates. */
export interface InvocationId {
  readonly workgroup: readonly [number, number, number];
  readonly workitem: readonly [number, number, number];
}

export function formatSpan(span: Span | undefined): string {
  return span ? `${span.source}:${span.line}:${span.column}` : "<unknown location>";
}

export class InterpretError extends LoomError {
  constructor(
    readonly failure: InterpretFailure,
    /** The op that failed, when there is one. */
    readonly opName: string | undefined,
    readonly span: Span | undefined,
    readonly invocation: InvocationId | undefined,
    readonly detail: string,
  ) {
    super(STATUS[failure], InterpretError.describe(opName, span, invocation, detail));
  }

  static describe(opName: string | undefined, span: Span | undefined, inv: InvocationId | undefined, detail: string): string {
    const where = opName ? `${formatSpan(span)}: ${opName}: ` : "";
    const who = inv ? ` (workgroup (${inv.workgroup.join(", ")}), work-item (${inv.workitem.join(", ")}))` : "";
    return `${where}${detail}${who}`;
  }
}

/** A failure at `op`, raised by the compiled code of that op. */
export function opError(failure: InterpretFailure, op: Op, detail: string, invocation?: InvocationId): InterpretError {
  return new InterpretError(failure, op.name, op.span, invocation, detail);
}
