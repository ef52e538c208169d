// The dashboard's API key for an edge worker that requires one: sent as
// `Authorization: Bearer <key>` (edge-worker/api_keys.js). The key comes
// from `?api_key=` on the page's URL or, when the worker answers 401, from
// asking the user once; it is kept in sessionStorage (this tab only).

const STORAGE_KEY = 'freshet-api-key';
let asked = null;  // one prompt at a time, shared by the page's concurrent requests

function storedKey() {
  const fromUrl = new URLSearchParams(location.search).get('api_key');
  if (fromUrl) sessionStorage.setItem(STORAGE_KEY, fromUrl);
  return sessionStorage.getItem(STORAGE_KEY);
}

function withKey(init, key) {
  if (!key) return init;
  return { ...init, headers: { ...(init?.headers ?? {}), authorization: `Bearer ${key}` } };
}

/** fetch() with the API key; on 401 asks for a key (once) and tries again with it. */
export async function apiFetch(url, init = {}) {
  const response = await fetch(url, withKey(init, storedKey()));
  if (response.status !== 401 || typeof prompt !== 'function') return response;
  asked ??= Promise.resolve(prompt('This edge worker needs an API key (FRESHET_API_KEY):'));
  const key = await asked;
  asked = null;
  if (!key) return response;
  sessionStorage.setItem(STORAGE_KEY, key);
  return fetch(url, withKey(init, key));
}
