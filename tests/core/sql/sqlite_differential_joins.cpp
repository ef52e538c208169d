// The differential test's join views (group "10_joins"): RIGHT and FULL
// joins, outer joins with ON conditions of every shape, USING and NATURAL,
// and comma joins of several tables planned by their WHERE equalities.
// SQLite orders `SELECT *` of a USING join differently (the standard puts
// the shared columns first), so these views name their columns.
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const bool kRegistered = register_differential_queries(
    "10_joins",
    {
        {"j_right", "SELECT e.id, e.name, d.id AS did, d.dname FROM emp e RIGHT JOIN dept d ON e.dept = d.id"},
        {"j_full", "SELECT e.id, d.id AS did, d.region FROM emp e FULL OUTER JOIN dept d ON e.dept = d.id"},
        {"j_full_res",
         "SELECT e.id, d.id AS did FROM emp e FULL JOIN dept d ON e.dept = d.id AND e.salary * 10 > d.budget"},
        {"j_right_nonequi",
         "SELECT t.k, t.label, d.id AS did FROM tag t RIGHT JOIN dept d ON t.k > d.id AND t.label IS NOT NULL"},
        {"j_left_one_side", "SELECT e.id, t.k FROM emp e LEFT JOIN tag t ON t.k > 3"},
        {"j_right_one_side", "SELECT e.id, d.id AS did FROM emp e RIGHT JOIN dept d ON e.bonus > 4"},
        {"j_full_or",
         "SELECT ev.emp_id, ev.kind, e.id FROM ev FULL JOIN emp e ON ev.emp_id = e.id OR ev.amount = e.bonus"},
        {"j_full_false", "SELECT d.id, t.k FROM dept d FULL JOIN tag t ON 1 = 0"},
        {"j_using", "SELECT id, e.name, d.dname FROM emp e JOIN dept d USING (id)"},
        {"j_using_left",
         "SELECT emp_id, x.name, ev.kind FROM (SELECT id AS emp_id, name FROM emp) x LEFT JOIN ev USING (emp_id)"},
        {"j_using_full",
         "SELECT emp_id, x.name, ev.kind, ev.amount FROM (SELECT id AS emp_id, name FROM emp WHERE bonus > 2) x "
         "FULL JOIN ev USING (emp_id)"},
        {"j_natural", "SELECT id, e.name, d.region FROM emp e NATURAL JOIN dept d"},
        {"j_natural_right", "SELECT d.id, e.name, d.dname FROM emp e NATURAL RIGHT JOIN dept d"},
        {"j_comma3",
         "SELECT e.name, d.dname, ev.kind FROM ev, dept d, emp e WHERE ev.emp_id = e.id AND e.dept = d.id "
         "AND ev.amount > 0"},
        {"j_comma_nonequi",
         "SELECT e.id, d.id AS did, t.k FROM emp e, tag t, dept d WHERE e.dept = d.id AND t.k < e.bonus "
         "AND d.budget > 10"},
        {"j_comma_agg",
         "SELECT d.region, COUNT(*) AS n, SUM(ev.amount) AS total FROM emp e, dept d, ev "
         "WHERE d.id = e.dept AND ev.emp_id = e.id GROUP BY d.region"},
        {"j_comma_cross",
         "SELECT t.k, d.id AS did, e.id FROM tag t, dept d, emp e WHERE e.dept = d.id AND t.k + d.id = 5"},
        {"j_right_chain",
         "SELECT e.id, ev.kind, d.id AS did FROM ev RIGHT JOIN emp e ON ev.emp_id = e.id "
         "RIGHT JOIN dept d ON e.dept = d.id"},
        {"j_full_group",
         "SELECT d.region, COUNT(e.id) AS n, COUNT(*) AS c FROM emp e FULL JOIN dept d ON e.dept = d.id "
         "GROUP BY d.region"},
    });

}  // namespace
}  // namespace freshet::testing
