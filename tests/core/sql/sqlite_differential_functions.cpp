// The scalar functions' views of the differential test against SQLite
// (group "10_functions"): only functions SQLite 3.40 spells and computes the
// same way (NULLIF, IFNULL, TRIM/LTRIM/RTRIM of one argument, REPLACE with a
// non-empty needle, MOD, POWER, SQRT, EXP, LN, LOG10, SIGN, TRUNC, FLOOR,
// CEIL, UPPER/LOWER of ASCII text, LIKE ... ESCAPE). Where SQLite differs (NULL for LN of a
// negative or SQRT of a negative, an error in Freshet), the views stay on
// the common ground. GREATEST/LEAST, POSITION, CONCAT, LEFT/RIGHT, REPEAT,
// INITCAP, SPLIT_PART, MD5 and the regex functions have no SQLite spelling:
// the scenario files (tests/sql/*functions*.test, regex.test) cover them.
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const std::vector<DifferentialQuery> kFunctionQueries = {
    {"f_nullif", "SELECT id, NULLIF(bonus, 3) AS nb, NULLIF(name, 'ann') AS nn, NULLIF(dept, bonus) AS nd FROM emp"},
    {"f_ifnull", "SELECT id, IFNULL(bonus, dept) AS b, IFNULL(name, 'none') AS n, IFNULL(salary, -1) AS s FROM emp"},
    {"f_trim",
     "SELECT k, TRIM('  ' || label || ' ') AS t, LTRIM(' ' || label) AS l, RTRIM(label || '  ') AS r, "
     "TRIM(label) AS same FROM tag"},
    {"f_replace",
     "SELECT id, REPLACE(name, 'o', '0') AS r, REPLACE(name, 'an', '') AS r2, "
     "REPLACE(REPLACE(name, 'a', 'aa'), 'aa', 'b') AS r3 FROM emp"},
    {"f_mod", "SELECT id, MOD(bonus, 3) AS m, MOD(dept, 4) AS m2, MOD(bonus, -4) AS m3, MOD(-id, 5) AS m4 FROM emp"},
    {"f_power_sqrt",
     "SELECT id, POWER(bonus, 2) AS p, SQRT(ABS(salary)) AS s, EXP(CAST(bonus AS DOUBLE) / 4) AS e, "
     "POWER(2, dept) AS p2 FROM emp"},
    {"f_logs", "SELECT id, LN(salary) AS l, LOG10(salary) AS g, LN(EXP(salary / 8)) AS back FROM emp WHERE salary > 0"},
    {"f_sign", "SELECT id, SIGN(bonus) AS sb, SIGN(salary) AS ss, SIGN(dept - 3) AS sd FROM emp"},
    {"f_round_down",
     "SELECT id, TRUNC(salary) AS t, FLOOR(salary) AS f, CEIL(salary) AS c, FLOOR(score) AS fs "
     "FROM emp JOIN ev ON ev.emp_id = emp.id"},
    {"f_case_ascii", "SELECT kind, UPPER(kind) AS u, LOWER(kind) AS l, COUNT(*) AS n FROM ev GROUP BY kind"},
    {"f_nullif_group",
     "SELECT NULLIF(dept, 1) AS d, COUNT(*) AS n, SUM(IFNULL(bonus, 0)) AS s FROM emp "
     "GROUP BY NULLIF(dept, 1)"},
    {"f_where", "SELECT id, name FROM emp WHERE REPLACE(LOWER(name), 'a', '') <> LOWER(name) OR TRIM(name) = ''"},
    {"f_concat", "SELECT k, IFNULL(label, '?') || REPLACE(IFNULL(label, ''), 'a', 'A') AS c FROM tag"},
    {"f_join",
     "SELECT e.id, d.dname FROM emp e JOIN dept d ON MOD(e.dept, 3) = MOD(d.id, 3) "
     "WHERE NULLIF(d.region, 'east') IS NOT NULL"},
    {"f_mix", "SELECT id, ABS(MOD(bonus, 4)) + SIGN(dept) AS x, IFNULL(NULLIF(MOD(id, 3), 0), -1) AS y FROM emp"},
    // LIKE ... ESCAPE over text that holds the special characters: '%' and '_' literal after the escape.
    {"f_like_escape",
     "SELECT id, name || '_' || CAST(bonus AS VARCHAR) || '%' LIKE '%#_1#%' ESCAPE '#' AS one, name || '_x' LIKE "
     "'%a#_%' ESCAPE '#' AS a_under, name || '#' LIKE '%##' ESCAPE '#' AS hash, name LIKE '%a%' ESCAPE '!' AS plain "
     "FROM emp"},
};

[[maybe_unused]] const bool kRegistered = register_differential_queries("10_functions", kFunctionQueries);

}  // namespace
}  // namespace freshet::testing
