// API keys, as Feldera's clients send them: `Authorization: Bearer <key>`
// (python/feldera/rest/_httprequests.py, _headers_with_auth; Feldera's keys
// look like "apikey:...", any string works here). The keys come from the
// Worker secret FRESHET_API_KEY: one key, or several separated by commas or
// white space (`wrangler secret put FRESHET_API_KEY`). Without a valid key
// every /v0 route but GET /v0/config answers 401 with Feldera's
// AuthenticationFailed (crates/pipeline-manager/src/auth.rs).
//
// A worker without keys refuses everything, unless FRESHET_NO_AUTH is
// "true": `npm start` (local.mjs) sets it on loopback when no key is given,
// and says so. A deployed worker is never open by omission.

import { HttpError } from './http_errors.js';

/** The configured keys (empty: none). */
function keysOf(env) {
  return String(env.FRESHET_API_KEY ?? '').split(/[\s,]+/).filter(Boolean);
}

/** Throws AuthenticationFailed (401) unless the request may use the API. */
export async function checkApiKey(request, env) {
  const keys = keysOf(env);
  if (!keys.length) {
    if (env.FRESHET_NO_AUTH === 'true') return;
    throw new HttpError('AuthenticationFailed', 'this worker has no API keys: set the FRESHET_API_KEY secret ' +
                        '(wrangler secret put FRESHET_API_KEY) and send it as Authorization: Bearer <key>');
  }
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) {
    throw new HttpError('AuthenticationFailed', 'an API key is required: send Authorization: Bearer <key>');
  }
  let valid = false;
  // Every key is compared, each in constant time, so the time taken says nothing of which part matched.
  for (const key of keys) valid = (await sameSecret(match[1], key)) || valid;
  if (!valid) throw new HttpError('AuthenticationFailed', 'Unauthorized API key');
}

/** Constant-time equality of two strings: their SHA-256 digests (equal lengths) compared byte by byte. */
async function sameSecret(given, key) {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([given, key].map((text) => crypto.subtle.digest('SHA-256', encoder.encode(text))));
  if (typeof crypto.subtle.timingSafeEqual === 'function') return crypto.subtle.timingSafeEqual(a, b);
  const x = new Uint8Array(a), y = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < x.length; ++i) difference |= x[i] ^ y[i];
  return difference === 0;
}
