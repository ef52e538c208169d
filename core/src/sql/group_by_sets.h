// GROUP BY's keys and grouping sets, resolved against a SELECT's input:
// ordinals (`GROUP BY 1`) and output aliases (`GROUP BY k`) as Calcite's
// LENIENT conformance has them (an input column of the same name wins over
// an alias), `GROUP BY ALL`, and `()`, ROLLUP, CUBE and GROUPING SETS
// expanded into a list of sets.
#pragma once

#include <optional>
#include <vector>

#include "freshet/sql/expression.h"
#include "scope.h"

namespace freshet::sql {

struct GroupingSpec {
  //! The distinct GROUP BY expressions over the input, in first-seen order.
  std::vector<ExprPtr> keys;
  std::vector<std::string> key_texts;  //!< their renderings, to recognise them in SELECT and HAVING
  //! Each grouping set: the keys it groups by (indices into `keys`, ascending).
  //! Plain GROUP BY has one set of every key; duplicates are kept (standard SQL).
  std::vector<std::vector<size_t>> sets;
  //! Whether the sets differ from the one plain set: then each input row is
  //! aggregated once per set, the absent keys NULL, and the set's number
  //! is part of the group key.
  bool expanded() const { return sets.size() > 1; }
  //! The keys' types in the aggregate's rows: nullable when some set lacks them.
  std::vector<SqlType> output_key_types() const;
};

//! The grouping of `select` over `input`; an error names the offending item.
Result<GroupingSpec> resolve_grouping(const Select& select, const Scope& input);

//! Whether GROUPING(...) / GROUPING_ID(...) appears in the tree (not inside an OVER call).
bool contains_grouping_call(const AstExpr& ast);

//! The select item `name` is the alias of (the first of several is an error),
//! or null when there is none; used where an input column of that name does not exist.
Result<const SelectItem*> find_alias(const Select& select, const std::string& name, SourcePosition position);

//! Whether `ast` names a select item's alias that is no input column (HAVING
//! binds such an expression part by part, the alias as its item).
bool mentions_alias(const AstExpr& ast, const Select& select, const Scope& input);

//! GROUPING(a, b, ...) / GROUPING_ID(...) over the aggregate's rows: a BIGINT
//! constant, or a CASE on the set number column (after the keys) when the
//! sets differ.
Result<ExprPtr> bind_grouping(const AstExpr& call, const Scope& input, const GroupingSpec& grouping);

//! Whether two expressions are written alike (column references compare by
//! name; `t.c` matches `c`, which is only valid when it means the same column).
bool same_expression(const AstExpr& a, const AstExpr& b);

//! The output column of the select item `expr` repeats, for ORDER BY ...
//! LIMIT (`ORDER BY SUM(x) DESC` in an aggregate query); none for a set
//! operation, a SELECT with `*`, or no such item.
std::optional<size_t> repeated_select_item(const Query& query, const AstExpr& expr);

}  // namespace freshet::sql
