// A window function's frame as SQL writes it, for the window operator's
// describe() (p.explain()): two windows of one partition and order that
// differ only in their frames must not read alike.
#pragma once

#include <string>

#include "freshet/operators/window.h"

namespace freshet::window_detail {

//! " (ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)" for a function that reads a
//! frame (reads_frame) other than SQL's default for its window
//! (set_default_frame); "" otherwise. `order_type` is the single ORDER BY
//! column's type, which a RANGE offset is measured in (null without one).
std::string frame_text(const WindowFunction& function, bool ordered, const SqlType* order_type);

}  // namespace freshet::window_detail
