// The worker entry: /v0/pipelines/{p}/... goes to the Durable Object named
// {p} (PipelineObject), which hosts that pipeline. It adds CORS headers to
// the API's answers (a dashboard may be served from another origin) and
// answers their preflights. Other paths are static files when an ASSETS
// binding serves them (`npm start` binds one that serves web-demo/ and
// wasm-bindings/js/); `/` redirects to the dashboard.
//
// Bindings: PIPELINES (Durable Object namespace of PipelineObject), REGISTRY
// (PipelineRegistry: the names, for GET /v0/pipelines), KV (checkpoints and
// KV connectors), ASSETS (optional), FRESHET_API_KEY (secret: the API keys,
// api_keys.js), FRESHET_NO_AUTH ("true": no keys needed; local only),
// FRESHET_CORS_ORIGINS (origins that may write: cors.js), FRESHET_MAX_*
// (bounds on requests: limits.js).

import { checkApiKey } from './api_keys.js';
import { checkOrigin, corsHeaders } from './cors.js';
import { checkPipelineName } from './definition.js';
import { configResponse } from './feldera_config.js';
import { HttpError, errorResponse } from './http_errors.js';
import { boundedBody, boundedProgram, checkPipelineCount, limitsOf } from './limits.js';
import { createPipeline, listPipelines } from './pipeline_collection.js';
import { pipelineNames } from './pipeline_registry.js';
import { splitPipelinePath } from './routes.js';
import { discardUnreadBody } from './unread_body.js';

export { PipelineObject } from './pipeline_object.js';
export { PipelineRegistry } from './pipeline_registry.js';

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/v0' || url.pathname.startsWith('/v0/')) return withCors(await api(request, env, url), corsHeaders(request, url, env));
    if (url.pathname === '/') return Response.redirect(new URL('/web-demo/index.html', url).href, 302);
    if (env.ASSETS) return env.ASSETS.fetch(request);
    return new Response('not found\n', { status: 404 });
  },
};

async function api(request, env, url) {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204 });
  try {
    const route = `${request.method} ${url.pathname.replace(/\/$/, '')}`;
    if (route === 'GET /v0/config') return configResponse();
    await checkApiKey(request, env);
    checkOrigin(request, url, env);
    request = await boundedRequest(request, env, url);
    if (route === 'GET /v0/pipelines') return await listPipelines(env, url);
    if (route === 'POST /v0/pipelines') return await createPipeline(env, request, url);
    const path = splitPipelinePath(url.pathname);
    if (!path) {
      if (url.pathname.replace(/\/$/, '') === '/v0/pipelines') {
        throw new HttpError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on /v0/pipelines; use GET or POST`);
      }
      throw new HttpError('NOT_FOUND', `no route ${request.method} ${url.pathname} (see edge-worker/README.md)`);
    }
    checkPipelineName(path.pipeline);
    // POST on a pipeline itself is the internal form of POST /v0/pipelines.
    if (request.method === 'POST' && !path.segments.length) {
      throw new HttpError('METHOD_NOT_ALLOWED', 'POST is not allowed here; create with POST /v0/pipelines or PUT /v0/pipelines/{name}');
    }
    const stub = env.PIPELINES.get(env.PIPELINES.idFromName(path.pipeline));
    return await stub.fetch(request);
  } catch (error) {
    await discardUnreadBody(request);
    return errorResponse(error);
  }
}

function withCors(response, headers) {
  const answer = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return answer;
}

/**
 * The request within the bounds of limits.js (its body; a definition's
 * program; a new pipeline within the deployment's count), read at most
 * once here. A create's count is checked against the registry first, so
 * concurrent creates may pass the bound by as many as run at once.
 */
async function boundedRequest(request, env, url) {
  const limits = limitsOf(env);
  request = await boundedBody(request, limits);
  const path = url.pathname.replace(/\/$/, '');
  const pipeline = /^\/v0\/pipelines\/([^/]+)$/.exec(path)?.[1];
  const definition = (request.method === 'POST' && path === '/v0/pipelines') ||
                     (pipeline && (request.method === 'PUT' || request.method === 'PATCH'));
  if (!definition) return request;
  request = await boundedProgram(request, limits);
  if (request.method === 'PATCH') return request;
  const name = pipeline ? splitPipelinePath(path).pipeline : (await request.clone().json().catch(() => null))?.name;
  if (typeof name === 'string') checkPipelineCount(await pipelineNames(env), name, limits);
  return request;
}

