/**
 * Files in and out of the CLI (docs/cli.md "Files"): inputs are regular files or `-` (stdin),
 * read up to a size limit; outputs are checked against the inputs and each other, written to a
 * temporary file beside the target and renamed into place only when every output is ready, so a
 * failed write leaves neither a partial file nor a clobbered input.
 */
import { closeSync, fstatSync, openSync, readSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, chmodSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** A file that cannot be read or written (exit status 3). */
export class IoError extends Error {}

/** Default input limit: 64 MiB; `--max-input-bytes N` raises it. */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

let maxInputBytes = DEFAULT_MAX_INPUT_BYTES;
const inputs = new Set<string>();

export function setMaxInputBytes(n: number): void {
  maxInputBytes = n;
}

function why(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    case "ENOSPC":
      return "no space left on the device";
    case "EROFS":
      return "read-only file system";
    case "ENOTDIR":
      return "a component of the path is not a directory";
    default:
      return err.code ?? err.message;
  }
}

/** Where a path leads, for comparing inputs and outputs (the real path when it exists). */
function identity(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(path))), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/** Reads a regular file (or stdin for `-`) of at most the input limit. */
export function readInput(path: string): Uint8Array {
  if (path === "-") return readStdin();
  let fd: number;
  try {
    // Refuse what is not a regular file before opening it: opening a FIFO blocks.
    const st = statSync(path);
    if (st.isDirectory()) throw new IoError(`cannot read '${path}': is a directory`);
    if (!st.isFile()) throw new IoError(`cannot read '${path}': not a regular file (pass its contents on stdin with '-' instead)`);
    if (st.size > maxInputBytes) throw new IoError(`cannot read '${path}': ${st.size} bytes is more than the input limit of ${maxInputBytes} (raise it with --max-input-bytes)`);
    fd = openSync(path, "r");
  } catch (e) {
    if (e instanceof IoError) throw e;
    throw new IoError(`cannot read '${path}': ${why(e)}`);
  }
  try {
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(Math.min(size, maxInputBytes) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, bytes, n, bytes.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > maxInputBytes) throw new IoError(`cannot read '${path}': more than the input limit of ${maxInputBytes} bytes (raise it with --max-input-bytes)`);
      if (n === bytes.length) break;
    }
    inputs.add(identity(path));
    return bytes.subarray(0, n);
  } catch (e) {
    if (e instanceof IoError) throw e;
    throw new IoError(`cannot read '${path}': ${why(e)}`);
  } finally {
    closeSync(fd);
  }
}

let stdinTaken = false;
function readStdin(): Uint8Array {
  if (stdinTaken) throw new IoError("'-' (stdin) can be read only once");
  stdinTaken = true;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const chunk = new Uint8Array(1 << 16);
  for (;;) {
    let got: number;
    try {
      got = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") continue;
      if (code === "EOF") break;
      throw new IoError(`cannot read stdin: ${why(e)}`);
    }
    if (got === 0) break;
    total += got;
    if (total > maxInputBytes) throw new IoError(`cannot read stdin: more than the input limit of ${maxInputBytes} bytes (raise it with --max-input-bytes)`);
    chunks.push(chunk.slice(0, got));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

interface Planned {
  readonly path: string;
  readonly contents: Uint8Array;
  readonly flag: string;
}

/**
 * The outputs of one command. `add` checks each against the inputs read so far and the outputs
 * added before; `commit` writes them all or none.
 */
export class OutputPlan {
  private readonly planned: Planned[] = [];

  /** `flag` names the option in messages (e.g. "-o", "--launch-config"). `-` is stdout. */
  add(flag: string, path: string, contents: Uint8Array | string): void {
    if (path === "") throw new IoError(`${flag}: an empty path`);
    const bytes = typeof contents === "string" ? new TextEncoder().encode(contents) : contents;
    if (path !== "-") {
      const id = identity(path);
      if (inputs.has(id)) throw new IoError(`${flag} '${path}' is an input of this command; refusing to overwrite it`);
      const clash = this.planned.find((p) => p.path !== "-" && identity(p.path) === id);
      if (clash) throw new IoError(`${flag} '${path}' is also the ${clash.flag} output; give each output its own path`);
      let st: ReturnType<typeof statSync> | undefined;
      try {
        st = statSync(path);
      } catch {
        st = undefined;
      }
      if (st?.isDirectory()) throw new IoError(`cannot write '${path}': is a directory`);
    } else if (this.planned.some((p) => p.path === "-")) {
      throw new IoError(`${flag} '-': only one output can go to stdout`);
    }
    this.planned.push({ path, contents: bytes, flag });
  }

  /** A rewrite of an input on purpose (`fmt --write`): same atomic write, no input check. */
  addInPlace(path: string, contents: string): void {
    this.planned.push({ path, contents: new TextEncoder().encode(contents), flag: "--write" });
  }

  /** Writes every output via a temporary file and rename; on any failure none is left behind. */
  commit(): void {
    const staged: { temp: string; path: string }[] = [];
    const direct: Planned[] = [];
    try {
      for (const p of this.planned) {
        if (p.path === "-") {
          direct.push(p);
          continue;
        }
        let st: ReturnType<typeof statSync> | undefined;
        try {
          st = statSync(p.path);
        } catch {
          st = undefined;
        }
        // Devices and FIFOs (/dev/null, /dev/stdout) are written in place: there is nothing to replace.
        if (st && !st.isFile()) {
          direct.push(p);
          continue;
        }
        const temp = join(dirname(resolve(p.path)), `.${basename(p.path)}.loom-${process.pid}-${staged.length}.tmp`);
        try {
          writeFileSync(temp, p.contents, { flag: "wx" });
          if (st) chmodSync(temp, st.mode & 0o7777);
        } catch (e) {
          try {
            unlinkSync(temp);
          } catch {
            // never created
          }
          throw new IoError(`cannot write '${p.path}': ${why(e)}`);
        }
        staged.push({ temp, path: p.path });
      }
      for (const p of direct) {
        if (p.path === "-") continue;
        try {
          writeFileSync(p.path, p.contents);
        } catch (e) {
          throw new IoError(`cannot write '${p.path}': ${why(e)}`);
        }
      }
      for (const s of staged) {
        try {
          renameSync(s.temp, s.path);
        } catch (e) {
          throw new IoError(`cannot write '${s.path}': ${why(e)}`);
        }
      }
      staged.length = 0;
      for (const p of direct) if (p.path === "-") process.stdout.write(p.contents);
    } finally {
      for (const s of staged) {
        try {
          unlinkSync(s.temp);
        } catch {
          // renamed already or never written
        }
      }
    }
  }
}
