// QueryBinder::bind_keyed: a subquery's rows keyed by its correlation.
//
// A reference in the subquery's WHERE to a column of the enclosing query
// (the nearest scope that has the name wins) makes it correlated. The WHERE
// conjuncts split three ways:
//   - no outer reference: they filter the subquery's rows;
//   - `inner = outer` (each side reading one scope): the correlation key;
//     the subquery's rows are keyed by the inner side, and the outer rows
//     join on the outer side (NULL matches nothing, as `=` says);
//   - any other conjunct reading an outer column: the DISTINCT values of the
//     outer columns it reads (D) are joined with the subquery's rows on the
//     equalities, the conjunct as the residual; D's columns are the key, and
//     the outer rows join back on them NULL-safely.
// The select list, GROUP BY and HAVING are then bound over the keyed rows,
// grouped by the key too, so an aggregate is computed per outer key.
#include "bind_subquery.h"
#include "expression_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

enum class Side : uint8_t { kInner, kOuter, kFurther, kUnknown };

std::string qualified_name(const AstExpr& ref) {
  return ref.names.size() == 2 ? ref.names[0] + "." + ref.names[1] : ref.names.back();
}

AstExprPtr key_reference(size_t index, SourcePosition position) {
  auto ref = std::make_unique<AstExpr>();
  ref->kind = AstExprKind::kColumnRef;
  ref->position = position;
  ref->names.push_back("$k" + std::to_string(index));
  return ref;
}

// The row of an aggregate of no rows: keys NULL, COUNTs 0, the others NULL.
ExprPtr empty_group(const Expr& expr, const LogicalPlan& aggregate) {
  return substitute_columns(expr, [&](size_t column, const SqlType& type) -> ExprPtr {
    if (column < aggregate.group_count) return null_literal(type.with_nullable(true));
    if (is_count(aggregate.aggregates[column - aggregate.group_count].kind)) {
      return literal_expr(Value::bigint(0), type.with_nullable(false));
    }
    return null_literal(type.with_nullable(true));
  });
}

struct Correlation {
  std::vector<const AstExpr*> filters;                           // no outer reference
  std::vector<std::pair<const AstExpr*, const AstExpr*>> equal;  // (inner side, outer side)
  std::vector<const AstExpr*> residual;                          // other conjuncts reading outer columns
  std::vector<const AstExpr*> outer_refs;                        // every outer reference of the last two
};

}  // namespace

Result<KeyedSubquery> QueryBinder::bind_keyed(const Query& query, const Bound& outer, bool keys_only) {
  KeyedSubquery keyed;
  auto uncorrelated = [&](Result<Bound> bound) -> Result<KeyedSubquery> {
    if (!bound.ok()) return bound.status();
    for (const ScopeColumn& column : bound->scope.columns) {
      if (column.internal) continue;
      keyed.item_types.push_back(column.type);
      keyed.item_names.push_back(column.name);
    }
    keyed.plan = std::move(bound->plan);
    return std::move(keyed);
  };
  const Select* select = query.select.get();
  if (!select || !select->from) return uncorrelated(bind_query(query));
  Result<Bound> from = bind_from(*select->from);
  if (!from.ok()) return from.status();
  Bound inner = std::move(*from);

  // Where each column reference points: the subquery, the query around it, or further out.
  auto side_of = [&](const AstExpr& ref) {
    Result<size_t> in_subquery = inner.scope.resolve(ref.names, ref.position);
    // An ambiguous name is the subquery's: binding it reports the ambiguity.
    if (in_subquery.ok() || in_subquery.status().message().find("ambiguous") != std::string::npos) {
      return Side::kInner;
    }
    if (outer.scope.resolve(ref.names, ref.position).ok()) return Side::kOuter;
    for (size_t i = 0; i + 1 < outer_scopes_.size(); ++i) {
      if (outer_scopes_[i].resolve(ref.names, ref.position).ok()) return Side::kFurther;
    }
    return Side::kUnknown;
  };
  Status misplaced = Status::OK();
  auto check_no_outer = [&](const AstExpr& ast, const char* where) {
    for_each_column_ref(ast, [&](const AstExpr& ref) {
      Side side = side_of(ref);
      if (misplaced.ok() && (side == Side::kOuter || side == Side::kFurther)) {
        misplaced = sql_error(ref.position, "a correlated reference ('" + qualified_name(ref) + "') inside " +
                                                std::string(where) + " of a subquery is not supported");
      }
    });
  };
  for (const SelectItem& item : select->items) {
    if (item.expr) check_no_outer(*item.expr, "the select list");
  }
  for (const AstExprPtr& key : select->group_by) check_no_outer(*key, "GROUP BY");
  if (select->having) check_no_outer(*select->having, "HAVING");
  FRESHET_RETURN_IF_ERROR(misplaced);

  Correlation correlation;
  if (select->where) {
    for (const AstExpr* conjunct : split_ast_conjuncts(*select->where)) {
      bool reads_inner = false, reads_outer = false;
      Status further = Status::OK();
      for_each_column_ref(*conjunct, [&](const AstExpr& ref) {
        Side side = side_of(ref);
        reads_inner = reads_inner || side == Side::kInner;
        reads_outer = reads_outer || side == Side::kOuter;
        if (side == Side::kFurther && further.ok()) {
          further = sql_error(ref.position, "a correlated reference ('" + qualified_name(ref) +
                                                "') to a query two or more levels out is not supported");
        }
      });
      FRESHET_RETURN_IF_ERROR(further);
      if (!reads_outer) {
        correlation.filters.push_back(conjunct);
        continue;
      }
      if (contains_subquery(*conjunct)) {
        return sql_error(conjunct->position,
                         "a correlated reference inside a condition that holds a subquery is not supported");
      }
      for_each_column_ref(*conjunct, [&](const AstExpr& ref) {
        if (side_of(ref) == Side::kOuter) correlation.outer_refs.push_back(&ref);
      });
      auto only = [&](const AstExpr& side, Side wanted) {
        bool any = false, all = true;
        for_each_column_ref(side, [&](const AstExpr& ref) {
          Side found = side_of(ref);
          any = any || found == wanted;
          all = all && found == wanted;
        });
        return any && all;
      };
      if (conjunct->kind == AstExprKind::kBinary && conjunct->op == AstOperator::kEqual) {
        const AstExpr& a = *conjunct->children[0];
        const AstExpr& b = *conjunct->children[1];
        if (only(a, Side::kInner) && only(b, Side::kOuter)) {
          correlation.equal.emplace_back(&a, &b);
          continue;
        }
        if (only(b, Side::kInner) && only(a, Side::kOuter)) {
          correlation.equal.emplace_back(&b, &a);
          continue;
        }
      }
      correlation.residual.push_back(conjunct);
    }
  }
  if (correlation.equal.empty() && correlation.residual.empty()) {
    if (query.limit) return uncorrelated(bind_query(query));  // binds the FROM again, with the LIMIT
    return uncorrelated(bind_select_body(*select, std::move(inner)));
  }
  if (query.limit) {
    return sql_error(query.position, "a correlated reference inside a subquery with LIMIT is not supported");
  }
  if (contains_window(*select->where) || !select->windows.empty()) {
    return sql_error(select->position, "window functions in a correlated subquery are not supported");
  }
  for (const SelectItem& item : select->items) {
    if (item.expr && contains_window(*item.expr)) {
      return sql_error(item.position, "window functions in a correlated subquery are not supported");
    }
  }
  if (!correlation.filters.empty()) {
    Result<Bound> filtered = bind_where_subqueries(correlation.filters, std::move(inner));
    if (!filtered.ok()) return filtered.status();
    inner = std::move(*filtered);
  }

  // The keyed rows: [keys..., the subquery's columns...].
  Bound rows;
  std::vector<ExprPtr> inner_keys;
  auto bind_pair = [&](const AstExpr& inner_side, const Scope& inner_scope, const AstExpr& outer_side,
                       const Scope& outer_scope) -> Status {
    Result<ExprPtr> i = ExpressionBinder(inner_scope).bind(inner_side);
    if (!i.ok()) return i.status();
    Result<ExprPtr> o = ExpressionBinder(outer_scope).bind(outer_side);
    if (!o.ok()) return o.status();
    std::optional<SqlType> common = common_type((*i)->type, (*o)->type);
    if (!common) {
      return sql_error(inner_side.position, "cannot compare " + (*i)->type.with_nullable(true).to_string() + " with " +
                                                (*o)->type.with_nullable(true).to_string());
    }
    inner_keys.push_back(cast_to(std::move(*i), *common));
    keyed.outer_keys.push_back(cast_to(std::move(*o), *common));
    return Status::OK();
  };
  if (correlation.residual.empty()) {
    for (auto& [inner_side, outer_side] : correlation.equal) {
      FRESHET_RETURN_IF_ERROR(bind_pair(*inner_side, inner.scope, *outer_side, outer.scope));
    }
    std::vector<ExprPtr> expressions;
    for (size_t k = 0; k < inner_keys.size(); ++k) {
      rows.scope.columns.push_back({"", "$k" + std::to_string(k), inner_keys[k]->type, false, true});
      keyed.key_types.push_back(inner_keys[k]->type);
      expressions.push_back(std::move(inner_keys[k]));
    }
    for (size_t c = 0; c < inner.scope.columns.size(); ++c) {
      rows.scope.columns.push_back(inner.scope.columns[c]);
      expressions.push_back(column_expr(c, inner.scope.columns[c].type));
    }
    rows.plan = make_plan(LogicalPlan::Kind::kProject, schema_of(rows.scope), std::move(inner.plan));
    rows.plan->expressions = std::move(expressions);
  } else {
    // D: the distinct values of the outer columns the correlation reads.
    std::vector<size_t> columns;
    for (const AstExpr* ref : correlation.outer_refs) {
      size_t column = *outer.scope.resolve(ref->names, ref->position);
      if (std::find(columns.begin(), columns.end(), column) == columns.end()) columns.push_back(column);
    }
    Scope domain;
    std::vector<ExprPtr> picked;
    for (size_t column : columns) {
      domain.columns.push_back(outer.scope.columns[column]);
      domain.columns.back().internal = false;
      picked.push_back(column_expr(column, outer.scope.columns[column].type));
      keyed.outer_keys.push_back(column_expr(column, outer.scope.columns[column].type));
      keyed.key_types.push_back(outer.scope.columns[column].type);
    }
    PlanPtr values = make_plan(LogicalPlan::Kind::kProject, schema_of(domain), clone_plan(*outer.plan));
    values->expressions = std::move(picked);
    PlanPtr distinct_values = wrap_plan(LogicalPlan::Kind::kDistinct, std::move(values));
    keyed.null_safe = true;

    auto join = std::make_unique<LogicalPlan>();
    join->kind = LogicalPlan::Kind::kJoin;
    join->join_type = JoinType::kInner;
    for (auto& [inner_side, outer_side] : correlation.equal) {
      FRESHET_RETURN_IF_ERROR(bind_pair(*inner_side, inner.scope, *outer_side, domain));
      join->left_keys.push_back(std::move(keyed.outer_keys.back()));
      keyed.outer_keys.pop_back();
      join->right_keys.push_back(std::move(inner_keys.back()));
      inner_keys.pop_back();
    }
    // The residual over [D..., inner...]: a name resolves in the subquery first.
    const size_t width = domain.columns.size();
    Scope none;
    ExpressionBinder binder(none, [&](const AstExpr& ast) -> Result<ExprPtr> {
      if (ast.kind != AstExprKind::kColumnRef) return ExprPtr();
      Result<size_t> in = inner.scope.resolve(ast.names, ast.position);
      if (in.ok()) return column_expr(width + *in, inner.scope.columns[*in].type);
      Result<size_t> out = domain.resolve(ast.names, ast.position);
      if (!out.ok()) return in.status();
      return column_expr(*out, domain.columns[*out].type);
    });
    std::vector<ExprPtr> residual;
    for (const AstExpr* conjunct : correlation.residual) {
      Result<ExprPtr> bound = binder.bind_condition(*conjunct, "WHERE");
      if (!bound.ok()) return bound.status();
      residual.push_back(std::move(*bound));
    }
    join->residual = conjoin(std::move(residual));
    for (size_t c = 0; c < width; ++c) {
      rows.scope.columns.push_back({"", "$k" + std::to_string(c), domain.columns[c].type, false, true});
      join->left_columns.push_back(c);
    }
    for (size_t c = 0; c < inner.scope.columns.size(); ++c) {
      rows.scope.columns.push_back(inner.scope.columns[c]);
      join->right_columns.push_back(c);
    }
    join->schema = schema_of(rows.scope);
    join->inputs.push_back(std::move(distinct_values));
    join->inputs.push_back(std::move(inner.plan));
    rows.plan = std::move(join);
  }
  return bind_keyed_select(*select, std::move(rows), std::move(keyed), keys_only);
}

Result<KeyedSubquery> QueryBinder::bind_keyed_select(const Select& select, Bound rows, KeyedSubquery keyed,
                                                     bool keys_only) {
  // The select list over the keyed rows, the keys first and in GROUP BY too.
  const size_t keys = keyed.key_types.size();
  bool aggregating = !select.group_by.empty() || (select.having && contains_aggregate(*select.having));
  for (const SelectItem& item : select.items)
    aggregating = aggregating || (item.expr && contains_aggregate(*item.expr));
  Select synthetic;
  synthetic.position = select.position;
  synthetic.distinct = select.distinct;
  for (size_t k = 0; k < keys; ++k) {
    synthetic.items.push_back({select.position, key_reference(k, select.position), false, "", ""});
  }
  if (!keys_only || aggregating) {
    for (const SelectItem& item : select.items) {
      SelectItem copy{item.position, item.expr ? clone_ast(*item.expr) : nullptr, item.star, item.star_table,
                      item.alias};
      synthetic.items.push_back(std::move(copy));
    }
  }
  if (aggregating) {
    for (size_t k = 0; k < keys; ++k) synthetic.group_by.push_back(key_reference(k, select.position));
    for (const AstExprPtr& key : select.group_by) synthetic.group_by.push_back(clone_ast(*key));
    if (select.having) synthetic.having = clone_ast(*select.having);
  }
  Result<Bound> body = bind_select_body(synthetic, std::move(rows));
  if (!body.ok()) return body.status();
  for (size_t c = keys; c < body->scope.columns.size(); ++c) {
    keyed.item_types.push_back(body->scope.columns[c].type);
    keyed.item_names.push_back(body->scope.columns[c].name);
  }
  keyed.one_row_per_key = aggregating && select.group_by.empty();
  if (keyed.one_row_per_key) {
    // The select list's values for a key without rows: Project [Filter HAVING] Aggregate.
    const LogicalPlan* top = body->plan.get();
    if (top->kind == LogicalPlan::Kind::kDistinct) top = top->inputs[0].get();
    const LogicalPlan* below = top->inputs[0].get();
    const LogicalPlan* aggregate = below->kind == LogicalPlan::Kind::kFilter ? below->inputs[0].get() : below;
    if (top->kind != LogicalPlan::Kind::kProject || aggregate->kind != LogicalPlan::Kind::kAggregate) {
      return Status(ErrorCode::kInternal, "unexpected plan of a correlated aggregate subquery");
    }
    for (size_t i = keys; i < top->expressions.size(); ++i) {
      keyed.empty_items.push_back(empty_group(*top->expressions[i], *aggregate));
    }
    if (below->kind == LogicalPlan::Kind::kFilter) keyed.empty_having = empty_group(*below->predicate, *aggregate);
  }
  keyed.plan = std::move(body->plan);
  return keyed;
}

}  // namespace freshet::sql
