/** Finding the suite manifest that describes a kernel file (examples/kernels/suite.ts). */
import { existsSync } from "node:fs";
import { basename, dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SuiteKernel } from "./cases.js";
import { CaseError } from "./errors.js";

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * The compiled suite manifest for FILE: `--manifest` if given, else `suite.js` beside FILE,
 * else `dist/<FILE's directory>/suite.js` under the package root (examples/kernels → the
 * compiled examples/kernels/suite.ts). The module exports `KERNEL_SUITE: SuiteKernel[]`.
 */
export async function findSuiteKernel(file: string, manifest?: string): Promise<SuiteKernel | undefined> {
  let path: string | undefined;
  if (manifest !== undefined) {
    path = resolve(manifest);
    if (!existsSync(path)) throw new CaseError(`--manifest '${manifest}' does not exist`);
  } else {
    const dir = dirname(resolve(file));
    const inside = relative(PACKAGE_ROOT, dir);
    const candidates = [resolve(dir, "suite.js"), ...(inside.startsWith("..") ? [] : [resolve(PACKAGE_ROOT, "dist", inside, "suite.js")])];
    path = candidates.find((p) => existsSync(p));
  }
  if (!path) return undefined;
  const mod = (await import(pathToFileURL(path).href)) as { KERNEL_SUITE?: readonly SuiteKernel[] };
  if (!Array.isArray(mod.KERNEL_SUITE)) throw new CaseError(`'${path}' does not export KERNEL_SUITE`);
  return mod.KERNEL_SUITE.find((k) => k.file === basename(file));
}
