// The user functions operators are parameterised with. Each sees a stream
// entry as a (key, value) pair of rows; for a plain Z-set the row is the key
// and the value is empty.
#pragma once

#include <functional>

#include "freshet/types/row.h"

namespace freshet {

//! Keeps an entry when true.
using RowPredicate = std::function<bool(const RowReader& key, const RowReader& value)>;

//! Writes the output key and value for one input entry.
using RowMapper =
    std::function<void(const RowReader& key, const RowReader& value, RowBuilder& out_key, RowBuilder& out_value)>;

//! Writes the output key and value for one input entry, or returns false to
//! drop the entry (a map and a filter in one pass).
using RowFilterMapper =
    std::function<bool(const RowReader& key, const RowReader& value, RowBuilder& out_key, RowBuilder& out_value)>;

//! Writes the output key and value for a pair of joined entries sharing `key`.
//! `right` is null for the unmatched rows of a left outer join.
using JoinMapper = std::function<void(const RowReader& key, const RowReader& left, const RowReader* right,
                                      RowBuilder& out_key, RowBuilder& out_value)>;

}  // namespace freshet
