// Typing in 'null' mode (runtime_error_mode.h): an expression that can
// fail at run time yields NULL there, so it must be nullable in the view's
// schema. The binder asks can_fail_at_run_time of each node it binds while a
// NullOnErrorTyping lives (the binding of one view in 'null' mode), and types
// such a node nullable; standard SQL's rules then carry that up (a + 1 is
// nullable when a is; COALESCE(a / b, 0) is not).
#pragma once

#include "freshet/sql/expression.h"

namespace freshet::sql {

//! Whether evaluating `expr` itself (its children aside) can fail at run
//! time: integer and decimal arithmetic (overflow, division by zero), any
//! division, narrowing or parsing casts, functions that check their
//! arguments, a scalar subquery's row count, LIKE ... ESCAPE over a pattern
//! that is not a constant.
bool can_fail_at_run_time(const Expr& expr);

//! While one lives, ExpressionBinder types nodes that can fail as nullable.
//! The binding of a view is one call on one thread, so a thread-local flag
//! reaches every ExpressionBinder it makes without threading the mode
//! through each.
class NullOnErrorTyping {
 public:
  explicit NullOnErrorTyping(bool on);
  ~NullOnErrorTyping();
  NullOnErrorTyping(const NullOnErrorTyping&) = delete;
  NullOnErrorTyping& operator=(const NullOnErrorTyping&) = delete;
  static bool active();

 private:
  bool previous_;
};

}  // namespace freshet::sql
