/**
 * `CompilePool` (api.md §8): compiles on `worker_threads`. Each worker builds its own
 * Context, Compiler, profiles and pass program once, from the same plain descriptors, and
 * returns artifacts as transferred `Uint8Array`s. Jobs queue in order and go to the first
 * idle worker. Node only (`loomc/node`).
 */
import { Worker, type ResourceLimits } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { LoomError, type LoomStatus } from "../core/errors.js";
import type { CompileJob, CompileOutcome, FromWorker, TargetDescriptor, WorkerSetup } from "./protocol.js";

export interface CompilePoolOptions {
  /** Worker count; default: available parallelism. */
  readonly workers?: number;
  /** Named targets every worker prepares, e.g. `{ fast: { environment: "<target package name>", options: {...} } }`. */
  readonly targets: Readonly<Record<string, TargetDescriptor>>;
  readonly maxErrors?: number;
  /**
   * Heap and stack limits of each worker (`worker_threads` `resourceLimits`; default: a
   * 4 GiB old generation). A job that exhausts them kills only its worker: the job rejects
   * with `LoomError("resource-exhausted")`, jobs queued behind it are re-queued, and the
   * worker is replaced.
   */
  readonly resourceLimits?: ResourceLimits;
}

const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 4096 };
const RESOURCE_LIMIT_KEYS = ["maxOldGenerationSizeMb", "maxYoungGenerationSizeMb", "codeRangeSizeMb", "stackSizeMb"] as const;

interface Pending {
  readonly id: number;
  readonly job: CompileJob;
  resolve(o: CompileOutcome): void;
  reject(e: Error): void;
}

interface Slot {
  readonly worker: Worker;
  /** Set once the worker died: its jobs were settled or re-queued, it gets no more. */
  dead: boolean;
  ready: Promise<void>;
  /** Jobs posted to this worker, oldest first (it answers in order). */
  readonly inflight: Pending[];
}

/** Jobs posted ahead per worker, so a worker never idles waiting for the main thread. */
const PIPELINE_DEPTH = 2;

export class CompilePool {
  readonly size: number;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: CompilePoolOptions) {
    if (!options || typeof options !== "object" || !options.targets || typeof options.targets !== "object") {
      throw new LoomError("invalid-argument", "CompilePool: 'targets' must map names to { environment, options }");
    }
    const n = options.workers ?? availableParallelism();
    if (!Number.isInteger(n) || n < 1 || n > 256) throw new LoomError("invalid-argument", "CompilePool: 'workers' must be an integer in [1, 256]");
    this.size = n;
    const limits = options.resourceLimits ?? DEFAULT_RESOURCE_LIMITS;
    if (typeof limits !== "object" || limits === null) throw new LoomError("invalid-argument", "CompilePool: 'resourceLimits' must be an object");
    for (const [key, value] of Object.entries(limits)) {
      if (!(RESOURCE_LIMIT_KEYS as readonly string[]).includes(key)) throw new LoomError("invalid-argument", `CompilePool: unknown resource limit '${key}' (expected one of: ${RESOURCE_LIMIT_KEYS.join(", ")})`);
      if (typeof value !== "number" || !(value > 0)) throw new LoomError("invalid-argument", `CompilePool: resource limit '${key}' must be a positive number of MiB`);
    }
    this.#setup = { targets: options.targets, ...(options.maxErrors ? { maxErrors: options.maxErrors } : {}) };
    this.#limits = limits;
    for (let i = 0; i < n; i++) this.#slots.push(this.#spawn());
  }

  readonly #setup: WorkerSetup;
  readonly #limits: ResourceLimits;

  #spawn(): Slot {
    const worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: this.#setup, resourceLimits: this.#limits });
    let onReady!: () => void, onFail!: (e: Error) => void;
    const slot: Slot = { worker, dead: false, ready: new Promise<void>((res, rej) => ((onReady = res), (onFail = rej))), inflight: [] };
    slot.ready.catch(() => {}); // observed through compile()
    worker.on("message", (msg: FromWorker) => {
      if ("ready" in msg) return onReady();
      if ("fatal" in msg) {
        slot.dead = true; // a setup that fails once fails again: no replacement
        return onFail(new LoomError("invalid-argument", `CompilePool: worker setup failed: ${msg.fatal}`));
      }
      const job = slot.inflight[0]?.id === msg.id ? slot.inflight.shift() : undefined;
      if (slot.inflight.length === 0) worker.unref(); // an idle pool never keeps the process alive
      if (job) {
        if ("outcome" in msg) job.resolve(msg.outcome);
        else job.reject(new LoomError(msg.error.status as LoomStatus, msg.error.message));
      }
      this.#pump();
    });
    worker.on("error", (e) => this.#died(slot, e, onFail));
    worker.on("exit", (code) => {
      if (!this.#closed) this.#died(slot, new Error(`the worker exited with code ${code}`), onFail);
    });
    worker.unref();
    return slot;
  }

  /**
   * A worker died (out of memory, a crash): the job it was running rejects, the jobs posted
   * behind it go back to the front of the queue, and a fresh worker takes the slot.
   */
  #died(slot: Slot, e: Error, onFail: (e: Error) => void): void {
    if (slot.dead) return;
    slot.dead = true;
    onFail(e);
    slot.worker.unref();
    const [running, ...waiting] = slot.inflight.splice(0);
    const exhausted = (e as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
    running?.reject(
      exhausted
        ? new LoomError("resource-exhausted", `CompilePool: the job exhausted the worker's resource limits (${e.message}); the worker was replaced`)
        : new LoomError("internal", `CompilePool: worker crashed: ${e.message}; the worker was replaced`),
    );
    this.#queue.unshift(...waiting);
    if (this.#closed) return;
    const i = this.#slots.indexOf(slot);
    if (i >= 0) this.#slots[i] = this.#spawn();
    this.#pump();
  }

  /** Compiles (and emits) one job on the first idle worker. */
  compile(job: CompileJob): Promise<CompileOutcome> {
    if (this.#closed) return Promise.reject(new LoomError("failed-precondition", "CompilePool: the pool is closed"));
    if (!job || typeof job !== "object" || !job.source || typeof job.source.name !== "string") {
      return Promise.reject(new LoomError("invalid-argument", "CompilePool.compile: 'source' must be { name, text } or { name, bytes }"));
    }
    return new Promise<CompileOutcome>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, job, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    // Fill the least-loaded workers first, up to PIPELINE_DEPTH jobs each.
    for (let depth = 0; depth < PIPELINE_DEPTH; depth++) {
      for (const slot of this.#slots) {
        if (slot.inflight.length > depth || this.#queue.length === 0) continue;
        const next = this.#queue.shift()!;
        slot.inflight.push(next);
        slot.worker.ref(); // a pending job keeps the process alive until it settles
        slot.ready.then(
          () => {
            try {
              slot.worker.postMessage({ id: next.id, job: next.job });
            } catch (e) {
              // A job that cannot be cloned (a function in 'config', say) never reaches the worker.
              const at = slot.inflight.indexOf(next);
              if (at >= 0) slot.inflight.splice(at, 1);
              if (slot.inflight.length === 0) slot.worker.unref();
              next.reject(new LoomError("invalid-argument", `CompilePool.compile: the job cannot be sent to a worker: ${(e as Error)?.message ?? e}`));
              this.#pump();
            }
          },
          (e: Error) => {
            const at = slot.inflight.indexOf(next);
            if (at < 0) return; // the slot died and re-queued it
            slot.inflight.splice(at, 1);
            next.reject(e instanceof LoomError ? e : new LoomError("internal", String(e)));
          },
        );
      }
    }
  }

  /** Waits for nothing: rejects queued jobs and terminates the workers. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const p of this.#queue.splice(0)) p.reject(new LoomError("cancelled", "CompilePool: closed before the job ran"));
    await Promise.all(this.#slots.map((s) => s.worker.terminate()));
  }
}
