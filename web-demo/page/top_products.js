// The top-k view as a ranked list: rank, product, a bar for its share of the
// leader's revenue, units and revenue, ordered as the view's ORDER BY says
// (revenue, descending). The list items are reused from frame to frame and
// the bars are scaled with a transform, which the compositor animates
// without layout or paint on the main thread.

import { h, rowData } from './dom.js';
import { formatCount, formatMoney, formatMoneyShort } from './format.js';

export class TopProducts {
  #list;
  #items = [];

  /** @param {HTMLElement} container */
  constructor(container) {
    this.#list = h('ol', { class: 'top-list' });
    container.append(this.#list);
  }

  /** @param {{ product: string, units: number, revenue: number }[]} rows */
  render(rows) {
    const sorted = [...rows].sort((a, b) => b.revenue - a.revenue);
    const max = Math.max(1, ...sorted.map((row) => row.revenue));
    while (this.#items.length < sorted.length) this.#items.push(this.#add(this.#items.length + 1));
    while (this.#items.length > sorted.length) this.#items.pop().item.remove();
    sorted.forEach((row, i) => {
      const item = this.#items[i];
      item.item.dataset.row = rowData(row);
      item.item.title = `${row.product}: ${formatMoney(row.revenue)}`;
      setText(item.name, row.product);
      setText(item.units, `${formatCount(row.units)} units`);
      setText(item.money, formatMoneyShort(row.revenue));
      item.fill.style.transform = `scaleX(${(row.revenue / max).toFixed(4)})`;
    });
  }

  #add(rank) {
    const parts = {
      name: h('span', { class: 'name' }),
      fill: h('span', { class: 'fill' }),
      units: h('span', { class: 'units' }),
      money: h('span', { class: 'money' }),
    };
    parts.item = h('li', {}, h('span', { class: 'rank', text: String(rank) }), parts.name,
      h('span', { class: 'track' }, parts.fill), parts.units, parts.money);
    this.#list.append(parts.item);
    return parts;
  }
}

/** Sets text only when it changed: an unchanged node costs no style or layout work. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
