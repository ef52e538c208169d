// The worker kv.test.mjs runs in Miniflare (real workerd, a real KV
// namespace): it exposes KVStorage and KVSink over fetch so the Node test can
// drive them. POST / with {op, ...}; the answer is JSON {result} or, on a
// throw, {error: {name, code, message}} with status 500.
import { KVSink } from '../../wasm-bindings/js/sinks/kv_sink.js';
import { KVStorage } from '../../wasm-bindings/js/storages/kv_storage.js';
import { checkStorageContract } from './storage_contract.mjs';

const ops = {
  // The storage contract, inside workerd.
  async contract(env, { prefix }) {
    const storage = new KVStorage(env.KV, { prefix });
    return checkStorageContract(storage, `KVStorage(prefix '${prefix}')`);
  },
  async put(env, { prefix, name, bytes }) {
    await new KVStorage(env.KV, { prefix }).put(name, new Uint8Array(bytes));
    return null;
  },
  async get(env, { prefix, name }) {
    const bytes = await new KVStorage(env.KV, { prefix }).get(name);
    return bytes === undefined ? null : [...bytes];
  },
  async list(env, { prefix, listPrefix }) {
    return new KVStorage(env.KV, { prefix }).list(listPrefix);
  },
  async delete(env, { prefix, name }) {
    await new KVStorage(env.KV, { prefix }).delete(name);
    return null;
  },
  // Many small blobs at once (the list pagination test).
  async fill(env, { prefix, names }) {
    const storage = new KVStorage(env.KV, { prefix });
    await Promise.all(names.map((name) => storage.put(name, new Uint8Array([name.length]))));
    return names.length;
  },
  // A blob over KV's 25 MiB limit is refused before KV sees it.
  async tooBig(env, { prefix }) {
    await new KVStorage(env.KV, { prefix }).put('huge', new Uint8Array(25 * 1024 * 1024 + 1));
    return null;
  },
  async sinkWrite(env, { prefix, chunk, failAfterPuts }) {
    await new KVSink(failAfterPuts === undefined ? env.KV : failing(env.KV, failAfterPuts), { prefix }).write(chunk);
    return null;
  },
  async sinkReset(env, { prefix }) {
    await new KVSink(env.KV, { prefix }).reset();
    return null;
  },
  async describe(env, { prefix }) {
    return new KVSink(env.KV, { prefix }).describe();
  },
  // Every key under a prefix with its value (JSON-parsed when it is JSON).
  async dump(env, { prefix }) {
    const entries = {};
    let cursor;
    do {
      const page = await env.KV.list({ prefix, ...(cursor ? { cursor } : {}) });
      for (const { name } of page.keys) {
        const text = await env.KV.get(name);
        try {
          entries[name] = JSON.parse(text);
        } catch {
          entries[name] = text;
        }
      }
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return entries;
  },
};

// The real namespace, except that puts fail after `n` of them went through:
// a KV outage in the middle of a chunk.
function failing(kv, n) {
  let puts = 0;
  return {
    get: (...args) => kv.get(...args),
    list: (...args) => kv.list(...args),
    delete: (...args) => kv.delete(...args),
    put: (...args) => {
      if (++puts > n) return Promise.reject(new Error('injected KV failure'));
      return kv.put(...args);
    },
  };
}

export default {
  async fetch(request, env) {
    const { op, ...args } = await request.json();
    try {
      if (!ops[op]) throw new Error(`unknown op ${op}`);
      return Response.json({ result: await ops[op](env, args) });
    } catch (error) {
      return Response.json({ error: { name: error.name, code: error.code, message: error.message } }, { status: 500 });
    }
  },
};
