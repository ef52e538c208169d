// Differential views of issue 17's aggregates against SQLite: FILTER (WHERE
// ...) on COUNT(*), COUNT, SUM, AVG, MIN and MAX, DISTINCT inside COUNT,
// SUM, AVG, MIN and MAX, COUNT(ALL x), grouped, global, over joins (the
// fused join-aggregate), in HAVING and in expressions. SQLite has no
// STDDEV, BOOL_AND, BIT_AND, ARG_MAX or COUNTIF: those are checked by the
// scenario files (tests/sql/stddev_variance.test, ...) and the oracle tests
// (tests/core/operators/aggregate_functions_test.cpp). AVG is taken of
// DOUBLE columns only, whose values (halves) sum exactly in any order.
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const std::vector<DifferentialQuery> kAggregateQueries = {
    {"a_filter_counts",
     "SELECT dept, COUNT(*) FILTER (WHERE bonus > 2) AS hi, "
     "COUNT(bonus) FILTER (WHERE salary < 5) AS cheap, COUNT(*) AS n FROM emp GROUP BY dept"},
    {"a_filter_sums",
     "SELECT dept, SUM(bonus) FILTER (WHERE name LIKE 'a%') AS sa, "
     "SUM(salary) FILTER (WHERE bonus IS NULL) AS snb, MIN(bonus) FILTER (WHERE salary > 3) AS lo, "
     "MAX(hired) FILTER (WHERE bonus > 0) AS last FROM emp GROUP BY dept"},
    {"a_filter_avg",
     "SELECT kind, AVG(score) FILTER (WHERE amount > 0) AS a, "
     "MAX(score) FILTER (WHERE amount < 0) AS m, MIN(kind) FILTER (WHERE score > 3) AS k "
     "FROM ev GROUP BY kind"},
    {"a_distinct",
     "SELECT dept, SUM(DISTINCT bonus) AS sd, COUNT(DISTINCT bonus) AS cd, MIN(DISTINCT bonus) AS lo, "
     "MAX(DISTINCT salary) AS hi, COUNT(ALL bonus) AS n FROM emp GROUP BY dept"},
    {"a_distinct_avg", "SELECT dept, AVG(DISTINCT salary) AS ad, SUM(DISTINCT salary) AS sd FROM emp GROUP BY dept"},
    {"a_distinct_filter",
     "SELECT kind, COUNT(DISTINCT emp_id) FILTER (WHERE amount > 0) AS c, "
     "SUM(DISTINCT amount) FILTER (WHERE score > 1) AS s FROM ev GROUP BY kind"},
    {"a_global_filter",
     "SELECT COUNT(*) FILTER (WHERE amount > 100) AS huge, SUM(amount) FILTER (WHERE kind = 'buy') AS "
     "bought, SUM(DISTINCT amount) AS sd, COUNT(DISTINCT kind) AS kinds, "
     "AVG(DISTINCT score) AS ad FROM ev"},
    {"a_join_filter",
     "SELECT d.region, COUNT(*) FILTER (WHERE e.bonus > 1) AS c, "
     "SUM(e.bonus) FILTER (WHERE e.salary > 2) AS s, SUM(DISTINCT e.bonus) AS sd "
     "FROM emp e JOIN dept d ON e.dept = d.id GROUP BY d.region"},
    {"a_having_filter",
     "SELECT dept, COUNT(*) AS n FROM emp GROUP BY dept "
     "HAVING COUNT(*) FILTER (WHERE bonus > 2) >= 1"},
    {"a_expr_filter",
     "SELECT dept, SUM(bonus) FILTER (WHERE bonus > 0) - SUM(bonus) FILTER (WHERE bonus < 0) AS spread, "
     "COUNT(*) FILTER (WHERE bonus IS NULL) * 10 AS nulls FROM emp GROUP BY dept"},
    {"a_left_join_distinct",
     "SELECT e.dept, COUNT(DISTINCT ev.kind) AS kinds, "
     "COUNT(ev.amount) FILTER (WHERE ev.amount > 0) AS pos "
     "FROM emp e LEFT JOIN ev ON ev.emp_id = e.id GROUP BY e.dept"},
    {"a_nested_distinct",
     "SELECT s.n, COUNT(*) AS groups FROM "
     "(SELECT dept, COUNT(DISTINCT bonus) AS n FROM emp GROUP BY dept) AS s GROUP BY s.n"},
    {"a_tag_filter",
     "SELECT k, COUNT(label) FILTER (WHERE label LIKE 'a%') AS a, COUNT(DISTINCT label) AS d, "
     "MAX(DISTINCT label) FILTER (WHERE k > 2) AS hi FROM tag GROUP BY k"},
};

[[maybe_unused]] const bool kRegistered = register_differential_queries("10_aggregates", kAggregateQueries);

}  // namespace
}  // namespace freshet::testing
