#!/usr/bin/env node
// Prints `p.explain()` of the 20-view dashboard program (dashboard20_program.mjs):
// the circuit, its operators, their inputs and the state each keeps, for the
// bench README. Exits 1, saying so, when the package has no p.explain yet.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/dashboard_explain.mjs [--json]

import { loadFreshet } from './freshet_module.mjs';
import { PROGRAM_SQL } from './dashboard20_program.mjs';

const freshet = await loadFreshet();
const p = await freshet.Pipeline.create({ sql: PROGRAM_SQL });
try {
  if (typeof p.explain !== 'function') {
    console.error('dashboard_explain: this build of freshet has no p.explain() (issue 21 adds it); nothing to print');
    process.exitCode = 1;
  } else {
    const plan = await p.explain();
    // explain() gives text and JSON; print the form asked for.
    const text = typeof plan === 'string' ? plan : plan?.text;
    if (process.argv.includes('--json') || typeof text !== 'string') console.log(JSON.stringify(typeof plan === 'string' ? plan : plan?.json ?? plan, null, 2));
    else console.log(text);
  }
} finally {
  await p.close();
}
