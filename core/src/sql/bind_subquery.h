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
  std::vector<std::string> item_names;  //!< the select list's output names (a LATERAL's columns)
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

//! The first `count` columns of `plan`, then `extra`.
PlanPtr keys_and(PlanPtr plan, size_t count, std::vector<ExprPtr> extra);
//! Joins `facts` (its first keys.size() columns the key) to the rows of
//! `plan`/`scope`, on `keys` over them (the first `null_safe_count` matching
//! NULL to NULL). The facts' columns come last, hidden. Returns where they start.
size_t join_facts(PlanPtr& plan, Scope& scope, PlanPtr facts, std::vector<ExprPtr> keys, size_t null_safe_count,
                  JoinType type);

}  // namespace freshet::sql
