// Stable operator ids: an operator's id comes from the plan, not from its
// position in the circuit, so that a checkpoint restores each operator by id
// into a program that changed elsewhere (other views added, removed or
// edited), and new operators are told from restored ones (bootstrapping,
// circuit_bootstrap.cpp).
//
// The planner opens a scope around the operators it builds for one sub-plan,
// carrying the sub-plan's canonical key (sql/plan_key.h); the compiler does
// the same for a table's operators (its name and schema) and an index's.
// An aggregate that forgets the groups its table's LATENESS closes adds the
// lateness to its key (planner.cpp): its state depends on it.
// Each operator added inside is named from the innermost scope's key and its
// order in that scope: the same view text over the same tables gives the same
// ids whatever else the program holds.
//
// That order must be the code's, never the compiler's: two operators built
// in two arguments of one call (join(index_by(a), index_by(b))) come in the
// order the compiler evaluates arguments in, which g++ and clang (so the
// wasm build) differ on, and a checkpoint of one build would name them
// the other way round in the other. Such operands are built one per
// statement; scripts/check_operand_order.sh finds any call that does not.
#pragma once

#include <string>

#include "freshet/circuit/circuit.h"

namespace freshet {

//! Names the operators added while it lives from `key` (Circuit::push_id_scope).
class OperatorIdScope {
 public:
  OperatorIdScope(Circuit& circuit, std::string key) : circuit_(circuit) { circuit_.push_id_scope(std::move(key)); }
  ~OperatorIdScope() { circuit_.pop_id_scope(); }
  OperatorIdScope(const OperatorIdScope&) = delete;
  OperatorIdScope& operator=(const OperatorIdScope&) = delete;

 private:
  Circuit& circuit_;
};

}  // namespace freshet
