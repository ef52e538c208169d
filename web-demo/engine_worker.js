// The dashboard's Web Worker: owns the engine, so that stepping, parsing and
// IndexedDB writes never take time from the page's frames.
//
// Protocol (postMessage, structured clone):
//   page → worker  { id, method, args }             a call; answered by
//   worker → page  { id, result } | { id, error }    error: { code, message, details }
//   worker → page  { type: 'chunk', view, chunk, ingestedAt }   a view's change
//                  { type: 'status', status }                   4 times a second
//                  { type: 'program', sql, outline }            the program, before its chunks
//                  { type: 'reset', phase, ... }                mirror reset progress
// Calls run one at a time, in order.

import { SAMPLE_SQL } from './sample_pipeline.js';
import { DemoSession } from './worker/demo_session.js';
import { DemoStore } from './worker/demo_store.js';

const DEFAULT_RATE = 2000;
const store = new DemoStore();
let session = null;
let rate = DEFAULT_RATE;

const post = (message) => postMessage(message);

async function openSession(sql) {
  session = await DemoSession.open({ sql, rate, post });
}

// One engine per browser profile: two tabs would write checkpoints over each
// other's. A Web Lock held for the worker's life says which tab runs it; a
// reload's new worker waits a moment for the old one's lock to go.
async function ownTheEngine() {
  if (!navigator.locks) return;
  let acquired;
  const owned = new Promise((resolve) => (acquired = resolve));
  navigator.locks.request('freshet-demo-engine', { signal: AbortSignal.timeout(5000) }, () => {
    acquired();
    return new Promise(() => {});  // held until the worker ends
  }).catch(() => acquired(new Error('the dashboard is already open in another tab of this browser; close it, then reload')));
  const failure = await owned;
  if (failure) throw failure;
}

const methods = {
  /** Opens the last applied program (or the sample), resuming from IndexedDB. */
  async start(options = {}) {
    if (session) return session.status();
    rate = options.rate ?? rate;
    await ownTheEngine();
    await openSession((await store.loadProgram()) ?? SAMPLE_SQL);
    return session.status();
  },
  pause: () => session.pause(),
  resume: () => session.resume(),
  step: () => session.step(),
  setRate(value) {
    rate = value;
    session.setRate(value);
  },
  checkpoint: () => session.checkpoint(),
  resetMirror: () => session.resetMirror(),
  checkMirror: () => session.checkMirror(),
  snapshot: (view) => session.snapshot(view),
  status: () => session.status(),
  /**
   * Replaces the program. It is compiled first on its own: a program that
   * does not compile leaves the running one untouched.
   */
  async apply(sql) {
    const { Pipeline } = await import('../wasm-bindings/js/browser.js');
    (await Pipeline.create({ sql })).close();  // throws SQL_ERROR with line and column
    await session.checkpoint().catch(() => {});
    const previous = await store.loadProgram() ?? SAMPLE_SQL;
    session.close();
    session = null;
    try {
      await openSession(sql);
      await session.checkpoint();  // the new program's first checkpoint: a reload resumes it
      await store.saveProgram(sql);
    } catch (error) {
      // Compiled but could not start (storage trouble): back to the previous program.
      session?.close();
      await openSession(previous);
      throw error;
    }
    return session.status();
  },
};

let queue = Promise.resolve();
self.onmessage = ({ data: { id, method, args = [] } }) => {
  queue = queue.then(async () => {
    try {
      if (!methods[method]) throw new Error(`unknown method ${method}`);
      if (method !== 'start' && method !== 'apply' && !session) throw new Error('the engine is not started');
      postMessage({ id, result: await methods[method](...args) });
    } catch (error) {
      postMessage({ id, error: { code: error.code ?? 'ERROR', message: error.message, details: error.details ?? {} } });
    }
  });
};
