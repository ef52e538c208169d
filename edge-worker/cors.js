// Cross-origin access to the API (CORS), configured by the Worker variable
// FRESHET_CORS_ORIGINS: origins allowed to write, separated by commas or
// white space (`https://dash.example.com, http://localhost:5173`), or `*`
// for any. Unset (the default): same origin only for writes.
//
// ## Policy
//   reads  (GET, HEAD, and POST .../egress/{view}, which changes nothing)
//          open to every origin: `Access-Control-Allow-Origin: *`
//   writes (POST, PUT, PATCH, DELETE otherwise)
//          from the worker's own origin, from an allowed one, or from no
//          browser at all (no Origin header: curl, Feldera's clients);
//          any other origin is refused with 403 ORIGIN_NOT_ALLOWED before
//          anything is applied (a form or a `fetch` without preflight would
//          otherwise reach the handler), and its preflight lists read
//          methods only, so the browser does not send the write at all.
// An allowed origin is echoed in `Access-Control-Allow-Origin` (with
// `Vary: Origin`); the others get `*`, so a page can read a refusal's reason.

import { HttpError } from './http_errors.js';

const READ_METHODS = 'GET, HEAD, OPTIONS';
const ALL_METHODS = 'GET, HEAD, PUT, POST, PATCH, DELETE, OPTIONS';
const COMMON_HEADERS = {
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-max-age': '86400',
};

const cache = new WeakMap();

/** The origins of FRESHET_CORS_ORIGINS, as a Set ('*' for any). */
export function allowedOrigins(env) {
  let origins = cache.get(env);
  if (!origins) {
    origins = new Set(String(env?.FRESHET_CORS_ORIGINS ?? '').split(/[\s,]+/).filter(Boolean).map((o) => o.replace(/\/$/, '')));
    if (env && typeof env === 'object') cache.set(env, origins);
  }
  return origins;
}

/** Whether `method` on `url` writes: every POST, PUT, PATCH and DELETE but egress, which only reads. */
export function isWrite(method, url) {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  return !(method === 'POST' && /^\/v0\/pipelines\/[^/]+\/egress\/[^/]+\/?$/.test(url.pathname));
}

/** Whether the request's Origin may write: none (not a browser), the worker's own, or an allowed one. */
function mayWrite(origin, url, env) {
  if (origin === null) return true;
  const allowed = allowedOrigins(env);
  return origin === url.origin || allowed.has('*') || allowed.has(origin);
}

/** 403 ORIGIN_NOT_ALLOWED for a write from an origin that may not write. */
export function checkOrigin(request, url, env) {
  const origin = request.headers.get('origin');
  if (!isWrite(request.method, url) || mayWrite(origin, url, env)) return;
  throw new HttpError('ORIGIN_NOT_ALLOWED', `${request.method} ${url.pathname} from origin '${origin}' is refused: ` +
                      'writes are same-origin unless the worker lists the origin in FRESHET_CORS_ORIGINS',
                      { origin });
}

/**
 * The CORS headers of an answer to `request`, a preflight's included (the
 * methods it allows depend on the path: a preflight is made per URL).
 */
export function corsHeaders(request, url, env) {
  const origin = request.headers.get('origin');
  const allowed = allowedOrigins(env);
  const trusted = origin !== null && (origin === url.origin || allowed.has('*') || allowed.has(origin));
  // Egress is a POST that reads: on its path any origin may POST.
  const methods = trusted ? ALL_METHODS : isWrite('POST', url) ? READ_METHODS : `${READ_METHODS}, POST`;
  return {
    ...COMMON_HEADERS,
    'access-control-allow-origin': trusted ? origin : '*',
    'access-control-allow-methods': methods,
    vary: 'Origin',
  };
}
