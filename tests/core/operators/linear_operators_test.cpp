// Oracle tests of the linear operators and of integrate / differentiate / delay.
#include <gtest/gtest.h>

#include "freshet/operators/delay.h"
#include "freshet/operators/differentiate.h"
#include "freshet/operators/filter.h"
#include "freshet/operators/input.h"
#include "freshet/operators/integrate.h"
#include "freshet/operators/map.h"
#include "freshet/operators/negate.h"
#include "freshet/operators/plus.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

bool x_positive(const RowReader& row) { return !row.is_null(1) && row.get_int(1) > 0; }

TEST(FilterTest, MatchesOracle) {
  testing::run_oracle(
      {testing::kxs_input()},
      [](const std::vector<Stream>& in) { return filter(in[0], [](const RowReader& k, const RowReader&) { return x_positive(k); }); },
      [](const std::vector<ZSetMap>& in) {
        ZSetMap out;
        for (const auto& [entry, weight] : in[0]) {
          if (x_positive(RowReader(*testing::kxs_schema(), RowRef(entry.first)))) out[entry] = weight;
        }
        return out;
      },
      testing::test_seed(101));
}

// Projects (k, x, s) to (k % 3) keyed, value s: many rows collide.
void project(const RowReader& row, RowBuilder& key, RowBuilder& value) {
  if (row.is_null(0)) key.set_null(0); else key.set_int(0, row.get_int(0) % 3);
  value.copy_field(0, row, 2);
}

TEST(MapTest, MatchesOracle) {
  SchemaPtr value_schema = make_schema({{"s", SqlType::varchar()}});
  testing::run_oracle(
      {testing::kxs_input()},
      [&](const std::vector<Stream>& in) {
        return map(in[0], testing::bigint_schema(), value_schema,
                   [](const RowReader& k, const RowReader&, RowBuilder& key, RowBuilder& value) { project(k, key, value); });
      },
      [&](const std::vector<ZSetMap>& in) {
        ZSetMap out;
        RowBuilder key(*testing::bigint_schema()), value(*value_schema);
        for (const auto& [entry, weight] : in[0]) {
          project(RowReader(*testing::kxs_schema(), RowRef(entry.first)), key, value);
          std::string key_bytes = key.finish().to_bytes();
          testing::add_entry(out, key_bytes, value.finish().to_bytes(), weight);
        }
        return out;
      },
      testing::test_seed(102));
}

// A map's step of more entries than a run of its builder (BatchBuilder::
// sort_in_runs): the runs are merged into what one sort would give, with
// equal entries from different runs summed and cancelling ones dropped.
TEST(MapTest, BigStepsSortedInRunsMatchTheirSum) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  SchemaPtr value_schema = testing::bigint_schema();
  Stream mapped = map(input->stream(), testing::bigint_schema(), value_schema,
                      [](const RowReader& k, const RowReader&, RowBuilder& key, RowBuilder& value) {
                        key.set_int(0, k.get_int(0) % 1000);
                        value.set_int(0, k.get_int(0) % 7);  // each (key, value) from ~1 id in 7,000: across runs
                      });
  RowBuilder row(*testing::bigint_schema()), key(*testing::bigint_schema()), value(*value_schema);
  for (int step = 0; step < 2; ++step) {
    ZSetMap expected;
    const int64_t first = step * 30000, last = first + 3 * BatchBuilder::kRunSize;
    for (int64_t id = first; id < last; ++id) {
      // Some entries negative; step 1 pushes part of step 0's rows again.
      const Weight weight = id % 5 == 0 ? -1 : 1;
      row.set_int(0, id);
      input->push_row(row.finish(), weight);
      key.set_int(0, id % 1000);
      std::string key_bytes = key.finish().to_bytes();
      value.set_int(0, id % 7);
      testing::add_entry(expected, key_bytes, value.finish().to_bytes(), weight);
    }
    ASSERT_TRUE(circuit.step().ok());
    ASSERT_EQ(testing::to_map(*mapped.current()), expected) << "step " << step;
    EXPECT_GT(expected.size(), 5000u);
  }
}

// A map given a ColumnProjection (an index by columns) builds by slot
// copies what its mapper builds: keys of one or two columns with NULLs
// kept or dropped, a value of columns, the whole row as the value, and a
// VARCHAR value (no slot copy: the mapper serves).
TEST(MapTest, ColumnProjectionsBuildWhatTheirMapperBuilds) {
  struct Case {
    std::vector<size_t> key_columns, value_columns;
    bool whole_value, drop_null_keys;
  };
  const std::vector<Case> cases = {
      {{1, 0}, {0}, false, false}, {{1}, {0, 1}, false, true}, {{1}, {}, true, false},
      {{0}, {}, true, true},       {{0}, {2}, false, false},
  };
  uint64_t seed = testing::test_seed(103);
  for (const Case& c : cases) {
    const Schema& input_schema = *testing::kxs_schema();
    std::vector<Column> key_columns, value_columns;
    for (size_t column : c.key_columns) key_columns.push_back(input_schema.column(column));
    for (size_t column : c.value_columns) value_columns.push_back(input_schema.column(column));
    SchemaPtr key_schema = make_schema(key_columns);
    SchemaPtr value_schema = c.whole_value ? testing::kxs_schema() : make_schema(value_columns);
    // The mapper: copy_field of each column; false for a NULL key when dropped.
    auto mapper = [c](const RowReader& row, const RowReader&, RowBuilder& key, RowBuilder& value) {
      bool any_null = false;
      for (size_t i = 0; i < c.key_columns.size(); ++i) {
        key.copy_field(i, row, c.key_columns[i]);
        any_null = any_null || row.is_null(c.key_columns[i]);
      }
      const std::vector<size_t> all = {0, 1, 2};
      const std::vector<size_t>& columns = c.whole_value ? all : c.value_columns;
      for (size_t i = 0; i < columns.size(); ++i) value.copy_field(i, row, columns[i]);
      return !(c.drop_null_keys && any_null);
    };
    ColumnProjection projection{c.key_columns, c.value_columns, c.whole_value, c.drop_null_keys};
    testing::run_oracle(
        {testing::kxs_input()},
        [&](const std::vector<Stream>& in) {
          return filter_map(in[0], key_schema, value_schema, mapper, "", projection);
        },
        [&](const std::vector<ZSetMap>& in) {
          ZSetMap out;
          RowBuilder key(*key_schema), value(*value_schema);
          for (const auto& [entry, weight] : in[0]) {
            const bool keep =
                mapper(RowReader(input_schema, RowRef(entry.first)), RowReader(*empty_schema(), RowRef()), key, value);
            std::string key_bytes = key.finish().to_bytes(), value_bytes = value.finish().to_bytes();
            if (keep) testing::add_entry(out, key_bytes, value_bytes, weight);
          }
          return out;
        },
        seed++);
  }
}

TEST(PlusTest, MatchesOracle) {
  testing::run_oracle(
      {testing::kxs_input(), testing::kxs_input(), testing::kxs_input()},
      [](const std::vector<Stream>& in) { return plus_all(in); },
      [](const std::vector<ZSetMap>& in) {
        ZSetMap out;
        for (const ZSetMap& input : in) {
          for (const auto& [entry, weight] : input) testing::add_entry(out, entry.first, entry.second, weight);
        }
        return out;
      },
      testing::test_seed(103));
}

TEST(MinusTest, MatchesOracle) {
  testing::run_oracle(
      {testing::kxs_input(), testing::kxs_input()}, [](const std::vector<Stream>& in) { return minus(in[0], in[1]); },
      [](const std::vector<ZSetMap>& in) {
        ZSetMap out = in[0];
        for (const auto& [entry, weight] : in[1]) testing::add_entry(out, entry.first, entry.second, -weight);
        return out;
      },
      testing::test_seed(104));
}

TEST(NegateTest, MatchesOracle) {
  testing::run_oracle(
      {testing::indexed_kxs_input()}, [](const std::vector<Stream>& in) { return negate(in[0]); },
      [](const std::vector<ZSetMap>& in) {
        ZSetMap out = in[0];
        for (auto& [entry, weight] : out) weight = -weight;
        return out;
      },
      testing::test_seed(105));
}

// integrate(in) outputs the integral each step; its own integral is then the
// running sum of integrals, so test it through differentiate: D(I(x)) = x.
TEST(IntegrateTest, MatchesOracle) {
  testing::run_oracle(
      {testing::kxs_input()}, [](const std::vector<Stream>& in) { return differentiate(integrate(in[0])); },
      [](const std::vector<ZSetMap>& in) { return in[0]; }, testing::test_seed(106));
}

TEST(IntegrateTest, OutputsTheRunningSumEachStep) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream sum = integrate(input->stream());
  std::mt19937_64 random(testing::test_seed(107));
  ZSetMap expected;
  for (int step = 0; step < 1000; ++step) {
    RowBuilder row(*testing::bigint_schema());
    row.set_int(0, static_cast<int64_t>(random() % 10));
    std::string bytes = row.finish().to_bytes();
    Weight weight = random() % 2 ? 1 : -1;
    input->push_row(RowRef(bytes), weight);
    testing::add_entry(expected, bytes, "", weight);
    ASSERT_TRUE(circuit.step().ok());
    ASSERT_EQ(testing::to_map(*sum.current()), expected) << "step " << step;
  }
}

TEST(DifferentiateTest, OutputsTheChangeOfItsInput) {
  // Fed with the running sum of random deltas, D must give back each delta.
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::kxs_schema());
  Stream changes = differentiate(integrate(input->stream()));
  Stream direct = differentiate(input->stream());
  std::mt19937_64 random(testing::test_seed(108));
  BatchPtr previous = Batch::empty_batch();
  for (int step = 0; step < 1000; ++step) {
    int updates = static_cast<int>(random() % 4);
    for (int u = 0; u < updates; ++u) {
      RowBuilder row(*testing::kxs_schema());
      testing::random_kxs(random, row);
      input->push_row(row.finish(), random() % 3 ? 1 : -1);
    }
    ASSERT_TRUE(circuit.step().ok());
    BatchPtr current = input->stream().current();
    ASSERT_EQ(testing::to_map(*changes.current()), testing::to_map(*current)) << "step " << step;
    ZSetMap expected = testing::to_map(*current);
    for (const auto& [entry, weight] : testing::to_map(*previous)) {
      testing::add_entry(expected, entry.first, entry.second, -weight);
    }
    ASSERT_EQ(testing::to_map(*direct.current()), expected) << "step " << step;
    previous = current;
  }
}

TEST(DelayTest, OutputsThePreviousInput) {
  Circuit circuit;
  InputOperator* input = add_input(circuit, testing::bigint_schema());
  Stream delayed = delay(input->stream());
  std::mt19937_64 random(testing::test_seed(109));
  BatchPtr previous = Batch::empty_batch();
  for (int step = 0; step < 1000; ++step) {
    int updates = static_cast<int>(random() % 4);
    for (int u = 0; u < updates; ++u) {
      RowBuilder row(*testing::bigint_schema());
      row.set_int(0, static_cast<int64_t>(random() % 10));
      input->push_row(row.finish(), 1);
    }
    ASSERT_TRUE(circuit.step().ok());
    ASSERT_EQ(testing::to_map(*delayed.current()), testing::to_map(*previous)) << "step " << step;
    previous = input->stream().current();
  }
}

}  // namespace
}  // namespace freshet
