/** Node-only helpers (`loomc/node`): the worker compile pool and the directory and Redis cache stores. */
export { CompilePool, type CompilePoolOptions } from "./pool/pool.js";
export type { CompileJob, CompileOutcome, TargetDescriptor } from "./pool/protocol.js";
export { DirectoryStore, type DirectoryStoreOptions } from "./api/cache/directory-store.js";
export { RedisStore, type RedisStoreOptions, type RedisClientLike } from "./api/cache/redis-store.js";
