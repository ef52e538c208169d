// Constant: a stream whose integral is a fixed Z-set: the batch at step 0,
// nothing after. (SQL's global aggregates use it for their default row.)
//
//   step   | 0 | 1 | 2
//   output | c | 0 | 0
#pragma once

#include "freshet/circuit/circuit.h"

namespace freshet {

Stream constant(Circuit& circuit, SchemaPtr key_schema, SchemaPtr value_schema, BatchPtr batch);

}  // namespace freshet
