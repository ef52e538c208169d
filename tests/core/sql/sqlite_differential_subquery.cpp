// Differential views of subqueries in expressions (group 10_subquery):
// [NOT] IN, [NOT] EXISTS and scalar subqueries, uncorrelated and correlated
// (on equalities and on other predicates), in WHERE, the select list and
// CASE, nested, in HAVING and an aggregate's select list. SQLite has no ANY/ALL: tests/sql/any_all.test checks those.
// A scalar subquery here yields at most one row (SQLite would take the first
// of several where Freshet fails the step).
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const std::vector<DifferentialQuery> kSubqueryQueries = {
    {"s_in", "SELECT id, name FROM emp WHERE dept IN (SELECT id FROM dept WHERE budget > 50)"},
    {"s_not_in", "SELECT id FROM emp WHERE bonus NOT IN (SELECT amount FROM ev WHERE kind = 'buy')"},
    {"s_in_mark",
     "SELECT id, dept IN (SELECT k FROM tag WHERE label LIKE 'a%') AS m, "
     "bonus NOT IN (SELECT amount FROM ev WHERE score > 6) AS n FROM emp"},
    {"s_in_or", "SELECT id FROM emp WHERE bonus > 8 OR dept IN (SELECT k FROM tag WHERE label = 'c')"},
    {"s_in_corr", "SELECT id FROM emp e WHERE e.bonus IN (SELECT amount FROM ev WHERE ev.emp_id = e.id)"},
    {"s_not_in_corr", "SELECT id, bonus NOT IN (SELECT amount FROM ev WHERE ev.emp_id = emp.id) AS ni FROM emp"},
    {"s_exists", "SELECT id, name FROM emp WHERE EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = emp.id)"},
    {"s_not_exists",
     "SELECT id FROM emp WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = emp.id AND ev.amount > 5)"},
    // NOT EXISTS as a WHERE conjunct is an anti-join: uncorrelated, beside
    // another conjunct, correlated on two columns (NULL keys match nothing)
    // and on a non-equality (the DISTINCT outer values joined back).
    {"s_not_exists_uncorrelated", "SELECT id FROM emp WHERE NOT EXISTS (SELECT 1 FROM dept WHERE budget > 150)"},
    {"s_not_exists_and",
     "SELECT id, name FROM emp WHERE bonus > 2 AND NOT EXISTS (SELECT 1 FROM tag WHERE tag.k = emp.dept) "
     "AND salary < 95"},
    {"s_not_exists_two_keys",
     "SELECT id FROM emp WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = emp.id AND ev.amount = emp.bonus)"},
    {"s_not_exists_residual", "SELECT id FROM emp WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.amount > emp.bonus + 8)"},
    // ... nested, twice in one WHERE, under a GROUP BY, inside an IN's
    // subquery, and correlated NULL-safely (IS NOT DISTINCT FROM).
    {"s_not_exists_nested",
     "SELECT d.id FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.id AND "
     "NOT EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = e.id))"},
    {"s_not_exists_twice",
     "SELECT id FROM emp WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = emp.id) AND "
     "NOT EXISTS (SELECT 1 FROM tag WHERE tag.k = emp.dept)"},
    {"s_not_exists_grouped",
     "SELECT dept, COUNT(*) AS n FROM emp WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = emp.id AND "
     "ev.amount > emp.bonus) GROUP BY dept"},
    {"s_not_exists_in_in",
     "SELECT id FROM emp WHERE dept IN (SELECT id FROM dept WHERE NOT EXISTS (SELECT 1 FROM tag WHERE tag.k = "
     "dept.id))"},
    {"s_not_exists_null_safe",
     "SELECT id FROM emp WHERE NOT EXISTS (SELECT 1 FROM ev WHERE ev.amount IS NOT DISTINCT FROM emp.bonus)"},
    {"s_exists_residual",
     "SELECT id FROM emp WHERE EXISTS (SELECT 1 FROM ev WHERE ev.amount > emp.bonus + 8 AND "
     "ev.kind = 'view')"},
    {"s_exists_mark",
     "SELECT id, EXISTS (SELECT 1 FROM tag WHERE tag.k = emp.dept) AS t, "
     "NOT EXISTS (SELECT 1 FROM dept WHERE budget > 150) AS nd FROM emp"},
    {"s_scalar_count", "SELECT id, (SELECT COUNT(*) FROM ev WHERE ev.emp_id = emp.id) AS n FROM emp"},
    {"s_scalar_sum",
     "SELECT id, (SELECT SUM(amount) FROM ev WHERE ev.emp_id = emp.id) AS s, "
     "(SELECT MAX(score) FROM ev WHERE ev.emp_id = emp.id AND ev.kind = 'click') AS m FROM emp"},
    {"s_scalar_expr",
     "SELECT id, (SELECT COUNT(*) * 100 + COALESCE(SUM(amount), 0) FROM ev WHERE ev.emp_id = emp.id) "
     "AS x FROM emp"},
    {"s_scalar_lookup", "SELECT id, (SELECT dname FROM dept WHERE dept.id = emp.dept) AS dn FROM emp"},
    {"s_scalar_uncorrelated", "SELECT id, salary FROM emp WHERE salary >= (SELECT MAX(salary) FROM emp) - 10"},
    {"s_scalar_where_count",
     "SELECT d.id, d.dname FROM dept d WHERE (SELECT COUNT(*) FROM emp WHERE emp.dept = d.id) >= 2"},
    {"s_scalar_residual", "SELECT id, (SELECT COUNT(*) FROM ev WHERE ev.amount < emp.bonus) AS below FROM emp"},
    {"s_case_exists",
     "SELECT id, CASE WHEN EXISTS (SELECT 1 FROM ev WHERE ev.emp_id = emp.id AND ev.kind = 'buy') "
     "THEN 'buyer' ELSE 'other' END AS k FROM emp"},
    {"s_nested",
     "SELECT id FROM emp WHERE dept IN (SELECT id FROM dept WHERE EXISTS (SELECT 1 FROM tag WHERE "
     "tag.k = dept.id))"},
    {"s_in_grouped", "SELECT id FROM emp WHERE dept IN (SELECT k FROM tag GROUP BY k HAVING COUNT(*) >= 2)"},
    {"s_exists_grouped_outer",
     "SELECT dept, COUNT(*) AS n FROM emp WHERE EXISTS (SELECT 1 FROM ev WHERE "
     "ev.emp_id = emp.id) GROUP BY dept"},
    {"s_in_union", "SELECT id FROM emp WHERE dept IN (SELECT k FROM tag UNION SELECT id FROM dept WHERE budget < 0)"},
    {"s_having", "SELECT dept, COUNT(*) AS n FROM emp GROUP BY dept HAVING COUNT(*) * 3 > (SELECT COUNT(*) FROM tag)"},
    {"s_grouped_correlated",
     "SELECT dept, COUNT(*) AS n, (SELECT COUNT(*) FROM ev WHERE ev.emp_id = emp.dept) AS e "
     "FROM emp GROUP BY dept"},
    {"s_global_in", "SELECT MAX(bonus) AS m, MAX(bonus) IN (SELECT amount FROM ev) AS m_in FROM emp"},
};

[[maybe_unused]] const bool kRegistered = register_differential_queries("10_subquery", kSubqueryQueries);

}  // namespace
}  // namespace freshet::testing
