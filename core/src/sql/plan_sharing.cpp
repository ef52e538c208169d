#include "plan_sharing.h"

#include <utility>

#include "freshet/circuit/operator_ids.h"

#include "plan_key.h"
#include "planner.h"
#include "prune_columns.h"

namespace freshet::sql {

std::vector<bool> ColumnDemand::widen(const LogicalPlan& plan, const std::vector<bool>& needed) {
  return widen_key(plan_key(plan), needed);
}

std::vector<bool> ColumnDemand::widen_side(const LogicalPlan& input, const std::vector<ExprPtr>& keys,
                                           const std::vector<bool>& needed) {
  if (!share_sides_) return needed;
  std::string key = "join side of " + plan_key(input);
  for (const ExprPtr& expr : keys) key += " key " + expression_key(*expr);
  return widen_key(key, needed);
}

std::vector<bool> ColumnDemand::widen_key(const std::string& key, const std::vector<bool>& needed) {
  auto [entry, inserted] = needed_.try_emplace(key, needed);
  if (inserted) return needed;
  std::vector<bool>& all = entry->second;
  for (size_t c = 0; c < needed.size() && c < all.size(); ++c) {
    if (needed[c] && !all[c]) {
      all[c] = true;
      grown_ = true;
    }
  }
  return all;
}

bool ColumnDemand::take_grown() {
  bool grown = grown_;
  grown_ = false;
  return grown;
}

ColumnDemand program_column_demand(size_t view_count, const std::function<PlanPtr(size_t)>& bind,
                                   bool share_sides) {
  ColumnDemand demand;
  demand.set_share_sides(share_sides);
  // A round in which no union grew left every sub-plan with the columns
  // the next pruning gives it. Each round that grows one adds a column, so
  // this ends; the bound only caps the compile time of a pathological
  // program (its pruning then shares less, never wrongly: streams are
  // shared by the key of the pruned plan).
  constexpr int kMaxRounds = 8;
  for (int round = 0; round < kMaxRounds; ++round) {
    for (size_t v = 0; v < view_count; ++v) {
      PlanPtr plan = bind(v);
      if (plan) prune_columns(*plan, std::vector<bool>(plan->schema->size(), true), &demand);
    }
    if (!demand.take_grown()) break;
  }
  return demand;
}

void SharedPlans::count_users(const LogicalPlan& root) {
  std::string key = plan_key(root);
  ++users_[key];
  count_inputs(root, key);
}

void SharedPlans::count_inputs(const LogicalPlan& node, const std::string& key) {
  if (!counted_.insert(key).second) return;  // met before: its inputs have their users
  for (const PlanPtr& input : node.inputs) {
    std::string input_key = plan_key(*input);
    ++users_[input_key];
    count_inputs(*input, input_key);
  }
}

bool SharedPlans::shared(const LogicalPlan& plan) const {
  std::string key = plan_key(plan);
  if (streams_.count(key)) return true;
  auto users = users_.find(key);
  return users != users_.end() && users->second > 1;
}

std::optional<Stream> SharedPlans::find_operator(const std::string& what) const {
  auto found = operators_.find(what);
  if (found == operators_.end()) return std::nullopt;
  return found->second;
}

std::optional<Stream> SharedPlans::find(const std::string& key) const {
  auto stream = streams_.find(key);
  if (stream == streams_.end()) return std::nullopt;
  ++reuses_;
  return stream->second;
}

// Every node goes through here: a sub-plan met before is its stream.
Result<Stream> Planner::plan(LogicalPlan& plan) {
  // A table or view is its stream already.
  if (plan.kind == LogicalPlan::Kind::kScan) return plan_node(plan);
  // The key is taken now, after the rewrites of the nodes above (a rank
  // limit) and before planning consumes the node's expressions.
  std::string key = plan_key(plan);
  // A view in 'null' mode never shares a sub-plan with one in 'fail' mode:
  // their expressions handle errors differently (runtime_errors.h).
  if (runtime_errors_.mode == RuntimeErrorMode::kNull) key.insert(0, "on_runtime_error=null ");
  if (shared_) {
    if (std::optional<Stream> stream = shared_->find(key)) return *stream;
  }
  Result<Stream> stream = [&] {
    // The operators of this node (not its inputs': they open their own) are
    // named from its key: stable across programs (operator_ids.h).
    OperatorIdScope ids(circuit_, key);
    std::string outer_key = std::exchange(id_key_, key);
    Result<Stream> node = plan_node(plan);
    id_key_ = std::move(outer_key);
    return node;
  }();
  if (stream.ok() && shared_) shared_->add(std::move(key), *stream);
  return stream;
}

Stream Planner::shared_operator(std::string what, const std::function<Stream()>& build) {
  if (!shared_ || !shared_->shares_arrangements()) return build();
  if (std::optional<Stream> stream = shared_->find_operator(what)) {
    // The operator this user would have built is not built: those it
    // builds next keep their ids (a checkpoint from before the sharing
    // still names them).
    circuit_.skip_operator_id();
    return *stream;
  }
  Stream stream = build();
  shared_->add_operator(std::move(what), stream);
  return stream;
}

bool Planner::shared(const LogicalPlan& plan) const { return shared_ && shared_->shared(plan); }

}  // namespace freshet::sql
