// The mirror connector's card: where it writes, what this page session wrote
// to it (a reload that resumes writes no snapshot), and "Reset" with its
// progress: wiping → writing the snapshot (records sent / total) →
// verifying the store against snapshot(large_orders) → the verdict.

import { h } from './dom.js';
import { formatCount } from './format.js';

export class MirrorPanel {
  #written;
  #bar;
  #phase;
  #verdict;
  #reset;
  #check;
  #repairing = false;

  /** @param {HTMLElement} container @param {{ onReset: () => Promise<void>, onCheck: () => Promise<object> }} actions */
  constructor(container, { onReset, onCheck }) {
    this.#written = h('div', { class: 'mirror-written' });
    this.#bar = h('div', { class: 'progress-fill' });
    this.#phase = h('span', { class: 'mirror-phase', text: 'idle' });
    this.#verdict = h('span', { class: 'mirror-verdict' });
    this.#reset = h('button', { text: 'Reset connector', onclick: () => this.#run(onReset) });
    this.#check = h('button', { text: 'Compare with view', onclick: () => this.#run(async () => this.showVerdict(await onCheck())) });
    container.append(
      h('p', { class: 'muted' }, 'IndexedDBSink → ', h('code', { text: 'freshet-demo-mirror / large_orders' }), ' (through index large_orders_by_id)'),
      h('p', { class: 'muted small' }, 'Written by the pipeline as views change, kept across reloads: a resumed page sends it deltas, never the snapshot again. Reset wipes it and replays a fresh snapshot.'),
      this.#written,
      h('div', { class: 'progress' }, this.#bar),
      h('div', { class: 'mirror-status' }, this.#phase, this.#verdict),
      h('div', { class: 'actions' }, this.#reset, this.#check));
  }

  disable(reason) {
    this.#reset.disabled = true;
    this.#check.disabled = true;
    this.#phase.textContent = reason;
  }

  /** @param {{ snapshotChunks: number, snapshotRecords: number, deltaChunks: number, deltaRecords: number } | null} written */
  renderWritten(written, output) {
    if (!written) return;
    this.#written.replaceChildren(
      h('div', {}, h('b', { text: formatCount(written.snapshotRecords) }), ` snapshot records in ${formatCount(written.snapshotChunks)} chunk(s) this session`),
      h('div', {}, h('b', { text: formatCount(written.deltaChunks) }), ` delta chunks (${formatCount(written.deltaRecords)} records) this session`),
      output ? h('div', { class: 'muted' }, `all time: ${formatCount(output.transmittedRecords)} records, ${formatCount(output.resets)} reset(s)`) : null);
    this.#written.dataset.snapshotChunks = written.snapshotChunks;
  }

  /** A reset's progress, as the worker posts it. */
  progress({ phase, sent, total }) {
    this.#phase.dataset.phase = phase;
    if (phase === 'repair') {
      this.#repairing = true;
      this.#phase.textContent = 'the mirror held changes from after the checkpoint (their input was lost in the reload): resetting it';
      return;
    }
    if (phase === 'wiping') {
      this.#verdict.textContent = '';
      this.#bar.style.width = '0%';
      this.#phase.textContent = this.#repairing ? 'repairing after the reload: wiping the store…' : 'wiping the store…';
    } else if (phase === 'writing') {
      const share = total ? (100 * sent) / total : 0;
      this.#bar.style.width = `${share.toFixed(1)}%`;
      this.#phase.textContent = `writing snapshot ${formatCount(sent)} / ${formatCount(total)}`;
    } else if (phase === 'verifying') {
      this.#bar.style.width = '100%';
      this.#phase.textContent = `snapshot written (${formatCount(sent)} records), verifying…`;
    } else if (phase === 'done') {
      this.#phase.textContent = this.#repairing ? 'reset done: repaired after the reload' : 'reset done';
      this.#repairing = false;
    }
  }

  showVerdict({ equal, viewRows, mirrorRows }) {
    this.#verdict.className = `mirror-verdict ${equal ? 'ok' : 'bad'}`;
    this.#verdict.dataset.equal = String(equal);
    this.#verdict.textContent = equal
      ? `mirror = view ✓ (${formatCount(viewRows)} rows)`
      : `mirror ≠ view ✗ (${formatCount(mirrorRows)} vs ${formatCount(viewRows)} rows)`;
  }

  async #run(action) {
    this.#reset.disabled = this.#check.disabled = true;
    try {
      await action();
    } catch (error) {
      this.#verdict.className = 'mirror-verdict bad';
      this.#verdict.textContent = error.message;
    } finally {
      this.#reset.disabled = this.#check.disabled = false;
    }
  }
}
