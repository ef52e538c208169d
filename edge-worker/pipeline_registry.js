// The names of the pipelines, for GET /v0/pipelines: one Durable Object
// (PipelineRegistry, binding REGISTRY, the object named 'pipelines').
//
// Why a Durable Object rather than KV: a pipeline created by one request
// must be listed by the next. KV's list is eventually consistent (a new key
// may be missing from list() for up to a minute, on Cloudflare); a Durable
// Object's storage is read-your-writes, and one object serialises the
// updates. The registry holds names only: each pipeline's fields come from
// its own object (one source of truth), asked when the list is read.
//
// Each PipelineObject registers itself when it is created and when it loads
// a stored definition (which also lists pipelines made before the registry
// existed, once they are used), and unregisters when deleted.

const REGISTRY_NAME = 'pipelines';

export class PipelineRegistry {
  #storage;

  constructor(ctx) {
    this.#storage = ctx.storage;
  }

  async fetch(request) {
    const url = new URL(request.url);
    const name = url.searchParams.get('name');
    if (url.pathname === '/add') await this.#storage.put(`pipeline:${name}`, true);
    else if (url.pathname === '/remove') await this.#storage.delete(`pipeline:${name}`);
    const names = [...(await this.#storage.list({ prefix: 'pipeline:' })).keys()].map((key) => key.slice('pipeline:'.length));
    return Response.json(names);
  }
}

function registry(env) {
  return env.REGISTRY.get(env.REGISTRY.idFromName(REGISTRY_NAME));
}

async function call(env, path) {
  const response = await registry(env).fetch(`https://registry${path}`, { method: 'POST' });
  return response.json();
}

/** Adds a pipeline's name. */
export const registerPipeline = (env, name) => call(env, `/add?name=${encodeURIComponent(name)}`);

/** Removes a pipeline's name. */
export const unregisterPipeline = (env, name) => call(env, `/remove?name=${encodeURIComponent(name)}`);

/** The names, sorted. */
export const pipelineNames = (env) => call(env, '/list');
