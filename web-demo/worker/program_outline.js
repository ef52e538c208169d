// What the dashboard shows of a program: its tables, the views it follows
// (the materialized ones: they have a snapshot to start from) and their
// indexes. Read from the program's description — the package's `p.program`,
// or the edge worker's `program_description`, both the engine's — never
// from the SQL text.

/**
 * @param {import('../../wasm-bindings/js/index.js').ProgramDescription} program
 * @returns {{ tables: string[], views: string[], indexes: { name: string, view: string }[] }}
 */
export function outlineOf(program) {
  return {
    tables: program.tables.map((table) => table.name),
    views: program.views.filter((view) => view.materialized).map((view) => view.name),
    indexes: program.views.flatMap((view) => view.indexes.map(({ name }) => ({ name, view: view.name }))),
  };
}
