// The ASSETS binding of the local edge worker: serves the repository's
// web-demo/ and wasm-bindings/js/ folders (the dashboard and the package it
// loads) at the same paths, and nothing else. Runs in Node, called by
// workerd through Miniflare's function service binding.

import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVED_FOLDERS = ['web-demo/', 'wasm-bindings/js/'];
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
};

const notFound = () => new Response('not found\n', { status: 404, headers: { 'content-type': 'text/plain' } });

/** @param {Request} request */
export async function serveStaticFile(request) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('method not allowed\n', { status: 405 });
  let path;
  try {
    path = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, '');
  } catch {
    return notFound();
  }
  // normalize() folds '..'; what is left must still be inside a served folder.
  const relative = normalize(path).split(sep).join('/');
  if (relative.includes('\0') || !SERVED_FOLDERS.some((folder) => relative.startsWith(folder))) return notFound();
  const file = join(REPO_ROOT, relative);
  try {
    if (!(await stat(file)).isFile()) return notFound();
    const body = await readFile(file);
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : body, {
      headers: { 'content-type': type, 'cache-control': 'no-cache' },
    });
  } catch {
    return notFound();
  }
}
