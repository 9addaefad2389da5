/**
 * Shared pieces of the CLI commands: the command shape, exit statuses, reading sources,
 * printing diagnostics (text on stderr, or the one JSON document of docs/cli.md on stdout).
 */
import type { ParseArgsConfig } from "node:util";
import { Context, LinkIndexBuilder, LoomError, Source, Workspace, closestName, type Diagnostic, type LinkIndex, type Module, type Result, type TargetEnvironment } from "../index.js";
import { readInput } from "./io.js";
import { deviceKinds, findDeviceProvider, type HarnessDevice } from "../harness/index.js";

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  readonly summary: string;
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig["options"]>;
  run(values: Values, positionals: string[]): Promise<number>;
}

/** Exit statuses (docs/cli.md "Exit status"). */
export const EXIT = {
  ok: 0,
  /** Errors in the program (diagnostics), a failed check, a mismatch. */
  errors: 1,
  usage: 2,
  /** A file that cannot be read or written. */
  io: 3,
  /** No usable device or driver (loom run). */
  device: 4,
  internal: 70,
} as const;

/** The version of the `--json` document (docs/cli.md "JSON output"). */
export const JSON_SCHEMA = "loom-cli/1";

export class UsageError extends Error {}

/** No usable device or driver (exit status 4). */
export class DeviceError extends Error {}

/** Per-invocation output state: set up by main.ts before a command runs. */
interface OutputState {
  command: string;
  json: boolean;
  color: boolean;
  diagnostics: (Diagnostic & { file?: string })[];
  errors: number;
  warnings: number;
  result: Record<string, unknown>;
}

export const output: OutputState = { command: "", json: false, color: false, diagnostics: [], errors: 0, warnings: 0, result: {} };

/**
 * Help and messages the API words for API callers, said in the command line's terms (a
 * profile option → the flag that sets it).
 */
export function cliWording(text: string): string {
  return text
    .replace(/set (?:options\.)?identity\.features\.subgroupOperations[^,;)]*/g, "pass --subgroup-ops with the operations the device has")
    .replace(/(?:options\.)?identity\.features\.subgroupOperations/g, "--subgroup-ops")
    .replace(/set (?:options\.)?identity\.features\.(\w+)(?: when the device has it)?/g, "pass --feature $1 when the device has it")
    .replace(/(?:options\.)?identity\.features\.(\w+)/g, "--feature $1")
    .replace(/(?:options\.)?identity\.limits\.(\w+)/g, "--limit $1=N")
    .replace(/the profile's subgroupOperations lack '([\w-]+)'/g, "the profile's subgroup operations lack '$1' (pass --subgroup-ops $1 when the device has it)")
    .replace(/pass a LinkIndex holding it as compileModule's 'linkIndex'/g, "pass the library that defines it with --library LIB")
    .replace(/a declared kernel needs a definition from compileModule's 'linkIndex'/g, "a declared kernel needs a definition: pass its library with --library LIB")
    .replace(/options\.identity\.target: /g, "--target: ")
    .replace(/options\.identity\.environment: /g, "--target: ")
    .replace(/raise maxSteps/g, "raise it with --max-steps");
}

function reword(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { ...d, message: cliWording(d.message) };
  if (d.help !== undefined) out.help = cliWording(d.help);
  if (d.related) out.related = d.related.map(reword);
  return out;
}

/** Records a Result's diagnostics: rendered on stderr (text) or kept for the JSON document. */
export function report(result: Result<unknown>, _json: boolean = output.json, file?: string): void {
  const diagnostics = result.diagnostics;
  for (const d of diagnostics) {
    if (d.severity === "error") output.errors++;
    else if (d.severity === "warning") output.warnings++;
  }
  if (output.json) {
    for (const d of diagnostics) output.diagnostics.push({ ...reword(d), ...(file === undefined ? {} : { file }) });
  } else if (diagnostics.length > 0) {
    console.error(cliWording(result.formatDiagnostics({ color: output.color })));
  }
}

/** Prints a line of the command's text output (nothing in --json mode: the document carries it). */
export function say(line: string): void {
  if (!output.json) console.log(line);
}

/** A progress line on stderr (never in --json mode, never on stdout). */
export function progress(line: string): void {
  if (!output.json && process.stderr.isTTY === true) process.stderr.write(`loom ${output.command}: ${line}\n`);
  else if (!output.json && process.env.LOOM_PROGRESS === "1") process.stderr.write(`loom ${output.command}: ${line}\n`);
}

export function readSource(path: string): Source {
  return Source.fromBytes(path === "-" ? "<stdin>" : path, readInput(path), { ownership: "borrowed" });
}

/** Parses and verifies one file; returns the module or undefined after reporting diagnostics. */
export async function loadModule(path: string | Source, json: boolean = output.json, environments: TargetEnvironment[] = []): Promise<{ module?: Module; workspace: Workspace; context: Context }> {
  const context = Context.create({ targetEnvironments: environments });
  const workspace = new Workspace(context);
  const source = typeof path === "string" ? readSource(path) : path;
  const parsed = workspace.parseModule(source);
  if (!parsed.ok || json) report(parsed, json, source.name);
  return parsed.ok ? { module: parsed.value!, workspace, context } : { workspace, context };
}

export function requireOne(positionals: string[], what = "FILE"): string {
  const [only] = positionals;
  if (positionals.length !== 1 || only === undefined) throw new UsageError(`expected exactly one ${what}, got ${positionals.length}`);
  return only;
}

/**
 * A LinkIndex of library files; undefined when there are none, null after reporting the
 * libraries' diagnostics.
 */
export async function buildLinkIndex(paths: readonly string[], json: boolean = output.json): Promise<LinkIndex | undefined | null> {
  if (paths.length === 0) return undefined;
  const builder = new LinkIndexBuilder();
  for (const p of paths) builder.addSource(readSource(p));
  const frozen = builder.freeze();
  if (!frozen.ok) {
    report(frozen, json, paths.join(","));
    return null;
  }
  return frozen.value!;
}

/** The strings of a repeatable option. */
export function list(v: Values[string]): string[] {
  return Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
}

/** Opens a `--device` for `loom run` and `loom check`: an unknown kind is a usage error, a missing driver or device exit status 4 with the runtime's message. */
export function openDevice(kind: string, selector: string | undefined): HarnessDevice {
  const provider = findDeviceProvider(kind);
  if (!provider) {
    const near = closestName(kind, deviceKinds());
    throw new UsageError(`--device: unknown device '${kind}'${near ? `; did you mean '${near}'?` : ""} (known: ${deviceKinds().join(", ")})`);
  }
  try {
    return provider.open(selector);
  } catch (e) {
    if (e instanceof LoomError) throw new DeviceError(`no usable ${kind} device: ${e.message}`);
    throw e;
  }
}
