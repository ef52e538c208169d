#include "plan_join_order.h"

#include <algorithm>
#include <numeric>

#include "binder.h"
#include "expression_tools.h"
#include "freshet/common/out_of_line.h"

namespace freshet::sql {
namespace {

bool is_inner(const LogicalPlan& plan) {
  return plan.kind == LogicalPlan::Kind::kJoin &&
         (plan.join_type == JoinType::kInner || plan.join_type == JoinType::kCross);
}

bool columns_only(const LogicalPlan& plan) {
  for (const ExprPtr& expr : plan.expressions) {
    if (expr->kind != ExprKind::kColumn) return false;
  }
  return true;
}

// Whether the node is part of a join tree: an inner join, or a filter or
// column-only projection over one.
bool in_join_tree(const LogicalPlan& plan) {
  if (is_inner(plan)) return true;
  bool passes =
      plan.kind == LogicalPlan::Kind::kFilter || (plan.kind == LogicalPlan::Kind::kProject && columns_only(plan));
  return passes && in_join_tree(*plan.inputs[0]);
}

// A copy of `expr` whose column references are replaced by copies of
// `columns[c]` (columns empty: a plain copy).
ExprPtr substitute(const Expr& expr, const std::vector<ExprPtr>& columns) {
  return clone_expr(expr, columns.empty() ? nullptr : &columns);
}

void remap(Expr& expr, const std::vector<size_t>& mapping) {
  if (expr.kind == ExprKind::kColumn) expr.column = mapping[expr.column];
  for (ExprPtr& child : expr.children) remap(*child, mapping);
}

//! A join tree flattened: relations side by side (the concatenation of
//! their columns), the predicates over them, and the tree's columns.
struct Flattened {
  std::vector<PlanPtr> relations;
  std::vector<size_t> offsets;  //!< each relation's first column in the concatenation
  std::vector<size_t> widths;   //!< each relation's column count
  size_t width = 0;
  std::vector<ExprPtr> predicates;
};

void add_conjuncts(Flattened& flat, ExprPtr predicate) {
  for (ExprPtr& conjunct : split_conjuncts(std::move(predicate))) flat.predicates.push_back(std::move(conjunct));
}

// Flattens `plan` into `flat`; returns its columns over the concatenation.
std::vector<ExprPtr> flatten(PlanPtr plan, Flattened& flat) {
  if (is_inner(*plan)) {
    std::vector<ExprPtr> columns = flatten(std::move(plan->inputs[0]), flat);
    std::vector<ExprPtr> right = flatten(std::move(plan->inputs[1]), flat);
    for (size_t i = 0; i < plan->left_keys.size(); ++i) {
      std::vector<ExprPtr> sides;
      sides.push_back(substitute(*plan->left_keys[i], columns));
      sides.push_back(substitute(*plan->right_keys[i], right));
      flat.predicates.push_back(make_expr(ExprKind::kCompare, SqlType::boolean(true), std::move(sides)));
      flat.predicates.back()->op = AstOperator::kEqual;
    }
    for (ExprPtr& column : right) columns.push_back(std::move(column));
    if (plan->residual) add_conjuncts(flat, substitute(*plan->residual, columns));
    return columns;
  }
  if (plan->kind == LogicalPlan::Kind::kFilter && in_join_tree(*plan)) {
    std::vector<ExprPtr> columns = flatten(std::move(plan->inputs[0]), flat);
    add_conjuncts(flat, substitute(*plan->predicate, columns));
    return columns;
  }
  if (plan->kind == LogicalPlan::Kind::kProject && in_join_tree(*plan)) {
    std::vector<ExprPtr> input = flatten(std::move(plan->inputs[0]), flat);
    std::vector<ExprPtr> columns;
    for (const ExprPtr& expr : plan->expressions) columns.push_back(substitute(*expr, input));
    return columns;
  }
  plan_join_order(plan);  // a relation: its own join trees are planned on their own
  std::vector<ExprPtr> columns;
  for (size_t c = 0; c < plan->schema->size(); ++c)
    columns.push_back(column_expr(flat.width + c, plan->schema->type(c)));
  flat.offsets.push_back(flat.width);
  flat.widths.push_back(plan->schema->size());
  flat.width += plan->schema->size();
  flat.relations.push_back(std::move(plan));
  return columns;
}

//! A predicate and the relations it reads; an equality usable as a join key
//! also knows the relations of each side.
struct Predicate {
  ExprPtr expr;
  std::vector<size_t> relations;  //!< sorted
  bool equality = false;
  std::vector<size_t> sides[2];
  bool applied = false;
};

std::vector<size_t> relations_of(const Expr& expr, const Flattened& flat) {
  std::vector<size_t> found;
  std::vector<const Expr*> stack = {&expr};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e->kind == ExprKind::kColumn) {
      size_t r = std::upper_bound(flat.offsets.begin(), flat.offsets.end(), e->column) - flat.offsets.begin() - 1;
      if (std::find(found.begin(), found.end(), r) == found.end()) found.push_back(r);
    }
    for (const ExprPtr& child : e->children) stack.push_back(child.get());
  }
  std::sort(found.begin(), found.end());
  return found;
}

bool subset(const std::vector<size_t>& items, const std::vector<bool>& set) {
  for (size_t item : items) {
    if (!set[item]) return false;
  }
  return true;
}

//! A join tree being built: its plan and its relations in column order.
struct Tree {
  PlanPtr plan;
  std::vector<size_t> relations;
};

//! Plans the relations of one flattened join tree.
class JoinOrder {
 public:
  JoinOrder(Flattened& flat, std::vector<ExprPtr> predicates) : flat_(flat) {
    for (ExprPtr& expr : predicates) {
      Predicate p;
      p.relations = relations_of(*expr, flat);
      if (expr->kind == ExprKind::kCompare && expr->op == AstOperator::kEqual && !contains_now(*expr)) {
        p.sides[0] = relations_of(*expr->children[0], flat);
        p.sides[1] = relations_of(*expr->children[1], flat);
        p.equality = !p.sides[0].empty() && !p.sides[1].empty();
        for (size_t r : p.sides[0]) {
          p.equality = p.equality && std::find(p.sides[1].begin(), p.sides[1].end(), r) == p.sides[1].end();
        }
      }
      p.expr = std::move(expr);
      predicates_.push_back(std::move(p));
    }
  }

  //! The joined relations, and the position of each concatenation column in it.
  Tree plan(std::vector<size_t>& mapping) {
    const size_t n = flat_.relations.size();
    std::vector<size_t> group(n);
    std::iota(group.begin(), group.end(), 0);
    auto root = [&](size_t r) {
      while (group[r] != r) r = group[r] = group[group[r]];
      return r;
    };
    for (const Predicate& p : predicates_) {
      if (!p.equality) continue;
      for (size_t r : p.relations) group[root(r)] = root(p.relations[0]);
    }
    std::vector<Tree> groups;
    std::vector<bool> done(n, false);
    for (size_t first = 0; first < n; ++first) {
      if (done[first]) continue;
      std::vector<size_t> members;
      for (size_t r = first; r < n; ++r) {
        if (root(r) == root(first)) members.push_back(r);
      }
      for (size_t r : members) done[r] = true;
      groups.push_back(plan_group(members));
    }
    Tree tree = std::move(groups[0]);
    for (size_t g = 1; g < groups.size(); ++g) tree = join(std::move(tree), std::move(groups[g]));
    mapping = layout(tree.relations);
    return tree;
  }

 private:
  //! Joins a connected group greedily, each next relation tied by an equality.
  Tree plan_group(std::vector<size_t> members) {
    Tree tree = relation(members[0]);
    members.erase(members.begin());
    while (!members.empty()) {
      std::vector<bool> joined = member_set(tree.relations);
      size_t pick = members.size();
      for (size_t i = 0; i < members.size() && pick == members.size(); ++i) {
        if (keyed(joined, members[i])) pick = i;
      }
      for (size_t i = 0; i < members.size() && pick == members.size(); ++i) {
        if (touches(joined, members[i])) pick = i;
      }
      if (pick == members.size()) pick = 0;
      size_t next = members[pick];
      members.erase(members.begin() + static_cast<std::ptrdiff_t>(pick));
      tree = join(std::move(tree), relation(next));
    }
    return tree;
  }

  std::vector<bool> member_set(const std::vector<size_t>& relations) const {
    std::vector<bool> set(flat_.relations.size(), false);
    for (size_t r : relations) set[r] = true;
    return set;
  }

  // Whether an equality ties relation `r` (alone on one side) to `joined`.
  bool keyed(const std::vector<bool>& joined, size_t r) const {
    std::vector<bool> only = member_set({r});
    for (const Predicate& p : predicates_) {
      if (p.applied || !p.equality) continue;
      if ((subset(p.sides[0], joined) && subset(p.sides[1], only)) ||
          (subset(p.sides[1], joined) && subset(p.sides[0], only))) {
        return true;
      }
    }
    return false;
  }

  // Whether a predicate reads `r` and the joined relations only (at least one).
  bool touches(const std::vector<bool>& joined, size_t r) const {
    std::vector<bool> with = joined;
    with[r] = true;
    for (const Predicate& p : predicates_) {
      if (p.applied || !subset(p.relations, with)) continue;
      for (size_t q : p.relations) {
        if (joined[q]) return true;
      }
    }
    return false;
  }

  //! The position of each concatenation column in a tree of these relations
  //! (SIZE_MAX for the others').
  std::vector<size_t> layout(const std::vector<size_t>& relations) const {
    std::vector<size_t> mapping(flat_.width, SIZE_MAX);
    size_t position = 0;
    for (size_t r : relations) {
      for (size_t c = 0; c < flat_.widths[r]; ++c) mapping[flat_.offsets[r] + c] = position++;
    }
    return mapping;
  }

  ExprPtr remapped(const Expr& expr, const std::vector<size_t>& mapping) const {
    ExprPtr copy = substitute(expr, {});
    remap(*copy, mapping);
    return copy;
  }

  //! A relation with the predicates that read only it (and those reading
  //! none, on the first relation) as its filter.
  Tree relation(size_t r) {
    std::vector<ExprPtr> own;
    std::vector<size_t> mapping = layout({r});
    for (Predicate& p : predicates_) {
      bool mine = p.relations.size() == 1 ? p.relations[0] == r : p.relations.empty() && r == 0;
      if (p.applied || !mine) continue;
      own.push_back(remapped(*p.expr, mapping));
      p.applied = true;
    }
    PlanPtr plan = std::move(flat_.relations[r]);
    if (!own.empty()) {
      plan = wrap_plan(LogicalPlan::Kind::kFilter, std::move(plan));
      plan->predicate = conjoin(std::move(own));
    }
    return Tree{std::move(plan), {r}};
  }

  //! left ⋈ right on the equalities between them, with the predicates they
  //! complete as the residual.
  Tree join(Tree left, Tree right) {
    std::vector<bool> in_left = member_set(left.relations), in_right = member_set(right.relations);
    std::vector<size_t> left_layout = layout(left.relations), right_layout = layout(right.relations);
    auto node = std::make_unique<LogicalPlan>();
    node->kind = LogicalPlan::Kind::kJoin;
    for (Predicate& p : predicates_) {
      if (p.applied || !p.equality) continue;
      for (int side = 0; side < 2 && !p.applied; ++side) {
        if (!subset(p.sides[side], in_left) || !subset(p.sides[1 - side], in_right)) continue;
        node->left_keys.push_back(remapped(*p.expr->children[side], left_layout));
        node->right_keys.push_back(remapped(*p.expr->children[1 - side], right_layout));
        p.applied = true;
      }
    }
    Tree tree{nullptr, left.relations};
    tree.relations.insert(tree.relations.end(), right.relations.begin(), right.relations.end());
    std::vector<bool> in_tree = member_set(tree.relations);
    std::vector<size_t> tree_layout = layout(tree.relations);
    std::vector<ExprPtr> residual;
    for (Predicate& p : predicates_) {
      if (p.applied || !subset(p.relations, in_tree)) continue;
      residual.push_back(remapped(*p.expr, tree_layout));
      p.applied = true;
    }
    node->residual = conjoin(std::move(residual));
    node->join_type = node->left_keys.empty() && !node->residual ? JoinType::kCross : JoinType::kInner;
    std::vector<Column> columns = left.plan->schema->columns();
    for (const Column& column : right.plan->schema->columns()) columns.push_back(column);
    node->schema = make_schema(std::move(columns));
    for (size_t c = 0; c < left.plan->schema->size(); ++c) node->left_columns.push_back(c);
    for (size_t c = 0; c < right.plan->schema->size(); ++c) node->right_columns.push_back(c);
    node->inputs.push_back(std::move(left.plan));
    node->inputs.push_back(std::move(right.plan));
    tree.plan = std::move(node);
    return tree;
  }

  Flattened& flat_;
  std::vector<Predicate> predicates_;
};

// `tree`'s columns named as the join was written where that qualifies the
// relation's name ("o.id" where two tables have `id`; bind_query.cpp), for
// explain and runtime errors. Names a binder gave its own columns ("$k0" of
// a decorrelated subquery) stay the relation's.
SchemaPtr qualified_names(const Schema& tree, const Schema& written) {
  std::vector<Column> columns = tree.columns();
  for (size_t c = 0; c < columns.size() && c < written.size(); ++c) {
    const std::string& name = written.column(c).name;
    const std::string suffix = "." + columns[c].name;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      columns[c].name = name;
    }
  }
  return make_schema(std::move(columns));
}

// Plans the join tree rooted at `plan`; true when the result is a
// projection restoring the written column order.
bool plan_tree(PlanPtr& plan) {
  SchemaPtr schema = plan->schema;
  Flattened flat;
  std::vector<ExprPtr> columns = flatten(std::move(plan), flat);
  std::vector<size_t> mapping;
  Tree tree = JoinOrder(flat, std::move(flat.predicates)).plan(mapping);
  bool identity = columns.size() == tree.plan->schema->size();
  for (size_t i = 0; i < columns.size(); ++i) {
    remap(*columns[i], mapping);
    identity = identity && columns[i]->kind == ExprKind::kColumn && columns[i]->column == i &&
               columns[i]->type == tree.plan->schema->type(i);
  }
  if (identity) {
    plan = std::move(tree.plan);
    plan->schema = qualified_names(*plan->schema, *schema);
    return false;
  }
  plan = make_plan(LogicalPlan::Kind::kProject, schema, std::move(tree.plan));
  plan->expressions = std::move(columns);
  return true;
}

// LEFT (RIGHT) JOIN: ON conjuncts reading only the right (left) side filter
// that side before the join.
void push_outer_join_conditions(LogicalPlan& join) {
  if (!join.residual || (join.join_type != JoinType::kLeft && join.join_type != JoinType::kRight)) return;
  const bool right_side = join.join_type == JoinType::kLeft;
  const size_t left_width = join.inputs[0]->schema->size(), width = join.schema->size();
  std::vector<ExprPtr> kept, pushed;
  for (ExprPtr& conjunct : split_conjuncts(std::move(join.residual))) {
    ColumnRange range = referenced_columns(*conjunct);
    if (range.within(right_side ? left_width : 0, right_side ? width : left_width)) {
      if (right_side) shift_columns(*conjunct, left_width);
      pushed.push_back(std::move(conjunct));
    } else {
      kept.push_back(std::move(conjunct));
    }
  }
  join.residual = conjoin(std::move(kept));
  if (pushed.empty()) return;
  PlanPtr& side = join.inputs[right_side ? 1 : 0];
  side = wrap_plan(LogicalPlan::Kind::kFilter, std::move(side));
  side->predicate = conjoin(std::move(pushed));
}

// Plans the join trees in `plan`; true when it became a projection
// restoring a join tree's column order.
// It visits every node; the work on a join is called out of line (out_of_line.h says why).
bool rewrite(PlanPtr& plan) {
  if (plan->kind == LogicalPlan::Kind::kJoin && !is_inner(*plan)) {
    call_out_of_line<&push_outer_join_conditions>(*plan);
  }
  if (is_inner(*plan) || (plan->kind == LogicalPlan::Kind::kFilter && in_join_tree(*plan))) {
    return call_out_of_line<&plan_tree>(plan);
  }
  for (PlanPtr& input : plan->inputs) {
    if (!rewrite(input) || plan->kind != LogicalPlan::Kind::kProject) continue;
    // A projection over the restoring one reads the join directly.
    for (ExprPtr& expr : plan->expressions) expr = substitute(*expr, input->expressions);
    PlanPtr join = std::move(input->inputs[0]);
    input = std::move(join);
  }
  return false;
}

}  // namespace

void plan_join_order(PlanPtr& plan) { rewrite(plan); }

}  // namespace freshet::sql
