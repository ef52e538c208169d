// FlatMap: each input entry becomes zero or more output entries, each with
// the input entry's weight (HOP windows: one row per window that holds it).
// Linear: flat_map(Δs) = Δ(flat_map(s)), so it keeps no state and a step
// costs O(|Δ| × outputs per entry). Outputs of different inputs may
// coincide, so the output is consolidated.
//
//   step   |  0       |  1
//   input  | +a       | -a
//   output | +a1, +a2 | -a1, -a2      (f(a) = {a1, a2})
#pragma once

#include <functional>

#include "freshet/circuit/circuit.h"
#include "freshet/types/row.h"

namespace freshet {

//! Writes output number `index` (0, 1, ...) of an input entry into `out_key`
//! and `out_value`, or returns false when the entry has no output `index`
//! (outputs are asked for in order, and none after the first false).
using RowFlatMapper = std::function<bool(const RowReader& key, const RowReader& value, size_t index,
                                         RowBuilder& out_key, RowBuilder& out_value)>;

//! A stream whose entries are the outputs of `mapper` over `input`'s entries.
//! `description`: what it makes of a row, for explain.
Stream flat_map(Stream input, SchemaPtr key_schema, SchemaPtr value_schema, RowFlatMapper mapper,
                std::string description = {});

}  // namespace freshet
