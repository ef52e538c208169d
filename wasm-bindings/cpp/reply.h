// Reply: what every facade call returns to JS. No C++ exception and no C++
// type crosses the boundary: a call either fails with a code and a message
// (JS throws a FreshetError with them) or succeeds with a JSON text and/or a
// number. Embind hands a Reply to JS as a plain object (value_object).
#pragma once

#include <string>

#include "freshet/common/status.h"

namespace freshet::wasm {

struct Reply {
  std::string code;     //!< "" on success, else error_code_name() ("SQL_ERROR")
  std::string message;  //!< what went wrong, for a person
  std::string text;     //!< the result as JSON text, when there is one
  double number = 0;    //!< the result as a number (ids, tokens, flags), when there is one

  static Reply ok(std::string text = {}, double number = 0) { return {{}, {}, std::move(text), number}; }
  static Reply number_only(double number) { return {{}, {}, {}, number}; }
  static Reply error(const Status& status) { return {error_code_name(status.code()), status.message(), {}, 0}; }
};

}  // namespace freshet::wasm
