/** Shared pieces of the CLI commands: option tables, reading sources, printing diagnostics. */
import { readFile } from "node:fs/promises";
import type { ParseArgsConfig } from "node:util";
import { Context, LinkIndexBuilder, Source, Workspace, type LinkIndex, type Module, type Result, type TargetEnvironment } from "../index.js";

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  readonly summary: string;
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig["options"]>;
  run(values: Values, positionals: string[]): Promise<number>;
}

export class UsageError extends Error {}

export async function readSource(path: string): Promise<Source> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new UsageError(`cannot read '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return Source.fromBytes(path, bytes, { ownership: "borrowed" });
}

/** Prints a Result's diagnostics to stderr (text) or stdout (--json). */
export function report(result: Result<unknown>, json: boolean, file: string): void {
  if (json) {
    console.log(JSON.stringify({ file, ...result.toJSON() }));
  } else if (result.diagnostics.length > 0) {
    console.error(result.formatDiagnostics({ color: process.stderr.isTTY === true }));
  }
}

/** Parses and verifies one file; returns the module or undefined after printing diagnostics. */
export async function loadModule(path: string, json: boolean, environments: TargetEnvironment[] = []): Promise<{ module?: Module; workspace: Workspace; context: Context }> {
  const context = Context.create({ targetEnvironments: environments });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(await readSource(path));
  if (!parsed.ok || json) report(parsed, json, path);
  return parsed.ok ? { module: parsed.value!, workspace, context } : { workspace, context };
}

export function requireOne(positionals: string[], what = "FILE"): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one ${what}, got ${positionals.length}`);
  return positionals[0]!;
}

/**
 * A LinkIndex of library files; undefined when there are none, null after printing the
 * libraries' diagnostics.
 */
export async function buildLinkIndex(paths: readonly string[], json: boolean): Promise<LinkIndex | undefined | null> {
  if (paths.length === 0) return undefined;
  const builder = new LinkIndexBuilder();
  for (const p of paths) builder.addSource(await readSource(p));
  const frozen = builder.freeze();
  if (!frozen.ok) {
    report(frozen, json, paths.join(","));
    return null;
  }
  return frozen.value!;
}
