// Outer joins (LEFT, RIGHT, FULL) of two indexed streams into a Z-set of
// joined rows, with an optional extra condition on the matches (an ON
// condition's non-equality part). Built from primitives:
//
//   left ──┬─► nonnull ─┬─► ⋈ ─► filter ─► matches ──────────────────┐
//          │            │   ▲                                       ▼
//   right ─┼─► nonnull ─┼───┘                                       + ─► out
//          │            │                                           ▲
//          └─► anti_join(left, nonnull(right)) ─► pad(NULLs) ───────┤
//              anti_join(right, nonnull(left)) ─► pad(NULLs) ───────┘
//
//   LEFT  = matches + pad(unmatched left)
//   RIGHT = matches + pad(unmatched right)
//   FULL  = matches + pad(unmatched left) + pad(unmatched right)
//
// A key holding a NULL matches nothing (SQL), so such entries only ever
// come out padded. Without a filter an entry is unmatched when no entry of
// the other side has its key (anti-join on keys); with one, when none of
// its matches passes it: the kept side's rows minus the rows appearing
// in the filtered matches (anti-join on whole rows). Every part
// is incremental, so a step costs O(change) (plus the matches a change
// makes, as for the inner join).
//
//   FULL  step | left   | right  | out
//         0    | 1→a    | 2→b    | (a, NULL), (NULL, b)
//         1    |        | 1→c    | +(a, c), -(a, NULL)
//         2    | -1→a   |        | -(a, c), +(NULL, c)
#pragma once

#include <functional>

#include "freshet/circuit/circuit.h"

namespace freshet {

enum class OuterJoinKind : uint8_t {
  kLeft,   //!< every left entry, matched or padded
  kRight,  //!< every right entry, matched or padded
  kFull,   //!< both
};

//! Keeps the matches that pass the extra condition (a filter of joined rows).
using MatchFilter = std::function<Stream(Stream matches)>;

//! The outer join as a Z-set of rows of `row_schema`: the left value's
//! columns, then the right value's (NULLs for a missing side). With
//! `filter_matches`, equal value rows must have equal keys on each side (the
//! value determines the key: the planner keeps the key's columns in it).
Stream outer_join(Stream left, Stream right, SchemaPtr row_schema, OuterJoinKind kind,
                  const MatchFilter& filter_matches = {});

}  // namespace freshet
