// p.replaceProgram(sql): a program change in place, without re-creating
// the pipeline (core/src/pipeline/program_replace.cpp does the work).
//
//   kept views     (the same text, reading nothing that changed): their state, and
//                  their open streams and live views go on with no gap and
//                  no duplicate
//   new, changed   bootstrapped: run once over the full contents of their
//   or failed      inputs; a failed view is recovered. An open stream of a
//   views          changed or recovered materialized view gets one chunk, the
//                  difference between what it had and the new contents; of one
//                  not materialized (nothing to compare with), or whose
//                  columns changed, it ends with RESUME_UNAVAILABLE: open it
//                  again
//   removed views  their state goes; their streams end with UNKNOWN_VIEW
// Tables must stay as they are (PROGRAM_MISMATCH otherwise), and a new view
// needs the full contents of the tables it reads: a PRIMARY KEY table or a
// materialized one (PROGRAM_MISMATCH naming the view and the table). On any
// error the old program runs on, untouched.

import { requireString, unwrap } from './errors.js';

/**
 * Replaces `engine`'s program with `sql`.
 * @returns {{ rebuiltViews: string[], restoredOperators: number, rebuiltOperators: number }}
 */
export function replaceEngineProgram(engine, sql) {
  requireString(sql, 'the program');
  const reply = JSON.parse(unwrap(engine.replaceProgram(sql)).text);
  return {
    rebuiltViews: reply.rebuilt_views,
    restoredOperators: reply.restored_operators,
    rebuiltOperators: reply.rebuilt_operators,
  };
}
