// Shared arrangements in the planner: a join's side is its input indexed by
// the join's keys and arranged (arrange.h); when sharing, a side that another
// join (in this view or another) indexes alike is that join's arrangement,
// so its trace is held once (plan_sharing.h). DISTINCT, EXCEPT and INTERSECT
// read their inputs arranged by the whole row, shared alike.
#include "freshet/operators/arrange.h"
#include "plan_key.h"
#include "plan_sharing.h"
#include "planner.h"

namespace freshet::sql {

std::optional<Stream> SharedPlans::find_arrangement(const std::string& key) const {
  auto found = arrangements_.find(key);
  if (found == arrangements_.end()) return std::nullopt;
  return found->second;
}

std::string Planner::index_key(Stream input, const std::vector<ExprPtr>& keys, bool drop_null_keys,
                               const std::optional<std::vector<size_t>>& value_columns) const {
  // What makes the indexed stream: its input, key expressions, NULL keys
  // dropped or not, the columns kept, and how errors in the keys are handled.
  std::string key = "stream " + std::to_string(input.id()) + (drop_null_keys ? " drop-null" : "");
  if (runtime_errors_.mode == RuntimeErrorMode::kNull) key += " on_runtime_error=null";
  for (const ExprPtr& expr : keys) key += " key " + expression_key(*expr);
  if (value_columns) {
    key += " columns";
    for (size_t c : *value_columns) key += " " + std::to_string(c);
  }
  return key;
}

Stream Planner::arranged_index(Stream input, std::vector<ExprPtr> keys, bool drop_null_keys,
                               std::optional<std::vector<size_t>> value_columns) {
  if (!shared_ || !shared_->shares_arrangements())
    return arrange(index_by(input, std::move(keys), drop_null_keys, std::move(value_columns))).stream;
  std::string key = index_key(input, keys, drop_null_keys, value_columns);
  if (std::optional<Stream> arranged = shared_->find_arrangement(key)) return *arranged;
  Stream arranged = arrange(index_by(input, std::move(keys), drop_null_keys, std::move(value_columns))).stream;
  shared_->add_arrangement(std::move(key), arranged);
  return arranged;
}

Stream Planner::arranged_rows(Stream input) {
  if (!shared_ || !shared_->shares_arrangements()) return arrange(input).stream;
  // A Z-set of rows is keyed by its rows already: its arrangement is of
  // the stream itself, with no index in between.
  std::string key = "stream " + std::to_string(input.id()) + " rows";
  if (std::optional<Stream> arranged = shared_->find_arrangement(key)) return *arranged;
  Stream arranged = arrange(input).stream;
  shared_->add_arrangement(std::move(key), arranged);
  return arranged;
}

}  // namespace freshet::sql
