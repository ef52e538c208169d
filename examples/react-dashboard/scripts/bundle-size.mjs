// Prints the production bundle's sizes (dist/, after `vite build`), raw and
// gzip (level 9, as a server would send them): Freshet's JS (the `freshet`
// chunk, see vite.config.js), its wasm engine, and the rest (React, the app).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const assets = new URL('../dist/assets/', import.meta.url).pathname;
const parts = { "Freshet's JS": /^freshet-.*\.js$/, "Freshet's wasm": /\.wasm$/, 'React and the app': /\.js$/ };
const totals = Object.fromEntries(Object.keys(parts).map((part) => [part, { raw: 0, gzip: 0 }]));
for (const file of readdirSync(assets)) {
  const part = Object.keys(parts).find((name) => parts[name].test(file));
  if (!part) continue;
  const bytes = readFileSync(join(assets, file));
  totals[part].raw += bytes.length;
  totals[part].gzip += gzipSync(bytes, { level: 9 }).length;
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const freshet = totals["Freshet's JS"].gzip + totals["Freshet's wasm"].gzip;
console.log('| part | raw | gzip |\n|---|---:|---:|');
for (const [part, size] of Object.entries(totals)) console.log(`| ${part} | ${kib(size.raw)} | ${kib(size.gzip)} |`);
console.log(`| Freshet (JS + wasm) | ${kib(totals["Freshet's JS"].raw + totals["Freshet's wasm"].raw)} | ${kib(freshet)} |`);
