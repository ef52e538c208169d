// Merging batches: the sum of Z-sets, consolidated.
#pragma once

#include <vector>

#include "freshet/zset/batch.h"

namespace freshet {

//! a + b, consolidated (equal entries summed, zeros dropped). Linear time.
BatchPtr merge_batches(const Batch& a, const Batch& b);

//! The sum of any number of batches (pairwise merges, smallest first).
BatchPtr merge_all(std::vector<BatchPtr> batches);
//! The sum of any number of batches in one pass (a heap of their cursors,
//! key by key, copying runs of keys and of a key's values in bulk): each
//! entry is read and written once, and no intermediate batch is built,
//! where merge_all writes each entry about log2(batches) times.
BatchPtr merge_many(const std::vector<BatchPtr>& batches);

//! -a: the same entries with negated weights.
BatchPtr negate_batch(const Batch& a);

}  // namespace freshet
