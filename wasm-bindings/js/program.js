// Program: what JS knows of a compiled program (tables, views, indexes and
// their columns), read once from the engine. It shapes rows (which columns
// are BIGINT or DOUBLE) and lookup keys without another call into wasm.

import { FreshetError } from './errors.js';

export class Program {
  /** @param {string} descriptionJson Engine.describeProgram()'s text */
  constructor(descriptionJson) {
    const { tables, views, indexes } = JSON.parse(descriptionJson);
    this.tables = new Map(tables.map((table) => [table.name, table]));
    this.tableNumbers = new Map(tables.map((table, number) => [table.name, number]));  // the engine's order
    this.columnNamesByNumber = tables.map((table) => table.columns.map((column) => column.name));
    this.views = new Map(views.map((view) => [view.name, view]));
    // A materialized table (WITH ('materialized' = 'true')) is read as a
    // materialized view of its name: snapshots and egress take it too.
    this.materializedTables = new Map(
      tables.filter((table) => table.materialized).map((table) => [table.name, { ...table, materialized: true }]));
    this.indexes = new Map(indexes.map((index) => [index.name, index]));
  }

  /** The table's number for the engine (ingestInput), or -1 when the name is not one as spelt. */
  tableNumber(name) {
    return this.tableNumbers.get(name) ?? -1;
  }

  /** The column names of table number `number`, in the table's order. */
  columnNames(number) {
    return this.columnNamesByNumber[number];
  }

  view(name) {
    const view = this.views.get(name) ?? this.materializedTables.get(name);
    if (!view) throw new FreshetError('UNKNOWN_VIEW', `unknown view '${name}'`);
    return view;
  }

  index(name) {
    const index = this.indexes.get(name);
    if (!index) throw new FreshetError('UNKNOWN_INDEX', `unknown index '${name}'`);
    return index;
  }

  /** The chunk shape (chunks.js) of an endpoint on `view`, through `index` if given. */
  shape(view, index) {
    const columns = this.view(view).columns;
    if (!index) return { columns, keyColumns: null };
    const found = this.indexes.get(index);
    if (!found || found.view !== view) {
      throw new FreshetError('UNKNOWN_INDEX', `view '${view}' has no index '${index}'`);
    }
    return { columns, keyColumns: found.key };
  }
}
