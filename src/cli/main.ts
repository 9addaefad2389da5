#!/usr/bin/env node
/**
 * The `loom` command: fmt, verify, compile, launch, link, run, test. A thin shell over the public API.
 * Exit status: 0 success, 1 program errors (diagnostics), 2 usage errors.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { fmtCommand } from "./fmt.js";
import { verifyCommand } from "./verify.js";
import { compileCommand } from "./compile.js";
import { launchCommand } from "./launch.js";
import { linkCommand } from "./link.js";
import { runCommand } from "./run.js";
import { testCommand } from "./test.js";
import { UsageError, type Command } from "./common.js";
import { LoomError } from "../index.js";

const commands: Record<string, Command> = {
  fmt: fmtCommand,
  verify: verifyCommand,
  compile: compileCommand,
  launch: launchCommand,
  link: linkCommand,
  run: runCommand,
  test: testCommand,
};

const MAIN_HELP = `loom — the Loom kernel compiler

usage: loom <command> [options] FILE...

commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join("\n")}

Run 'loom <command> --help' for the options of one command.
Exit status: 0 success, 1 errors in the program, 2 usage errors.`;

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(MAIN_HELP);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    console.error(`loom: unknown command '${name}'\n\n${MAIN_HELP}`);
    return 2;
  }
  const config: ParseArgsConfig = { args: rest, options: { ...command.options, help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(config);
  } catch (e) {
    console.error(`loom ${name}: ${(e as Error).message}\n\n${command.help}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(command.help);
    return 0;
  }
  try {
    return await command.run(parsed.values as Record<string, string | boolean | string[] | undefined>, parsed.positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`loom ${name}: ${e.message}\n\n${command.help}`);
      return 2;
    }
    if (e instanceof LoomError) {
      console.error(`loom ${name}: error (${e.status}): ${e.message}`);
      return e.status === "invalid-argument" || e.status === "not-found" ? 2 : 1;
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
    process.exitCode = 70;
  },
);
