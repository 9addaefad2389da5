/**
 * The binding layer: loads libhsa-runtime64 lazily through koffi and declares the HSA entry
 * points the runtime calls. Handles (hsa_agent_t, hsa_signal_t, ... — structs of one uint64)
 * and native pointers cross as BigInt (koffi 3); out-parameters are small typed arrays.
 */
import { LoomError } from "../../core/errors.js";
import { loadKoffi, type KoffiModule } from "./koffi.js";
import { HsaError } from "./status.js";

/** Entry points, each returning hsa_status_t unless the declaration says otherwise. */
const COMMANDS: Record<string, string> = {
  hsa_init: "int32_t hsa_init()",
  hsa_shut_down: "int32_t hsa_shut_down()",
  hsa_status_string: "int32_t hsa_status_string(int32_t status, _Out_ const char **text)",
  hsa_iterate_agents: "int32_t hsa_iterate_agents(HsaAgentCallback *callback, void *data)",
  hsa_agent_get_info: "int32_t hsa_agent_get_info(uint64_t agent, int32_t attribute, void *value)",
  hsa_agent_iterate_isas: "int32_t hsa_agent_iterate_isas(uint64_t agent, HsaIsaCallback *callback, void *data)",
  hsa_isa_get_info_alt: "int32_t hsa_isa_get_info_alt(uint64_t isa, int32_t attribute, void *value)",
  hsa_amd_agent_iterate_memory_pools: "int32_t hsa_amd_agent_iterate_memory_pools(uint64_t agent, HsaPoolCallback *callback, void *data)",
  hsa_amd_memory_pool_get_info: "int32_t hsa_amd_memory_pool_get_info(uint64_t pool, int32_t attribute, void *value)",
  hsa_amd_memory_pool_allocate: "int32_t hsa_amd_memory_pool_allocate(uint64_t pool, size_t size, uint32_t flags, void *ptr)",
  hsa_amd_memory_pool_free: "int32_t hsa_amd_memory_pool_free(uint64_t ptr)",
  hsa_amd_agents_allow_access: "int32_t hsa_amd_agents_allow_access(uint32_t count, void *agents, void *flags, uint64_t ptr)",
  hsa_memory_copy: "int32_t hsa_memory_copy(uint64_t dst, uint64_t src, size_t size)",
  hsa_queue_create:
    "int32_t hsa_queue_create(uint64_t agent, uint32_t size, uint32_t type, void *callback, void *data, uint32_t privateSegmentSize, uint32_t groupSegmentSize, void *queue)",
  hsa_queue_destroy: "int32_t hsa_queue_destroy(uint64_t queue)",
  hsa_queue_add_write_index_screlease: "uint64_t hsa_queue_add_write_index_screlease(uint64_t queue, uint64_t value)",
  hsa_queue_load_read_index_scacquire: "uint64_t hsa_queue_load_read_index_scacquire(uint64_t queue)",
  hsa_signal_create: "int32_t hsa_signal_create(int64_t initial, uint32_t consumers, void *consumerAgents, void *signal)",
  hsa_signal_destroy: "int32_t hsa_signal_destroy(uint64_t signal)",
  hsa_signal_store_screlease: "void hsa_signal_store_screlease(uint64_t signal, int64_t value)",
  hsa_signal_wait_scacquire: "int64_t hsa_signal_wait_scacquire(uint64_t signal, uint32_t condition, int64_t compare, uint64_t timeoutHint, uint32_t waitState)",
  hsa_code_object_reader_create_from_memory: "int32_t hsa_code_object_reader_create_from_memory(void *code, size_t size, void *reader)",
  hsa_code_object_reader_destroy: "int32_t hsa_code_object_reader_destroy(uint64_t reader)",
  hsa_executable_create_alt: "int32_t hsa_executable_create_alt(uint32_t profile, uint32_t rounding, const char *options, void *executable)",
  hsa_executable_load_agent_code_object: "int32_t hsa_executable_load_agent_code_object(uint64_t executable, uint64_t agent, uint64_t reader, const char *options, void *loaded)",
  hsa_executable_freeze: "int32_t hsa_executable_freeze(uint64_t executable, const char *options)",
  hsa_executable_destroy: "int32_t hsa_executable_destroy(uint64_t executable)",
  hsa_executable_get_symbol_by_name: "int32_t hsa_executable_get_symbol_by_name(uint64_t executable, const char *name, void *agent, void *symbol)",
  hsa_executable_symbol_get_info: "int32_t hsa_executable_symbol_get_info(uint64_t symbol, int32_t attribute, void *value)",
};

export type NativeArg = bigint | number | string | null | ArrayBufferView | ((...args: never[]) => unknown);
export type Hsa = { readonly [name: string]: (...args: NativeArg[]) => number | bigint };

export interface HsaLibrary {
  readonly koffi: KoffiModule;
  readonly hsa: Hsa;
  readonly file: string;
}

/** Overrides the runtime library's path. */
export const LIBRARY_ENV_VAR = "LOOM_HSA_LIBRARY";

/**
 * The HSA runtime library to load: `$LOOM_HSA_LIBRARY` when set, else `libhsa-runtime64.so.1`
 * (found by the dynamic loader).
 */
export function hsaLibraryName(env: NodeJS.ProcessEnv = process.env): string {
  return env[LIBRARY_ENV_VAR] || "libhsa-runtime64.so.1";
}

const loaded = new Map<string, HsaLibrary>();
let protosDeclared = false;

/** The status text the runtime gives for a code (hsa_status_string), or "". */
export function statusText(lib: HsaLibrary, code: number): string {
  const out: (string | null)[] = [null];
  try {
    return lib.hsa.hsa_status_string!(code, out as unknown as NativeArg) === 0 && out[0] ? out[0] : "";
  } catch {
    return "";
  }
}

/** Throws HsaError when an HSA call did not succeed. */
export function check(lib: HsaLibrary, code: number | bigint, call: string): void {
  if (code === 0) return;
  const c = Number(code);
  throw new HsaError(c, call, statusText(lib, c));
}

/**
 * Loads koffi and the HSA runtime (once per file) and runs hsa_init. Throws LoomError:
 * "unimplemented" without koffi; "failed-precondition" naming the library when it cannot be
 * opened or lacks an entry point; "failed-precondition" when hsa_init fails (no AMD GPU or
 * no amdgpu kernel driver: /dev/kfd), with the runtime's status.
 */
export function loadHsa(): HsaLibrary {
  const file = hsaLibraryName();
  const hit = loaded.get(file);
  if (hit) return hit;
  const koffi = loadKoffi();
  let lib: ReturnType<KoffiModule["load"]>;
  try {
    lib = koffi.load(file);
  } catch (e) {
    throw new LoomError(
      "failed-precondition",
      `cannot load the HSA runtime ${file} (${(e as Error).message.split("\n")[0]}): the HSA runtime needs ROCm (or Debian's libhsa-runtime64-1) and an AMD GPU; set ${LIBRARY_ENV_VAR} to use another path`,
    );
  }
  if (!protosDeclared) {
    koffi.proto("int32_t HsaAgentCallback(uint64_t agent, void *data)");
    koffi.proto("int32_t HsaIsaCallback(uint64_t isa, void *data)");
    koffi.proto("int32_t HsaPoolCallback(uint64_t pool, void *data)");
    protosDeclared = true;
  }
  const hsa: Record<string, (...args: NativeArg[]) => number | bigint> = {};
  for (const [name, declaration] of Object.entries(COMMANDS)) {
    try {
      hsa[name] = lib.func(declaration) as (...args: NativeArg[]) => number | bigint;
    } catch (e) {
      throw new LoomError("failed-precondition", `the HSA runtime ${file} does not export ${name} (${(e as Error).message.split("\n")[0]}); ROCm 5.0 or newer is required`);
    }
  }
  const result: HsaLibrary = { koffi, hsa, file };
  const init = Number(hsa.hsa_init!());
  if (init !== 0) {
    const text = statusText(result, init);
    throw new HsaError(
      init,
      "hsa_init",
      `${text ? `${text}; ` : ""}${file} loaded, but the HSA runtime could not start: no AMD GPU or no amdgpu kernel driver (/dev/kfd) on this machine; loomc/runtime/hsa runs where ROCm and an AMD GPU are installed`,
      "failed-precondition",
    );
  }
  loaded.set(file, result);
  return result;
}
