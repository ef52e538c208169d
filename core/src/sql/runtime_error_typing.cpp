#include "runtime_error_typing.h"

namespace freshet::sql {
namespace {

// Per thread natively (tests compile on several threads); the wasm build has
// one thread, and its thread_local bool needs the atomics feature to link.
bool& null_on_error_typing() {
#ifdef __EMSCRIPTEN__
  static bool on = false;
#else
  thread_local bool on = false;
#endif
  return on;
}

int integer_rank(TypeId id) {
  switch (id) {
    case TypeId::kTinyInt:
      return 1;
    case TypeId::kSmallInt:
      return 2;
    case TypeId::kInt:
      return 3;
    case TypeId::kBigInt:
      return 4;
    default:
      return 0;
  }
}

//! Casts that always succeed: to text, and widening among numbers.
bool cast_can_fail(const SqlType& from, const SqlType& to) {
  if (to.id == TypeId::kVarchar && !from.is_interval()) return false;
  if (from.id == to.id && from.id != TypeId::kDecimal) return false;
  if (from.is_integer() && to.is_integer()) return integer_rank(from.id) > integer_rank(to.id);
  if ((from.is_integer() || from.is_floating() || from.id == TypeId::kDecimal) && to.id == TypeId::kDouble)
    return false;
  return true;
}

//! Functions that never call Evaluator::fail.
bool function_can_fail(ScalarFunction function) {
  switch (function) {
    case ScalarFunction::kLower:
    case ScalarFunction::kUpper:
    case ScalarFunction::kCharLength:
    case ScalarFunction::kConcat:
    case ScalarFunction::kConcatAll:
    case ScalarFunction::kConcatWs:
    case ScalarFunction::kTrimBoth:
    case ScalarFunction::kTrimLeading:
    case ScalarFunction::kTrimTrailing:
    case ScalarFunction::kReverse:
    case ScalarFunction::kInitcap:
    case ScalarFunction::kMd5:
    case ScalarFunction::kPosition:
    case ScalarFunction::kReplace:
    case ScalarFunction::kGreatest:
    case ScalarFunction::kLeast:
      return false;
    default:
      return true;
  }
}

}  // namespace

bool can_fail_at_run_time(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kArithmetic:
      return !(expr.type.is_floating() && (expr.op == AstOperator::kAdd || expr.op == AstOperator::kSubtract ||
                                           expr.op == AstOperator::kMultiply));
    case ExprKind::kNegate:
      return !(expr.type.is_floating() || expr.type.id == TypeId::kDecimal);
    case ExprKind::kCast:
      return !expr.children.empty() && cast_can_fail(expr.children[0]->type, expr.type);
    case ExprKind::kFunction:
      return function_can_fail(expr.function);
    case ExprKind::kLike:  // with ESCAPE, a pattern that is not a constant (a constant one is checked when bound)
      return expr.children.size() > 2 && expr.children[1]->kind != ExprKind::kLiteral;
    default:
      return false;
  }
}

NullOnErrorTyping::NullOnErrorTyping(bool on) : previous_(null_on_error_typing()) { null_on_error_typing() = on; }
NullOnErrorTyping::~NullOnErrorTyping() { null_on_error_typing() = previous_; }
bool NullOnErrorTyping::active() { return null_on_error_typing(); }

}  // namespace freshet::sql
