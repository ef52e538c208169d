// What Feldera's GET /v0/pipelines/{p} says about a program, derived from
// Freshet's compiler: `program_status`, `program_error` and `program_info`
// (Feldera's ProgramInfo: the JSON schema of every table and view).
//
// One source of truth: the tables, views and column types come from the
// engine's description of the compiled program (the package's internal
// Program JSON, Engine.describeProgram()), never from re-reading the SQL.
// When the package exposes `p.program` (issue 18) this file reads that
// instead of opening an engine of its own.
//
// Shapes: Feldera's openapi.json, components.schemas ProgramInfo,
// ProgramSchema, Relation, Field, ColumnType, ProgramError,
// SqlCompilationInfo, SqlCompilerMessage.

import { loadEngineModule } from '../wasm-bindings/js/engine_loader.js';
import { FreshetError } from '../wasm-bindings/js/workerd.js';

/**
 * Compiles `sql` once, for its description only (no pipeline).
 * @returns {Promise<{ description: object } | { error: FreshetError }>}
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

/** Feldera's ProgramInfo of a compiled program's description. */
export function programInfo(description) {
  return {
    schema: {
      inputs: description.tables.map((table) => relation(table, table.materialized === true, table.primary_key)),
      outputs: description.views.map((view) => relation(view, view.materialized === true, null)),
    },
    input_connectors: {},
    output_connectors: {},
  };
}

function relation({ name, columns }, materialized, primaryKey) {
  return {
    ...identifier(name),
    fields: columns.map((column) => ({ ...identifier(column.name), columntype: columnType(column), unused: false })),
    materialized,
    properties: {},
    ...(primaryKey?.length ? { primary_key: primaryKey } : {}),
  };
}

// Freshet names unquoted identifiers in lower case, as Feldera does; a name
// with upper case letters can only have been quoted.
function identifier(name) {
  return { name, case_sensitive: name !== name.toLowerCase() };
}

/** Freshet's type names are Feldera's SqlType names but for a few spellings. */
const TYPE_NAMES = { FLOAT: 'REAL', TEXT: 'VARCHAR', STRING: 'VARCHAR', INT: 'INTEGER' };

function columnType({ type, nullable }) {
  const name = TYPE_NAMES[type] ?? type;
  const columntype = { type: name, nullable };
  // Feldera's ColumnType: VARCHAR without a length has precision -1, TIME and TIMESTAMP 0.
  if (name === 'VARCHAR') columntype.precision = -1;
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

/** The program fields of a successfully compiled program. */
export const PROGRAM_OK = Object.freeze({ sql_compilation: { exit_code: 0, messages: [] }, rust_compilation: null, system_error: null });
