// The views of the differential test against SQLite
// (sqlite_differential_test.cpp), kept per feature: each file registers its
// group of views at static initialisation, so a feature adds its views in a
// file of its own (sqlite_differential_<feature>.cpp) without touching the
// others. The tables are the test's: emp, dept (keyed), ev and tag (keyless).
#pragma once

#include <string>
#include <vector>

namespace freshet::testing {

struct DifferentialQuery {
  const char* name;  //!< the view's name, unique across groups
  const char* sql;   //!< the view's query, in Freshet's dialect (rewritten for SQLite by to_sqlite)
  //! The same query spelled for SQLite when it lacks the construct (ROLLUP as
  //! UNION ALL, QUALIFY as a subquery); null to use `sql`.
  const char* sqlite_sql = nullptr;
};

//! Adds a group of views; returns true (for a static initialiser). Groups are
//! created in the order of their names ("00_base" first), the views of a
//! group in their order, so a view may use the base views and earlier views
//! of its own group.
bool register_differential_queries(const std::string& group, std::vector<DifferentialQuery> queries);

//! Every registered view, group by group.
std::vector<DifferentialQuery> differential_queries();

}  // namespace freshet::testing
