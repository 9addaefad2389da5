/**
 * Immutable prepared state (api.md §2): Context, Compiler, PassProgram. Create once, share
 * across any number of compiles; all are frozen after creation.
 */
import { LoomError } from "../core/errors.js";
import { Result } from "./result.js";
import type { TargetEnvironment, TargetPackage } from "../core/target.js";
import { registerTargetRecord } from "../core/target-records.js";

/** Options of {@link Context.create}: the target environments (and extra target packages) to register. */
export interface ContextOptions {
  readonly targetEnvironments?: readonly TargetEnvironment[];
  /**
   * Packages whose target-record ops modules may name without compiling for them (an
   * environment in `targetEnvironments` brings its own record). Record ops are registered
   * process-wide (core/target-records.ts): once known, every Context's modules may use them.
   */
  readonly targetPackages?: readonly TargetPackage[];
}

/** Immutable set of target environments (and target records) a compiler may use; create once and share. */
export class Context {
  readonly targetEnvironments: readonly TargetEnvironment[];
  /** By name (names are unique): every compile looks its profiles' environments up here. */
  readonly #byName: ReadonlyMap<string, TargetEnvironment>;
  private constructor(envs: readonly TargetEnvironment[]) {
    this.targetEnvironments = Object.freeze([...envs]);
    this.#byName = new Map(envs.map((e) => [e.name, e]));
    Object.freeze(this);
  }

  /** Creates a frozen Context. Throws `LoomError("invalid-argument")` for malformed options and `LoomError("already-exists")` when two environments share a name. */
  static create(options: ContextOptions = {}): Context {
    if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "Context.create: options must be an object");
    const packages = options.targetPackages ?? [];
    if (!Array.isArray(packages)) throw new LoomError("invalid-argument", "Context.create: 'targetPackages' must be an array");
    for (const pkg of packages) {
      if (!pkg || typeof pkg.name !== "string" || typeof pkg.createEnvironment !== "function") {
        throw new LoomError("invalid-argument", "Context.create: 'targetPackages' holds something that is not a TargetPackage");
      }
      if (pkg.record) registerTargetRecord(pkg.record);
    }
    const envs = options.targetEnvironments ?? [];
    if (!Array.isArray(envs)) throw new LoomError("invalid-argument", "Context.create: 'targetEnvironments' must be an array");
    const seen = new Set<string>();
    for (const env of envs) {
      if (!env || typeof env.name !== "string" || typeof env.emit !== "function") {
        throw new LoomError("invalid-argument", "Context.create: 'targetEnvironments' holds something that is not a TargetEnvironment");
      }
      if (seen.has(env.name)) throw new LoomError("already-exists", `Context.create: target environment '${env.name}' registered twice`);
      seen.add(env.name);
    }
    for (const env of envs) if (env.record) registerTargetRecord(env.record);
    return new Context(envs);
  }

  /** The registered environment of that name, if any. */
  environment(name: string): TargetEnvironment | undefined {
    return this.#byName.get(name);
  }
  /** Whether `env` is one of this Context's registered environments (identity, not name). */
  hasEnvironment(env: TargetEnvironment): boolean {
    return this.targetEnvironments.includes(env);
  }
}

/** Immutable compiler handle bound to a {@link Context}; pass it to {@link compileModule}. */
export class Compiler {
  private constructor(readonly context: Context) {
    Object.freeze(this);
  }
  /** Creates a Compiler bound to `context`; throws `LoomError("invalid-argument")` if it is not a Context. */
  static create(context: Context): Compiler {
    if (!(context instanceof Context)) throw new LoomError("invalid-argument", "Compiler.create: 'context' must be a Context");
    return new Compiler(context);
  }
}

export type PipelineKind = "prepared-low";

/** Options of {@link PassProgram.fromTargetPipeline}: pipeline kind, identifier, error limit and verification. */
export interface TargetPipelineOptions {
  readonly identifier?: string;
  readonly kind: PipelineKind;
  /** Stop reporting after this many errors (PARSE/012); default 20. */
  readonly sourceToLowMaxErrors?: number;
  /** Re-run the verifier after every pass (tests turn this on). */
  readonly verifyEachPass?: boolean;
}

/** A selected, immutable sequence of passes (today: the prepared-low pipeline). */
export class PassProgram {
  private constructor(
    readonly context: Context,
    readonly identifier: string,
    readonly kind: PipelineKind,
    readonly maxErrors: number,
    readonly verifyEachPass: boolean,
  ) {
    Object.freeze(this);
  }

  /** Selects the pass pipeline `options.kind` for `context`. Throws `LoomError("invalid-argument")` for a non-Context, malformed options or an unknown kind. */
  static fromTargetPipeline(context: Context, options: TargetPipelineOptions): Result<PassProgram> {
    if (!(context instanceof Context)) throw new LoomError("invalid-argument", "PassProgram.fromTargetPipeline: 'context' must be a Context");
    if (!options || typeof options !== "object") throw new LoomError("invalid-argument", "PassProgram.fromTargetPipeline: options must be an object");
    if (options.kind !== "prepared-low") {
      throw new LoomError("invalid-argument", `PassProgram.fromTargetPipeline: unknown pipeline kind ${JSON.stringify(options.kind)} (known: "prepared-low")`);
    }
    const maxErrors = options.sourceToLowMaxErrors ?? 20;
    if (!Number.isInteger(maxErrors) || maxErrors < 1) {
      throw new LoomError("invalid-argument", "PassProgram.fromTargetPipeline: 'sourceToLowMaxErrors' must be a positive integer");
    }
    const identifier = options.identifier ?? "prepared-low";
    if (typeof identifier !== "string") throw new LoomError("invalid-argument", "PassProgram.fromTargetPipeline: 'identifier' must be a string");
    return new Result<PassProgram>({ value: new PassProgram(context, identifier, options.kind, maxErrors, options.verifyEachPass ?? false) });
  }
}
