// The worker entry: /v0/pipelines/{p}/... goes to the Durable Object named
// {p} (PipelineObject), which hosts that pipeline. It adds CORS headers to
// the API's answers (a dashboard may be served from another origin) and
// answers their preflights. Other paths are static files when an ASSETS
// binding serves them (`npm start` binds one that serves web-demo/ and
// wasm-bindings/js/); `/` redirects to the dashboard.
//
// Bindings: PIPELINES (Durable Object namespace of PipelineObject), KV
// (checkpoints and KV connectors), ASSETS (optional).

import { checkPipelineName } from './definition.js';
import { HttpError, errorResponse } from './http_errors.js';
import { splitPipelinePath } from './routes.js';
import { discardUnreadBody } from './unread_body.js';

export { PipelineObject } from './pipeline_object.js';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, PUT, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
};

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/v0' || url.pathname.startsWith('/v0/')) return withCors(await api(request, env, url));
    if (url.pathname === '/') return Response.redirect(new URL('/web-demo/index.html', url).href, 302);
    if (env.ASSETS) return env.ASSETS.fetch(request);
    return new Response('not found\n', { status: 404 });
  },
};

async function api(request, env, url) {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
  try {
    const path = splitPipelinePath(url.pathname);
    if (!path) {
      if (url.pathname.replace(/\/$/, '') === '/v0/pipelines') {
        throw new HttpError('NOT_FOUND', 'listing pipelines is not supported: address one as /v0/pipelines/{name}');
      }
      throw new HttpError('NOT_FOUND', `no route ${request.method} ${url.pathname} (see edge-worker/README.md)`);
    }
    checkPipelineName(path.pipeline);
    const stub = env.PIPELINES.get(env.PIPELINES.idFromName(path.pipeline));
    return await stub.fetch(request);
  } catch (error) {
    await discardUnreadBody(request);
    return errorResponse(error);
  }
}

function withCors(response) {
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(CORS_HEADERS)) answer.headers.set(name, value);
  return answer;
}

