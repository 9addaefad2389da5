#!/usr/bin/env node
/**
 * The `loom` command: fmt, verify, compile, launch, link, run, test, explain; a thin shell over the public API (docs/cli.md). Each command is one
 * file exporting a `Command`; it joins the tool with one line in `COMMANDS`.
 * Exit status: 0 success, 1 program errors, 2 usage errors, 3 I/O failures, 4 no device.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { fmtCommand } from "./fmt.js";
import { verifyCommand } from "./verify.js";
import { compileCommand } from "./compile.js";
import { launchCommand } from "./launch.js";
import { linkCommand } from "./link.js";
import { runCommand } from "./run.js";
import { testCommand } from "./test.js";
import { checkCommand } from "./check.js";
import { explainCommand } from "./explain.js";
import { cliWording, DeviceError, EXIT, JSON_SCHEMA, output, UsageError, type Command } from "./common.js";
import { IoError, setMaxInputBytes } from "./io.js";
import { closestName } from "../index.js";
import { LoomError, LOOMC_VERSION } from "../index.js";

/** Every command, in the order `loom --help` lists them. */
const COMMANDS: Record<string, Command> = {
  fmt: fmtCommand,
  verify: verifyCommand,
  compile: compileCommand,
  launch: launchCommand,
  link: linkCommand,
  run: runCommand,
  test: testCommand,
  check: checkCommand,
  explain: explainCommand,
};

/** Options every command takes (docs/cli.md "Common options"). */
const COMMON_OPTIONS: NonNullable<ParseArgsConfig["options"]> = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  color: { type: "string" },
  "max-input-bytes": { type: "string" },
};

const COMMON_HELP = `common options:
  --json                 one JSON document on stdout (schema ${JSON_SCHEMA}, docs/cli.md)
  --color WHEN           auto (default; off when NO_COLOR is set or stderr is not a terminal), always, never
  --max-input-bytes N    refuse inputs larger than N bytes (default 64 MiB)
  -h, --help             this help`;

const EXIT_HELP = "Exit status: 0 success, 1 errors in the program (or a failed check), 2 usage errors, 3 a file cannot be read or written, 4 no usable device.";

const MAIN_HELP = `loom ${LOOMC_VERSION} — the Loom kernel compiler

usage: loom <command> [options] FILE...
       loom --version

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join("\n")}

Run 'loom <command> --help' for the options of one command. FILE '-' reads stdin.
${EXIT_HELP}`;

function colorFor(value: string | undefined): boolean {
  const when = value ?? "auto";
  if (when === "always") return true;
  if (when === "never") return false;
  if (when !== "auto") throw new UsageError(`--color must be auto, always or never, got '${when}'`);
  if ((process.env.NO_COLOR ?? "") !== "") return false;
  return process.stderr.isTTY === true;
}

/** The option name a parseArgs error complains about, with a suggestion. */
function explainParseError(message: string, options: NonNullable<ParseArgsConfig["options"]>): string {
  const flag = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
  if (flag === undefined) return message;
  const names = Object.entries(options).flatMap(([long, o]) => [`--${long}`, ...(o.short ? [`-${o.short}`] : [])]);
  const near = closestName(flag, names);
  return `unknown option '${flag}'${near ? `; did you mean '${near}'?` : ""}`;
}

function finish(code: number, error?: { kind: string; message: string }): number {
  if (output.json) {
    const doc = {
      schema: JSON_SCHEMA,
      command: output.command,
      ok: code === EXIT.ok,
      exitCode: code,
      errorCount: output.errors,
      warningCount: output.warnings,
      diagnostics: output.diagnostics,
      result: output.result,
      ...(error ? { error } : {}),
    };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  } else if (output.errors > 0 || output.warnings > 0) {
    const part = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
    const parts = [...(output.errors ? [part(output.errors, "error")] : []), ...(output.warnings ? [part(output.warnings, "warning")] : [])];
    console.error(`loom ${output.command}: ${parts.join(" and ")} generated`);
  }
  return code;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V" || name === "version") {
    console.log(`loom ${LOOMC_VERSION}`);
    return EXIT.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? console.error : console.log)(MAIN_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const near = closestName(name, Object.keys(COMMANDS));
    console.error(`loom: unknown command '${name}'${near ? `; did you mean '${near}'?` : ""}\nRun 'loom --help' for the list of commands.`);
    return EXIT.usage;
  }
  output.command = name;
  const options = { ...command.options, ...COMMON_OPTIONS };
  const helpText = `${command.help}\n\n${COMMON_HELP}`;
  const usage = (message: string) => {
    if (!output.json) console.error(`loom ${name}: ${message}\nRun 'loom ${name} --help' for its options.`);
    return finish(EXIT.usage, { kind: "usage", message });
  };
  // --json is honoured even when the rest of the line does not parse.
  output.json = rest.includes("--json");
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (e) {
    return usage(explainParseError((e as Error).message, options));
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (values.help) {
    console.log(helpText);
    return EXIT.ok;
  }
  try {
    output.color = colorFor(values.color as string | undefined);
    if (values["max-input-bytes"] !== undefined) {
      const n = Number(values["max-input-bytes"]);
      if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`--max-input-bytes must be a non-negative integer, got '${String(values["max-input-bytes"])}'`);
      setMaxInputBytes(n);
    }
    return finish(await command.run(values, parsed.positionals));
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    if (e instanceof IoError) {
      if (!output.json) console.error(`loom ${name}: ${e.message}`);
      return finish(EXIT.io, { kind: "io", message: e.message });
    }
    if (e instanceof DeviceError) {
      if (!output.json) console.error(`loom ${name}: ${e.message}`);
      return finish(EXIT.device, { kind: "device", message: e.message });
    }
    if (e instanceof LoomError) {
      const usageLike = e.status === "invalid-argument" || e.status === "not-found" || e.status === "out-of-range";
      const message = `${e.status}: ${cliWording(e.message)}`;
      if (!output.json) console.error(`loom ${name}: error (${message})`);
      return finish(usageLike ? EXIT.usage : EXIT.errors, { kind: usageLike ? "usage" : "error", message });
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`loom: internal error: ${e instanceof Error ? e.stack : String(e)}`);
    process.exitCode = EXIT.internal;
  },
);
