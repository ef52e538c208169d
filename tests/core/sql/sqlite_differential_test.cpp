// The differential test against SQLite: one program of 4 tables and 78 views
// (every feature of the SQL subset, docs/sql.md), random inserts, updates and
// deletes over many steps applied to Freshet and to an in-memory SQLite
// database that holds the same tables and the same views. After every step
// every view's integrated contents (a multiset of rows) must equal SQLite's
// `SELECT * FROM view`. Rows compare as canonical text (sqlite_oracle.h):
// NULL, integers, numbers by value (an integral DOUBLE prints as an integer,
// BOOLEAN as 0/1, since SQLite has neither REAL-vs-INTEGER result types we can
// match nor booleans), strings quoted, DATE as 'YYYY-MM-DD' (TEXT in SQLite).
//
// Seeds are printed; FRESHET_SEED=<n> replays one run.
//
// Differences from SQLite (kept out of the comparison; also listed in
// tests/sql/README.md under "Differences from SQLite"). Freshet follows the
// SQL standard / Feldera in each case:
//  - AVG of an integer column: Freshet (like Feldera) returns the column's
//    integer type, truncated toward zero; SQLite returns REAL. The queries
//    take AVG only of DOUBLE columns or of CAST(x AS DOUBLE).
//  - Division by zero: an error that fails the step in Freshet; NULL in
//    SQLite. Every divisor here is a non-zero constant.
//  - Integer overflow: an error in Freshet; SQLite silently switches to REAL
//    (or errors only in SUM). Values are kept small.
//  - Default NULL ordering: Freshet sorts NULLs last for ASC and first for
//    DESC (as Feldera/PostgreSQL); SQLite sorts NULLs first for ASC. Every
//    ORDER BY on a nullable column states NULLS FIRST/LAST, and orders by
//    every output column so LIMIT picks a deterministic multiset.
//  - LIKE: case-insensitive in SQLite by default; Freshet's is case-sensitive
//    (standard). SQLite runs with PRAGMA case_sensitive_like = ON.
//  - Types: SQLite's type affinity compares strings with numbers and turns
//    '1' into 1; Freshet has static types (VARCHAR + INT is a compile-time
//    type error), with no implicit string/number conversion. No query
//    mixes them; `||` takes CAST(x AS VARCHAR) of numbers. SQLite has
//    no BOOLEAN (0/1) and no DATE (TEXT here) and no DECIMAL (REAL): the
//    tables have no DECIMAL or BOOLEAN columns, booleans compare as 0/1.
//  - CAST of a DOUBLE to VARCHAR: the text may differ (SQLite writes '3.0');
//    not used.
//  - Result types: SQLite may return INTEGER where Freshet returns DOUBLE
//    (ROUND, SUM of a REAL column that happens to be integral...): numbers
//    compare by value.
//  - Dialect: DATE 'yyyy-mm-dd' literals (SQLite: a plain string), CHAR_LENGTH
//    (SQLite: LENGTH), SUBSTRING(s, a, b) (SQLite: SUBSTR) are rewritten for
//    SQLite; SUBSTRING with a start below 1 and ROUND with negative digits
//    behave differently in SQLite and are not used.
// The same in both (and compared): integer division truncates toward zero
// (-7 / 2 = -3); SUM/MIN/MAX/AVG of an empty set are NULL and COUNT is 0 (a
// global aggregate has one row even over an empty table); UNION and EXCEPT
// are set operations (UNION ALL keeps duplicates); NULL = NULL is unknown.
#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "freshet/sql/compiler.h"
#include "freshet/types/temporal.h"
#include "sqlite_differential_queries.h"
#include "sqlite_oracle.h"
#include "support/oracle.h"
#include "support/zset_map.h"

namespace freshet::sql {
namespace {

using testing::CellValue;
using testing::ModelRow;

// The Freshet DDL; SQLite gets the same column names with SQLite types.
const char* kFreshetTables = R"(
CREATE TABLE emp (id BIGINT NOT NULL PRIMARY KEY, dept INT, name VARCHAR, salary DOUBLE, bonus INT, hired DATE);
CREATE TABLE dept (id INT NOT NULL, dname VARCHAR, budget BIGINT, region VARCHAR, PRIMARY KEY (id));
CREATE TABLE ev (emp_id BIGINT, kind VARCHAR, amount INT, score DOUBLE);
CREATE TABLE tag (k INT NOT NULL, label VARCHAR);
)";
const char* kSqliteTables = R"(
CREATE TABLE emp (id INTEGER NOT NULL PRIMARY KEY, dept INTEGER, name TEXT, salary REAL, bonus INTEGER, hired TEXT);
CREATE TABLE dept (id INTEGER NOT NULL PRIMARY KEY, dname TEXT, budget INTEGER, region TEXT);
CREATE TABLE ev (emp_id INTEGER, kind TEXT, amount INTEGER, score REAL);
CREATE TABLE tag (k INTEGER NOT NULL, label TEXT);
)";

using Query = testing::DifferentialQuery;

// Views may use earlier ones (views on views). More views, one feature per
// file, register themselves (sqlite_differential_queries.h).
const std::vector<Query> kBaseQueries = {
    // projection, *, t.*, expressions, aliases
    {"q_star", "SELECT * FROM emp"},
    {"q_tstar", "SELECT e.*, d.dname FROM emp e JOIN dept d ON e.dept = d.id"},
    {"q_arith", "SELECT id, (bonus + dept) * 2 - id AS a, salary / 2 AS h, salary - bonus AS sb, -bonus AS nb, "
                "bonus * bonus AS sq FROM emp"},
    {"q_intdiv", "SELECT id, bonus / 3 AS q, (bonus - 7) / 2 AS q2, -id / 4 AS q3 FROM emp WHERE bonus IS NOT NULL"},
    {"q_distinct", "SELECT DISTINCT dept, bonus > 0 AS pos FROM emp"},
    {"q_distinct_str", "SELECT DISTINCT kind FROM ev"},
    // WHERE and three-valued logic, predicates
    {"q_3vl_not", "SELECT id FROM emp WHERE NOT (bonus > 2 AND salary < 10)"},
    {"q_3vl_or", "SELECT id, name FROM emp WHERE bonus > 5 OR salary IS NULL OR NOT (dept <> 2)"},
    {"q_3vl_values", "SELECT id, bonus > 2 AND salary < 10 AS a, bonus > 2 OR salary < 10 AS o, NOT (dept = 1) AS n, "
                     "bonus IS NULL AS bn, name IS NOT NULL AS nn FROM emp"},
    {"q_between", "SELECT id FROM emp WHERE salary BETWEEN 2 AND 10.5 OR NOT (bonus BETWEEN 0 AND 5)"},
    {"q_in", "SELECT id, dept FROM emp WHERE dept IN (1, 3, 5) OR name IN ('ann', 'eve')"},
    {"q_not_in", "SELECT id, dept FROM emp WHERE NOT (dept IN (2, 4))"},
    {"q_like", "SELECT id, name FROM emp WHERE name LIKE 'a%' OR name LIKE '_o%'"},
    {"q_like2", "SELECT k, label FROM tag WHERE label LIKE '%b' OR NOT (label LIKE 'a%')"},
    {"q_date", "SELECT id, hired FROM emp WHERE hired >= DATE '2024-01-01' AND hired < DATE '2024-03-01'"},
    // CASE, CAST, COALESCE and functions
    {"q_case", "SELECT id, CASE WHEN bonus > 5 THEN 'high' WHEN bonus > 0 THEN 'low' ELSE 'none' END AS level, "
               "CASE dept WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS dn FROM emp"},
    {"q_cast", "SELECT id, CAST(salary AS INT) AS si, CAST(bonus AS DOUBLE) / 4 AS bd, "
               "CAST(bonus AS VARCHAR) || '!' AS bs, CAST(id AS BIGINT) * 3 AS i3 FROM emp"},
    {"q_coalesce", "SELECT id, COALESCE(bonus, dept, -1) AS c, COALESCE(name, 'nobody') AS n FROM emp"},
    {"q_numfn", "SELECT id, ABS(bonus) AS ab, ABS(salary) AS asal, ROUND(salary) AS r, ROUND(salary / 4, 1) AS r1 FROM emp"},
    {"q_strfn", "SELECT id, LOWER(name) AS lo, UPPER(SUBSTRING(name, 1, 2)) AS up, CHAR_LENGTH(name) AS len, SUBSTRING(name, 2, 2) AS mid, "
                "name || '-' || COALESCE(CAST(dept AS VARCHAR), '?') AS tagged FROM emp"},
    {"q_strfn2", "SELECT k, UPPER(SUBSTRING(label, 1, 1)) || LOWER(label) AS l2, CHAR_LENGTH(label) + k AS n FROM tag"},
    // joins
    {"q_inner_equi", "SELECT e.id, e.name, d.dname FROM emp e JOIN dept d ON e.dept = d.id"},
    {"q_inner_nonequi", "SELECT e.id, t.k FROM emp e JOIN tag t ON e.dept < t.k AND e.bonus > t.k"},
    {"q_inner_mixed", "SELECT e.id, d.id AS did FROM emp e INNER JOIN dept d ON e.dept = d.id AND e.salary * 10 > d.budget"},
    {"q_left", "SELECT e.id, d.dname, d.region FROM emp e LEFT JOIN dept d ON e.dept = d.id"},
    {"q_left_nonequi", "SELECT d.id, t.label FROM dept d LEFT JOIN tag t ON t.k > d.id AND t.label IS NOT NULL"},
    {"q_left_where", "SELECT e.id, ev.kind FROM emp e LEFT OUTER JOIN ev ON ev.emp_id = e.id "
                     "WHERE ev.kind IS NULL OR ev.amount > 5"},
    {"q_cross", "SELECT d.id, t.label FROM dept d CROSS JOIN tag t WHERE d.id + t.k = 5"},
    {"q_cross_all", "SELECT t.k, d.region FROM tag t CROSS JOIN dept d"},
    {"q_three_way", "SELECT e.name, d.region, ev.amount FROM emp e JOIN dept d ON e.dept = d.id "
                    "JOIN ev ON ev.emp_id = e.id WHERE ev.amount > 0"},
    // subqueries in FROM
    {"q_sub", "SELECT s.dept, s.total FROM (SELECT dept, SUM(bonus) AS total FROM emp GROUP BY dept) AS s "
              "WHERE s.total > 3"},
    {"q_sub_nested", "SELECT x.k, x.c FROM (SELECT t.k, COUNT(*) AS c FROM tag t JOIN "
                     "(SELECT id FROM dept WHERE region IS NOT NULL) AS dd ON t.k = dd.id GROUP BY t.k) AS x "
                     "WHERE x.c >= 1"},
    // grouping and aggregates
    {"q_group", "SELECT dept, COUNT(*) AS n, COUNT(bonus) AS nb, COUNT(DISTINCT bonus) AS db, SUM(bonus) AS sb, "
                "MIN(bonus) AS lo, MAX(bonus) AS hi FROM emp GROUP BY dept"},
    {"q_group_double", "SELECT dept, SUM(salary) AS s, AVG(salary) AS a, MIN(salary) AS lo, MAX(salary) AS hi "
                       "FROM emp GROUP BY dept"},
    {"q_avg_cast", "SELECT kind, AVG(CAST(amount AS DOUBLE)) AS a, COUNT(DISTINCT emp_id) AS de, MIN(kind) AS mk "
                   "FROM ev GROUP BY kind"},
    {"q_group_expr", "SELECT bonus / 4 AS bucket, COUNT(*) AS n, MAX(name) AS mx, MIN(hired) AS first "
                     "FROM emp GROUP BY bonus / 4"},
    {"q_group_expr2", "SELECT UPPER(kind) AS k, amount > 0 AS pos, SUM(amount) AS s, COUNT(score) AS c "
                      "FROM ev GROUP BY UPPER(kind), amount > 0"},
    {"q_having", "SELECT dept, COUNT(*) AS n FROM emp GROUP BY dept HAVING COUNT(*) > 2 AND SUM(bonus) > 0"},
    {"q_having2", "SELECT emp_id, SUM(amount) AS s FROM ev GROUP BY emp_id HAVING MAX(score) >= 2 OR COUNT(*) = 1"},
    {"q_global", "SELECT COUNT(*) AS n, COUNT(salary) AS ns, SUM(salary) AS s, AVG(salary) AS a, MIN(name) AS lo, "
                 "MAX(hired) AS hi, COUNT(DISTINCT dept) AS nd FROM emp"},
    {"q_global_filtered", "SELECT COUNT(*) AS n, SUM(amount) AS s, COUNT(DISTINCT kind) AS k FROM ev WHERE score > 3"},
    {"q_global_having", "SELECT SUM(k) AS s FROM tag HAVING COUNT(*) > 3"},
    {"q_agg_expr", "SELECT dept, MAX(bonus) - MIN(bonus) AS spread, SUM(bonus) + COUNT(*) AS sc, "
                   "COALESCE(SUM(bonus), 0) * 2 AS s2 FROM emp GROUP BY dept"},
    {"q_join_group", "SELECT d.region, COUNT(*) AS n, SUM(e.salary) AS total FROM emp e JOIN dept d ON e.dept = d.id "
                     "GROUP BY d.region"},
    {"q_left_group", "SELECT d.id, COUNT(e.id) AS n, SUM(e.bonus) AS sb FROM dept d LEFT JOIN emp e ON e.dept = d.id "
                     "GROUP BY d.id"},
    // set operations
    {"q_union", "SELECT dept AS x FROM emp UNION SELECT id FROM dept"},
    {"q_union_all", "SELECT name AS s FROM emp WHERE bonus > 3 UNION ALL SELECT kind FROM ev WHERE amount < 0"},
    {"q_except", "SELECT dept FROM emp EXCEPT SELECT id FROM dept WHERE budget > 100"},
    {"q_except2", "SELECT emp_id, kind FROM ev EXCEPT SELECT id, name FROM emp"},
    // views on views
    {"q_rich", "SELECT id, dept, salary FROM emp WHERE salary > 5"},
    {"q_rich_by_dept", "SELECT dept, COUNT(*) AS n, MAX(salary) AS top FROM q_rich GROUP BY dept"},
    {"q_rich_join", "SELECT r.id, d.dname FROM q_rich r JOIN dept d ON r.dept = d.id"},
    {"q_distinct_join", "SELECT DISTINCT d.region, ev.kind FROM ev JOIN emp e ON ev.emp_id = e.id "
                        "JOIN dept d ON d.id = e.dept"},
    {"q_rich_except", "SELECT dept FROM q_rich EXCEPT SELECT dept FROM emp WHERE bonus < 0"},
    // more mixes
    {"q_join_types", "SELECT e.id, ev.amount FROM emp e JOIN ev ON ev.emp_id = e.dept AND ev.amount < e.bonus"},
    {"q_self_join", "SELECT a.id, b.id AS other FROM emp a JOIN emp b ON a.name = b.name AND a.id < b.id"},
    {"q_sub_left_agg", "SELECT s.region, COUNT(*) AS n, SUM(s.cnt) AS total FROM (SELECT d.region, d.id, "
                       "COUNT(e.id) AS cnt FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.region, d.id) AS s "
                       "GROUP BY s.region"},
    {"q_case_null", "SELECT id, CASE WHEN salary IS NULL THEN NULL WHEN salary > 10 THEN salary ELSE -salary END AS cs, "
                    "COALESCE(CASE WHEN bonus > 0 THEN name END, 'x') AS cn FROM emp"},
    {"q_date_between", "SELECT COUNT(*) AS n, MIN(id) AS lo, MAX(hired) AS last FROM emp "
                       "WHERE hired BETWEEN DATE '2023-12-01' AND DATE '2024-01-31'"},
    {"q_union_three", "SELECT label AS v FROM tag UNION ALL SELECT dname FROM dept UNION SELECT region FROM dept"},
    {"q_distinct_expr", "SELECT DISTINCT LOWER(name) AS ln, dept IS NULL AS nd FROM emp"},
    {"q_left_view", "SELECT d.id, g.n, g.hi FROM dept d LEFT JOIN q_group g ON g.dept = d.id"},
    {"q_expr_join", "SELECT e.id, t.k FROM emp e JOIN tag t ON SUBSTRING(e.name, 1, 1) = t.label"},
    {"q_distinct_union_all", "SELECT DISTINCT v FROM (SELECT kind AS v FROM ev UNION ALL SELECT name FROM emp) AS u"},
    // ORDER BY ... LIMIT (top-k), with a total order on the output columns
    {"q_top", "SELECT id, salary FROM emp ORDER BY salary DESC NULLS LAST, id LIMIT 5"},
    {"q_top_asc", "SELECT name, bonus FROM emp ORDER BY bonus ASC NULLS FIRST, name NULLS LAST LIMIT 4"},
    {"q_top_view", "SELECT dept, n FROM q_group ORDER BY n DESC, dept NULLS FIRST LIMIT 2"},
    {"q_top_names", "SELECT name, dept FROM emp ORDER BY name DESC NULLS LAST, dept NULLS FIRST LIMIT 3"},
    {"q_top_sum", "SELECT COUNT(*) AS n, SUM(salary) AS s, MIN(id) AS lo FROM q_top"},
    {"q_top_events", "SELECT emp_id, kind, amount FROM ev "
                     "ORDER BY amount DESC NULLS FIRST, emp_id NULLS LAST, kind NULLS FIRST LIMIT 3"},
    // window functions (ORDER BY ends with a unique column where ties would matter)
    {"w_row_number", "SELECT id, dept, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY bonus DESC NULLS LAST, id) AS rn "
                     "FROM emp"},
    {"w_rank", "SELECT id, RANK() OVER (PARTITION BY dept ORDER BY bonus NULLS FIRST) AS r, "
               "DENSE_RANK() OVER (ORDER BY dept NULLS LAST) AS d FROM emp"},
    {"w_top2", "SELECT * FROM (SELECT id, dept, bonus, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY bonus DESC "
               "NULLS LAST, id) AS rn FROM emp) AS t WHERE rn <= 2"},
    {"w_rank_top", "SELECT id, r FROM (SELECT id, RANK() OVER (PARTITION BY dept ORDER BY salary DESC NULLS LAST) AS r "
                   "FROM emp) AS t WHERE r < 3"},
    {"w_lag_lead", "SELECT id, LAG(bonus) OVER (PARTITION BY dept ORDER BY id) AS prev, "
                   "LEAD(name, 2, 'none') OVER (PARTITION BY dept ORDER BY id) AS nxt FROM emp"},
    {"w_running", "SELECT id, SUM(bonus) OVER (PARTITION BY dept ORDER BY bonus NULLS FIRST) AS run, "
                  "COUNT(*) OVER (PARTITION BY dept) AS n, MAX(salary) OVER (PARTITION BY dept) AS top FROM emp"},
    {"w_rows", "SELECT id, SUM(bonus) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS s, "
               "MIN(salary) OVER (ORDER BY id ROWS 3 PRECEDING) AS m FROM emp"},
    {"w_range", "SELECT emp_id, kind, amount, SUM(amount) OVER (PARTITION BY kind ORDER BY amount RANGE BETWEEN 3 "
                "PRECEDING AND CURRENT ROW) AS s, COUNT(*) OVER (ORDER BY amount DESC RANGE BETWEEN 2 PRECEDING AND 2 "
                "FOLLOWING) AS c FROM ev WHERE amount IS NOT NULL"},
};

[[maybe_unused]] const bool kBaseRegistered = testing::register_differential_queries("00_base", kBaseQueries);

// Freshet's dialect -> SQLite's.
std::string to_sqlite(std::string sql) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (size_t at = sql.find(from); at != std::string::npos; at = sql.find(from, at + to.size())) {
      sql.replace(at, from.size(), to);
    }
  };
  replace_all("CHAR_LENGTH(", "LENGTH(");
  replace_all("SUBSTRING(", "SUBSTR(");
  replace_all("DATE '", "'");
  return sql;
}

// A table of the model: column kinds and a generator of random rows.
struct TableModel {
  std::string name;
  std::vector<std::string> columns;
  bool keyed;  // PRIMARY KEY on column 0
  std::function<ModelRow(std::mt19937_64&, int64_t key)> generate;
  std::map<int64_t, ModelRow> by_key;  // keyed tables
  std::vector<ModelRow> rows;          // keyless tables: a multiset
};

int pick(std::mt19937_64& random, int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); }
bool chance(std::mt19937_64& random, double p) { return std::bernoulli_distribution(p)(random); }

CellValue maybe_null(std::mt19937_64& random, CellValue value, double p = 0.15) {
  return chance(random, p) ? CellValue::null() : value;
}
CellValue small_int(std::mt19937_64& random, int low, int high) { return CellValue::integer(pick(random, low, high)); }
CellValue half(std::mt19937_64& random, int low, int high) { return CellValue::real(pick(random, low, high) * 0.5); }
CellValue one_of(std::mt19937_64& random, const std::vector<const char*>& values) {
  const char* value = values[pick(random, 0, static_cast<int>(values.size()) - 1)];
  return value ? CellValue::text(value) : CellValue::null();
}
CellValue some_date(std::mt19937_64& random) {
  int32_t base = *parse_date("2023-11-15");
  return CellValue::date(format_date(base + pick(random, 0, 120)));
}

std::vector<TableModel> make_tables() {
  std::vector<TableModel> tables;
  tables.push_back({"emp", {"id", "dept", "name", "salary", "bonus", "hired"}, true,
                    [](std::mt19937_64& r, int64_t key) {
                      return ModelRow{CellValue::integer(key), maybe_null(r, small_int(r, 1, 6)),
                                      one_of(r, {"ann", "Bob", "carl", "Dana", "eve", "Ann", "bo", "o'neil", "zo\u00eb", "", nullptr}),
                                      maybe_null(r, half(r, -4, 40)), maybe_null(r, small_int(r, -5, 10)),
                                      maybe_null(r, some_date(r))};
                    }, {}, {}});
  tables.push_back({"dept", {"id", "dname", "budget", "region"}, true, [](std::mt19937_64& r, int64_t key) {
                      return ModelRow{CellValue::integer(key),
                                      one_of(r, {"Sales", "sales", "R&D", "Ops", "ops_team", nullptr}),
                                      maybe_null(r, CellValue::integer(pick(r, -2, 20) * 10)),
                                      one_of(r, {"east", "west", "north", nullptr})};
                    }, {}, {}});
  tables.push_back({"ev", {"emp_id", "kind", "amount", "score"}, false, [](std::mt19937_64& r, int64_t) {
                      return ModelRow{maybe_null(r, small_int(r, 1, 20), 0.1),
                                      one_of(r, {"click", "view", "buy", "Buy", nullptr}),
                                      maybe_null(r, small_int(r, -10, 20)), maybe_null(r, half(r, 0, 12))};
                    }, {}, {}});
  tables.push_back({"tag", {"k", "label"}, false, [](std::mt19937_64& r, int64_t) {
                      return ModelRow{small_int(r, 1, 6), one_of(r, {"a", "b", "c", "ab", "%x", "Ab", nullptr})};
                    }, {}, {}});
  return tables;
}

std::string encode(const Schema& schema, const ModelRow& row) {
  RowBuilder builder(schema);
  for (size_t c = 0; c < row.size(); ++c) {
    const CellValue& value = row[c];
    switch (value.kind) {
      case CellValue::kNull: builder.set_null(c); break;
      case CellValue::kInt: builder.set_int(c, value.i); break;
      case CellValue::kDouble: builder.set_double(c, value.d); break;
      case CellValue::kText: builder.set_string(c, value.s); break;
      case CellValue::kDate: builder.set_int(c, *parse_date(value.s)); break;
    }
  }
  return builder.finish().to_bytes();
}

std::string describe_row(const ModelRow& row) {
  std::string out = "(";
  for (size_t c = 0; c < row.size(); ++c) out += (c ? ", " : "") + testing::describe_cell(row[c]);
  return out + ")";
}

std::string list(const std::vector<std::string>& rows) {
  std::string out;
  for (const std::string& row : rows) out += "    " + row + "\n";
  return out.empty() ? "    (none)\n" : out;
}

// `max_changes`: the most changes per table per step once the tables have grown.
void run_differential(uint64_t seed, int steps, int max_changes) {
  const std::vector<Query> kQueries = testing::differential_queries();
  std::string program = kFreshetTables;
  for (const Query& query : kQueries) program += std::string("CREATE VIEW ") + query.name + " AS " + query.sql + ";\n";
  Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(program);
  ASSERT_TRUE(compiled.ok()) << compiled.status().to_string();
  CompiledProgram& freshet = **compiled;

  testing::SqliteDb sqlite;
  Status status = sqlite.exec(std::string("PRAGMA case_sensitive_like = ON;") + kSqliteTables);
  ASSERT_TRUE(status.ok()) << status.to_string();
  for (const Query& query : kQueries) {
    status = sqlite.exec(std::string("CREATE VIEW ") + query.name + " AS " + to_sqlite(query.sqlite_sql ? query.sqlite_sql : query.sql) + ";");
    ASSERT_TRUE(status.ok()) << status.to_string();
  }

  std::vector<TableModel> tables = make_tables();
  std::map<std::string, testing::ZSetMap> integrated;
  std::mt19937_64 random(seed);
  std::string log;  // this step's changes, for the failure message
  // The most rows each view held at any step: a query that is always empty
  // would compare nothing.
  std::vector<size_t> most_rows(kQueries.size(), 0);

  for (int step = 0; step < steps; ++step) {
    log.clear();
    for (TableModel& table : tables) {
      const CompiledTable* target = freshet.find_table(table.name);
      ASSERT_NE(target, nullptr);
      const Schema& schema = *target->schema;
      std::string placeholders;
      for (size_t c = 0; c < table.columns.size(); ++c) placeholders += (c ? ", ?" : "?");
      // Early steps grow the tables; later ones churn.
      int changes = pick(random, 0, step < 20 ? std::max(5, max_changes) : max_changes);
      for (int change = 0; change < changes; ++change) {
        // 0-4 insert, 5-7 update, 8-9 delete; a keyless table stops growing at 30 rows
        int op = pick(random, !table.keyed && table.rows.size() >= 30 ? 5 : 0, 9);
        if (table.keyed) {
          int64_t max_key = table.name == "emp" ? 24 : 7;
          int64_t key = pick(random, 1, static_cast<int>(max_key));
          if (op >= 5 && !table.by_key.empty()) {
            // update or delete an existing key (a delete of a missing key now and then)
            auto it = table.by_key.begin();
            std::advance(it, pick(random, 0, static_cast<int>(table.by_key.size()) - 1));
            if (!(op >= 8 && chance(random, 0.1))) key = it->first;
          }
          if (op >= 8) {
            ModelRow row = table.generate(random, key);  // only the key matters
            std::string bytes = encode(schema, row);
            target->upsert_input->push_delete_row(RowRef(bytes));
            status = sqlite.run("DELETE FROM " + table.name + " WHERE " + table.columns[0] + " = ?1", {row[0]});
            table.by_key.erase(key);
            log += "  delete " + table.name + " key " + std::to_string(key) + "\n";
          } else {
            ModelRow row = table.generate(random, key);
            std::string bytes = encode(schema, row);
            target->upsert_input->push_upsert(RowRef(bytes));
            status = sqlite.run("INSERT OR REPLACE INTO " + table.name + " VALUES (" + placeholders + ")", row);
            table.by_key[key] = row;
            log += "  upsert " + table.name + " " + describe_row(row) + "\n";
          }
        } else {
          bool remove = op >= 5 && !table.rows.empty();
          if (remove) {
            // delete one copy (op 8-9) or update it (delete + insert, op 5-7)
            size_t at = static_cast<size_t>(pick(random, 0, static_cast<int>(table.rows.size()) - 1));
            ModelRow row = table.rows[at];
            table.rows.erase(table.rows.begin() + static_cast<long>(at));
            std::string bytes = encode(schema, row);
            target->input->push_row(RowRef(bytes), -1);
            std::string where;
            for (size_t c = 0; c < table.columns.size(); ++c) {
              where += (c ? " AND " : "") + table.columns[c] + " IS ?" + std::to_string(c + 1);
            }
            status = sqlite.run("DELETE FROM " + table.name + " WHERE rowid = (SELECT rowid FROM " + table.name +
                                    " WHERE " + where + " LIMIT 1)",
                                row);
            ASSERT_TRUE(status.ok()) << status.to_string();
            log += "  delete " + table.name + " " + describe_row(row) + "\n";
          }
          if (!remove || op < 8) {
            ModelRow row = table.generate(random, 0);
            // a duplicate of an existing row now and then
            if (!table.rows.empty() && chance(random, 0.15)) {
              row = table.rows[static_cast<size_t>(pick(random, 0, static_cast<int>(table.rows.size()) - 1))];
            }
            std::string bytes = encode(schema, row);
            target->input->push_row(RowRef(bytes), 1);
            status = sqlite.run("INSERT INTO " + table.name + " VALUES (" + placeholders + ")", row);
            table.rows.push_back(row);
            log += "  insert " + table.name + " " + describe_row(row) + "\n";
          }
        }
        ASSERT_TRUE(status.ok()) << status.to_string();
      }
    }

    status = freshet.circuit->step();
    if (status.ok()) status = freshet.circuit->last_step_error();
    ASSERT_TRUE(status.ok()) << "step " << step << " (FRESHET_SEED=" << seed << ") failed: " << status.to_string()
                             << "\nchanges:\n" << log;

    for (size_t q = 0; q < kQueries.size(); ++q) {
      const Query& query = kQueries[q];
      const CompiledView* view = freshet.find_view(query.name);
      ASSERT_NE(view, nullptr) << query.name;
      testing::ZSetMap& contents = integrated[query.name];
      testing::add_batch(contents, *view->stream.current());
      std::vector<std::string> actual;
      for (const auto& [entry, weight] : contents) {
        std::string row = testing::canonical_row(*view->schema, RowRef(entry.first));
        if (weight < 0) actual.push_back("NEGATIVE WEIGHT " + std::to_string(weight) + ": " + row);
        for (Weight w = 0; w < weight; ++w) actual.push_back(row);
      }
      std::sort(actual.begin(), actual.end());
      most_rows[q] = std::max(most_rows[q], actual.size());
      Result<std::vector<std::string>> expected = sqlite.query(std::string("SELECT * FROM ") + query.name);
      ASSERT_TRUE(expected.ok()) << expected.status().to_string();
      if (actual != *expected) {
        std::vector<std::string> only_freshet, only_sqlite;
        std::set_difference(actual.begin(), actual.end(), expected->begin(), expected->end(),
                            std::back_inserter(only_freshet));
        std::set_difference(expected->begin(), expected->end(), actual.begin(), actual.end(),
                            std::back_inserter(only_sqlite));
        FAIL() << "view " << query.name << " differs from SQLite after step " << step << " (FRESHET_SEED=" << seed
               << ")\n  query: " << query.sql << "\n  only in Freshet:\n"
               << list(only_freshet) << "  only in SQLite:\n"
               << list(only_sqlite) << "  this step's changes:\n"
               << log;
      }
    }
  }
  std::string summary;
  for (size_t q = 0; q < kQueries.size(); ++q) {
    EXPECT_GT(most_rows[q], 0u) << "view " << kQueries[q].name << " was always empty";
    summary += std::string(q ? ", " : "") + kQueries[q].name + " " + std::to_string(most_rows[q]);
  }
  std::printf("[ views    ] %zu views, most rows: %s\n", kQueries.size(), summary.c_str());
}

TEST(SqliteDifferential, RandomChangesMatchSqlite) {
  uint64_t seed = testing::test_seed(20240611);
  run_differential(seed, 400, 3);
}

TEST(SqliteDifferential, SecondSeed) {
  uint64_t seed = testing::test_seed(777);
  run_differential(seed, 400, 3);
}

// Bursty: many changes per step, so one step's deltas interact more.
TEST(SqliteDifferential, ManyChangesPerStep) {
  uint64_t seed = testing::test_seed(31337);
  run_differential(seed, 250, 12);
}

}  // namespace
}  // namespace freshet::sql
