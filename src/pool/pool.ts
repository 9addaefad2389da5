/**
 * `CompilePool` (api.md §8): compiles on `worker_threads`. Each worker builds its own
 * Context, Compiler, profiles and pass program once, from the same plain descriptors, and
 * returns artifacts as transferred `Uint8Array`s. Jobs queue in order and go to the first
 * idle worker. Node only (`loomc/node`).
 */
import { Worker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { LoomError, type LoomStatus } from "../core/errors.js";
import type { CompileJob, CompileOutcome, FromWorker, TargetDescriptor, WorkerSetup } from "./protocol.js";

export interface CompilePoolOptions {
  /** Worker count; default: available parallelism. */
  readonly workers?: number;
  /** Named targets every worker prepares, e.g. `{ fast: { environment: "<target package name>", options: {...} } }`. */
  readonly targets: Readonly<Record<string, TargetDescriptor>>;
  readonly maxErrors?: number;
}

interface Pending {
  readonly id: number;
  readonly job: CompileJob;
  resolve(o: CompileOutcome): void;
  reject(e: Error): void;
}

interface Slot {
  readonly worker: Worker;
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
    const setup: WorkerSetup = { targets: options.targets, ...(options.maxErrors ? { maxErrors: options.maxErrors } : {}) };
    for (let i = 0; i < n; i++) this.#slots.push(this.#spawn(setup));
  }

  #spawn(setup: WorkerSetup): Slot {
    const worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: setup });
    let onReady!: () => void, onFail!: (e: Error) => void;
    const slot: Slot = { worker, ready: new Promise<void>((res, rej) => ((onReady = res), (onFail = rej))), inflight: [] };
    slot.ready.catch(() => {}); // observed through compile()
    worker.on("message", (msg: FromWorker) => {
      if ("ready" in msg) return onReady();
      if ("fatal" in msg) return onFail(new LoomError("invalid-argument", `CompilePool: worker setup failed: ${msg.fatal}`));
      const job = slot.inflight[0]?.id === msg.id ? slot.inflight.shift() : undefined;
      if (slot.inflight.length === 0) worker.unref(); // an idle pool never keeps the process alive
      if (job) {
        if ("outcome" in msg) job.resolve(msg.outcome);
        else job.reject(new LoomError(msg.error.status as LoomStatus, msg.error.message));
      }
      this.#pump();
    });
    worker.on("error", (e) => {
      onFail(e);
      worker.unref();
      for (const job of slot.inflight.splice(0)) job.reject(new LoomError("internal", `CompilePool: worker crashed: ${e.message}`));
    });
    worker.unref();
    return slot;
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
          () => slot.worker.postMessage({ id: next.id, job: next.job }),
          (e: Error) => {
            slot.inflight.splice(slot.inflight.indexOf(next), 1);
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
