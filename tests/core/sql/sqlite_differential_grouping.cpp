// The differential test's views for grouping (group "10_grouping"): GROUP BY
// ordinals and aliases, HAVING and ORDER BY naming output columns, GROUP BY
// expressions matched structurally, GROUP BY ALL, GROUPING SETS / ROLLUP /
// CUBE with GROUPING(), QUALIFY and SELECT DISTINCT ON. SQLite 3.40 has
// ordinals and aliases but none of the others: those views carry their
// SQLite spelling (UNION ALL of plain GROUP BYs, the grand total only over a
// non-empty input as in Feldera; ROW_NUMBER in a subquery).
#include "sqlite_differential_queries.h"

namespace freshet {
namespace {

const std::vector<testing::DifferentialQuery> kGroupingQueries = {
    {"g_ordinal", "SELECT dept, COUNT(*) AS n, SUM(bonus) AS sb FROM emp GROUP BY 1"},
    {"g_ordinal2", "SELECT kind, amount > 0 AS pos, COUNT(*) AS n, MAX(score) AS hi FROM ev GROUP BY 1, 2"},
    {"g_alias", "SELECT bonus / 4 AS bucket, COUNT(*) AS n, MIN(name) AS lo FROM emp GROUP BY bucket"},
    {"g_alias_having", "SELECT emp_id AS who, SUM(amount) AS s FROM ev GROUP BY who HAVING s > 5 AND who IS NOT NULL"},
    {"g_structural",
     "SELECT UPPER(kind) AS k, UPPER(ev.kind) || '!' AS k2, COUNT(*) AS n FROM ev GROUP BY UPPER(kind) "
     "HAVING UPPER(ev.kind) <> 'A'"},
    {"g_structural2",
     "SELECT e.dept + 1 AS d1, COUNT(*) AS n, SUM(e.bonus) AS sb FROM emp e GROUP BY dept + 1 "
     "HAVING e.dept + 1 > 1"},
    {"g_order_agg",
     "SELECT dept, SUM(bonus) AS sb FROM emp GROUP BY dept "
     "ORDER BY SUM(bonus) DESC NULLS LAST, dept NULLS FIRST LIMIT 2"},
    {"g_all", "SELECT dept, bonus / 4 AS b, COUNT(*) AS n FROM emp GROUP BY ALL",
     "SELECT dept, bonus / 4 AS b, COUNT(*) AS n FROM emp GROUP BY dept, bonus / 4"},
    {"g_rollup", "SELECT dept, bonus, COUNT(*) AS n, SUM(salary) AS s FROM emp GROUP BY ROLLUP(dept, bonus)",
     "SELECT dept, bonus, COUNT(*) AS n, SUM(salary) AS s FROM emp GROUP BY dept, bonus "
     "UNION ALL SELECT dept, NULL, COUNT(*), SUM(salary) FROM emp GROUP BY dept "
     "UNION ALL SELECT NULL, NULL, n, s FROM (SELECT COUNT(*) AS n, SUM(salary) AS s FROM emp) WHERE n > 0"},
    {"g_cube", "SELECT kind, emp_id, SUM(amount) AS s, GROUPING(kind, emp_id) AS g FROM ev GROUP BY CUBE(kind, emp_id)",
     "SELECT kind, emp_id, SUM(amount) AS s, 0 AS g FROM ev GROUP BY kind, emp_id "
     "UNION ALL SELECT kind, NULL, SUM(amount), 1 FROM ev GROUP BY kind "
     "UNION ALL SELECT NULL, emp_id, SUM(amount), 2 FROM ev GROUP BY emp_id "
     "UNION ALL SELECT NULL, NULL, s, 3 FROM (SELECT SUM(amount) AS s, COUNT(*) AS n FROM ev) WHERE n > 0"},
    {"g_sets",
     "SELECT region, dname, COUNT(*) AS n, GROUPING(region) AS gr, GROUPING(dname) AS gd FROM dept "
     "GROUP BY GROUPING SETS ((region), (dname), (region, dname), (region))",
     "SELECT region, NULL AS dname, COUNT(*) AS n, 0 AS gr, 1 AS gd FROM dept GROUP BY region "
     "UNION ALL SELECT NULL, dname, COUNT(*), 1, 0 FROM dept GROUP BY dname "
     "UNION ALL SELECT region, dname, COUNT(*), 0, 0 FROM dept GROUP BY region, dname "
     "UNION ALL SELECT region, NULL, COUNT(*), 0, 1 FROM dept GROUP BY region"},
    {"g_rollup_join",
     "SELECT d.region, e.dept, COUNT(*) AS n, MAX(e.salary) AS hi FROM emp e JOIN dept d ON e.dept = d.id "
     "GROUP BY ROLLUP(d.region, e.dept) HAVING COUNT(*) > 1",
     "SELECT * FROM (SELECT d.region, e.dept, COUNT(*) AS n, MAX(e.salary) AS hi FROM emp e JOIN dept d ON e.dept = "
     "d.id "
     "GROUP BY d.region, e.dept "
     "UNION ALL SELECT d.region, NULL, COUNT(*), MAX(e.salary) FROM emp e JOIN dept d ON e.dept = d.id GROUP BY "
     "d.region "
     "UNION ALL SELECT NULL, NULL, COUNT(*), MAX(e.salary) FROM emp e JOIN dept d ON e.dept = d.id) WHERE n > 1"},
    {"g_mixed_sets", "SELECT kind, emp_id / 2 AS half, COUNT(*) AS n FROM ev GROUP BY kind, ROLLUP(emp_id / 2)",
     "SELECT kind, emp_id / 2 AS half, COUNT(*) AS n FROM ev GROUP BY kind, emp_id / 2 "
     "UNION ALL SELECT kind, NULL, COUNT(*) FROM ev GROUP BY kind"},
    {"g_only_total", "SELECT COUNT(*) AS n, SUM(amount) AS s FROM ev GROUP BY GROUPING SETS (())",
     "SELECT COUNT(*) AS n, SUM(amount) AS s FROM ev"},
    {"g_qualify",
     "SELECT id, dept, salary FROM emp "
     "QUALIFY ROW_NUMBER() OVER (PARTITION BY dept ORDER BY salary DESC NULLS LAST, id) = 1",
     "SELECT id, dept, salary FROM (SELECT id, dept, salary, "
     "ROW_NUMBER() OVER (PARTITION BY dept ORDER BY salary DESC NULLS LAST, id) AS rn FROM emp) WHERE rn = 1"},
    {"g_qualify_alias",
     "SELECT emp_id, amount, RANK() OVER (PARTITION BY kind ORDER BY amount DESC NULLS LAST) AS r "
     "FROM ev QUALIFY r <= 2",
     "SELECT emp_id, amount, r FROM (SELECT emp_id, amount, "
     "RANK() OVER (PARTITION BY kind ORDER BY amount DESC NULLS LAST) AS r FROM ev) WHERE r <= 2"},
    {"g_distinct_on",
     "SELECT DISTINCT ON (kind) kind, emp_id, amount FROM ev "
     "ORDER BY kind, amount DESC NULLS LAST, emp_id NULLS LAST, score NULLS LAST",
     "SELECT kind, emp_id, amount FROM (SELECT kind, emp_id, amount, ROW_NUMBER() OVER (PARTITION BY kind "
     "ORDER BY amount DESC NULLS LAST, emp_id NULLS LAST, score NULLS LAST) AS rn FROM ev) WHERE rn = 1"},
    {"g_distinct_on_expr",
     "SELECT DISTINCT ON (dept / 2) dept / 2 AS half, id, salary FROM emp "
     "ORDER BY 1, salary NULLS FIRST, id",
     "SELECT half, id, salary FROM (SELECT dept / 2 AS half, id, salary, ROW_NUMBER() OVER (PARTITION BY dept / 2 "
     "ORDER BY salary NULLS FIRST, id) AS rn FROM emp) WHERE rn = 1"},
};

[[maybe_unused]] const bool kGroupingRegistered =
    testing::register_differential_queries("10_grouping", kGroupingQueries);

}  // namespace
}  // namespace freshet
