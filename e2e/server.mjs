// A tiny static server for the browser tests: serves the package's files
// (wasm-bindings/js/, with the built engine), the shared test helpers and the
// test pages, with the MIME types a browser insists on (module scripts must
// be JavaScript, instantiateStreaming needs application/wasm). Anything else
// is 404: the repo is not served wholesale. Listens on 127.0.0.1 only.
// bench/web/'s pages are served cross-origin isolated (COOP/COEP), for the
// finer performance.now() such a page gets (5 µs steps instead of 100).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.FRESHET_E2E_PORT ?? 8791);
const SERVED = ['wasm-bindings/js/', 'e2e/page/', 'tests/js/storage_contract.mjs', 'web-demo/',
  'examples/react-dashboard/dist/', 'examples/react-dashboard/dist-dev/',
  'bench/web/page/', 'bench/js/app_engines.mjs', 'bench/js/change_times.mjs', 'bench/js/engine.mjs', 'bench/js/mt19937_64.mjs', 'bench/js/plain_js.mjs', 'bench/js/workload.mjs'];
const ISOLATED = ['bench/web/page/'];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname)).replace(/^[/\\]+/, '');
  const file = join(root, path);
  const allowed = !path.split(sep).includes('..') && SERVED.some((prefix) => path === prefix || path.startsWith(prefix));
  let stat;
  try {
    stat = allowed ? statSync(file) : null;
  } catch {
    stat = null;
  }
  if (!stat?.isFile() || !TYPES[extname(file)]) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: /${path}\n`);
    return;
  }
  const headers = { 'content-type': TYPES[extname(file)], 'content-length': stat.size, 'cache-control': 'no-store' };
  if (ISOLATED.some((prefix) => path.startsWith(prefix))) {
    headers['cross-origin-opener-policy'] = 'same-origin';
    headers['cross-origin-embedder-policy'] = 'require-corp';
  }
  response.writeHead(200, headers);
  createReadStream(file).pipe(response);
}).listen(port, '127.0.0.1', () => console.log(`e2e server: http://127.0.0.1:${port}/`));
