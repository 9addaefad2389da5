/**
 * Lazy access to the optional koffi FFI package: required on first use, never at module load,
 * so importing loomc/runtime/hsa costs nothing on a machine without it.
 */
import { createRequire } from "node:module";
import type koffiDefault from "koffi";
import { LoomError } from "../../core/errors.js";

export type KoffiModule = typeof koffiDefault;

let cached: KoffiModule | undefined;

export function loadKoffi(): KoffiModule {
  if (cached) return cached;
  let mod: KoffiModule;
  try {
    mod = createRequire(import.meta.url)("koffi") as KoffiModule;
  } catch (e) {
    throw new LoomError(
      "unimplemented",
      `the HSA runtime needs the npm package 'koffi' (v3), which could not be loaded (${(e as Error).message.split("\n")[0]}); ` +
        `install it with 'npm install koffi@3' (without --omit=optional: its native binary is an optional dependency)`,
    );
  }
  if (mod.sizeof("void *") !== 8) throw new LoomError("unimplemented", "the HSA runtime supports 64-bit processes only");
  cached = mod;
  return mod;
}
