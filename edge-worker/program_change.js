// What a change of program does to a pipeline's stored state, in Feldera's
// terms (its PipelineDiff, docs.feldera.com "Modifying a Pipeline While
// Preserving its State"), decided before anything is touched.
//
//   kind 'bootstrap'  the checkpoint of the old program resumes into the new
//                     one: views that did not change keep their state, new
//                     and changed views are computed once from what they
//                     read (Pipeline.create's resume, program_change.cpp)
//   kind 'fresh'      a table was added, removed or changed: Freshet's engine
//                     cannot truncate one table alone (Feldera does), so the
//                     whole pipeline starts afresh: its log, checkpoints and
//                     connectors are wiped
//   kind 'refused'    a new or changed view needs the full contents of a
//                     table that keeps no rows (no PRIMARY KEY, not
//                     materialized): Feldera's BootstrapNotAllowed
//
// Which views are new or changed is the engine's own answer, not a reading of
// the SQL: a throwaway pipeline of the old program is replaced in place by the
// new one (Pipeline.replaceProgram, with no rows: cheap) and reports the views
// it rebuilt, by the same rules a checkpoint's resume follows (the same text
// over the same inputs keeps its state; a view over a changed one is changed).

import { FreshetError, Pipeline } from '../wasm-bindings/js/workerd.js';
import { runtimeErrorOptionsOf } from './definition.js';
import { compileProgram } from './program_info.js';

/**
 * @param {object} before the definition whose program wrote the checkpoint
 * @param {object} after the definition to run
 * @returns {Promise<{ kind: 'bootstrap'|'fresh'|'refused', reason: string|null, diff: object, rebuiltViews: string[] }>}
 *   `diff`: Feldera's PipelineDiff (the wire shape of deployment_runtime_status_details)
 */
export async function programChange(before, after) {
  const next = await describe(after.program_code);
  let old;
  try {
    old = await describe(before.program_code);
  } catch (error) {
    // The program that wrote the state no longer compiles (an engine of another
    // version): nothing of it can be matched, as when every table changed.
    const reason = `the program that wrote the pipeline's state does not compile any more (${error.message}): Freshet starts the pipeline afresh`;
    const diff = pipelineDiff({ added_tables: [], removed_tables: [], modified_tables: sorted(next.tables.map((table) => table.name)),
                                added_views: [], removed_views: [], modified_views: sorted(next.views.map((view) => view.name)) },
                              before.outputs, after.outputs);
    return { kind: 'fresh', reason, diff, rebuiltViews: next.views.map((view) => view.name) };
  }
  const oldTables = new Map(old.tables.map((table) => [table.name, tableShape(table)]));
  const newTables = new Map(next.tables.map((table) => [table.name, tableShape(table)]));
  const oldViews = new Set(old.views.map((view) => view.name));
  const newViews = new Set(next.views.map((view) => view.name));
  const tables = {
    added: [...newTables.keys()].filter((name) => !oldTables.has(name)),
    removed: [...oldTables.keys()].filter((name) => !newTables.has(name)),
    modified: [...newTables.keys()].filter((name) => oldTables.has(name) && oldTables.get(name) !== newTables.get(name)),
  };
  const removedViews = [...oldViews].filter((name) => !newViews.has(name));
  let kind = 'bootstrap', reason = null, rebuiltViews = [];
  if (tables.added.length || tables.removed.length || tables.modified.length) {
    kind = 'fresh';
    reason = 'a table was added, removed or changed (' +
      [...tables.added, ...tables.removed, ...tables.modified].map((name) => `'${name}'`).join(', ') +
      "): Freshet starts the whole pipeline afresh (its tables' rows, checkpoints, input log and connectors' rows are wiped)";
    rebuiltViews = [...newViews];  // every view starts over from empty tables
  } else {
    try {
      rebuiltViews = await rebuiltBy(before, after.program_code);
    } catch (error) {
      if (!(error instanceof FreshetError) || error.code !== 'PROGRAM_MISMATCH') throw error;
      kind = 'refused';
      reason = error.message;
      rebuiltViews = [...newViews].filter((name) => !oldViews.has(name));
    }
  }
  const views = rebuiltViews.filter((name) => newViews.has(name));
  const programDiff = {
    added_tables: sorted(tables.added),
    removed_tables: sorted(tables.removed),
    modified_tables: sorted(tables.modified),
    added_views: sorted(views.filter((name) => !oldViews.has(name))),
    removed_views: sorted(removedViews),
    modified_views: sorted(views.filter((name) => oldViews.has(name))),
  };
  return { kind, reason, diff: pipelineDiff(programDiff, before.outputs, after.outputs), rebuiltViews: views };
}

/** True when the diff lists no change at all (Feldera's PipelineDiff::is_empty). */
export function isEmptyDiff(diff) {
  return Object.values(diff.program_diff).every((list) => !list.length) &&
    ['added', 'modified', 'removed'].every((what) => !diff[`${what}_input_connectors`].length && !diff[`${what}_output_connectors`].length);
}

/** Feldera's text of a diff (PipelineDiff's Display), for messages and logs. */
export function describeDiff(diff) {
  const lines = [];
  const quoted = (names) => names.map((name) => `'${name}'`).join(', ');
  const program = [['added_tables', 'Added tables'], ['removed_tables', 'Removed tables'], ['modified_tables', 'Modified tables'],
                   ['added_views', 'Added views'], ['removed_views', 'Removed views'], ['modified_views', 'Modified views']]
    .filter(([field]) => diff.program_diff[field].length)
    .map(([field, label]) => `  ${label}: ${quoted(diff.program_diff[field])}`);
  if (program.length) lines.push('Program changes:', ...program);
  for (const [field, label] of [['added_output_connectors', 'Added output connectors'], ['removed_output_connectors', 'Removed output connectors'],
                                ['modified_output_connectors', 'Modified output connectors']]) {
    if (diff[field].length) lines.push(`${label}: ${diff[field].join(', ')}`);
  }
  return lines.join('\n');
}

async function describe(sql) {
  const compiled = await compileProgram(sql);
  if (compiled.error) throw compiled.error;
  return compiled.description;
}

/** What makes a table another one for the engine: its columns (names, types, order), its key, whether it keeps its rows. */
function tableShape(table) {
  return JSON.stringify([table.columns, table.primaryKey ?? [], table.materialized === true]);
}

async function rebuiltBy(before, sql) {
  const probe = await Pipeline.create({ sql: before.program_code, ...runtimeErrorOptionsOf(before) });
  try {
    return (await probe.replaceProgram(sql)).rebuiltViews;
  } finally {
    await probe.close();
  }
}

/**
 * Feldera's PipelineDiff: the edge worker has no input connectors (ingress is
 * HTTP, which Feldera leaves out of the diff too); an output connector removed
 * with its view is not listed (compute_pipeline_diff's rule).
 */
function pipelineDiff(programDiff, oldOutputs, newOutputs) {
  const removedViews = new Set(programDiff.removed_views);
  const same = (a, b) => a.view === b.view && (a.index ?? '') === (b.index ?? '') &&
    a.send_snapshot === b.send_snapshot && a.sink.prefix === b.sink.prefix;
  return {
    program_diff: programDiff,
    program_diff_error: null,
    added_input_connectors: [],
    modified_input_connectors: [],
    removed_input_connectors: [],
    added_output_connectors: sorted(Object.keys(newOutputs).filter((name) => !oldOutputs[name])),
    modified_output_connectors: sorted(Object.keys(newOutputs).filter((name) => oldOutputs[name] && !same(oldOutputs[name], newOutputs[name]))),
    removed_output_connectors: sorted(Object.entries(oldOutputs)
      .filter(([name, output]) => !newOutputs[name] && !removedViews.has(output.view)).map(([name]) => name)),
  };
}

function sorted(names) {
  return [...names].sort();
}
