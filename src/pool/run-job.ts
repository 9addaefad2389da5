/**
 * One worker's prepared state and its job runner. Prepared objects (environments,
 * context, profiles, compiler, pass program) are built once per worker from descriptors;
 * each job gets a fresh module in the worker's workspace.
 */
import { compileModule, emitModule } from "../api/compile.js";
import { Compiler, Context, PassProgram } from "../api/context.js";
import { LoomError } from "../core/errors.js";
import type { Artifact } from "../core/artifact.js";
import { Source } from "../api/source.js";
import { Workspace } from "../api/workspace.js";
import "../api/check-dialect.js";
import { renderDiagnostics } from "../core/diag/render.js";
import { targetPackage } from "../targets/registry.js";
import type { TargetEnvironment, TargetProfile } from "../core/target.js";
import type { CompileJob, CompileOutcome, WorkerSetup } from "./protocol.js";

export class PreparedWorkerState {
  readonly #environments = new Map<string, TargetEnvironment>();
  readonly #profiles = new Map<string, TargetProfile>();
  readonly #compiler: Compiler;
  readonly #pipeline: PassProgram;
  readonly #workspace: Workspace;

  constructor(setup: WorkerSetup) {
    for (const d of Object.values(setup.targets)) {
      if (!this.#environments.has(d.environment)) this.#environments.set(d.environment, targetPackage(d.environment).createEnvironment());
    }
    for (const [name, d] of Object.entries(setup.targets)) {
      this.#profiles.set(name, targetPackage(d.environment).createProfile(this.#environments.get(d.environment)!, d.options as never));
    }
    const context = Context.create({ targetEnvironments: [...this.#environments.values()] });
    this.#compiler = Compiler.create(context);
    this.#pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", sourceToLowMaxErrors: setup.maxErrors ?? 20 }).value!;
    this.#workspace = new Workspace(context);
  }

  #profile(name: string): TargetProfile {
    const p = this.#profiles.get(name);
    if (!p) throw new LoomError("not-found", `CompilePool: no target named '${name}' (pool targets: ${[...this.#profiles.keys()].join(", ")})`);
    return p;
  }

  run(job: CompileJob): CompileOutcome {
    const src = job.source;
    const source = src.bytes !== undefined ? Source.fromBytes(src.name, src.bytes, { ownership: "borrowed" }) : Source.fromText(src.name, src.text ?? "");
    const parsed = this.#workspace.parseModule(source);
    const texts = new Map([[src.name, source.text ?? ""]]);
    const done = (ok: boolean, diagnostics: CompileOutcome["diagnostics"], artifacts: Artifact[]): CompileOutcome => ({
      ok,
      diagnostics,
      // Plain copies: the outcome keeps the bytes, not what a lazy artifact is made from.
      artifacts: artifacts.map((a) => ({ kind: a.kind, format: a.format, identifier: a.identifier, contents: a.contents })),
      formatted: renderDiagnostics(diagnostics, (n) => texts.get(n)),
    });
    if (!parsed.ok) return done(false, parsed.diagnostics, []);
    const module = parsed.value!;
    const compiled = compileModule(this.#compiler, this.#workspace, this.#pipeline, module, {
      ...(job.moduleName ? { moduleName: job.moduleName } : {}),
      specializations: job.specializations.map((s) => ({ functionSymbol: s.functionSymbol, targetProfile: this.#profile(s.target) })),
      ...(job.config ? { config: job.config } : {}),
      ...(job.artifacts ? { artifacts: job.artifacts } : {}),
    });
    const diagnostics = [...parsed.diagnostics, ...compiled.diagnostics];
    if (!compiled.ok) return done(false, diagnostics, []);
    const artifacts = [...compiled.artifacts];
    for (const e of job.emit ?? []) {
      const profile = this.#profile(e.target);
      const env = this.#environments.get(profile.environment)!;
      const emitted = emitModule(env, this.#workspace, module, {
        artifactFormat: e.artifactFormat ?? targetPackage(profile.environment).format,
        ...(e.identifier ? { identifier: e.identifier } : {}),
      });
      diagnostics.push(...emitted.diagnostics);
      if (!emitted.ok) return done(false, diagnostics, artifacts);
      artifacts.push(...emitted.artifacts);
    }
    return done(true, diagnostics, artifacts);
  }
}
