#include "freshet/operators/upsert_input.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "freshet/operators/constant.h"
#include "freshet/operators/integrate.h"
#include "support/generators.h"

namespace freshet {
namespace {

// (id BIGINT NOT NULL, x BIGINT, s VARCHAR) keyed by id.
SchemaPtr table_schema() {
  static const SchemaPtr kSchema =
      make_schema({{"id", SqlType::bigint(false)}, {"x", SqlType::bigint()}, {"s", SqlType::varchar()}});
  return kSchema;
}

std::string row(int64_t id, int64_t x, const char* s) {
  return encode_row(*table_schema(), {Value::bigint(id), Value::bigint(x), Value::varchar(s)});
}

std::string key(int64_t id) {
  static const Schema kKey({{"id", SqlType::bigint(false)}});
  return encode_row(kKey, {Value::bigint(id)});
}

TEST(UpsertInputTest, ReplacesAndDeletesByKey) {
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  Stream table = integrate(input->stream());
  input->push_upsert(RowRef(row(1, 10, "a")));
  input->push_upsert(RowRef(row(2, 20, "b")));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()).size(), 2u);

  input->push_upsert(RowRef(row(1, 11, "a2")));  // replaces (1, 10, 'a')
  ASSERT_TRUE(circuit.step().ok());
  testing::ZSetMap delta = testing::to_map(*input->stream().current());
  EXPECT_EQ(delta, (testing::ZSetMap{{{row(1, 10, "a"), ""}, -1}, {{row(1, 11, "a2"), ""}, 1}}));
  EXPECT_EQ(input->lookup(RowRef(key(1))), row(1, 11, "a2"));

  input->push_delete_key(RowRef(key(2)));
  input->push_delete_key(RowRef(key(7)));  // absent: nothing
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()), (testing::ZSetMap{{{row(2, 20, "b"), ""}, -1}}));
  EXPECT_EQ(testing::to_map(*table.current()), (testing::ZSetMap{{{row(1, 11, "a2"), ""}, 1}}));
  EXPECT_FALSE(input->lookup(RowRef(key(2))).has_value());
}

TEST(UpsertInputTest, OperationsInOneStepApplyInOrder) {
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  input->push_upsert(RowRef(row(1, 1, "first")));
  input->push_delete_row(RowRef(row(1, 999, "any payload")));
  input->push_upsert(RowRef(row(1, 2, "last")));
  input->push_upsert(RowRef(row(3, 3, "gone")));
  input->push_delete_key(RowRef(key(3)));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()), (testing::ZSetMap{{{row(1, 2, "last"), ""}, 1}}));
  // Re-inserting the same row changes nothing.
  input->push_upsert(RowRef(row(1, 2, "last")));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(input->stream().current()->empty());
}

TEST(UpsertInputTest, MatchesAMapOverRandomOperations) {
  std::mt19937_64 random(testing::test_seed(501));
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  Stream table = integrate(input->stream());
  std::map<int64_t, std::string> expected;
  for (int step = 0; step < 1000; ++step) {
    int operations = static_cast<int>(random() % 6);
    for (int i = 0; i < operations; ++i) {
      int64_t id = static_cast<int64_t>(random() % 20);
      if (random() % 3 == 0) {
        input->push_delete_key(RowRef(key(id)));
        expected.erase(id);
      } else {
        std::string r = row(id, static_cast<int64_t>(random() % 4), random() % 2 ? "p" : "q");
        input->push_upsert(RowRef(r));
        expected[id] = r;
      }
    }
    ASSERT_TRUE(circuit.step().ok());
    testing::ZSetMap want;
    for (const auto& [id, r] : expected) want[{r, ""}] = 1;
    ASSERT_EQ(testing::to_map(*table.current()), want) << "step " << step;
  }
}

// With LATENESS 3 on x: an operation is late when its new row's x, or the
// x of the key's row before the step, is below the watermark of the step's
// start (the largest x let through before it, minus 3). The model applies
// the operations that are not late, in order, and counts the others.
TEST(UpsertInputTest, LateOperationsAreDroppedAsAModelSays) {
  std::mt19937_64 random(testing::test_seed(502));
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  input->set_lateness(1, 3);
  Stream table = integrate(input->stream());
  std::map<int64_t, std::pair<int64_t, std::string>> expected;  // id -> (x, row)
  std::optional<int64_t> max_seen;
  uint64_t late = 0;
  int64_t now = 0;
  for (int step = 0; step < 2000; ++step) {
    const auto before = expected;
    const std::optional<int64_t> cutoff = max_seen ? std::optional<int64_t>(*max_seen - 3) : std::nullopt;
    auto is_late = [&](int64_t x) { return cutoff && x < *cutoff; };
    int operations = static_cast<int>(random() % 6);
    for (int i = 0; i < operations; ++i) {
      int64_t id = static_cast<int64_t>(random() % 12);
      auto old = before.find(id);
      bool old_late = old != before.end() && is_late(old->second.first);
      if (random() % 4 == 0) {
        input->push_delete_key(RowRef(key(id)));
        if (old_late) {
          ++late;
        } else {
          expected.erase(id);
        }
      } else {
        int64_t x = now - static_cast<int64_t>(random() % 6);
        std::string r = row(id, x, random() % 2 ? "p" : "q");
        input->push_upsert(RowRef(r));
        if (old_late || is_late(x)) {
          ++late;
        } else {
          expected[id] = {x, r};
          if (!max_seen || x > *max_seen) max_seen = x;
        }
      }
    }
    now += static_cast<int64_t>(random() % 3);
    ASSERT_TRUE(circuit.step().ok());
    testing::ZSetMap want;
    for (const auto& [id, entry] : expected) want[{entry.second, ""}] = 1;
    ASSERT_EQ(testing::to_map(*table.current()), want) << "step " << step;
    ASSERT_EQ(input->watermark()->late_records(), late) << "step " << step;
  }
  EXPECT_GT(late, 100u);
}

// Each step's changes are a batch in row order: built as they come while
// rows sort as their keys do, sorted when they do not (a NULL x sets a flag
// in the row's first byte, which then sorts before the key).
TEST(UpsertInputTest, EachStepsChangesAreTheDifferenceInRowOrder) {
  std::mt19937_64 random(testing::test_seed(502));
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  std::map<int64_t, std::string> before;
  for (int step = 0; step < 400; ++step) {
    std::map<int64_t, std::string> after = before;
    const bool nulls = random() % 2 == 0;
    const int operations = static_cast<int>(random() % 40);
    for (int i = 0; i < operations; ++i) {
      int64_t id = static_cast<int64_t>(random() % 600);  // keys of one and two low bytes
      if (random() % 4 == 0) {
        input->push_delete_key(RowRef(key(id)));
        after.erase(id);
      } else {
        Value x = nulls && random() % 3 == 0 ? Value::null(TypeId::kBigInt) : Value::bigint(static_cast<int64_t>(random() % 3));
        std::string r = encode_row(*table_schema(), {Value::bigint(id), x, Value::varchar(random() % 2 ? "p" : "q")});
        input->push_upsert(RowRef(r));
        after[id] = r;
      }
    }
    ASSERT_TRUE(circuit.step().ok());
    const Batch& changes = *input->stream().current();
    for (size_t k = 1; k < changes.key_count(); ++k) ASSERT_LT(compare_rows(changes.key(k - 1), changes.key(k)), 0) << "step " << step;
    testing::ZSetMap want;
    for (const auto& [id, r] : before) testing::add_entry(want, r, "", -1);
    for (const auto& [id, r] : after) testing::add_entry(want, r, "", 1);
    ASSERT_EQ(testing::to_map(changes), want) << "step " << step;
    before = std::move(after);
  }
}

// What a PendingOperations should hold: per operation its key, and its row
// for an upsert (nullopt for a delete).
using OperationModel = std::vector<std::pair<std::string, std::optional<std::string>>>;

void expect_operations(const PendingOperations& pending, const OperationModel& model) {
  ASSERT_EQ(pending.size(), model.size());
  for (size_t i = 0; i < model.size(); ++i) {
    EXPECT_EQ(pending.key(i).to_bytes(), model[i].first) << i;
    ASSERT_EQ(pending.is_upsert(i), model[i].second.has_value()) << i;
    if (model[i].second) {
      EXPECT_EQ(pending.row(i).to_bytes(), *model[i].second) << i;
    }
  }
}

// The buffer of operations: keys and rows read back as pushed, in order,
// after a truncate (a refused ingest) and a retain (late operations dropped)
// and across a growth of its bytes.
TEST(PendingOperationsTest, KeepsEachOperationsBytesInOrder) {
  PendingOperations pending;
  OperationModel model;
  auto push = [&](int64_t id, bool upsert) {
    if (upsert) {
      const std::string r = row(id, id * 10, std::string(static_cast<size_t>(id % 40), 's').c_str());
      pending.push_upsert(RowRef(key(id)), RowRef(r));
      model.emplace_back(key(id), r);
    } else {
      pending.push_delete(RowRef(key(id)));
      model.emplace_back(key(id), std::nullopt);
    }
  };
  auto expect_model = [&] { expect_operations(pending, model); };
  pending.reserve(4, 8, 8);  // far too few bytes: the buffers grow under the operations
  for (int64_t id = 0; id < 300; ++id) push(id, id % 7 != 3);
  expect_model();
  pending.truncate(120);
  model.resize(120);
  push(1000, true);  // after a truncate, new bytes follow the kept ones
  push(1001, false);
  expect_model();
  pending.retain([](size_t i) { return i % 3 != 0; });
  OperationModel kept;
  for (size_t i = 0; i < model.size(); ++i) {
    if (i % 3 != 0) kept.push_back(model[i]);
  }
  model = kept;
  expect_model();
  pending.clear();
  EXPECT_TRUE(pending.empty());
  model.clear();
  push(5, true);
  expect_model();
}

// Upserts of rows of one width, keys back to back and rows at their places
// in order (a bulk load), are kept as positions alone; they read back as
// pushed through a truncate, and once another kind of operation comes
// (a delete, a row of another width) they are written out and still do.
TEST(PendingOperationsTest, UpsertsOfOneWidthInOrderAreKeptAsPositions) {
  static const SchemaPtr kFixed = make_schema({{"id", SqlType::bigint(false)}, {"x", SqlType::bigint()}});
  auto fixed_row = [](int64_t id) { return encode_row(*kFixed, {Value::bigint(id), Value::bigint(id % 3)}); };
  const uint32_t key_width = static_cast<uint32_t>(key(0).size()),
                 row_width = static_cast<uint32_t>(fixed_row(0).size());
  OperationModel model;
  PendingOperations pending;
  auto expect_model = [&] { expect_operations(pending, model); };
  // Rows adopted in order: read in place, and handed over whole.
  ByteBuffer parsed;
  for (int64_t id = 0; id < 100; ++id) {
    const std::string r = fixed_row(id * 5 % 100);  // keys need not grow
    parsed.append(reinterpret_cast<const uint8_t*>(r.data()), r.size());
    model.emplace_back(key(id * 5 % 100), r);
  }
  const uint8_t* base = parsed.data();
  pending.adopt_rows(std::move(parsed));
  pending.reserve(100, 100 * key_width, 0);
  const size_t reserved = pending.memory_bytes();
  for (size_t i = 0; i < 100; ++i) pending.push_upsert(RowRef(model[i].first), RowRef(base + i * row_width, row_width));
  expect_model();
  EXPECT_EQ(pending.row(7).data, base + 7 * row_width);
  EXPECT_TRUE(pending.fill_buffers(key_width, row_width));
  EXPECT_EQ(pending.memory_bytes(), reserved);  // no operations stored
  ByteBuffer keys, rows;
  pending.take_bytes(keys, rows);
  EXPECT_TRUE(pending.empty());
  EXPECT_EQ(rows.data(), base);
  EXPECT_EQ(keys.size(), 100u * key_width);

  // Copied rows: positions through a truncate, written out by a delete,
  // then by a row of another width.
  model.clear();
  for (int64_t id = 0; id < 50; ++id) {
    const std::string r = fixed_row(id);
    pending.push_upsert(RowRef(key(id)), RowRef(r));
    model.emplace_back(key(id), r);
  }
  EXPECT_TRUE(pending.fill_buffers(key_width, row_width));
  pending.truncate(20);
  model.resize(20);
  const std::string after = fixed_row(77);
  pending.push_upsert(RowRef(key(77)), RowRef(after));
  model.emplace_back(key(77), after);
  expect_model();
  EXPECT_TRUE(pending.fill_buffers(key_width, row_width));
  pending.push_delete(RowRef(key(3)));
  model.emplace_back(key(3), std::nullopt);
  EXPECT_FALSE(pending.fill_buffers(key_width, row_width));
  expect_model();
  const std::string wider = row(9, 9, "wider");
  pending.push_upsert(RowRef(key(9)), RowRef(wider));
  model.emplace_back(key(9), wider);
  expect_model();
  pending.truncate(10);
  model.resize(10);
  expect_model();
  pending.clear();
  model.clear();
  const std::string again = fixed_row(1);
  pending.push_upsert(RowRef(key(1)), RowRef(again));  // cleared: positions again
  model.emplace_back(key(1), again);
  expect_model();
  EXPECT_TRUE(pending.fill_buffers(key_width, row_width));
}

// Rows adopted with their buffer are read where they are; rows from
// elsewhere are copied after them; a truncate keeps every kept row.
TEST(PendingOperationsTest, AdoptedRowsAreReadInPlace) {
  PendingOperations pending;
  std::vector<std::string> rows;
  ByteBuffer parsed;
  std::vector<size_t> offsets;
  for (int64_t id = 0; id < 50; ++id) {
    rows.push_back(row(id, id, std::string(static_cast<size_t>(id % 9), 'p').c_str()));
    offsets.push_back(parsed.size());
    parsed.append(reinterpret_cast<const uint8_t*>(rows.back().data()), rows.back().size());
  }
  const uint8_t* base = parsed.data();
  pending.adopt_rows(std::move(parsed));
  // Pushed out of the buffer's order, with a row from elsewhere between.
  for (size_t i = 50; i-- > 0;) {
    pending.push_upsert(RowRef(key(static_cast<int64_t>(i))), RowRef(base + offsets[i], rows[i].size()));
    if (i == 25) pending.push_upsert(RowRef(key(100)), RowRef(row(100, 1, "elsewhere")));
  }
  ASSERT_EQ(pending.size(), 51u);
  for (size_t op = 0; op < pending.size(); ++op) {
    const size_t i = op <= 24 ? 49 - op : op == 25 ? 100 : 50 - op;
    if (i == 100) {
      EXPECT_EQ(pending.row(op).to_bytes(), row(100, 1, "elsewhere"));
      continue;
    }
    EXPECT_EQ(pending.row(op).data, base + offsets[i]) << op;  // not copied
    EXPECT_EQ(pending.key(op).to_bytes(), key(static_cast<int64_t>(i))) << op;
  }
  pending.truncate(30);
  pending.push_upsert(RowRef(key(200)), RowRef(row(200, 2, "after")));
  for (size_t op = 0; op < 30; ++op) {
    if (op != 25) {
      EXPECT_EQ(pending.row(op).to_bytes(), rows[op <= 24 ? 49 - op : 50 - op]) << op;
    }
  }
  EXPECT_EQ(pending.row(25).to_bytes(), row(100, 1, "elsewhere"));
  EXPECT_EQ(pending.row(30).to_bytes(), row(200, 2, "after"));
}

// A bulk load into an empty table whose keys and rows fill their buffers
// (an adopted ingest) becomes the index without a copy, and its changes
// share the index's rows: the changes read the ingested bytes in place, stay
// whole after the index has merged them away, and later steps (upserts,
// deletes, a second bulk over existing keys) change the rows as a map does.
TEST(UpsertInputTest, ABulkLoadIsIndexedInTheBuffersItWasIngestedInto) {
  static const SchemaPtr kFixed = make_schema({{"id", SqlType::bigint(false)}, {"x", SqlType::bigint()}});
  auto fixed_row = [](int64_t id, int64_t x) { return encode_row(*kFixed, {Value::bigint(id), Value::bigint(x)}); };
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, kFixed, {0});
  std::map<int64_t, std::string> model;
  constexpr int64_t kRows = 5000;
  ByteBuffer ingested;
  for (int64_t id = 0; id < kRows; ++id) {
    const std::string r = fixed_row(id, id * 7 % 13);
    ingested.append(reinterpret_cast<const uint8_t*>(r.data()), r.size());
    model[id] = r;
  }
  const uint8_t* base = ingested.data();
  const uint32_t width = static_cast<uint32_t>(ingested.size() / kRows);
  input->adopt_pending_rows(std::move(ingested), kRows);
  for (int64_t id = 0; id < kRows; ++id) input->push_upsert(RowRef(base + id * width, width));
  ASSERT_TRUE(circuit.step().ok());
  const BatchPtr loaded = input->stream().current();
  ASSERT_EQ(loaded->size(), static_cast<size_t>(kRows));
  EXPECT_EQ(loaded->key(0).data, base);  // neither the index nor the changes copied the rows
  testing::ZSetMap want;
  for (const auto& [id, r] : model) testing::add_entry(want, r, "", 1);
  EXPECT_EQ(testing::to_map(*loaded), want);

  std::mt19937_64 random(testing::test_seed(503));
  for (int step = 0; step < 30; ++step) {
    std::map<int64_t, std::string> before = model;
    const bool bulk = step % 10 == 9;  // now and then a big step over existing keys
    const int operations = bulk ? 6000 : static_cast<int>(random() % 50);
    for (int i = 0; i < operations; ++i) {
      const int64_t id = bulk ? i : static_cast<int64_t>(random() % (kRows + 100));
      if (!bulk && random() % 4 == 0) {
        input->push_delete_key(RowRef(key(id)));
        model.erase(id);
      } else {
        const std::string r = fixed_row(id, static_cast<int64_t>(random() % 5));
        input->push_upsert(RowRef(r));
        model[id] = r;
      }
    }
    ASSERT_TRUE(circuit.step().ok());
    testing::ZSetMap changes;
    for (const auto& [id, r] : before) testing::add_entry(changes, r, "", -1);
    for (const auto& [id, r] : model) testing::add_entry(changes, r, "", 1);
    ASSERT_EQ(testing::to_map(*input->stream().current()), changes) << "step " << step;
    for (int64_t id : {int64_t{0}, int64_t{17}, kRows - 1}) {
      std::optional<std::string> current = input->lookup(RowRef(key(id)));
      ASSERT_EQ(current.has_value(), model.count(id) == 1) << "step " << step << " id " << id;
      if (current) {
        ASSERT_EQ(*current, model[id]) << "step " << step << " id " << id;
      }
    }
  }
  EXPECT_EQ(testing::to_map(*loaded), want);  // the first step's changes outlive the index batch they shared
}

// An ingest refused for a repeated key drops only what it buffered: the
// operations before it still apply at the next step.
TEST(UpsertInputTest, TruncatedOperationsLeaveTheEarlierOnes) {
  Circuit circuit;
  UpsertInputOperator* input = add_upsert_input(circuit, table_schema(), {0});
  input->push_upsert(RowRef(row(1, 10, "a")));
  input->push_upsert(RowRef(row(2, 20, "b")));
  const size_t before = input->pending();
  input->push_upsert(RowRef(row(3, 30, "c")));
  input->push_upsert(RowRef(row(3, 31, "d")));
  ASSERT_EQ(input->repeated_upsert(before), std::make_optional(std::make_pair(size_t{1}, size_t{0})));
  input->truncate_pending(before);
  input->push_delete_key(RowRef(key(2)));
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(testing::to_map(*input->stream().current()), (testing::ZSetMap{{{row(1, 10, "a"), ""}, 1}}));
}

// Operations buffered when a checkpoint is taken apply after a restore.
TEST(UpsertInputTest, BufferedOperationsSurviveSaveAndRestore) {
  auto make = [](Circuit& circuit) { return add_upsert_input(circuit, table_schema(), {0}); };
  Circuit original;
  UpsertInputOperator* input = make(original);
  input->push_upsert(RowRef(row(1, 10, "a")));
  input->push_upsert(RowRef(row(2, 20, "b")));
  ASSERT_TRUE(original.step().ok());
  input->push_upsert(RowRef(row(1, 11, "a long enough string")));
  input->push_delete_key(RowRef(key(2)));
  input->push_upsert(RowRef(row(3, 30, "c")));
  ByteWriter saved;
  input->save_state(saved);

  Circuit restored;
  UpsertInputOperator* copy = make(restored);
  ByteReader in(saved.data(), "upsert input");
  copy->restore_state(in);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(copy->pending(), 3u);
  ASSERT_TRUE(original.step().ok());
  ASSERT_TRUE(restored.step().ok());
  EXPECT_EQ(testing::to_map(*copy->stream().current()), testing::to_map(*input->stream().current()));
  EXPECT_EQ(copy->lookup(RowRef(key(1))), std::make_optional(row(1, 11, "a long enough string")));
  EXPECT_EQ(copy->lookup(RowRef(key(2))), std::nullopt);
}

TEST(ConstantTest, EmitsOnceSoItsIntegralIsConstant) {
  Circuit circuit;
  BatchBuilder builder;
  builder.add_row(RowRef(key(5)), 1);
  Stream c = constant(circuit, make_schema({{"id", SqlType::bigint(false)}}), empty_schema(), builder.finish());
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_EQ(c.current()->size(), 1u);
  ASSERT_TRUE(circuit.step().ok());
  EXPECT_TRUE(c.current()->empty());
}

}  // namespace
}  // namespace freshet
