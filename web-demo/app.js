// The dashboard page: picks a source (the engine in our Web Worker, or a
// pipeline of the edge worker over HTTP), keeps each view's state from its
// snapshot and deltas, and draws at most once per animation frame, whatever
// the rate of chunks. Everything that computes lives in the worker; this
// thread only applies small deltas and touches the DOM.
//
// window.freshetDemo is the hook tests and the benchmark use (see
// e2e/dashboard.spec.mjs, bench/web/run.mjs).

import { SAMPLE_SQL } from './sample_pipeline.js';
import { CircuitPanel } from './page/circuit_panel.js';
import { h } from './page/dom.js';
import { EdgeSource } from './page/edge_source.js';
import { formatBytes, formatCount } from './page/format.js';
import { LocalSource } from './page/local_source.js';
import { MirrorPanel } from './page/mirror_panel.js';
import { RegionChart } from './page/region_chart.js';
import { RowsTable } from './page/rows_table.js';
import { SqlPanel } from './page/sql_panel.js';
import { StatusPanel } from './page/status_panel.js';
import { ThroughputChart } from './page/throughput_chart.js';
import { TopProducts } from './page/top_products.js';
import { ViewState } from './page/view_state.js';

const params = new URLSearchParams(location.search);
const $ = (selector) => document.querySelector(selector);
const LATENCY_WINDOW = 200;
const LARGE_ORDERS_SHOWN = 40;
const GENERIC_ROWS_SHOWN = 50;

// --------------------------------------------------------------- views

const views = new Map();      // view → ViewState
const renderers = new Map();  // view → { render(rows), drawn: version }
let outline = { tables: [], views: [], indexes: [] };
let status = null;
let statusDrawn = null;
const latencies = [];         // ms, ingest → on screen, the last LATENCY_WINDOW chunks
const arrived = [];           // ingest times of chunks applied since the last frame

// The sample's views have their own cards; any other view gets a table.
const KNOWN_CARDS = {
  revenue_by_region: () => new RegionChart($('#card-revenue .body'), $('#card-revenue .caption')),
  top_products: () => new TopProducts($('#card-top .body')),
  large_orders: () => new RowsTable($('#card-large .body'), $('#card-large .caption'),
    { limit: LARGE_ORDERS_SHOWN, orderBy: 'id', money: ['amount'] }),
};

function showProgram(program) {
  outline = program.outline;
  views.clear();
  renderers.clear();
  $('#extra-views').replaceChildren();
  for (const card of document.querySelectorAll('[data-known-view] .body')) card.replaceChildren();
  for (const card of document.querySelectorAll('[data-known-view]')) {
    card.classList.toggle('absent', !outline.views.includes(card.dataset.knownView));
  }
  for (const view of outline.views) {
    views.set(view, new ViewState());
    renderers.set(view, { drawn: -1, renderer: KNOWN_CARDS[view]?.() ?? genericCard(view) });
  }
  if (program.sql) sqlPanel.showProgram(program.sql);
  demo.firstFullViewMs = null;
  schedule();
}

function genericCard(view) {
  const caption = h('span', { class: 'caption' });
  const body = h('div', { class: 'body' });
  $('#extra-views').append(h('section', { class: 'card span-6', dataset: { view } },
    h('header', {}, h('h2', { text: view }), caption), body));
  return new RowsTable(body, caption, { limit: GENERIC_ROWS_SHOWN });
}

// ------------------------------------------------------- frame batching

let frame = 0;
function schedule() {
  frame ||= requestAnimationFrame(draw);
}

function draw() {
  frame = 0;
  demo.frames += 1;
  const now = performance.timeOrigin + performance.now();
  for (const at of arrived.splice(0)) {
    latencies.push(now - at);
    if (latencies.length > LATENCY_WINDOW) latencies.shift();
  }
  for (const [view, entry] of renderers) {
    const state = views.get(view);
    if (!state.ready || entry.drawn === state.version) continue;
    entry.renderer.render(state.rows());
    entry.drawn = state.version;
  }
  if (status && status !== statusDrawn) {
    statusPanel.render(status, latencySummary());
    circuitPanel.render(status.circuit ?? null);
    mirrorPanel.renderWritten(status.mirrorWritten, status.outputs?.mirror);
    $('#pause').textContent = status.state === 'paused' ? 'Resume' : 'Pause';
    $('#pause').classList.toggle('primary', status.state === 'paused');
    statusDrawn = status;
  }
  if (demo.firstFullViewMs === null && outline.views.length && [...views.values()].every((state) => state.ready)) {
    demo.firstFullViewMs = performance.now();
    performance.mark('freshet-first-full-view');
  }
}

function latencySummary() {
  if (!latencies.length) return null;
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), n: sorted.length };
}

// -------------------------------------------------------------- source

const handlers = {
  onChunk(view, chunk, ingestedAt) {
    const state = views.get(view);
    if (!state) return;
    state.apply(chunk);
    if (ingestedAt !== undefined) arrived.push(ingestedAt);
    schedule();
  },
  onStatus(next) {
    status = next;
    throughput.add(next);
    demo.status = next;
    schedule();
  },
  onProgram: (program) => showProgram(program),
  onReset(progress) {
    demo.resetLog.push(progress);
    mirrorPanel.progress(progress);
    if (progress.phase === 'done') mirrorPanel.showVerdict(progress);
  },
  onError: (message) => toast(message, 'error'),
};

const edge = params.get('source') === 'edge';
const source = edge
  ? new EdgeSource({ base: params.get('base') ?? location.origin, pipeline: params.get('pipeline') ?? 'demo' }, handlers)
  : new LocalSource(handlers);

// ------------------------------------------------------------ controls

let toastTimer = null;
function toast(message, kind = 'info', { sticky = false } = {}) {
  const element = $('#toast');
  element.textContent = message;
  element.title = message;
  element.className = `toast ${kind}`;
  clearTimeout(toastTimer);
  if (!sticky) toastTimer = setTimeout(() => (element.className = 'toast'), 6000);
}

async function act(action) {
  try {
    return await action();
  } catch (error) {
    toast(error.message, 'error');
    return undefined;
  }
}

// The rate slider is logarithmic: 100 … 20,000 records/s.
const RATE_MIN = 100;
const RATE_MAX = 20_000;
const rateOf = (position) => Math.round((RATE_MIN * (RATE_MAX / RATE_MIN) ** (position / 1000)) / 100) * 100;
const positionOf = (rate) => (1000 * Math.log(rate / RATE_MIN)) / Math.log(RATE_MAX / RATE_MIN);
const initialRate = Number(params.get('rate') ?? 2000);
$('#rate').value = String(positionOf(initialRate));
$('#rate-value').textContent = `${formatCount(initialRate)}/s`;
$('#rate').addEventListener('input', () => {
  const rate = rateOf(Number($('#rate').value));
  $('#rate-value').textContent = `${formatCount(rate)}/s`;
  act(() => source.call('setRate', rate));
});

$('#pause').addEventListener('click', () => act(() => source.call(status?.state === 'paused' ? 'resume' : 'pause')));
$('#step').addEventListener('click', () => act(() => source.call('step')));
$('#checkpoint').addEventListener('click', () => act(async () => {
  const result = await source.call('checkpoint');
  const number = result.sequenceNumber ?? result.checkpoint_sequence_number;
  toast(`checkpoint #${number} written${result.bytes ? ` (${formatBytes(result.bytes)}, step ${formatCount(result.step)})` : ''}`, 'ok');
}));

const sqlPanel = new SqlPanel($('#card-sql .body'), {
  sampleSql: SAMPLE_SQL,
  onApply: (sql) => source.call('apply', sql),
});
const throughput = new ThroughputChart($('#card-top .chart'));
const statusPanel = new StatusPanel($('#status'), $('#outputs'), $('#inputs'));
const circuitPanel = new CircuitPanel($('#card-circuit .body'));
const mirrorPanel = new MirrorPanel($('#card-mirror .body'), {
  onReset: () => source.call('resetMirror'),
  onCheck: () => source.call('checkMirror'),
});

$('#source-badge').textContent = edge ? `edge worker · ${source.url}` : 'local engine · Web Worker';
$('#source-switch').href = edge ? '?' : '?source=edge&pipeline=demo';
$('#source-switch').textContent = edge ? 'use the local engine' : 'follow the edge worker';
if (!source.capabilities.rate) {
  $('#rate').disabled = true;
  $('#rate-value').textContent = 'set by the edge worker';
}
if (!source.capabilities.sql) sqlPanel.disable('read-only: the edge worker\'s program');
if (!source.capabilities.reset) mirrorPanel.disable('the mirror is a connector of the local engine');

// ------------------------------------------------------------ test hook

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const demo = {
  source: source.kind,
  status: null,
  frames: 0,
  firstFullViewMs: null,
  resetLog: [],
  latency: () => latencySummary(),
  rows: (view) => views.get(view)?.rows() ?? null,
  chunkCounts: (view) => ({ ...views.get(view)?.chunks }),
  call: (method, ...args) => source.call(method, ...args),
  /** The engine's rows of `view`, once every chunk before them is on screen. */
  async snapshot(view) {
    const rows = await source.call('snapshot', view);
    await nextFrame();
    return rows;
  },
  nextFrame,
};
window.freshetDemo = demo;

source.start({ rate: initialRate }).then(
  () => (document.body.dataset.started = 'yes'),
  (error) => toast(`could not start: ${error.message}`, 'error', { sticky: true }));
