// sort_in_list: `x IN (c1, c2, ...)` over many constants, searched by
// bisection instead of a scan: O(log n) comparisons per row.
#include <algorithm>
#include <numeric>

#include "evaluate_internal.h"
#include "freshet/sql/expression.h"

namespace freshet::sql {
namespace {

//! Lists shorter than this are scanned: a few comparisons cost less than a search.
constexpr size_t kSortedInListMinimum = 8;

bool is_constant(const Expr& expr) {
  if (expr.kind == ExprKind::kColumn || expr.kind == ExprKind::kNow) return false;
  for (const ExprPtr& child : expr.children) {
    if (!is_constant(*child)) return false;
  }
  return true;
}

}  // namespace

void sort_in_list(Expr& in) {
  if (in.kind != ExprKind::kInList || in.children.size() < 1 + kSortedInListMinimum) return;
  const SqlType& type = in.children[0]->type;
  if (type.id == TypeId::kDouble || type.id == TypeId::kReal) return;  // NaN has no place in an order
  // Each item's value, computed once (they read no row; strings stay valid in `evaluator`).
  Evaluator evaluator;
  static const Schema kNoColumns;
  RowReader no_row(kNoColumns, RowRef());
  std::vector<Datum> values;
  for (size_t i = 1; i < in.children.size(); ++i) {
    if (!is_constant(*in.children[i])) return;
    values.push_back(evaluator.evaluate(*in.children[i], no_row));
    if (values.back().null || evaluator.failed()) return;  // NULL items, or an error kept for the step
  }
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return internal::compare_values(type, values[a], values[b]) < 0; });
  std::vector<ExprPtr> sorted;
  sorted.push_back(std::move(in.children[0]));
  for (size_t k = 0; k < order.size(); ++k) {
    bool duplicate = k > 0 && internal::compare_values(type, values[order[k - 1]], values[order[k]]) == 0;
    if (!duplicate) sorted.push_back(std::move(in.children[1 + order[k]]));
  }
  in.children = std::move(sorted);
  in.sorted = true;
}

}  // namespace freshet::sql
