// The top-k view as a ranked list: rank, product, a bar for its share of the
// leader's revenue, units and revenue. Ordered as the view's ORDER BY says
// (revenue, descending).

import { h, rowData } from './dom.js';
import { formatCount, formatMoney, formatMoneyShort } from './format.js';

export class TopProducts {
  #list;

  /** @param {HTMLElement} container */
  constructor(container) {
    this.#list = h('ol', { class: 'top-list' });
    container.append(this.#list);
  }

  /** @param {{ product: string, units: number, revenue: number }[]} rows */
  render(rows) {
    const sorted = [...rows].sort((a, b) => b.revenue - a.revenue);
    const max = Math.max(1, ...sorted.map((row) => row.revenue));
    this.#list.replaceChildren(...sorted.map((row, i) => h('li', { dataset: { row: rowData(row) }, title: `${row.product}: ${formatMoney(row.revenue)}` },
      h('span', { class: 'rank', text: String(i + 1) }),
      h('span', { class: 'name', text: row.product }),
      h('span', { class: 'track' }, h('span', { class: 'fill', style: `width: ${((100 * row.revenue) / max).toFixed(1)}%` })),
      h('span', { class: 'units', text: `${formatCount(row.units)} units` }),
      h('span', { class: 'money', text: formatMoneyShort(row.revenue) }))));
  }
}
