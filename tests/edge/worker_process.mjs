// The edge worker in a process of its own, for tests that kill it with
// SIGKILL (durable_ingress.test.mjs): starts workerd through local.mjs on
// `persistDir` and prints its URL on one line.
//   node worker_process.mjs <persistDir>
import { startEdgeWorker } from '../../edge-worker/local.mjs';

const { url } = await startEdgeWorker({ persistDir: process.argv[2] });
process.stdout.write(`${url}\n`);
