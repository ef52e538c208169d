// p.explain() and p.inspect(): the engine's circuit printer
// (core/src/pipeline/pipeline_explain.cpp) turned into the package's shapes,
// camelCase, times in microseconds.

import { requireString, unwrap } from './errors.js';

/** One operator of the engine's JSON as explain() shows it. */
function operatorOf(op) {
  return {
    id: op.id,
    kind: op.kind,
    description: op.description,
    inputs: op.inputs,
    outputs: op.outputs,
    views: op.views,
    consumers: op.consumers,
    shared: op.shared,
    rows: op.rows,
    bytes: op.bytes,
  };
}

/** What inspect() says of one operator: its live figures. */
function figuresOf(op) {
  return {
    id: op.id,
    kind: op.kind,
    views: op.views,
    rows: op.rows,
    bytes: op.bytes,
    lastStepMicros: op.last_step_nanos / 1000,
    totalMicros: op.total_nanos / 1000,
    shared: op.shared,
    consumers: op.consumers,
  };
}

function viewOf(view) {
  return { name: view.name, operator: view.operator, materialized: view.materialized, bytes: view.bytes };
}

function explained(engine, view) {
  const name = view === undefined || view === null ? '' : requireString(view, 'the view');
  return JSON.parse(unwrap(engine.explain(name)).text);
}

/**
 * The circuit, or the part of it `view` depends on (UNKNOWN_VIEW when the
 * program has no such view): its text and its operators.
 */
export function explainCircuit(engine, view) {
  const json = explained(engine, view);
  return { text: json.text, operators: json.operators.map(operatorOf), views: json.views.map(viewOf) };
}

/** Every operator's live figures, the views' own state, and totals. */
export function inspectCircuit(engine) {
  const json = explained(engine, undefined);
  const t = json.totals;
  return {
    step: t.steps,
    operators: json.operators.map(figuresOf),
    views: json.views.map(viewOf),
    totals: {
      operators: t.operators,
      rows: t.rows,
      bytes: t.bytes,
      viewBytes: t.view_bytes,
      lastStepMicros: t.last_step_nanos / 1000,
      totalMicros: t.total_nanos / 1000,
    },
  };
}
