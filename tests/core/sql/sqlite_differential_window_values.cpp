// The differential test's FIRST_VALUE and LAST_VALUE views (group
// "10_window_values"), over the frames Feldera takes them over: FIRST_VALUE
// with the default frame and over the whole partition in a descending order,
// LAST_VALUE over ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING.
// Each ORDER BY ends with the key (id), so the first and last rows are
// determined; NULLS LAST is spelled out for DESC, where SQLite and Feldera
// place NULLs differently.
#include "sqlite_differential_queries.h"

namespace freshet::testing {
namespace {

const bool kRegistered = register_differential_queries(
    "10_window_values",
    {
        {"w_first",
         "SELECT id, FIRST_VALUE(bonus) OVER (PARTITION BY dept ORDER BY id) AS f, FIRST_VALUE(salary) OVER "
         "(PARTITION BY dept ORDER BY hired DESC NULLS LAST, id RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED "
         "FOLLOWING) AS newest FROM emp"},
        {"w_last",
         "SELECT id, LAST_VALUE(name) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND "
         "UNBOUNDED FOLLOWING) AS l, LAST_VALUE(bonus * 2) OVER (ORDER BY salary NULLS FIRST, id ROWS BETWEEN "
         "CURRENT ROW AND UNBOUNDED FOLLOWING) AS top_bonus FROM emp"},
    });

}  // namespace
}  // namespace freshet::testing
