/** `compileModule` and `emitModule` (api.md §4): the two in-memory compiler boundaries. */
import { D, DiagnosticSink, makeDiagnostic } from "../core/diag/diagnostic.js";
import { encodeLaunchFunctions, lowerLaunchFunctions, type LaunchFunction, type LaunchFunctionSource } from "../launch/source.js";
import { runPreparedLowPipeline, type Specialization } from "../passes/pipeline.js";
import type { ConfigValue } from "../passes/specialize.js";
import type { EmitOutput, EmitRequest, TargetEnvironment, TargetProfile } from "../core/target.js";
import { Compiler, PassProgram } from "./context.js";
import { LoomError } from "../core/errors.js";
import { LinkIndex, linkLibraries } from "./link.js";
import type { LinkLibrary } from "../passes/link/library.js";
import { Module, type ModuleState } from "./module.js";
import { ARTIFACT_FORMAT, type Artifact } from "../core/artifact.js";
import type { ModuleAnalyses, PreparedKernel, PreparedModule } from "../core/prepared.js";
import { Result } from "./result.js";
import { executableInterface } from "./interface.js";
import { encodeExecutableInterface } from "../abi/index.js";
import { Workspace } from "./workspace.js";
import { isOp } from "../dialects/registry.js";
import { verifyModule } from "../passes/verify/index.js";
import { NONE } from "../core/none.js";

/** One function to specialize: its symbol and the target profile it is compiled for. */
export interface TargetSpecialization {
  /** Kernel symbol, with or without '@'. */
  readonly functionSymbol: string;
  readonly targetProfile: TargetProfile;
}

/** Options of {@link compileModule}: which functions to specialize for which target profiles, plus module name and config values. */
export interface CompileOptions {
  readonly moduleName?: string;
  readonly specializations: readonly TargetSpecialization[];
  /** `config.decl` bindings for this invocation (ints/index as bigint, floats as number, i1 as boolean). */
  readonly config?: Readonly<Record<string, ConfigValue>>;
  readonly artifacts?: {
    readonly launchConfig?: boolean;
    /**
     * A `report` artifact (format "json", `<moduleName>.template-selections.json`): which
     * provider each `template.apply` selected, per kernel and profile (docs/linking.md).
     */
    readonly templateSelections?: boolean;
  };
  /** Libraries to link declared symbols from (docs/linking.md). */
  readonly linkIndex?: LinkIndex;
}

/** Options of {@link emitModule}: which specialized functions to emit and which artifacts to produce. */
export interface EmitOptions {
  readonly artifactFormat: string;
  readonly identifier?: string;
  readonly primary?: boolean;
  readonly target?: Readonly<Record<string, unknown>>;
}

/**
 * An artifact whose bytes are made when first read (prepared kernels and emitted bytes never
 * change). A class, not an object literal with a getter: V8 makes such a literal on a slow
 * path (about 2 µs, against 0.05 µs for the class; every compile and emit makes one).
 * `contents` is an own enumerable accessor, defined with one shared descriptor (about 0.2 µs):
 * a structured clone (`structuredClone`, `postMessage` to a Worker) reads own enumerable
 * properties through their getters, so the clone carries the bytes, made then if not before.
 * A getter on the prototype would be invisible to it.
 */
class LazyArtifact<T> implements Artifact {
  declare readonly contents: Uint8Array;
  #bytes: Uint8Array | undefined;
  readonly #make: (input: T) => Uint8Array;
  readonly #input: T;
  constructor(
    readonly kind: Artifact["kind"],
    readonly format: string,
    readonly identifier: string,
    make: (input: T) => Uint8Array,
    input: T,
  ) {
    this.#make = make;
    this.#input = input;
    Object.defineProperty(this, "contents", LAZY_CONTENTS);
  }
  static bytesOf(a: LazyArtifact<unknown>): Uint8Array {
    return (a.#bytes ??= a.#make(a.#input));
  }
}

const LAZY_CONTENTS: PropertyDescriptor = Object.freeze({
  enumerable: true,
  get(this: LazyArtifact<unknown>): Uint8Array {
    return LazyArtifact.bytesOf(this);
  },
});

function lazyArtifact<T>(kind: Artifact["kind"], format: string, identifier: string, make: (input: T) => Uint8Array, input: T): Artifact {
  return new LazyArtifact(kind, format, identifier, make, input);
}

/**
 * The launch-config companion, lowered and encoded when its bytes are first read. Lowering
 * refuses only what verification and the pipeline's checks already reported (structure:
 * the verifier; the encoder's limits: passes/launch-limits.ts, STRUCTURE/906), so a compiled
 * module's companion always lowers (test/api/launch-lazy.test.ts lowers every kernel of the
 * repository's sources); were it to refuse, that is a compiler bug, thrown as "internal".
 * The config regions it reads are not rewritten after compileModule (emit reads the
 * prepared kernels only).
 */
function lowerAndEncodeLaunch(sources: readonly LaunchFunctionSource[]): Uint8Array {
  let lowered: readonly LaunchFunction[];
  try {
    lowered = lowerLaunchFunctions(sources);
  } catch (e) {
    if (!(e instanceof LoomError)) throw e;
    throw new LoomError("internal", `the launch-config companion of a compiled module cannot be lowered: ${e.message}`);
  }
  return encodeLaunchFunctions(lowered);
}

/** What an executable's kernel-interface record is made from. */
interface InterfaceInput {
  readonly kernels: readonly PreparedKernel[];
  readonly out: EmitOutput;
  readonly format: string;
  readonly identifier: string;
  readonly contents: Uint8Array;
}

function encodeInterface(i: InterfaceInput): Uint8Array {
  return encodeExecutableInterface(executableInterface(i.kernels, i.out, i.format, i.identifier, i.contents));
}

/** A symbol without its leading '@', if it has one. */
function withoutSigil(symbol: string): string {
  return symbol.startsWith("@") ? symbol.slice(1) : symbol;
}

function bad(what: string): never {
  throw new LoomError("invalid-argument", what);
}

function isPlainObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Refuses keys an options object does not define (a misspelt option must not be ignored). */
function onlyKeys(where: string, o: object, allowed: readonly string[]): void {
  for (const key in o) {
    if (Object.hasOwn(o, key) && !allowed.includes(key)) bad(`${where}: unknown option '${key}' (expected one of: ${allowed.join(", ")})`);
  }
}

/** The states without data, shared by every module. */
const COMPILING: ModuleState = Object.freeze({ phase: "compiling" });
const FAILED: ModuleState = Object.freeze({ phase: "failed" });

/** The config of a compile that binds none (most): shared, the pipeline only reads it. */
const NO_CONFIG: ReadonlyMap<string, ConfigValue> = new Map();

const COMPILE_OPTION_KEYS = ["moduleName", "specializations", "config", "artifacts", "linkIndex"] as const satisfies readonly (keyof CompileOptions)[];
const ARTIFACT_OPTION_KEYS = ["launchConfig", "templateSelections"] as const satisfies readonly (keyof NonNullable<CompileOptions["artifacts"]>)[];
const SPECIALIZATION_KEYS = ["functionSymbol", "targetProfile"] as const satisfies readonly (keyof TargetSpecialization)[];
const EMIT_OPTION_KEYS = ["artifactFormat", "identifier", "primary", "target"] as const satisfies readonly (keyof EmitOptions)[];

/** Compiles `module` (parsed in `workspace`) through `pipeline`, specializing each named function for its target profile. Bad programs give a failed `Result` with diagnostics; API misuse throws `LoomError("invalid-argument")`. */
export function compileModule(compiler: Compiler, workspace: Workspace, pipeline: PassProgram, module: Module, options: CompileOptions): Result {
  if (!(compiler instanceof Compiler)) bad("compileModule: 'compiler' must be a Compiler");
  if (!(workspace instanceof Workspace)) bad("compileModule: 'workspace' must be a Workspace");
  if (!(pipeline instanceof PassProgram)) bad("compileModule: 'pipeline' must be a PassProgram");
  if (!(module instanceof Module)) bad("compileModule: 'module' must be a Module");
  if (!isPlainObject(options)) bad("compileModule: 'options' must be an object");
  onlyKeys("compileModule", options, COMPILE_OPTION_KEYS);
  if (options.config !== undefined && !isPlainObject(options.config)) bad("compileModule: 'config' must be an object of config values");
  if (options.artifacts !== undefined) {
    if (!isPlainObject(options.artifacts)) bad("compileModule: 'artifacts' must be an object ({ launchConfig?, templateSelections? })");
    onlyKeys("compileModule: artifacts", options.artifacts, ARTIFACT_OPTION_KEYS);
  }
  if (pipeline.context !== compiler.context || workspace.context !== compiler.context) {
    bad("compileModule: compiler, workspace and pipeline must share one Context");
  }
  if (module.state.phase !== "parsed") {
    throw new LoomError("failed-precondition", `compileModule: the module was already ${module.state.phase}; parse again or clone() before compiling another specialization`);
  }
  if (options.linkIndex !== undefined && !(options.linkIndex instanceof LinkIndex)) bad("compileModule: 'linkIndex' must be a LinkIndex");
  const libraries = options.linkIndex ? linkLibraries(options.linkIndex) : NONE;
  const moduleName = options.moduleName ?? "module";
  if (typeof moduleName !== "string" || moduleName.length === 0) bad("compileModule: 'moduleName' must be a non-empty string");
  // A parsed module carries its verification; a clone is verified here (its kernels are found through the symbols).
  const verified = module.verified ?? verifyModule(module.ir, new DiagnosticSink(pipeline.maxErrors));
  const specs = resolveSpecializations(compiler, module, verified, options.specializations, libraries.length > 0);
  const config = options.config === undefined ? NO_CONFIG : configMap(options.config);
  const launchConfig = options.artifacts?.launchConfig ?? false;
  if (typeof launchConfig !== "boolean") bad("compileModule: 'artifacts.launchConfig' must be a boolean");
  const selectionReport = options.artifacts?.templateSelections ?? false;
  if (typeof selectionReport !== "boolean") bad("compileModule: 'artifacts.templateSelections' must be a boolean");

  return workspace.run(() => {
    module.setState(COMPILING);
    const sink = new DiagnosticSink(pipeline.maxErrors);
    // Diagnostics may point into library code that linking copied into the module.
    const lookup = (n: string) => module.sourceTexts.get(n) ?? options.linkIndex?.sourceText(n);
    try {
      // A failed verification is not handed on: the pipeline verifies again, reporting into its sink up to its error limit.
      const request = { moduleName, specializations: specs, config, verifyEachPass: pipeline.verifyEachPass, libraries, verified: verified.ok ? verified : undefined };
      // The IR is rewritten from here on: what was verified no longer describes it.
      module.verified = undefined;
      const out = runPreparedLowPipeline(module.ir, request, sink);
      if (!out) {
        module.setState(FAILED);
        return new Result({ diagnostics: sink.diagnostics, lookup, failed: true });
      }
      const artifacts: Artifact[] = [];
      if (launchConfig) {
        artifacts.push(lazyArtifact("launch-config", ARTIFACT_FORMAT.LOOM_BYTECODE, `${moduleName}.launch.loombc`, lowerAndEncodeLaunch, out.launchFunctions));
      }
      if (selectionReport) {
        artifacts.push({
          kind: "report",
          format: "json",
          identifier: `${moduleName}.template-selections.json`,
          contents: new TextEncoder().encode(`${JSON.stringify({ selections: out.selections }, null, 2)}\n`),
        });
      }
      module.setState({ phase: "compiled", context: compiler.context, prepared: out.prepared });
      return new Result({ diagnostics: sink.diagnostics, artifacts: Object.freeze(artifacts), lookup });
    } catch (e) {
      module.setState(FAILED);
      if (e instanceof LoomError) throw e;
      throw new LoomError("internal", `compileModule: internal compiler error: ${(e as Error)?.stack ?? e}`);
    }
  });
}

function configMap(bindings: Readonly<Record<string, ConfigValue>>): Map<string, ConfigValue> {
  const config = new Map<string, ConfigValue>();
  for (const [k, v] of Object.entries(bindings)) {
    if (typeof v !== "bigint" && typeof v !== "number" && typeof v !== "boolean") bad(`compileModule: config '${k}' must be a bigint, number or boolean`);
    config.set(withoutSigil(k), v);
  }
  return config;
}

function resolveSpecializations(compiler: Compiler, module: Module, analyses: ModuleAnalyses, list: readonly TargetSpecialization[] | undefined, linking: boolean): Specialization[] {
  if (!Array.isArray(list) || list.length === 0) bad("compileModule: 'specializations' must be a non-empty array");
  return list.map((s, i) => {
    if (!isPlainObject(s)) bad(`compileModule: specializations[${i}] must be an object`);
    onlyKeys(`compileModule: specializations[${i}]`, s, SPECIALIZATION_KEYS);
    if (typeof s.functionSymbol !== "string") bad(`compileModule: specializations[${i}].functionSymbol must be a string`);
    const profile = s.targetProfile;
    if (!profile || typeof profile.environment !== "string" || !profile.facts) bad(`compileModule: specializations[${i}].targetProfile must be a TargetProfile`);
    const name = withoutSigil(s.functionSymbol);
    for (let j = 0; j < i; j++) {
      if (withoutSigil(list[j]?.functionSymbol ?? "") === name) throw new LoomError("already-exists", `compileModule: '@${name}' is specialized twice`);
    }
    const op = analyses.symbol(name);
    if (!op) throw new LoomError("not-found", `compileModule: no symbol '@${name}' in '${module.name}'`);
    const linkable = linking && isOp(op, "kernel.decl");
    if (!isOp(op, "kernel.def") && !linkable) {
      throw new LoomError("invalid-argument", `compileModule: '@${name}' is a ${op.name}, not a kernel.def${isOp(op, "kernel.decl") ? " (a kernel.decl needs a 'linkIndex' that defines it)" : ""}`);
    }
    const environment = compiler.context.environment(profile.environment);
    if (!environment) {
      throw new LoomError("failed-precondition", `compileModule: profile '${profile.identifier}' needs the '${profile.environment}' target environment, which the Context does not register`);
    }
    return { symbol: name, profile, environment };
  });
}

/** Emits the compiled `module` for `environment` into a `Result` whose artifacts carry the binary and its kernel interface. Misuse throws `LoomError("invalid-argument")`. */
export function emitModule(environment: TargetEnvironment, workspace: Workspace, module: Module, options: EmitOptions): Result {
  if (!environment || typeof environment.emit !== "function") bad("emitModule: 'environment' must be a TargetEnvironment");
  if (!(workspace instanceof Workspace)) bad("emitModule: 'workspace' must be a Workspace");
  if (!(module instanceof Module)) bad("emitModule: 'module' must be a Module");
  if (!isPlainObject(options)) bad("emitModule: 'options' must be an object");
  onlyKeys("emitModule", options, EMIT_OPTION_KEYS);
  if (typeof options.artifactFormat !== "string") bad("emitModule: 'artifactFormat' must be a string");
  if (options.identifier !== undefined && (typeof options.identifier !== "string" || options.identifier.length === 0)) bad("emitModule: 'identifier' must be a non-empty string");
  if (options.primary !== undefined && typeof options.primary !== "boolean") bad("emitModule: 'primary' must be a boolean");
  if (options.target !== undefined && !isPlainObject(options.target)) bad("emitModule: 'target' must be an object of target emit options");
  const state = module.state;
  if (state.phase !== "compiled") throw new LoomError("failed-precondition", "emitModule: the module has not been compiled successfully (call compileModule first)");
  if (!state.context.hasEnvironment(environment)) throw new LoomError("failed-precondition", `emitModule: target environment '${environment.name}' is not registered with the module's Context`);
  if (!environment.formats.includes(options.artifactFormat)) {
    bad(`emitModule: environment '${environment.name}' cannot emit format ${JSON.stringify(options.artifactFormat)} (it emits: ${environment.formats.join(", ")})`);
  }
  const all = state.prepared.kernels;
  // Usually every kernel was specialized for this one environment: then the list is the module's own.
  const kernels = all.every((k) => k.profile.environment === environment.name) ? all : all.filter((k) => k.profile.environment === environment.name);
  if (kernels.length === 0) throw new LoomError("failed-precondition", `emitModule: no kernel of this module was specialized for '${environment.name}'`);
  const identifier = options.identifier ?? `${state.prepared.moduleName}.${options.artifactFormat}`;
  return workspace.run(() => {
    const lookup = (n: string) => module.sourceTexts.get(n);
    let out: ReturnType<TargetEnvironment["emit"]>;
    try {
      const prepared = state.prepared;
      const emitted: { -readonly [K in keyof PreparedModule]: PreparedModule[K] } = { moduleName: prepared.moduleName, kernels };
      if (prepared.lowered) emitted.lowered = prepared.lowered;
      const emitOptions: { -readonly [K in keyof EmitRequest]: EmitRequest[K] } = { artifactFormat: options.artifactFormat, identifier, primary: options.primary ?? true };
      if (options.target) emitOptions.target = options.target;
      out = environment.emit(emitted, emitOptions);
    } catch (e) {
      if (e instanceof LoomError) throw e;
      // A back end that throws (a limit it does not report itself) fails the Result, at the first kernel.
      const d = makeDiagnostic(D.backendInternal, kernels[0]?.op.span, [`'${environment.name}' could not emit this module: ${(e as Error)?.message ?? e}`]);
      return new Result({ diagnostics: [d], lookup, failed: true });
    }
    const failed = out.diagnostics.some((d) => d.severity === "error") || !out.contents;
    const artifacts: Artifact[] = [];
    if (!failed && out.contents) {
      artifacts.push({ kind: "executable", format: options.artifactFormat, identifier, contents: out.contents });
      // The executable's kernel-interface record travels as an artifact of its own (docs/abi.md),
      // built on first read: fingerprinting and encoding would otherwise cost as much as the emit.
      artifacts.push(lazyArtifact("interface", "json", `${identifier}.interface.json`, encodeInterface, { kernels, out, format: options.artifactFormat, identifier, contents: out.contents }));
    }
    return new Result({ diagnostics: out.diagnostics, artifacts: Object.freeze(artifacts), lookup, failed });
  });
}
