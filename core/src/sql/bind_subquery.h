// What the subquery binder knows of one subquery once decorrelated
// (bind_correlated.cpp), for bind_subquery.cpp to join back.
#pragma once

#include "binder.h"
#include "subquery_tools.h"

namespace freshet::sql {

//! A subquery's rows, each with the correlation key of the outer rows it
//! belongs to. Uncorrelated: no keys, and every outer row sees every row.
struct KeyedSubquery {
  PlanPtr plan;  //!< rows: [keys..., the select list...]
  std::vector<SqlType> key_types;
  std::vector<SqlType> item_types;
  //! The outer rows' keys (over the outer scope), to join on.
  std::vector<ExprPtr> outer_keys;
  //! The keys are outer columns that may be NULL and must match NULL (the
  //! decorrelation joined a DISTINCT of them); else NULL keys match nothing.
  bool null_safe = false;
  //! An aggregate without GROUP BY in a correlated subquery: one row per key
  //! that has inner rows, and `empty_items` (under `empty_having`) stands
  //! for the row of a key without any (COUNT 0, the others NULL).
  bool one_row_per_key = false;
  std::vector<ExprPtr> empty_items;
  ExprPtr empty_having;  //!< null when there is no HAVING
};

}  // namespace freshet::sql
