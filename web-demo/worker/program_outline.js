// What the dashboard needs to know about a SQL program without asking the
// engine: its tables, materialized views and indexes. The package does not
// list a program's views (only Pipeline internals know them), so the names
// are read from the CREATE statements; the engine remains the judge of
// whether the program compiles.

const COMMENT = /--[^\n]*|\/\*[\s\S]*?\*\//g;

/**
 * @param {string} sql
 * @returns {{ tables: string[], views: string[], indexes: { name: string, view: string }[] }}
 */
export function outlineProgram(sql) {
  const text = sql.replace(COMMENT, ' ');
  const names = (pattern) => [...text.matchAll(pattern)].map((match) => match.slice(1).map(unquote));
  return {
    tables: names(/\bCREATE\s+TABLE\s+("[^"]+"|\w+)/gi).map(([name]) => name),
    views: names(/\bCREATE\s+MATERIALIZED\s+VIEW\s+("[^"]+"|\w+)/gi).map(([name]) => name),
    indexes: names(/\bCREATE\s+INDEX\s+("[^"]+"|\w+)\s+ON\s+("[^"]+"|\w+)/gi).map(([name, view]) => ({ name, view })),
  };
}

// Unquoted names are lower-cased, as the engine does; quoted ones are kept.
function unquote(name) {
  return name.startsWith('"') ? name.slice(1, -1) : name.toLowerCase();
}
