// Program: the program's description (tables, views, their columns, keys,
// LATENESS and indexes), read once from the engine. The description itself
// is public as `p.program`, deep-frozen; the maps here shape rows (which
// columns are BIGINT or DOUBLE) and lookup keys without another call into
// wasm. The engine's JSON is the one source (core/include/freshet/sql/program_description.h).

import { FreshetError } from './errors.js';

export class Program {
  /** @param {string} descriptionJson Engine.describeProgram()'s text */
  constructor(descriptionJson) {
    /** @type {import('./index.js').ProgramDescription} the public `p.program` */
    this.description = deepFreeze(JSON.parse(descriptionJson));
    const { tables, views, systemViews = [] } = this.description;
    this.tableNumbers = new Map(tables.map((table, number) => [table.name, number]));  // the engine's order
    this.columnNamesByNumber = tables.map((table) => table.columns.map((column) => column.name));
    // The system view error_view reads as a view (snapshot, egress).
    this.views = new Map([...views, ...systemViews].map((view) => [view.name, view]));
    this.indexes = new Map(views.flatMap((view) => view.indexes.map((index) => [index.name, index])));
    // An index's key columns with their types, as chunks.js finishes keys by them.
    this.keyColumns = new Map([...this.indexes.values()].map((index) => {
      const columns = this.views.get(index.view).columns;
      return [index.name, index.key.map((name) => columns.find((column) => column.name === name))];
    }));
    // A materialized table (WITH ('materialized' = 'true')) is read as a
    // materialized view of its name: snapshots and egress take it too.
    this.materializedTables = new Map(
      tables.filter((table) => table.materialized).map((table) => [table.name, { ...table, materialized: true }]));
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
    return { columns, keyColumns: this.keyColumns.get(index) };
  }
}

/** Freezes `value` and everything it holds (the description is plain JSON: objects and arrays). */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
