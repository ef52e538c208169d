// The views of the differential test against SQLite that type a bare NULL
// by its context (group "12_null_typing", docs/sql.md "The type of NULL"):
// CASE, COALESCE and NULLIF of only NULLs (or NULL and a typed value) in
// arithmetic, comparison and ||; IN lists with NULL; VALUES, UNION,
// EXCEPT and INTERSECT with NULL columns on one side; aggregates over them;
// IS [NOT] DISTINCT FROM and IS [NOT] TRUE / FALSE, which are never NULL.
// SQLite has no static types, so these compare the values only; the types
// are null_typing_test.cpp's.
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const std::vector<DifferentialQuery> kNullTypingQueries = {
    {"nt_case_all_null",
     "SELECT id, CASE WHEN bonus > 2 THEN NULL ELSE NULL END + 1 AS a, "
     "CASE WHEN bonus > 2 THEN NULL ELSE CAST(NULL AS INTEGER) END + dept AS b, "
     "CASE WHEN bonus > 2 THEN NULL ELSE bonus END * 2 AS c FROM emp"},
    {"nt_case_compare_concat",
     "SELECT id, CASE WHEN dept = 1 THEN NULL ELSE name END || '!' AS s, "
     "(CASE WHEN dept = 1 THEN NULL ELSE NULL END) = bonus AS e, "
     "COALESCE(CASE WHEN bonus IS NULL THEN NULL END, name, 'x') AS f FROM emp"},
    // IS [NOT] DISTINCT FROM and IS [NOT] TRUE / FALSE: never NULL.
    {"nt_is_distinct",
     "SELECT id, bonus IS DISTINCT FROM dept AS d, bonus IS NOT DISTINCT FROM dept AS nd, "
     "bonus IS NOT DISTINCT FROM NULL AS bn, salary IS DISTINCT FROM bonus * 10 AS sb FROM emp"},
    {"nt_is_truth",
     "SELECT id, bonus > 3 IS TRUE AS t, bonus > 3 IS NOT TRUE AS nt, bonus > 3 IS FALSE AS f, "
     "bonus > 3 IS NOT FALSE AS nf FROM emp"},
    {"nt_where_not_distinct",
     "SELECT e.id, d.id AS did FROM emp e JOIN dept d ON e.bonus IS NOT DISTINCT FROM d.budget / 100"},
    // A NULL-safe key on outer joins: a NULL-keyed row finds the other side's NULL-keyed rows.
    {"nt_left_not_distinct",
     "SELECT e.id, d.id AS did FROM emp e LEFT JOIN dept d ON e.bonus IS NOT DISTINCT FROM d.budget / 100 "
     "AND e.dept <> d.id"},
    {"nt_full_not_distinct",
     "SELECT e.id, d.id AS did FROM emp e FULL JOIN dept d ON d.budget / 100 IS NOT DISTINCT FROM e.bonus"},
    {"nt_coalesce_nullif",
     "SELECT id, COALESCE(NULL, NULL, 1) AS one, COALESCE(NULL, bonus) AS b, COALESCE(NULL, NULL, bonus, dept) AS bd, "
     "NULLIF(NULL, bonus) AS nb, NULLIF(bonus, NULL) AS bn FROM emp"},
    {"nt_in_lists",
     "SELECT id, bonus IN (NULL, 1, 2) AS in3, bonus IN (NULL) AS in1, bonus NOT IN (NULL, 3) AS notin, "
     "NULL IN (1, 2) AS nullin FROM emp"},
    {"nt_where_in", "SELECT id FROM emp WHERE dept IN (NULL, 1, 2) OR bonus NOT IN (1, NULL)"},
    {"nt_union_null_side", "SELECT id, name FROM emp UNION SELECT k, NULL FROM tag"},
    {"nt_union_all_null_first", "SELECT NULL AS a, k FROM tag UNION ALL SELECT dept, id FROM emp"},
    {"nt_except_null", "SELECT dept, name FROM emp EXCEPT SELECT NULL, label FROM tag"},
    {"nt_intersect_null", "SELECT bonus FROM emp INTERSECT SELECT NULL FROM tag"},
    {"nt_values_union", "SELECT dept, name FROM emp UNION ALL VALUES (NULL, 'v'), (7, NULL)"},
    {"nt_aggregate_null_column",
     "SELECT dept, COUNT(x) AS c, SUM(x) AS s, MAX(y) AS m FROM "
     "(SELECT dept, CASE WHEN bonus > 100 THEN NULL ELSE NULL END AS x, "
     "CASE WHEN bonus > 1 THEN NULL ELSE salary END AS y FROM emp) AS q GROUP BY dept"},
};

[[maybe_unused]] const bool kRegistered = register_differential_queries("12_null_typing", kNullTypingQueries);

}  // namespace
}  // namespace freshet::testing
