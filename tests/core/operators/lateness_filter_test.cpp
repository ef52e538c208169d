// The lateness filter against a model: random inserts and deletes of
// (k, t) rows over many steps, times drifting forward with jitter larger
// than the lateness, so that some updates are late. After every step the
// filter's output equals the model's (updates at or above the watermark of
// the step's start, the watermark the largest time let through minus the
// lateness), and so does its count of late updates. Its state survives a
// checkpoint.
#include "freshet/operators/lateness_filter.h"

#include <gtest/gtest.h>

#include <map>

#include "freshet/common/byte_io.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

SchemaPtr kt_schema() {
  static const SchemaPtr kSchema = make_schema({{"k", SqlType::bigint()}, {"t", SqlType::bigint()}});
  return kSchema;
}

constexpr int64_t kLateness = 5;

struct FilterCircuit {
  Circuit circuit;
  InputOperator* input = add_input(circuit, kt_schema());
  const Watermark* watermark = nullptr;
  Stream out = lateness_filter(input->stream(), 1, kLateness, &watermark);
};

//! The model: the watermark from the largest time let through in earlier steps.
struct Model {
  std::optional<int64_t> max_seen;
  uint64_t late = 0;

  //! This step's expected output from its (consolidated) updates.
  ZSetMap step(const ZSetMap& updates) {
    ZSetMap out;
    std::optional<int64_t> cutoff;
    if (max_seen) cutoff = *max_seen - kLateness;
    for (const auto& [entry, weight] : updates) {
      RowReader row(*kt_schema(), RowRef(entry.first));
      if (cutoff && !row.is_null(1) && row.get_int(1) < *cutoff) {
        late += static_cast<uint64_t>(weight < 0 ? -weight : weight);
        continue;
      }
      if (!row.is_null(1) && (!max_seen || row.get_int(1) > *max_seen)) max_seen = row.get_int(1);
      out[entry] = weight;
    }
    return out;
  }
};

// A step of random updates: inserts near `now` (some far behind it) and
// deletes of rows inserted before; pushed to every circuit.
ZSetMap random_updates(std::mt19937_64& random, int64_t now, std::vector<std::string>& inserted,
                       const std::vector<InputOperator*>& inputs) {
  ZSetMap updates;
  RowBuilder row(*kt_schema());
  int count = std::uniform_int_distribution<int>(0, 6)(random);
  for (int i = 0; i < count; ++i) {
    std::string bytes;
    Weight weight = 1;
    if (!inserted.empty() && std::bernoulli_distribution(0.3)(random)) {
      size_t at = std::uniform_int_distribution<size_t>(0, inserted.size() - 1)(random);
      bytes = inserted[at];
      weight = -1;
    } else {
      row.set_int(0, std::uniform_int_distribution<int64_t>(0, 3)(random));
      if (std::bernoulli_distribution(0.05)(random)) {
        row.set_null(1);
      } else {
        row.set_int(1, now - std::uniform_int_distribution<int64_t>(0, 2 * kLateness)(random));
      }
      bytes = row.finish().to_bytes();
      inserted.push_back(bytes);
    }
    for (InputOperator* input : inputs) input->push_row(RowRef(bytes), weight);
    testing::add_entry(updates, bytes, "", weight);
  }
  return updates;
}

TEST(LatenessFilterTest, MatchesModel) {
  std::mt19937_64 random(testing::test_seed(141));
  FilterCircuit filter;
  Model model;
  std::vector<std::string> inserted;
  int64_t now = 1000;
  for (int step = 0; step < 1000; ++step) {
    now += std::uniform_int_distribution<int64_t>(-2, 4)(random);
    ZSetMap updates = random_updates(random, now, inserted, {filter.input});
    ASSERT_TRUE(filter.circuit.step().ok());
    ZSetMap actual;
    testing::add_batch(actual, *filter.out.current());
    ASSERT_EQ(actual, model.step(updates)) << "step " << step;
    ASSERT_EQ(filter.watermark->late_records(), model.late) << "step " << step;
  }
  EXPECT_GT(model.late, 50u);  // the run did drop updates
}

TEST(LatenessFilterTest, ItsStateSurvivesACheckpoint) {
  std::mt19937_64 random(testing::test_seed(142));
  FilterCircuit original;
  std::vector<std::string> inserted;
  int64_t now = 0;
  for (int step = 0; step < 50; ++step) {
    now += 3;
    random_updates(random, now, inserted, {original.input});
    ASSERT_TRUE(original.circuit.step().ok());
  }
  ByteWriter saved;
  original.circuit.save_state(saved);
  FilterCircuit restored;
  ASSERT_TRUE(restored.circuit.restore_state(saved.data()).ok());
  EXPECT_EQ(restored.watermark->late_records(), original.watermark->late_records());
  EXPECT_EQ(restored.watermark->watermark(), original.watermark->watermark());
  for (int step = 0; step < 50; ++step) {
    now += std::uniform_int_distribution<int64_t>(-2, 4)(random);
    random_updates(random, now, inserted, {original.input, restored.input});
    ASSERT_TRUE(original.circuit.step().ok());
    ASSERT_TRUE(restored.circuit.step().ok());
    ZSetMap a, b;
    testing::add_batch(a, *original.out.current());
    testing::add_batch(b, *restored.out.current());
    ASSERT_EQ(a, b) << "step " << step << " after the restore";
    ASSERT_EQ(restored.watermark->late_records(), original.watermark->late_records());
  }
}

}  // namespace
}  // namespace freshet
