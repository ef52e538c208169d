// Revenue by region as an SVG bar chart. Regions keep their place (the
// sample's order; others after it, by name) so bars grow and shrink in place
// instead of jumping around as totals overtake each other. Bars are reused
// between frames; only their width and labels change.

import { REGIONS } from '../sample_pipeline.js';
import { rowData, svg } from './dom.js';
import { formatCount, formatMoneyShort, formatMoney } from './format.js';
import { setText } from './top_products.js';

const ROW = 30;
const LABEL = 96;
const VALUE = 170;
const WIDTH = 560;

export class RegionChart {
  #svg;
  #bars = new Map();  // region → { group, bar, value, orders }
  #total;

  /** @param {HTMLElement} container @param {HTMLElement} total where the total goes */
  constructor(container, total) {
    this.#svg = svg('svg', { class: 'region-chart', role: 'img', 'aria-label': 'Revenue by region' });
    container.append(this.#svg);
    this.#total = total;
  }

  /** @param {{ region: string, orders: number, revenue: number }[]} rows */
  render(rows) {
    const place = (region) => (REGIONS.includes(region) ? REGIONS.indexOf(region) : REGIONS.length);
    const sorted = [...rows].sort((a, b) => place(a.region) - place(b.region) || String(a.region).localeCompare(String(b.region)));
    const max = Math.max(1, ...sorted.map((row) => row.revenue));
    this.#svg.setAttribute('viewBox', `0 0 ${WIDTH} ${Math.max(1, sorted.length) * ROW}`);
    const seen = new Set();
    sorted.forEach((row, i) => {
      seen.add(row.region);
      const bar = this.#bars.get(row.region) ?? this.#add(row.region);
      setAttribute(bar.group, 'transform', `translate(0 ${i * ROW})`);
      bar.group.dataset.row = rowData(row);
      setAttribute(bar.bar, 'width', Math.max(2, ((WIDTH - LABEL - VALUE) * row.revenue) / max).toFixed(1));
      setText(bar.value, formatMoneyShort(row.revenue));
      setText(bar.orders, `${formatCount(row.orders)} orders`);
      setText(bar.title, `${row.region}: ${formatMoney(row.revenue)} from ${formatCount(row.orders)} orders`);
    });
    for (const [region, bar] of this.#bars) {
      if (!seen.has(region)) {
        bar.group.remove();
        this.#bars.delete(region);
      }
    }
    const revenue = rows.reduce((sum, row) => sum + row.revenue, 0);
    const orders = rows.reduce((sum, row) => sum + row.orders, 0);
    setText(this.#total, `${formatMoney(revenue)} · ${formatCount(orders)} orders`);
  }

  #add(region) {
    const group = svg('g', { class: 'bar-row' });
    const title = svg('title');
    const label = svg('text', { x: 0, y: ROW / 2 + 5, class: 'bar-label' });
    label.textContent = region ?? 'NULL';
    const track = svg('rect', { x: LABEL, y: 6, height: ROW - 12, width: WIDTH - LABEL - VALUE, rx: 4, class: 'bar-track' });
    const bar = svg('rect', { x: LABEL, y: 6, height: ROW - 12, width: 0, rx: 4, class: 'bar' });
    const value = svg('text', { x: WIDTH - VALUE + 12, y: ROW / 2 + 5, class: 'bar-value' });
    const orders = svg('text', { x: WIDTH, y: ROW / 2 + 5, class: 'bar-orders', 'text-anchor': 'end' });
    group.append(title, label, track, bar, value, orders);
    this.#svg.append(group);
    const entry = { group, bar, value, orders, title };
    this.#bars.set(region, entry);
    return entry;
  }
}

function setAttribute(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
