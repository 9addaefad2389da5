/**
 * Small checks every target package's profile options share (api.md §2: profiles reject
 * malformed options with `invalid-argument`), so each package states only its own schema.
 */
import { LoomError } from "./errors.js";

export function invalidArgument(message: string): LoomError {
  return new LoomError("invalid-argument", message);
}

/** A plain object (not null, not an array): what option bags must be. */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** How a wrong option value is named in a message: strings quoted, everything else by kind. */
export function describeValue(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** Throws `invalid-argument` unless `obj` is an object (named `where`) whose keys are all in `allowed` (`what`: e.g. "a profile option"). */
export function rejectUnknownKeys(obj: unknown, allowed: readonly string[], where: string, what: string): asserts obj is Record<string, unknown> {
  if (!isRecord(obj)) throw invalidArgument(`${where} must be an object, got ${describeValue(obj)}`);
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw invalidArgument(`${where}.${key} is not ${what} (known: ${allowed.join(", ")})`);
  }
}

/**
 * What a package's `profileFromDevice` reads first: the facts `runtime.profileFacts()` reports,
 * after `invalid-argument` for a runtime without it (`runtimeName` says which runtime is
 * meant) or options that are not an object.
 */
export function deviceFacts<F>(runtime: { profileFacts(): F }, options: unknown, runtimeName: string): F {
  if (runtime === null || typeof runtime !== "object" || typeof runtime.profileFacts !== "function") {
    throw invalidArgument(`profileFromDevice: runtime must be a ${runtimeName} (profileFacts())`);
  }
  if (options === null || typeof options !== "object") throw invalidArgument("profileFromDevice: options must be an object");
  return runtime.profileFacts();
}

/** Freezes `value` and everything reachable from it; profiles and environments are immutable. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const o = stack.pop();
    if (typeof o !== "object" || o === null || Object.isFrozen(o)) continue;
    Object.freeze(o);
    for (const v of Object.values(o)) stack.push(v);
  }
  return value;
}

/**
 * The checks every target package's `create<Target>Profile` starts with: `env` is one the
 * package's `factory` made (it is in `environments`), `options` is an object of `optionKeys`
 * with a non-empty `identifier`, and `options.identity` (`identity` when absent, if given) an
 * object of `identityKeys`. `what` names an option in messages ("a <target> profile option").
 */
export function profileOptions<E extends object>(
  env: unknown,
  environments: WeakSet<E>,
  factory: string,
  options: unknown,
  optionKeys: readonly string[],
  identityKeys: readonly string[],
  what: string,
  identity?: Record<string, unknown>,
): { options: Record<string, unknown>; identifier: string; identity: Record<string, unknown> } {
  if (!isRecord(env) || !environments.has(env as E)) throw invalidArgument(`env must be an environment made by ${factory}()`);
  rejectUnknownKeys(options, optionKeys, "options", what);
  const identifier = options.identifier;
  if (typeof identifier !== "string" || identifier.length === 0) throw invalidArgument(`options.identifier must be a non-empty string, got ${describeValue(identifier)}`);
  const given = options.identity ?? identity;
  rejectUnknownKeys(given, identityKeys, "options.identity", what);
  return { options, identifier, identity: given };
}

/** `v` as a positive (or, with `allowZero`, non-negative) safe integer; `where` names it in the message. */
export function positiveInteger(v: unknown, where: string, allowZero = false): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < (allowZero ? 0 : 1)) {
    throw invalidArgument(`${where} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${describeValue(v)}`);
  }
  return v;
}

/** `v` as three positive integers (a workgroup size or count limit). */
export function positiveTriple(v: unknown, where: string): [number, number, number] {
  if (!Array.isArray(v) || v.length !== 3) throw invalidArgument(`${where} must be an array of three positive integers, got ${describeValue(v)}`);
  return v.map((x, i) => positiveInteger(x, `${where}[${i}]`)) as [number, number, number];
}

/**
 * A profile's `options.identity.limits`: each key of `defaults` read by its reader when given
 * (named `options.identity.limits.<key>` in messages), else its default; no limits at all is
 * `defaults` itself. `what` names the option in the unknown-key message.
 */
export function readLimits<L extends object>(raw: unknown, defaults: L, readers: { readonly [K in keyof L]: (v: unknown, where: string) => L[K] }, what: string): L {
  if (raw === undefined) return defaults;
  const keys = Object.keys(defaults) as (keyof L & string)[];
  rejectUnknownKeys(raw, keys, "options.identity.limits", what);
  const out = {} as L;
  for (const key of keys) out[key] = raw[key] === undefined ? defaults[key] : readers[key](raw[key], `options.identity.limits.${key}`);
  return out;
}

/** Copies each of `keys` that `raw` gives into `into`, each a boolean (`where.key` in the message). */
export function readFlags<K extends string>(raw: Record<string, unknown>, keys: readonly K[], where: string, into: Record<K, boolean>): void {
  for (const key of keys) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== "boolean") throw invalidArgument(`${where}.${key} must be a boolean, got ${describeValue(v)}`);
    into[key] = v;
  }
}
