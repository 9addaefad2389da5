/** Compile-pool worker entry: builds prepared state once, then runs jobs in arrival order. */
import { parentPort, workerData } from "node:worker_threads";
import { LoomError } from "../core/errors.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./protocol.js";
import { PreparedWorkerState } from "./run-job.js";

const port = parentPort!;
let state: PreparedWorkerState;
try {
  state = new PreparedWorkerState(workerData as WorkerSetup);
  port.postMessage({ ready: true } satisfies FromWorker);
} catch (e) {
  port.postMessage({ fatal: e instanceof Error ? e.message : String(e) } satisfies FromWorker);
  process.exit(0);
}

port.on("message", (msg: ToWorker) => {
  try {
    const outcome = state.run(msg.job);
    // Artifact bytes move to the caller without a copy.
    const transfer = [...new Set(outcome.artifacts.map((a) => a.contents.buffer as ArrayBuffer))];
    port.postMessage({ id: msg.id, outcome } satisfies FromWorker, transfer);
  } catch (e) {
    const status = e instanceof LoomError ? e.status : "internal";
    port.postMessage({ id: msg.id, error: { status, message: e instanceof Error ? e.message : String(e) } } satisfies FromWorker);
  }
});
