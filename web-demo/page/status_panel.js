// The status strip (state, step, rates, latency, memory, checkpoint) and the
// outputs table (the mirror connector and each egress stream's statistics).

import { h } from './dom.js';
import { setText } from './top_products.js';
import { formatAge, formatBytes, formatCount, formatDecimal, formatMs } from './format.js';

const METRICS = [
  ['state', 'State'], ['step', 'Step'], ['steps', 'Steps / s'], ['ingest', 'Ingest'],
  ['latency', 'Latency p50'], ['memory', 'Engine memory'], ['wasm', 'Wasm memory'], ['checkpoint', 'Checkpoint'],
];

export class StatusPanel {
  #cells = {};
  #outputs;
  #outputNames = null;

  /** @param {HTMLElement} strip @param {HTMLElement} outputs */
  constructor(strip, outputs) {
    for (const [key, label] of METRICS) {
      const value = h('div', { class: 'metric-value', text: '–' });
      const sub = h('div', { class: 'metric-sub' });
      this.#cells[key] = { value, sub };
      strip.append(h('div', { class: 'metric', dataset: { metric: key } }, h('div', { class: 'metric-label', text: label }), value, sub));
    }
    this.#outputs = outputs;
  }

  /** @param {object} status the worker's status @param {{ p50: number, p95: number, n: number } | null} latency */
  render(status, latency) {
    const set = (key, value, sub = '') => {
      setText(this.#cells[key].value, value);
      setText(this.#cells[key].sub, sub);
    };
    const stateClass = `metric-value state-${status.state}`;
    if (this.#cells.state.value.className !== stateClass) this.#cells.state.value.className = stateClass;
    set('state', status.state, status.failure ? `failed: ${status.failure.message}` : `feed ${status.feed}`);
    set('step', formatCount(status.step), status.liveOrders !== null ? `${formatCount(status.liveOrders)} live orders` : '');
    set('steps', formatDecimal(status.stepsPerSecond));
    set('ingest', status.ingestRate === null ? '–' : `${formatCount(status.ingestRate)}/s`,
      status.rate ? `target ${formatCount(status.rate)}/s` : status.ingested !== undefined ? `${formatCount(status.ingested)} records in` : '');
    set('latency', latency ? formatMs(latency.p50) : '–', latency ? `p95 ${formatMs(latency.p95)} · ingest → on screen` : 'n/a here');
    set('memory', formatBytes(status.memoryBytes), 'stats().memoryBytes');
    set('wasm', formatBytes(status.wasmMemoryBytes), 'linear memory');
    const c = status.checkpoint;
    set('checkpoint', c.sequenceNumber === null ? 'none yet' : `#${c.sequenceNumber}`,
      c.sequenceNumber === null ? '' : `step ${formatCount(c.step)}${c.bytes ? ` · ${formatBytes(c.bytes)}` : ''}${c.at ? ` · ${formatAge(c.at)}` : c.restoredFrom !== null ? ' · resumed' : ''}`);
    this.#renderOutputs(status);
  }

  // Rebuilt only when the set of outputs changes; otherwise only changed numbers are written.
  #renderOutputs(status) {
    const rows = [
      ...Object.entries(status.outputs ?? {}).map(([name, s]) => [`connector ${name}`, s]),
      ...Object.entries(status.egress ?? {}).map(([view, s]) => [`egress ${view}`, s]),
    ];
    const names = rows.map(([name]) => name).join();
    if (names !== this.#outputNames) {
      this.#outputNames = names;
      const head = ['output', 'records', 'chunks', 'queued', 'snapshot', 'resets', 'errors'];
      this.#outputs.replaceChildren(
        h('thead', {}, h('tr', {}, head.map((name) => h('th', { text: name })))),
        h('tbody', {}, rows.map(([name]) => h('tr', { dataset: { output: name } },
          h('td', { text: name }), ...head.slice(1).map(() => h('td', { class: 'num' }))))));
    }
    const trs = this.#outputs.tBodies[0].rows;
    rows.forEach(([, s], i) => {
      [s.transmittedRecords, s.transmittedBatches, s.queuedRecords, s.snapshotRecords, s.resets, s.errors]
        .forEach((value, c) => setText(trs[i].cells[c + 1], formatCount(value)));
    });
  }
}
