// Words for Operator::describe(): the pieces operators say their
// parameters with, so that every operator prints them alike.
#pragma once

#include <string>

#include "freshet/types/schema.h"

namespace freshet {

//! "(a, b)": the names of a schema's columns; "()" for none.
inline std::string describe_columns(const Schema& schema) {
  std::string text = "(";
  for (size_t i = 0; i < schema.size(); ++i) {
    if (i > 0) text += ", ";
    text += schema.column(i).name;
  }
  return text + ")";
}

}  // namespace freshet
