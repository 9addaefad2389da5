/** Node-only helpers (`loomc/node`): the worker compile pool and a directory cache store. */
export { CompilePool, type CompilePoolOptions } from "./pool/pool.js";
export type { CompileJob, CompileOutcome, TargetDescriptor } from "./pool/protocol.js";
export { DirectoryStore, type DirectoryStoreOptions } from "./api/cache/directory-store.js";
