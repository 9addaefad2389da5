/**
 * Physical-device selection, as a pure function over plain device summaries so it can be
 * tested without a device. A selector is a device index ("1") or a case-insensitive substring
 * of the device name ("llvmpipe"); without one the most capable kind wins (discrete, then
 * integrated, virtual, CPU, other), ties broken by enumeration order.
 */
import { LoomError } from "../../core/errors.js";
import type { PhysicalDeviceType } from "./constants.js";

/** A Vulkan physical device that could be selected, and why it is unusable if it is. */
export interface DeviceCandidate {
  readonly index: number;
  readonly name: string;
  readonly type: PhysicalDeviceType;
  /** Why the runtime cannot use this device (no compute queue, version too old), if so. */
  readonly unusable?: string;
}

const PREFERENCE: readonly PhysicalDeviceType[] = ["discrete-gpu", "integrated-gpu", "virtual-gpu", "cpu", "other"];

/** The environment variable that picks a device when the caller does not. */
export const DEVICE_ENV_VAR = "LOOM_VULKAN_DEVICE";

/**
 * Returns the index of the chosen candidate. `source` names where the selector came from, for
 * messages (e.g. "LOOM_VULKAN_DEVICE", "options.device"). Throws LoomError: "not-found" when
 * nothing matches, "failed-precondition" when the match (or every device) is unusable.
 */
export function selectDevice(candidates: readonly DeviceCandidate[], selector: string | number | undefined, source: string): number {
  const list = () => candidates.map((c) => `${c.index}: ${c.name} (${c.type}${c.unusable ? `, unusable: ${c.unusable}` : ""})`).join("; ") || "none";
  if (candidates.length === 0) {
    throw new LoomError("not-found", "no Vulkan physical device found (is a Vulkan driver installed? e.g. 'apt-get install mesa-vulkan-drivers')");
  }
  const usable = (c: DeviceCandidate): number => {
    if (c.unusable) throw new LoomError("failed-precondition", `Vulkan device ${c.index} (${c.name}) chosen by ${source} cannot be used: ${c.unusable}`);
    return c.index;
  };
  const text = typeof selector === "number" ? String(selector) : (selector ?? "").trim();
  if (text === "") {
    const ok = candidates.filter((c) => !c.unusable);
    if (ok.length === 0) throw new LoomError("failed-precondition", `no usable Vulkan device; found ${list()}`);
    const rank = (c: DeviceCandidate) => PREFERENCE.indexOf(c.type);
    return ok.reduce((best, c) => (rank(c) < rank(best) ? c : best)).index;
  }
  if (/^\d+$/.test(text)) {
    const c = candidates.find((d) => d.index === Number(text));
    if (!c) throw new LoomError("not-found", `${source} = ${text}: no Vulkan device with that index; devices: ${list()}`);
    return usable(c);
  }
  if (typeof selector === "number") {
    throw new LoomError("invalid-argument", `${source} must be a non-negative integer index or a name, got ${selector}`);
  }
  const needle = text.toLowerCase();
  const matches = candidates.filter((c) => c.name.toLowerCase().includes(needle));
  if (matches.length === 0) throw new LoomError("not-found", `${source} = '${text}' matches no Vulkan device name; devices: ${list()}`);
  return usable(matches.find((c) => !c.unusable) ?? matches[0]!);
}
