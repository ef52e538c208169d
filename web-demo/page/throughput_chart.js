// A small canvas chart of the last minute: records ingested per second (the
// filled line) and changes drawn per second, from the status the source
// posts four times a second. Drawn when a status arrives, not every frame.

import { h } from './dom.js';
import { formatCount } from './format.js';

const SPAN_MS = 60_000;
const HEIGHT = 96;

export class ThroughputChart {
  #canvas;
  #legend;
  #points = [];  // { at, ingest, steps }

  /** @param {HTMLElement} container */
  constructor(container) {
    this.#canvas = h('canvas', { class: 'throughput', height: String(HEIGHT), 'aria-label': 'Ingest rate, last minute' });
    this.#legend = h('div', { class: 'throughput-legend' });
    container.append(h('div', { class: 'throughput-title', text: 'Records ingested per second · last minute' }), this.#canvas, this.#legend);
  }

  /** @param {{ ingestRate: number | null, stepsPerSecond: number }} status */
  add(status) {
    const at = performance.now();
    this.#points.push({ at, ingest: status.ingestRate ?? 0, steps: status.stepsPerSecond ?? 0 });
    while (this.#points.length && this.#points[0].at < at - SPAN_MS) this.#points.shift();
    this.#draw(at);
    const last = this.#points[this.#points.length - 1];
    this.#legend.textContent = `${formatCount(last.ingest)} records/s · ${last.steps.toFixed(1)} steps/s`;
  }

  #draw(now) {
    const canvas = this.#canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    if (!width) return;
    if (canvas.width !== Math.round(width * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(HEIGHT * ratio);
    }
    const context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, HEIGHT);
    const max = Math.max(100, ...this.#points.map((p) => p.ingest)) * 1.15;
    const x = (at) => width - ((now - at) / SPAN_MS) * width;
    const y = (value) => HEIGHT - 2 - (value / max) * (HEIGHT - 6);
    context.strokeStyle = '#232a37';
    context.lineWidth = 1;
    for (const share of [0.25, 0.5, 0.75]) {
      context.beginPath();
      context.moveTo(0, Math.round(HEIGHT * share) + 0.5);
      context.lineTo(width, Math.round(HEIGHT * share) + 0.5);
      context.stroke();
    }
    if (this.#points.length < 2) return;
    const gradient = context.createLinearGradient(0, 0, 0, HEIGHT);
    gradient.addColorStop(0, 'rgba(91, 156, 255, 0.35)');
    gradient.addColorStop(1, 'rgba(91, 156, 255, 0)');
    context.beginPath();
    context.moveTo(x(this.#points[0].at), HEIGHT);
    for (const p of this.#points) context.lineTo(x(p.at), y(p.ingest));
    context.lineTo(x(this.#points[this.#points.length - 1].at), HEIGHT);
    context.fillStyle = gradient;
    context.fill();
    context.beginPath();
    this.#points.forEach((p, i) => (i ? context.lineTo(x(p.at), y(p.ingest)) : context.moveTo(x(p.at), y(p.ingest))));
    context.strokeStyle = '#5b9cff';
    context.lineWidth = 2;
    context.stroke();
  }
}
