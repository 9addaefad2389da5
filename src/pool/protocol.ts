/** Messages between a CompilePool and its workers: plain, structured-clonable data only. */
import type { Artifact } from "../core/artifact.js";
import type { Diagnostic } from "../core/diag/diagnostic.js";
import type { LoomStatus } from "../core/errors.js";

/** A target as data: the environment name and the options of its create*Profile call. */
export interface TargetDescriptor {
  readonly environment: string;
  readonly options: unknown;
}

export interface WorkerSetup {
  readonly targets: Readonly<Record<string, TargetDescriptor>>;
  readonly maxErrors?: number;
}

/** One compile request for a compile pool: source, kernels with target names, config and the executables to emit. */
export interface CompileJob {
  readonly source: { readonly name: string; readonly text?: string; readonly bytes?: Uint8Array };
  readonly moduleName?: string;
  /** Each kernel with the *name* of one of the pool's targets. */
  readonly specializations: readonly { readonly functionSymbol: string; readonly target: string }[];
  readonly config?: Readonly<Record<string, bigint | number | boolean>>;
  readonly artifacts?: { readonly launchConfig?: boolean };
  /** Executables to emit after a successful compile, one per target environment used. */
  readonly emit?: readonly { readonly target: string; readonly artifactFormat?: string; readonly identifier?: string }[];
}

/** The result of a {@link CompileJob}: success flag, diagnostics, artifacts and the rendered diagnostics. */
export interface CompileOutcome {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly artifacts: readonly Artifact[];
  /** Rendered diagnostics (file:line:col, source line, caret), for logs. */
  readonly formatted: string;
}

export type ToWorker = { readonly id: number; readonly job: CompileJob };
export type FromWorker =
  | { readonly id: number; readonly outcome: CompileOutcome }
  | { readonly id: number; readonly error: { readonly status: LoomStatus | "internal"; readonly message: string } }
  | { readonly ready: true }
  | { readonly fatal: string };
