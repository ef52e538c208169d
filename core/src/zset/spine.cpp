#include "freshet/zset/spine.h"

#include <utility>

#include "freshet/common/assert.h"
#include "freshet/zset/fixed_width_merge.h"
#include "freshet/zset/merge.h"

namespace freshet {

size_t Spine::level_of(size_t entries) {
  size_t level = 0;
  while ((uint64_t{1} << level) < entries) ++level;
  return level;
}

Spine::Level& Spine::level(size_t index) {
  if (levels_.size() <= index) {
    levels_.resize(index + 1);
    merging_bytes_stale_ = true;  // counts levels_' capacity
  }
  return levels_[index];
}

void Spine::insert(BatchPtr batch) {
  FRESHET_ASSERT(batch && !batch->empty());
  const size_t index = level_of(batch->size());
  banked_fuel_ += kFuelPerEntry << index;
  const uint64_t fuel = banked_fuel_ >= kFuelSlice ? std::exchange(banked_fuel_, 0) : 0;
  // Fuel for each level (merging or not) and the roll-up, which merges less
  // than 2^(index+2) entries below the batch's level and may complete a
  // merge of at most that many at it.
  // (A completed merge may open one level more.) Small merges run at once:
  // a cascade of them reads at most eager_cascade_work() entries.
  budget_ = fuel * (std::max(levels_.size(), index) + 1) + (uint64_t{8} << index) + eager_cascade_work();
  work_ = 0;
  if (fuel > 0) apply_fuel(fuel);
  roll_up(index);
  insert_at(std::move(batch), index);
}

void Spine::place(BatchPtr batch) {
  size_t index = level_of(batch->size());
  if (index < kEagerLevels) {
    // Its tier, or one above with room: no tier is left full (merging).
    for (size_t t = index / kLevelsPerTier; t < kSmallTiers; ++t) {
      Tier& tier = tiers_[t];
      if (tier.count + 1 < kSmallFanIn) {
        batch_bytes_ += batch->memory_bytes();
        tier.batches[tier.count++] = std::move(batch);
        return;
      }
    }
    index = kEagerLevels;
  }
  while (index < levels_.size() && levels_[index].merging()) ++index;
  insert_at(std::move(batch), index);
}

void Spine::apply_fuel(uint64_t fuel) {
  // Every merge gets the whole fuel: a small merge that finishes early does
  // not hand its rest to the large ones, so each level's progress per insert
  // is known. A merge that completes moves up at once.
  for (size_t i = 0; i < levels_.size(); ++i) {
    if (!levels_[i].merging()) continue;
    merging_bytes_stale_ = true;
    work_ += levels_[i].merge->work(fuel);
    if (levels_[i].merge->done()) insert_at(complete_at(i), i + 1);
  }
}

void Spine::roll_up(size_t index) {
  if (index < kEagerLevels) {
    const size_t tier = index / kLevelsPerTier;
    if (BatchPtr below = take_tiers(tier)) add_to_tier(std::move(below), tier);
    return;
  }
  bool below = small_batch_count() > 0;
  for (size_t i = kEagerLevels; i < index && i < levels_.size(); ++i) below = below || !levels_[i].vacant();
  if (!below) return;
  BatchPtr carried = take_tiers(kSmallTiers);
  for (size_t i = kEagerLevels; i < index; ++i) {
    insert_at(std::move(carried), i);
    carried = complete_at(i);
  }
  insert_at(std::move(carried), index);
  // The batch itself enters `index` next: a merge started there must end now.
  if (level(index).merging()) insert_at(complete_at(index), index + 1);
}

void Spine::insert_at(BatchPtr batch, size_t index) {
  if (!batch || batch->empty()) return;
  if (index < kEagerLevels) {
    add_to_tier(std::move(batch), index / kLevelsPerTier);
    return;
  }
  merging_bytes_stale_ = true;  // a merge may start or end here, and levels_ grow
  if (level(index).merging()) {
    // The fuel fell short (or a roll-up arrived): finish it, move it up.
    BatchPtr merged = complete_at(index);
    insert_at(std::move(merged), index + 1);
  }
  Level& l = level(index);
  if (l.vacant()) {
    batch_bytes_ += batch->memory_bytes();
    l.older = std::move(batch);
  } else {
    batch_bytes_ += batch->memory_bytes();
    l.newer = std::move(batch);
    l.merge = std::make_unique<FueledMerge>(*l.older, *l.newer);
  }
}

void Spine::add_to_tier(BatchPtr batch, size_t index) {
  Tier& tier = tiers_[index];
  batch_bytes_ += batch->memory_bytes();
  tier.batches[tier.count++] = std::move(batch);
  if (tier.count < kSmallFanIn) return;
  BatchPtr merged = merge_small(tier.batches, tier.count);
  for (BatchPtr& b : tier.batches) {
    batch_bytes_ -= b->memory_bytes();
    b.reset();
  }
  tier.count = 0;
  if (index + 1 < kSmallTiers) {
    if (!merged->empty()) add_to_tier(std::move(merged), index + 1);
  } else {
    insert_at(std::move(merged), kEagerLevels);
  }
}

BatchPtr Spine::take_tiers(size_t tier) {
  BatchPtr taken[(kSmallFanIn - 1) * kSmallTiers];
  size_t count = 0;
  for (size_t t = 0; t < tier; ++t) {
    for (size_t i = 0; i < tiers_[t].count; ++i) {
      batch_bytes_ -= tiers_[t].batches[i]->memory_bytes();
      taken[count++] = std::move(tiers_[t].batches[i]);
    }
    tiers_[t].count = 0;
  }
  if (count == 0) return nullptr;
  return merge_small(taken, count);
}

BatchPtr Spine::merge_small(const BatchPtr* batches, size_t count) {
  if (count == 1) return batches[0];
  if (BatchPtr merged = merge_fixed_width_many(batches, count, work_)) return merged;
  // Rows of varied widths (VARCHAR): the general one-pass merge.
  std::vector<BatchPtr> all(batches, batches + count);
  for (const BatchPtr& b : all) work_ += b->size();
  return merge_many(all);
}

size_t Spine::small_batch_count() const {
  size_t total = 0;
  for (const Tier& tier : tiers_) total += tier.count;
  return total;
}

BatchPtr Spine::complete_at(size_t index) {
  if (index >= levels_.size()) return nullptr;
  Level& l = levels_[index];
  merging_bytes_stale_ = true;
  BatchPtr out;
  if (l.merging()) {
    work_ += l.merge->work(UINT64_MAX);
    out = l.merge->finish();
  } else {
    out = std::move(l.older);
    if (out) batch_bytes_ -= out->memory_bytes();
  }
  vacate(index);
  return out;
}

void Spine::vacate(size_t index) {
  Level& l = levels_[index];
  if (l.older) batch_bytes_ -= l.older->memory_bytes();
  if (l.newer) batch_bytes_ -= l.newer->memory_bytes();
  l = Level();
  ++level_departures_;
}

void Spine::collect(std::vector<BatchPtr>& out) const {
  // Largest levels first: they change least, so after an insert most slots
  // already hold their batch and are left alone (no reference counting).
  size_t n = 0;
  auto put = [&](const BatchPtr& batch) {
    if (n == out.size()) {
      out.push_back(batch);
    } else if (out[n] != batch) {
      out[n] = batch;
    }
    ++n;
  };
  for (size_t i = levels_.size(); i-- > 0;) {
    if (levels_[i].older) put(levels_[i].older);
    if (levels_[i].newer) put(levels_[i].newer);
  }
  for (size_t t = kSmallTiers; t-- > 0;) {
    for (size_t i = 0; i < tiers_[t].count; ++i) put(tiers_[t].batches[i]);
  }
  out.resize(n);
}

size_t Spine::recount_merging_bytes() const {
  size_t total = levels_.capacity() * sizeof(Level);
  for (const Level& l : levels_) {
    if (l.merge) total += sizeof(FueledMerge) + l.merge->memory_bytes();
  }
  return total;
}

void Spine::count_merging_bytes() const {
  merging_bytes_ = recount_merging_bytes();
  merging_bytes_stale_ = false;
}

}  // namespace freshet
