/**
 * Lazy access to the koffi FFI package. koffi is optional for loom as a whole (only runtime
 * handoffs use it), so it is required on first use, never imported at module load; a missing
 * package becomes LoomError("unimplemented") that says how to install it.
 */
import { createRequire } from "node:module";
import type koffiDefault from "koffi";
import type { TypeObject } from "koffi";
import { LoomError } from "../../core/errors.js";

export type KoffiModule = typeof koffiDefault;
export type KoffiType = TypeObject;

let cached: KoffiModule | undefined;

export function loadKoffi(): KoffiModule {
  if (cached) return cached;
  let mod: KoffiModule;
  try {
    mod = createRequire(import.meta.url)("koffi") as KoffiModule;
  } catch (e) {
    throw new LoomError(
      "unimplemented",
      `the Vulkan runtime needs the npm package 'koffi' (v3), which could not be loaded ` +
        `(${(e as Error).message.split("\n")[0]}); install it with 'npm install koffi@3' ` +
        `(without --omit=optional: its native binary is an optional dependency)`,
    );
  }
  if (mod.sizeof("void *") !== 8) {
    throw new LoomError("unimplemented", "the Vulkan runtime supports 64-bit processes only (non-dispatchable handles are pointers)");
  }
  cached = mod;
  return mod;
}
