// The worker of kv_contention.mjs: POST { puts, gets, keys, bytes, retried }
// makes that many KV calls at once on the KV binding (through the package's
// retry wrapper when `retried`) and answers what failed, by message.
import { IncidentLog } from '../../wasm-bindings/js/incidents.js';
import { withRetries } from '../../wasm-bindings/js/retrying.js';

export default {
  async fetch(request, env) {
    const { calls, keys, bytes, retried } = await request.json();
    const incidents = new IncidentLog();
    const kv = retried ? withRetries(env.KV, ['get', 'put'], { label: 'KV', incidents }) : env.KV;
    const value = new Uint8Array(bytes).fill(7);
    const failed = {};
    await Promise.all(Array.from({ length: calls }, async (_, i) => {
      try {
        if (i % 2) await kv.put(`k${i % keys}`, value.slice().buffer);
        else await kv.get(`k${i % keys}`, { type: 'arrayBuffer' });
      } catch (error) {
        const message = String(error?.message ?? error);
        failed[message] = (failed[message] ?? 0) + 1;
      }
    }));
    const { recent, ...retries } = incidents.snapshot();
    return Response.json({ failed, retries });
  },
};
