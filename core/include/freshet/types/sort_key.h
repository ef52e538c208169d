// Sort keys: an order-preserving byte encoding of chosen columns, so that
// memcmp order of two keys is SQL ORDER BY order (ASC/DESC, NULLS FIRST/LAST).
// Batches sort rows by their bytes (row.h), which is a total order but not
// SQL's; operators that need SQL order (MIN, MAX, top-k) store a sort key in
// front of the row instead:
//
//   [sort key][row bytes][u32: sort key length]
//
// The sort key is prefix-free, so it alone decides the order of two entries
// with different keys; the trailing length lets the row be cut back out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "freshet/types/row.h"

namespace freshet {

struct SortColumn {
  size_t column = 0;
  bool descending = false;
  //! Where NULLs go, whatever the direction: false puts them last. SQL's
  //! default (NULLs as if larger than every value: last in ASC, first in
  //! DESC) is nulls_first = descending, which the planner sets.
  bool nulls_first = false;
};

//! Appends the sort key of `row`'s chosen columns to `out`.
void append_sort_key(const RowReader& row, const std::vector<SortColumn>& columns, std::string* out);

//! [sort key][row][length] for `row`, into `out` (replacing its contents).
void encode_sorted_row(const RowReader& row, const std::vector<SortColumn>& columns, std::string* out);

//! The row part of an entry made by encode_sorted_row.
RowRef sorted_row_payload(RowRef entry);
//! Whether `entry` is laid out as encode_sorted_row makes them, with a row of
//! `schema` (entries read from a checkpoint are checked before use).
bool sorted_row_fits(const Schema& schema, RowRef entry);

}  // namespace freshet
