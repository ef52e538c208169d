// A table of a view's rows: the newest large orders (highest id first), or
// any view of an applied program (the generic case: columns from the rows,
// sorted by their values). Only the first `limit` rows are drawn; the
// caption says how many the view has. Rows carry data-row (their JSON) so
// tests can compare the screen with snapshot().

import { h, rowData } from './dom.js';
import { formatCount, formatMoney, formatValue } from './format.js';

const compareValues = (a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** Rows ordered for display: by `orderBy` descending when given, else by every column ascending. */
export function displayOrder(rows, orderBy) {
  if (orderBy) return [...rows].sort((a, b) => compareValues(b[orderBy], a[orderBy]));
  return [...rows].sort((a, b) => {
    for (const column of Object.keys(a)) {
      const order = compareValues(a[column], b[column]);
      if (order) return order;
    }
    return 0;
  });
}

export class RowsTable {
  #table;
  #caption;
  #options;
  #newest = null;

  /**
   * @param {HTMLElement} container
   * @param {HTMLElement} caption where the row count goes
   * @param {{ limit: number, orderBy?: string, money?: string[] }} options
   */
  constructor(container, caption, options) {
    this.#table = h('table', { class: 'rows' });
    container.append(h('div', { class: 'scroll' }, this.#table));
    this.#caption = caption;
    this.#options = options;
  }

  render(rows) {
    const { limit, orderBy, money = [] } = this.#options;
    const shown = displayOrder(rows, orderBy).slice(0, limit);
    const columns = shown.length ? Object.keys(shown[0]) : [];
    const previous = this.#newest;
    if (orderBy && shown.length) this.#newest = shown[0][orderBy];
    const cell = (column, value) => h('td', {
      class: typeof value === 'number' ? 'num' : '',
      text: money.includes(column) && typeof value === 'number' ? formatMoney(value) : formatValue(value),
    });
    this.#table.replaceChildren(
      h('thead', {}, h('tr', {}, columns.map((column) => h('th', { text: column })))),
      h('tbody', {}, shown.map((row) => h('tr', {
        dataset: { row: rowData(row) },
        class: orderBy && previous !== null && row[orderBy] > previous ? 'fresh' : '',
      }, columns.map((column) => cell(column, row[column]))))));
    this.#caption.textContent = rows.length > limit ? `${orderBy ? 'newest' : 'first'} ${limit} of ${formatCount(rows.length)}` : `${formatCount(rows.length)} rows`;
  }
}
