// merge_fixed_width_many: the sum of a few small batches, consolidated, for
// batches whose keys all have one width and whose values all have one
// width (the same in all): tables and arrangements of columns without
// VARCHAR.
//
// A spine merges its small levels at once, about one merge per insert (a
// one-row change goes through two or three traces). The general merge
// (merge_many, FueledMerge) pays, per key of an interleaved merge — small
// batches of random keys interleave — a run search and three column
// appends through their general paths: most of a one-row change's time.
// Rows of one width need no offsets: this merge compares keys in place,
// copies each run of one batch's keys and values into room reserved once,
// and writes each output key's value start only once some key has two
// values. Its result equals merge_many's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "freshet/zset/batch.h"

namespace freshet {

//! The sum of `count` (>= 2) small batches in one pass, or null when any is
//! empty or their rows are not all of one width (the caller then merges
//! with merge_many). For a spine's small levels, which merge a few batches
//! of a few entries at once (Spine::kSmallFanIn): each output key is the
//! least of the batches' current keys (count - 1 comparisons, no heap),
//! copied with its values when one batch holds it (their values merged
//! the same way when several do), where pairwise merges would copy each
//! entry log2(count) times and build a batch each. Adds to `work` one unit
//! per entry read.
BatchPtr merge_fixed_width_many(const BatchPtr* batches, size_t count, uint64_t& work);

}  // namespace freshet
