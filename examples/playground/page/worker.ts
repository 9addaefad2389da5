/**
 * The playground's compile worker: typing never waits for the compiler. Each request is answered
 * by compile.ts; an exception becomes an "error" message instead of a dead worker.
 */
import { compileRequest, prepareRun, timeCompiles, useAdapter } from "../compile.js";
import type { WorkerRequest, WorkerResponse } from "../protocol.js";

/** The worker global: typed here, as the page's tsconfig has the DOM library, not WebWorker's. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
};

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  let response: WorkerResponse | undefined;
  try {
    switch (request.kind) {
      case "adapter":
        useAdapter(request.facts);
        return;
      case "compile":
        response = compileRequest(request.id, request.text, request.target, request.kernel, request.workload);
        break;
      case "prepare-run":
        response = prepareRun(request.id, request.text, request.kernel, request.workload, request.sizes, request.seed);
        break;
      case "time-compiles":
        response = timeCompiles(request.id, request.kernels, request.target, request.warmupMs, request.repeats);
        break;
    }
  } catch (e) {
    response = { kind: "error", id: "id" in request ? request.id : -1, message: `${(e as Error).name}: ${(e as Error).message}` };
  }
  if (response.kind === "run-ready" && response.buffers) {
    scope.postMessage(response, [...response.buffers.map((b) => b.data), ...(response.expected ?? [])]);
  } else {
    scope.postMessage(response);
  }
};
