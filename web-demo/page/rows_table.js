// A table of a view's rows: the newest large orders (highest id first), or
// any view of an applied program (the generic case: columns from the rows,
// sorted by their values). Only the first `limit` rows are drawn; the
// caption says how many the view has. Rows carry data-row (their JSON) so
// tests can compare the screen with snapshot(). Rows are reused between
// frames and only changed text is written: redrawing a table 20 times a
// second must not cost the page its frames.

import { h, rowData } from './dom.js';
import { formatCount, formatMoney, formatValue } from './format.js';
import { setText } from './top_products.js';

const compareValues = (a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/**
 * The first `limit` rows in display order: by `orderBy` descending when
 * given (picked in one pass: the view may hold thousands of rows, the table
 * shows a few dozen, every frame), else by every column ascending.
 */
export function displayOrder(rows, orderBy, limit = rows.length) {
  if (!orderBy) {
    return [...rows].sort((a, b) => {
      for (const column of Object.keys(a)) {
        const order = compareValues(a[column], b[column]);
        if (order) return order;
      }
      return 0;
    }).slice(0, limit);
  }
  if (limit <= 0) return [];
  const top = [];  // descending by orderBy, at most `limit` long
  for (const row of rows) {
    if (top.length === limit && compareValues(row[orderBy], top[limit - 1][orderBy]) <= 0) continue;
    let at = top.length;
    while (at > 0 && compareValues(row[orderBy], top[at - 1][orderBy]) > 0) --at;
    top.splice(at, 0, row);
    if (top.length > limit) top.pop();
  }
  return top;
}

export class RowsTable {
  #head = h('thead');
  #body = h('tbody');
  #caption;
  #options;
  #columns = '';
  #newest = null;
  #rows = new Map();  // key → <tr>

  /**
   * @param {HTMLElement} container
   * @param {HTMLElement} caption where the row count goes
   * @param {{ limit: number, orderBy?: string, money?: string[] }} options
   */
  constructor(container, caption, options) {
    container.append(h('div', { class: 'scroll' }, h('table', { class: 'rows' }, this.#head, this.#body)));
    this.#caption = caption;
    this.#options = options;
  }

  render(rows) {
    const { limit, orderBy, money = [] } = this.#options;
    const shown = displayOrder(rows, orderBy, limit);
    const columns = shown.length ? Object.keys(shown[0]) : [];
    if (columns.join() !== this.#columns) {
      this.#columns = columns.join();
      this.#head.replaceChildren(h('tr', {}, columns.map((column) => h('th', { text: column }))));
      this.#body.replaceChildren();
      this.#rows.clear();
    }
    const previous = this.#newest;
    if (orderBy && shown.length) this.#newest = shown[0][orderBy];
    // Keyed rows: a row keeps its <tr> while it is shown, so a new order at
    // the top inserts one row instead of rewriting every row below it.
    const wanted = new Map();
    for (const row of shown) {
      const data = rowData(row);
      const key = orderBy ? String(row[orderBy]) : data;
      let tr = this.#rows.get(key);
      if (!tr || wanted.has(key)) tr = h('tr', {}, columns.map(() => h('td')));
      if (tr.dataset.row !== data) {
        tr.dataset.row = data;
        columns.forEach((column, c) => {
          const value = row[column];
          tr.children[c].className = typeof value === 'number' ? 'num' : '';
          setText(tr.children[c], money.includes(column) && typeof value === 'number' ? formatMoney(value) : formatValue(value));
        });
      }
      tr.classList.toggle('fresh', Boolean(orderBy && previous !== null && row[orderBy] > previous));
      wanted.set(wanted.has(key) ? `${key}#${wanted.size}` : key, tr);
    }
    for (const [key, tr] of this.#rows) if (![...wanted.values()].includes(tr)) tr.remove();
    let at = this.#body.firstChild;
    for (const tr of wanted.values()) {
      if (tr === at) at = at.nextSibling;
      else this.#body.insertBefore(tr, at);
    }
    this.#rows = wanted;
    setText(this.#caption, rows.length > limit
      ? `${orderBy ? 'newest' : 'first'} ${limit} of ${formatCount(rows.length)}`
      : `${formatCount(rows.length)} rows`);
  }
}
