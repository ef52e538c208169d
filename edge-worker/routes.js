// The routes of one pipeline (docs/http-api.md), after /v0/pipelines/{p}: which
// handler of the Durable Object answers a method and path, and with which
// path parameters. Unknown paths are NOT_FOUND; a known path with another
// method is METHOD_NOT_ALLOWED.

import { HttpError } from './http_errors.js';

// [path pattern split on '/', { METHOD: handler name }]; `:name` matches one
// segment. Exported for the test of docs/http-api.md.
export const ROUTES = [
  ['', { PUT: 'replace', GET: 'describe', DELETE: 'remove', PATCH: 'patch' }],
  ['start', { POST: 'start' }],
  ['stop', { POST: 'stop' }],
  ['clear', { POST: 'clear' }],
  ['dismiss_error', { POST: 'dismissError' }],
  ['approve', { POST: 'approve' }],
  ['ingress/:table', { POST: 'ingress' }],
  ['egress/:view', { POST: 'egress', DELETE: 'closeEgress' }],
  ['completion_status', { GET: 'completionStatus' }],
  ['views/:view/connectors/:connector/reset', { POST: 'resetConnector' }],
  ['views/:view/connectors/:connector/stats', { GET: 'outputConnectorStats' }],
  ['tables/:table/connectors/:connector/stats', { GET: 'inputConnectorStats' }],
  ['reset_status', { GET: 'resetStatus' }],
  ['pause', { POST: 'pause' }],
  ['resume', { POST: 'resume' }],
  ['step', { POST: 'step' }],
  ['checkpoint', { POST: 'checkpoint' }],
  ['checkpoint_status', { GET: 'checkpointStatus' }],
  ['shutdown', { POST: 'shutdown' }],
  ['stats', { GET: 'stats' }],
  ['query', { GET: 'query' }],
].map(([pattern, methods]) => [pattern ? pattern.split('/') : [], methods]);

/**
 * @param {string} method
 * @param {string[]} segments the path after /v0/pipelines/{p}, split on '/' and URL-decoded
 * @returns {{ handler: string, params: Record<string, string> }}
 */
export function matchRoute(method, segments) {
  for (const [pattern, methods] of ROUTES) {
    if (pattern.length !== segments.length) continue;
    const params = {};
    const matches = pattern.every((part, i) => {
      if (part.startsWith(':')) return (params[part.slice(1)] = segments[i]) !== '';
      return part === segments[i];
    });
    if (!matches) continue;
    const handler = methods[method];
    if (!handler) {
      throw new HttpError('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${Object.keys(methods).join(' or ')}`);
    }
    return { handler, params };
  }
  throw new HttpError('NOT_FOUND', `no route ${method} /${segments.join('/')} under a pipeline (see edge-worker/README.md)`);
}

/** Splits the path under /v0/pipelines/ into the pipeline's name and the rest; null if it is not under it. */
export function splitPipelinePath(pathname) {
  const match = /^\/v0\/pipelines\/([^/]+)(?:\/(.*))?$/.exec(pathname);
  if (!match) return null;
  const decode = (part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new HttpError('INVALID_REQUEST', `bad percent-encoding in '${part}'`);
    }
  };
  const rest = match[2] === undefined || match[2] === '' ? [] : match[2].replace(/\/$/, '').split('/').map(decode);
  return { pipeline: decode(match[1]), segments: rest };
}
