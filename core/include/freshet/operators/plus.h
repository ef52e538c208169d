// Plus (UNION ALL): the sum of Z-sets, consolidated. Linear.
//
//   step | 0 | 1  | 2
//   a    | x | y  | -x
//   b    | x |    |
//   out  |2x | y  | -x
#pragma once

#include <vector>

#include "freshet/circuit/circuit.h"

namespace freshet {

//! a + b. Both streams must have the same schemas.
Stream plus(Stream a, Stream b);
//! The sum of any number of streams with the same schemas.
Stream plus_all(const std::vector<Stream>& inputs);
//! a - b.
Stream minus(Stream a, Stream b);

}  // namespace freshet
