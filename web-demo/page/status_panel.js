// The status strip (state, step, rates, latency, memory, checkpoint) and the
// outputs table (the mirror connector and each egress stream's statistics).

import { h } from './dom.js';
import { formatAge, formatBytes, formatCount, formatDecimal, formatMs } from './format.js';

const METRICS = [
  ['state', 'State'], ['step', 'Step'], ['steps', 'Steps / s'], ['ingest', 'Ingest'],
  ['latency', 'Latency p50 / p95'], ['memory', 'Engine memory'], ['wasm', 'Wasm memory'], ['checkpoint', 'Checkpoint'],
];

export class StatusPanel {
  #cells = {};
  #outputs;

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
      this.#cells[key].value.textContent = value;
      this.#cells[key].sub.textContent = sub;
    };
    this.#cells.state.value.className = `metric-value state-${status.state}`;
    set('state', status.state, status.failure ? `failed: ${status.failure.message}` : `feed ${status.feed}`);
    set('step', formatCount(status.step), status.liveOrders !== null ? `${formatCount(status.liveOrders)} live orders` : '');
    set('steps', formatDecimal(status.stepsPerSecond));
    set('ingest', status.ingestRate === null ? '–' : `${formatCount(status.ingestRate)}/s`,
      status.rate ? `target ${formatCount(status.rate)}/s` : status.ingested !== undefined ? `${formatCount(status.ingested)} records in` : '');
    set('latency', latency ? `${formatMs(latency.p50)} / ${formatMs(latency.p95)}` : '–', latency ? 'ingest → on screen' : 'n/a');
    set('memory', formatBytes(status.memoryBytes), 'stats().memoryBytes');
    set('wasm', formatBytes(status.wasmMemoryBytes), 'linear memory');
    const c = status.checkpoint;
    set('checkpoint', c.sequenceNumber === null ? 'none yet' : `#${c.sequenceNumber}`,
      c.sequenceNumber === null ? '' : `step ${formatCount(c.step)}${c.bytes ? ` · ${formatBytes(c.bytes)}` : ''}${c.at ? ` · ${formatAge(c.at)}` : c.restoredFrom !== null ? ' · resumed' : ''}`);
    this.#renderOutputs(status);
  }

  #renderOutputs(status) {
    const rows = [
      ...Object.entries(status.outputs ?? {}).map(([name, s]) => [`connector ${name}`, s]),
      ...Object.entries(status.egress ?? {}).map(([view, s]) => [`egress ${view}`, s]),
    ];
    const head = ['output', 'view', 'records', 'chunks', 'queued', 'snapshot', 'resets', 'errors', 'dropped'];
    this.#outputs.replaceChildren(
      h('thead', {}, h('tr', {}, head.map((name) => h('th', { text: name })))),
      h('tbody', {}, rows.map(([name, s]) => h('tr', { dataset: { output: name } },
        h('td', { text: name }), h('td', { text: s.view }),
        ...[s.transmittedRecords, s.transmittedBatches, s.queuedRecords, s.snapshotRecords, s.resets, s.errors, s.droppedChunks]
          .map((value) => h('td', { class: 'num', text: formatCount(value) }))))));
  }
}
