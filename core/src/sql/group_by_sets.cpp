// GROUP BY resolution (see group_by_sets.h).
//
// Grouping sets multiply out as the standard says: the items of one GROUP BY
// form the cross product of their sets, `ROLLUP(a, b)` is the sets (a, b),
// (a), (), `CUBE(a, b)` every subset, `GROUPING SETS (...)` the union (with
// duplicates) of its elements' sets.
#include "group_by_sets.h"

#include <algorithm>

#include "expression_binder.h"
#include "function_catalog.h"

namespace freshet::sql {
namespace {

using Sets = std::vector<std::vector<size_t>>;

//! More sets than this is surely a mistake (CUBE of 13 columns), and each
//! costs an aggregate row per input row.
constexpr size_t kMaxGroupingSets = 4096;

bool input_has_column(const Scope& input, const std::string& name) {
  for (const ScopeColumn& column : input.columns) {
    if (column.name == name) return true;
  }
  return false;
}

class GroupingResolver {
 public:
  GroupingResolver(const Select& select, const Scope& input, GroupingSpec& spec)
      : select_(select), input_(input), spec_(spec) {}

  //! The key index of a GROUP BY expression (an ordinal or alias resolved).
  Result<size_t> key(const AstExpr& ast);
  Result<Sets> sets_of(const GroupItem& item);
  Result<size_t> add_key(ExprPtr expr);

 private:
  Result<ExprPtr> bind_ordinal(const AstExpr& ast);

  const Select& select_;
  const Scope& input_;
  GroupingSpec& spec_;
};

Result<size_t> GroupingResolver::add_key(ExprPtr expr) {
  if (is_null_literal(*expr)) expr = null_literal(SqlType::integer());
  std::string text = expr->to_string();
  for (size_t k = 0; k < spec_.key_texts.size(); ++k) {
    if (spec_.key_texts[k] == text) return k;
  }
  spec_.key_texts.push_back(std::move(text));
  spec_.keys.push_back(std::move(expr));
  return spec_.keys.size() - 1;
}

Result<ExprPtr> GroupingResolver::bind_ordinal(const AstExpr& ast) {
  size_t position = std::strtoull(ast.text.c_str(), nullptr, 10);
  if (position < 1 || position > select_.items.size() || ast.text.size() > 9) {
    return sql_error(ast.position, "GROUP BY position " + ast.text + " is not in the select list (1 to " +
                                       std::to_string(select_.items.size()) + ")");
  }
  const SelectItem& item = select_.items[position - 1];
  if (item.star) return sql_error(ast.position, "GROUP BY position " + ast.text + " refers to *");
  if (contains_aggregate(*item.expr)) {
    return sql_error(ast.position, "GROUP BY position " + ast.text + " refers to an aggregate");
  }
  return ExpressionBinder(input_).bind(*item.expr);
}

Result<size_t> GroupingResolver::key(const AstExpr& ast) {
  if (contains_aggregate(ast)) return sql_error(ast.position, "aggregates are not allowed in GROUP BY");
  if (contains_window(ast)) return sql_error(ast.position, "window functions are not allowed in GROUP BY");
  if (contains_grouping_call(ast)) return sql_error(ast.position, "GROUPING() is not allowed in GROUP BY");
  if (ast.kind == AstExprKind::kLiteral && ast.literal_kind == LiteralKind::kInteger) {
    Result<ExprPtr> bound = bind_ordinal(ast);
    if (!bound.ok()) return bound.status();
    return add_key(std::move(*bound));
  }
  // A name that is no input column may be an output alias.
  auto alias = [this](const AstExpr& node) -> Result<ExprPtr> {
    if (node.kind != AstExprKind::kColumnRef || node.names.size() != 1 || input_has_column(input_, node.names[0])) {
      return ExprPtr();
    }
    Result<const SelectItem*> item = find_alias(select_, node.names[0], node.position);
    if (!item.ok()) return item.status();
    if (!*item) return ExprPtr();
    if (contains_aggregate(*(*item)->expr)) {
      return sql_error(node.position, "GROUP BY alias '" + node.names[0] + "' refers to an aggregate");
    }
    return ExpressionBinder(input_).bind(*(*item)->expr);
  };
  Result<ExprPtr> bound = ExpressionBinder(input_, alias).bind(ast);
  if (!bound.ok()) return bound.status();
  return add_key(std::move(*bound));
}

//! Every union of one set from `left` and one from `right`.
Result<Sets> cross(const Sets& left, const Sets& right, SourcePosition position) {
  if (left.size() * right.size() > kMaxGroupingSets) {
    return sql_error(position, "GROUP BY has more than " + std::to_string(kMaxGroupingSets) + " grouping sets");
  }
  Sets out;
  for (const std::vector<size_t>& a : left) {
    for (const std::vector<size_t>& b : right) {
      std::vector<size_t> both = a;
      both.insert(both.end(), b.begin(), b.end());
      std::sort(both.begin(), both.end());
      both.erase(std::unique(both.begin(), both.end()), both.end());
      out.push_back(std::move(both));
    }
  }
  return out;
}

Result<Sets> GroupingResolver::sets_of(const GroupItem& item) {
  std::vector<size_t> keys;
  for (const AstExprPtr& expr : item.expressions) {
    Result<size_t> k = key(*expr);
    if (!k.ok()) return k.status();
    keys.push_back(*k);
  }
  switch (item.kind) {
    case GroupItem::Kind::kExpression:
    case GroupItem::Kind::kList: {
      Result<Sets> one = cross({{}}, {keys}, item.position);  // sorts and dedupes
      return one;
    }
    case GroupItem::Kind::kRollup: {
      Sets sets;
      size_t prefix = keys.size();
      for (size_t e = item.element_sizes.size() + 1; e-- > 0;) {
        sets.push_back(std::vector<size_t>(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(prefix)));
        if (e > 0) prefix -= item.element_sizes[e - 1];
      }
      return cross({{}}, sets, item.position);
    }
    case GroupItem::Kind::kCube: {
      size_t elements = item.element_sizes.size();
      if (elements > 12) return sql_error(item.position, "CUBE of more than 12 elements is not supported");
      Sets sets;
      for (uint32_t mask = (1u << elements); mask-- > 0;) {  // the full set first, () last
        std::vector<size_t> set;
        size_t start = 0;
        for (size_t e = 0; e < elements; ++e) {
          if (mask & (1u << (elements - 1 - e))) {
            set.insert(set.end(), keys.begin() + static_cast<std::ptrdiff_t>(start),
                       keys.begin() + static_cast<std::ptrdiff_t>(start + item.element_sizes[e]));
          }
          start += item.element_sizes[e];
        }
        sets.push_back(std::move(set));
      }
      return cross({{}}, sets, item.position);
    }
    case GroupItem::Kind::kGroupingSets: {
      Sets sets;
      for (const GroupItem& element : item.items) {
        Result<Sets> inner = sets_of(element);
        if (!inner.ok()) return inner.status();
        sets.insert(sets.end(), inner->begin(), inner->end());
        if (sets.size() > kMaxGroupingSets) {
          return sql_error(item.position,
                           "GROUP BY has more than " + std::to_string(kMaxGroupingSets) + " grouping sets");
        }
      }
      return sets;
    }
  }
  return Sets{};
}

}  // namespace

std::vector<SqlType> GroupingSpec::output_key_types() const {
  std::vector<SqlType> types;
  for (size_t k = 0; k < keys.size(); ++k) {
    bool everywhere = true;
    for (const std::vector<size_t>& set : sets)
      everywhere = everywhere && std::find(set.begin(), set.end(), k) != set.end();
    types.push_back(keys[k]->type.with_nullable(keys[k]->type.nullable || !everywhere));
  }
  return types;
}

Result<const SelectItem*> find_alias(const Select& select, const std::string& name, SourcePosition position) {
  const SelectItem* found = nullptr;
  for (const SelectItem& item : select.items) {
    if (item.star || item.alias != name) continue;
    if (found) return sql_error(position, "alias '" + name + "' names more than one select item");
    found = &item;
  }
  return found;
}

namespace {

bool same_optional(const AstExprPtr& a, const AstExprPtr& b) {
  if (!a || !b) return !a && !b;
  return same_expression(*a, *b);
}

bool same_names(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() || b.empty() || a.back() != b.back()) return a == b;
  return a.size() != b.size() || a == b;  // `t.c` and `c` name one column when both resolve
}

}  // namespace

bool same_expression(const AstExpr& a, const AstExpr& b) {
  if (a.kind != b.kind || a.op != b.op || a.literal_kind != b.literal_kind || a.text != b.text || a.name != b.name ||
      a.negated != b.negated || a.distinct != b.distinct || a.star != b.star || a.unit != b.unit ||
      !(a.cast_type == b.cast_type) || a.over || b.over || a.children.size() != b.children.size() ||
      !same_names(a.names, b.names)) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!same_optional(a.children[i], b.children[i])) return false;
  }
  return same_optional(a.case_operand, b.case_operand) && same_optional(a.else_result, b.else_result);
}

std::optional<size_t> repeated_select_item(const Query& query, const AstExpr& expr) {
  if (!query.select) return std::nullopt;
  const std::vector<SelectItem>& items = query.select->items;
  for (const SelectItem& item : items) {
    if (item.star) return std::nullopt;  // items are not output columns one to one
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (same_expression(*items[i].expr, expr)) return i;
  }
  return std::nullopt;
}

bool contains_grouping_call(const AstExpr& ast) {
  if (ast.kind == AstExprKind::kFunction && !ast.over && is_grouping_function(ast.name)) {
    return true;
  }
  for (const AstExprPtr& child : ast.children) {
    if (child && contains_grouping_call(*child)) return true;
  }
  return (ast.case_operand && contains_grouping_call(*ast.case_operand)) ||
         (ast.else_result && contains_grouping_call(*ast.else_result));
}

Result<GroupingSpec> resolve_grouping(const Select& select, const Scope& input) {
  GroupingSpec spec;
  GroupingResolver resolver(select, input, spec);
  if (select.group_by_all) {
    for (const SelectItem& item : select.items) {
      if (item.star) return sql_error(item.position, "GROUP BY ALL cannot be used with *");
      if (contains_aggregate(*item.expr) || contains_grouping_call(*item.expr)) continue;
      Result<ExprPtr> bound = ExpressionBinder(input).bind(*item.expr);
      if (!bound.ok()) return bound.status();
      Result<size_t> k = resolver.add_key(std::move(*bound));
      if (!k.ok()) return k.status();
    }
  }
  for (const AstExprPtr& expr : select.group_by) {
    Result<size_t> k = resolver.key(*expr);
    if (!k.ok()) return k.status();
  }
  Sets sets = {{}};
  for (const GroupItem& item : select.grouping) {
    Result<Sets> item_sets = resolver.sets_of(item);
    if (!item_sets.ok()) return item_sets.status();
    Result<Sets> product = cross(sets, *item_sets, item.position);
    if (!product.ok()) return product.status();
    sets = std::move(*product);
  }
  if (select.grouping.empty()) {
    std::vector<size_t> all(spec.keys.size());
    for (size_t k = 0; k < all.size(); ++k) all[k] = k;
    sets = {all};
  }
  if (select.group_by_distinct) {
    Sets unique;
    for (std::vector<size_t>& set : sets) {
      if (std::find(unique.begin(), unique.end(), set) == unique.end()) unique.push_back(std::move(set));
    }
    sets = std::move(unique);
  }
  spec.sets = std::move(sets);
  return spec;
}

//! Whether `ast` names a select item's alias that is no input column.
bool mentions_alias(const AstExpr& ast, const Select& select, const Scope& input) {
  if (ast.kind == AstExprKind::kColumnRef && ast.names.size() == 1 && !input.resolve(ast.names, ast.position).ok()) {
    Result<const SelectItem*> item = find_alias(select, ast.names[0], ast.position);
    return !item.ok() || *item;
  }
  for (const AstExprPtr& child : ast.children) {
    if (child && mentions_alias(*child, select, input)) return true;
  }
  return (ast.case_operand && mentions_alias(*ast.case_operand, select, input)) ||
         (ast.else_result && mentions_alias(*ast.else_result, select, input));
}

namespace {

ExprPtr bigint_literal(int64_t value) {
  return literal_expr(Value::integer(TypeId::kBigInt, value), SqlType::bigint(false));
}

}  // namespace

//! GROUPING(a, b, ...): bit i (from the left, the last argument lowest) is 1
//! when the row's grouping set lacks argument i. A CASE on the set number.
Result<ExprPtr> bind_grouping(const AstExpr& call, const Scope& input, const GroupingSpec& grouping) {
  std::string name = call.name == "grouping" ? "GROUPING" : "GROUPING_ID";
  if (call.children.empty() || call.star || call.distinct) {
    return sql_error(call.position, name + "() takes one or more GROUP BY expressions");
  }
  std::vector<size_t> keys;
  for (const AstExprPtr& child : call.children) {
    if (contains_aggregate(*child) || contains_grouping_call(*child)) {
      return sql_error(child->position, name + "() takes GROUP BY expressions, not aggregates");
    }
    Result<ExprPtr> bound = ExpressionBinder(input).bind(*child);
    if (!bound.ok()) return bound.status();
    std::string text = (*bound)->to_string();
    auto found = std::find(grouping.key_texts.begin(), grouping.key_texts.end(), text);
    if (found == grouping.key_texts.end()) {
      return sql_error(child->position, "the argument of " + name + "() must be a GROUP BY expression");
    }
    keys.push_back(static_cast<size_t>(found - grouping.key_texts.begin()));
  }
  std::vector<int64_t> masks;
  for (const std::vector<size_t>& set : grouping.sets) {
    int64_t mask = 0;
    for (size_t k : keys) mask = (mask << 1) | (std::find(set.begin(), set.end(), k) == set.end() ? 1 : 0);
    masks.push_back(mask);
  }
  bool constant = std::all_of(masks.begin(), masks.end(), [&](int64_t m) { return m == masks[0]; });
  if (constant || !grouping.expanded()) return bigint_literal(masks[0]);
  std::vector<ExprPtr> children;
  const size_t set_column = grouping.keys.size();
  for (size_t s = 0; s + 1 < masks.size(); ++s) {
    std::vector<ExprPtr> operands;
    operands.push_back(column_expr(set_column, SqlType::integer(false)));
    operands.push_back(literal_expr(Value::integer(TypeId::kInt, static_cast<int64_t>(s)), SqlType::integer(false)));
    ExprPtr is_set = make_expr(ExprKind::kCompare, SqlType::boolean(false), std::move(operands));
    is_set->op = AstOperator::kEqual;
    children.push_back(std::move(is_set));
    children.push_back(bigint_literal(masks[s]));
  }
  children.push_back(bigint_literal(masks.back()));
  ExprPtr result = make_expr(ExprKind::kCase, SqlType::bigint(false), std::move(children));
  result->has_else = true;
  return result;
}

}  // namespace freshet::sql
