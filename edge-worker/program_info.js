// What Feldera's GET /v0/pipelines/{p} says about a program, derived from
// Freshet's compiler: `program_status`, `program_error` and `program_info`
// (Feldera's ProgramInfo: the JSON schema of every table and view).
//
// One source of truth: the tables, views and column types come from the
// compiler's description of the program, `p.program` of the package
// (ProgramDescription in index.d.ts), never from re-reading the SQL. A
// stopped pipeline has no Pipeline, so compileProgram() asks an engine for
// the same description (Engine.describeProgram(), the JSON p.program is).
//
// Shapes: Feldera's openapi.json, components.schemas ProgramInfo,
// ProgramSchema, Relation, Field, ColumnType, ProgramError,
// SqlCompilationInfo, SqlCompilerMessage.

import { loadEngineModule } from '../wasm-bindings/js/engine_loader.js';
import { FreshetError } from '../wasm-bindings/js/workerd.js';

/**
 * Compiles `sql` once, for its description only (no pipeline).
 * @returns {Promise<{ description: import('../wasm-bindings/js/index.js').ProgramDescription } | { error: FreshetError }>}
 */
export async function compileProgram(sql) {
  const module = await loadEngineModule();
  const engine = new module.Engine();
  try {
    const opened = engine.open(sql);
    if (opened.code) return { error: new FreshetError(opened.code, opened.message) };
    const described = engine.describeProgram();
    if (described.code) return { error: new FreshetError(described.code, described.message) };
    return { description: JSON.parse(described.text) };
  } finally {
    engine.delete();
  }
}

/** Feldera's ProgramInfo of a program's description (`p.program`). */
export function programInfo(description) {
  return {
    schema: {
      inputs: description.tables.map((table) => relation(table, table.primaryKey, table.lateness)),
      // Feldera lists its system view error_view among the outputs too.
      outputs: [...description.views, ...(description.systemViews ?? [])].map((view) => relation(view, null, [])),
    },
    input_connectors: {},
    output_connectors: {},
  };
}

function relation({ name, columns, materialized, properties }, primaryKey, lateness) {
  const latenessOf = new Map((lateness ?? []).map((entry) => [entry.column, entry.lateness]));
  return {
    ...identifier(name),
    fields: columns.map((column) => ({
      ...identifier(column.name),
      columntype: columnType(column),
      ...(latenessOf.has(column.name) ? { lateness: latenessOf.get(column.name) } : {}),
      unused: false,
    })),
    materialized: materialized === true,
    properties: propertyValues(properties),
    ...(primaryKey?.length ? { primary_key: primaryKey } : {}),
  };
}

// Feldera's PropertyValue of each WITH (...) property. The description has no
// source positions for them: Feldera's required positions are given as 0.
function propertyValues(properties) {
  const nowhere = { start_line_number: 0, start_column: 0, end_line_number: 0, end_column: 0 };
  return Object.fromEntries(Object.entries(properties ?? {}).map(([key, value]) => [
    key, { value: String(value), key_position: nowhere, value_position: nowhere },
  ]));
}

// Freshet names unquoted identifiers in lower case, as Feldera does; a name
// with upper case letters can only have been quoted.
function identifier(name) {
  return { name, case_sensitive: name !== name.toLowerCase() };
}

/** Spellings of Freshet's SQL types that Feldera's SqlType names otherwise. */
const TYPE_NAMES = { FLOAT: 'REAL', TEXT: 'VARCHAR', STRING: 'VARCHAR', INT: 'INTEGER' };

/**
 * Feldera's ColumnType of a column: the SQL type as written ('DECIMAL(10, 2)',
 * 'VARCHAR(20)', 'INTERVAL HOUR TO MINUTE', 'INTEGER ARRAY') becomes the
 * SqlType name ('DECIMAL', 'VARCHAR', 'INTERVAL_HOUR_MINUTE', 'ARRAY') with
 * precision and scale as Feldera sets them: a VARCHAR without a length -1,
 * TIME and TIMESTAMP 0.
 */
function columnType({ type, nullable, precision, scale, length }) {
  if (/ ARRAY$/.test(type)) {
    return { type: 'ARRAY', nullable, component: columnType({ type: type.slice(0, -' ARRAY'.length), nullable: true }) };
  }
  const base = type.replace(/\(.*\)$/, '').trim().replace(/ TO /g, '_').replace(/ /g, '_');
  const name = TYPE_NAMES[base] ?? base;
  const columntype = { type: name, nullable };
  if (name === 'DECIMAL' && precision !== undefined) Object.assign(columntype, { precision, scale: scale ?? 0 });
  if (name === 'VARCHAR' || name === 'CHAR') columntype.precision = length ?? -1;
  if (name === 'TIME' || name === 'TIMESTAMP') columntype.precision = 0;
  return columntype;
}

/**
 * Feldera's ProgramError for a program that did not compile: one
 * SqlCompilerMessage naming where (line and column from 1, as Feldera's) with
 * a snippet of that line.
 */
export function programError(error, sql) {
  if (error.code !== 'SQL_ERROR' && error.code !== 'TYPE_ERROR') {
    return { sql_compilation: null, rust_compilation: null, system_error: `${error.code}: ${error.message}` };
  }
  const line = error.details?.line ?? 0;
  const column = error.details?.column ?? 0;
  return {
    sql_compilation: {
      exit_code: 1,
      messages: [{
        start_line_number: line,
        start_column: column,
        end_line_number: line,
        end_column: column,
        warning: false,
        error_type: error.code === 'TYPE_ERROR' ? 'Type error' : 'SQL error',
        message: error.message,
        snippet: snippet(sql, line, column),
      }],
    },
    rust_compilation: null,
    system_error: null,
  };
}

/** The error's line with a caret under its column, as Feldera's compiler prints it. */
function snippet(sql, line, column) {
  const text = sql.split('\n')[line - 1];
  if (text === undefined) return null;
  const prefix = `${String(line).padStart(5)}|`;
  return `${prefix}${text}\n${' '.repeat(prefix.length + Math.max(column - 1, 0))}^\n`;
}

/** The program_error of a program that compiled without warnings (or whose warnings are not known). */
export const PROGRAM_OK = Object.freeze({ sql_compilation: { exit_code: 0, messages: [] }, rust_compilation: null, system_error: null });

/** The program_error of a compiled program: its warnings (the description's) as Feldera's messages with `warning: true`. */
export function programWarnings(description) {
  const messages = (description?.warnings ?? []).map(({ message, line, column }) => ({
    start_line_number: line, start_column: column, end_line_number: line, end_column: column,
    warning: true, error_type: 'Warning', message, snippet: null,
  }));
  return { sql_compilation: { exit_code: 0, messages }, rust_compilation: null, system_error: null };
}
