// Sharing: a sub-plan that two views, or two parts of one view, compute
// alike (the same join of the same inputs on the same keys, the same
// DISTINCT, aggregate, filter or projection) is planned once, and its
// stream, with the state of the operators behind it, serves every user.
//
//   view a: SUM(amount) GROUP BY region ─┐
//   view b: WHERE amount > 100 ──────────┼── orders ⋈ customers (one join, one pair of traces)
//   view c: COUNT(*) ────────────────────┘
//
// Two parts make it work:
// - ColumnDemand: column pruning narrows each view's plan to the columns it
//   reads, so ten views over one join would each keep other columns and
//   stop being alike. Before any view is pruned, fresh copies of all of
//   them are pruned with the demand recording, per sub-plan key (plan_key.h,
//   taken before pruning), the union of the columns its users need; the
//   real pruning then gives every occurrence that union, and they are alike
//   again.
// - SharedPlans: the planner's cache of streams by the key of the pruned
//   sub-plan, and how many users each sub-plan has in the whole program
//   (the planner fuses an aggregate with the join below it only when
//   nothing else reads that join).
//
// - Arrangements: a join's side is its input indexed by the join's keys
//   and integrated into a trace (arrange.h). Two different joins that index
//   the same stream by the same keys, keeping the same columns, read one
//   arrangement: SharedPlans keeps them by (stream, keys, columns) too.
// - Maps: an aggregate's grouping map and the index below a top-k or a
//   window are built inside their node's planning, so equal nodes above
//   them do not make them alike; Planner::shared_operator keeps them by
//   the canonical text of their input and work, and two aggregates that
//   group one stream alike (SUM and MAX of amount by customer) read one
//   map. A user that reads another's map still counts the operator id it
//   would have taken, so the ids of what it builds next do not move.
//
// Planning is deterministic (keys are canonical, views are planned in
// program order), so a program builds the same operator list every time and
// restores its own checkpoints.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "freshet/circuit/circuit.h"
#include "logical_plan.h"

namespace freshet::sql {

//! Per sub-plan key (before pruning), the union of the columns its users need.
class ColumnDemand {
 public:
  //! Records that a user of `plan` needs `needed` and returns what every
  //! user recorded so far needs (`needed` or more).
  std::vector<bool> widen(const LogicalPlan& plan, const std::vector<bool>& needed);
  //! The same for the columns a join keeps of its side `input` indexed by
  //! `keys` (before pruning): joins that index one input alike keep the
  //! union of their columns, so they read one arrangement of it.
  std::vector<bool> widen_side(const LogicalPlan& input, const std::vector<ExprPtr>& keys,
                               const std::vector<bool>& needed);
  //! Whether a recording grew an earlier one since the last call (then a
  //! sub-plan already pruned asked too little of its inputs: prune again).
  bool take_grown();
  void set_share_sides(bool share) { share_sides_ = share; }

 private:
  std::vector<bool> widen_key(const std::string& key, const std::vector<bool>& needed);

  std::map<std::string, std::vector<bool>> needed_;
  bool grown_ = false;
  bool share_sides_ = true;
};

//! The demand of a whole program: prunes the plans `bind(0..count-1)` gives
//! (fresh copies of the views, in order) until no sub-plan's union grows;
//! joins' sides too when `share_sides` (widen_side).
ColumnDemand program_column_demand(size_t view_count, const std::function<PlanPtr(size_t)>& bind,
                                   bool share_sides = true);

//! The planner's cache of planned sub-plans and their users' counts.
class SharedPlans {
 public:
  //! Counts the users of every sub-plan of a pruned view's plan: a
  //! sub-plan met again (in this view or an earlier one) is one more user
  //! of it, and its inputs are not counted again.
  void count_users(const LogicalPlan& root);
  //! Whether more than one plan node reads the sub-plan, or it is planned already.
  bool shared(const LogicalPlan& plan) const;

  //! The stream already planned for `key`, if any.
  std::optional<Stream> find(const std::string& key) const;
  void add(std::string key, Stream stream) { streams_.emplace(std::move(key), stream); }
  //! Sub-plans planned once and used again (for tests and the benchmark).
  size_t reuses() const { return reuses_; }

  //! The arranged stream already planned for `key` (a stream indexed by
  //! keys, plan_sharing.cpp's arrangement_key), if any.
  std::optional<Stream> find_arrangement(const std::string& key) const;
  void add_arrangement(std::string key, Stream stream) { arrangements_.emplace(std::move(key), stream); }
  //! The stream of the one operator (an index, a grouping map) already
  //! built for `what`, the canonical text of its input and work, if any.
  std::optional<Stream> find_operator(const std::string& what) const;
  void add_operator(std::string what, Stream stream) { operators_.emplace(std::move(what), stream); }
  //! Whether arrangements and the maps that feed them are shared.
  bool shares_arrangements() const { return share_arrangements_; }
  void set_share_arrangements(bool share) { share_arrangements_ = share; }

 private:
  void count_inputs(const LogicalPlan& node, const std::string& key);

  std::map<std::string, Stream> streams_;
  std::map<std::string, Stream> arrangements_;
  std::map<std::string, Stream> operators_;
  std::map<std::string, size_t> users_;
  std::set<std::string> counted_;
  mutable size_t reuses_ = 0;
  bool share_arrangements_ = true;
};

}  // namespace freshet::sql
