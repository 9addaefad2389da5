/** Paths for tests: compiled tests live in dist/test/, fixtures stay in the source tree. */
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";

/** The repository root (works from both test/ and dist/test/). */
export const repoRoot: string = (() => {
  const here = fileURLToPath(new URL(".", import.meta.url));
  return here.includes("/dist/") ? resolve(here, "../../..") : resolve(here, "../..");
})();

export function fromRoot(...parts: string[]): string {
  return join(repoRoot, ...parts);
}
