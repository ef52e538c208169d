// Differential views of the query forms (group "10_query"): SELECT without
// FROM, VALUES, WITH, INTERSECT, set operations with ORDER BY / LIMIT, and
// LIMIT ... OFFSET. Not here, as SQLite lacks them or reads them otherwise:
// INTERSECT ALL / EXCEPT ALL (no ALL forms in SQLite), MINUS, FETCH, OFFSET
// without LIMIT, `AS t (a, b)` column lists, and INTERSECT's precedence
// (SQLite gives every compound operator one precedence). Those are checked by
// tests/sql/intersect_except_all.test, limit_offset.test, values.test and the
// operators' oracle tests.
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const bool kRegistered = register_differential_queries(
    "10_query",
    {
        {"qq_no_from", "SELECT 1 + 2 AS x, 'k' AS s"},
        {"qq_no_from_union", "SELECT dept AS d FROM emp UNION SELECT 99"},
        {"qq_values_cte",
         "WITH v (k, label) AS (VALUES (1, 'one'), (2, 'two'), (3, NULL)) "
         "SELECT e.id, v.label FROM emp e JOIN v ON e.dept = v.k"},
        {"qq_values_except", "SELECT k FROM tag EXCEPT VALUES (1), (2)"},
        {"qq_cte_chain",
         "WITH a AS (SELECT dept, salary FROM emp WHERE salary > 2), "
         "b AS (SELECT dept, COUNT(*) AS n FROM a GROUP BY dept) SELECT dept, n FROM b WHERE n >= 1"},
        {"qq_cte_twice",
         "WITH d AS (SELECT DISTINCT dept FROM emp WHERE dept IS NOT NULL) "
         "SELECT x.dept AS a, y.dept AS b FROM d AS x JOIN d AS y ON x.dept < y.dept"},
        {"qq_cte_shadow", "WITH dept AS (SELECT id, name FROM emp) SELECT id, name FROM dept WHERE id > 2"},
        {"qq_cte_in_subquery",
         "SELECT n FROM (WITH s AS (SELECT amount AS n FROM ev) SELECT n FROM s WHERE n > 0) AS q"},
        {"qq_intersect", "SELECT dept FROM emp INTERSECT SELECT id FROM dept"},
        {"qq_intersect_tag",
         "SELECT k, label FROM tag INTERSECT SELECT dept, name FROM emp WHERE bonus > 0 "
         "UNION SELECT k, label FROM tag WHERE k = 1"},
        {"qq_set_order_limit",
         "SELECT dept AS x FROM emp UNION SELECT id FROM dept ORDER BY x DESC NULLS LAST LIMIT 3"},
        {"qq_limit_offset", "SELECT id, salary FROM emp ORDER BY salary DESC NULLS LAST, id LIMIT 3 OFFSET 2"},
        {"qq_limit_comma",
         "SELECT name, bonus, id FROM emp ORDER BY bonus NULLS FIRST, name NULLS LAST, id LIMIT 2, 3"},
        {"qq_offset_events",
         "SELECT emp_id, kind, amount FROM ev "
         "ORDER BY amount DESC NULLS FIRST, emp_id NULLS LAST, kind NULLS FIRST LIMIT 4 OFFSET 3"},
        {"qq_nested_limit",
         "SELECT x FROM (SELECT id AS x FROM emp ORDER BY id LIMIT 6 OFFSET 1) AS t "
         "ORDER BY x DESC LIMIT 2"},
        {"qq_hidden_order", "SELECT name, dept FROM emp ORDER BY salary DESC NULLS LAST, id LIMIT 3 OFFSET 1"},
        {"qq_cte_set_limit",
         "WITH lo AS (SELECT id FROM emp WHERE bonus < 3), hi AS (SELECT id FROM emp WHERE bonus > 0) "
         "SELECT id FROM lo INTERSECT SELECT id FROM hi ORDER BY id LIMIT 3 OFFSET 1"},
    });

}  // namespace
}  // namespace freshet::testing
