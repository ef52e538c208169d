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

  #inputs;
  #inputNames = null;

  /** @param {HTMLElement} strip @param {HTMLElement} outputs @param {HTMLElement} inputs */
  constructor(strip, outputs, inputs) {
    this.#inputs = inputs;
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
      status.rate ? `target ${formatCount(status.rate)}/s` : status.ingested !== undefined ? `${formatCount(status.ingested)} records so far` : '');
    set('latency', latency ? formatMs(latency.p50) : '–', latency ? `p95 ${formatMs(latency.p95)}` : 'not measured here');
    set('memory', formatBytes(status.memoryBytes), 'stats().memoryBytes');
    set('wasm', formatBytes(status.wasmMemoryBytes), 'linear memory');
    const c = status.checkpoint;
    set('checkpoint', c.sequenceNumber === null ? 'none yet' : `#${c.sequenceNumber}`,
      c.sequenceNumber === null ? '' : `step ${formatCount(c.step)}${c.at ? ` · ${formatAge(c.at)}` : c.restoredFrom !== null ? ' · resumed from it' : ''}`);
    this.#cells.checkpoint.sub.title = c.bytes ? `${formatBytes(c.bytes)} written to IndexedDB` : '';
    this.#renderOutputs(status);
    this.#renderInputs(status.inputs ?? {});
  }

  #renderInputs(inputs) {
    const names = Object.keys(inputs).join();
    if (names !== this.#inputNames) {
      this.#inputNames = names;
      this.#inputs.replaceChildren(
        h('thead', {}, h('tr', {}, ['table', 'records', 'bytes', 'parse errors'].map((name) => h('th', { text: name })))),
        h('tbody', {}, Object.keys(inputs).map((table) => h('tr', {}, h('td', { text: table }), h('td', { class: 'num' }), h('td', { class: 'num' }), h('td', { class: 'num' })))));
    }
    Object.values(inputs).forEach((input, i) => {
      const cells = this.#inputs.tBodies[0].rows[i].cells;
      setText(cells[1], formatCount(input.totalRecords));
      setText(cells[2], formatBytes(input.totalBytes));
      setText(cells[3], formatCount(input.parseErrors));
    });
  }

  // Rebuilt only when the set of outputs changes; otherwise only changed numbers are written.
  #renderOutputs(status) {
    const rows = [
      ...Object.entries(status.outputs ?? {}).map(([name, s]) => [name, 'connector', s]),
      ...Object.entries(status.egress ?? {}).map(([view, s]) => [view, 'egress', s]),
    ];
    const names = rows.map(([name, kind]) => `${kind} ${name}`).join();
    if (names !== this.#outputNames) {
      this.#outputNames = names;
      const head = ['output', 'records', 'chunks', 'queued', 'resets', 'errors'];
      this.#outputs.replaceChildren(
        h('thead', {}, h('tr', {}, head.map((name) => h('th', { text: name })))),
        h('tbody', {}, rows.map(([name, kind]) => h('tr', { dataset: { output: `${kind} ${name}` } },
          h('td', {}, h('span', { class: `kind ${kind}`, text: kind }), name), ...head.slice(1).map(() => h('td', { class: 'num' }))))));
    }
    const trs = this.#outputs.tBodies[0].rows;
    rows.forEach(([, , s], i) => {
      [s.transmittedRecords, s.transmittedBatches, s.queuedRecords, s.resets, s.errors]
        .forEach((value, c) => setText(trs[i].cells[c + 1], formatCount(value)));
    });
  }
}
