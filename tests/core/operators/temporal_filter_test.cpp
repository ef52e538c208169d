// Tests of the clock and the temporal filter: the example of
// temporal_filter.h, an oracle over random changes and random clock moves
// (with a checkpoint round trip in the middle) that also catches an injected
// fault, the cost of a step without input, and the next change the filter
// reports.
#include "freshet/operators/temporal_filter.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "freshet/operators/input.h"
#include "support/oracle.h"
#include "support/zset_map.h"

namespace freshet {
namespace {

using testing::ZSetMap;

// Rows (ts, id): ts nullable, the row's time.
SchemaPtr event_schema() {
  static const SchemaPtr schema = make_schema({{"ts", SqlType::timestamp(true)}, {"id", SqlType::bigint(false)}});
  return schema;
}

std::string event(std::optional<int64_t> ts, int64_t id) {
  RowBuilder row(*event_schema());
  if (ts) {
    row.set_int(0, *ts);
  } else {
    row.set_null(0);
  }
  row.set_int(1, id);
  return row.finish().to_bytes();
}

std::optional<int64_t> time_of(const RowReader& row) {
  if (row.is_null(0)) return std::nullopt;
  return row.get_int(0);
}

// A window [now - back, now + ahead]; either end may be absent or open.
struct WindowShape {
  std::optional<int64_t> back, ahead;
  bool open_low = false, open_high = false;

  TemporalWindow at(int64_t now) const {
    TemporalWindow window;
    if (back) window.low = now - *back + (open_low ? 1 : 0);
    if (ahead) window.high = now + *ahead - (open_high ? 1 : 0);
    return window;
  }
  TemporalBounds bounds() const {
    WindowShape shape = *this;
    return {time_of, [shape](int64_t now) -> Result<TemporalWindow> { return shape.at(now); }, true};
  }
};

// A circuit: input -> temporal filter, with its clock.
struct FilterCircuit {
  Circuit circuit;
  InputOperator* input;
  ClockOperator* clock;
  Stream output;

  FilterCircuit(const WindowShape& shape, TemporalFilterCounters* counters) {
    input = add_input(circuit, event_schema());
    clock = add_clock(circuit);
    output = temporal_filter(input->stream(), *clock, shape.bounds(), counters);
  }
};

ZSetMap rows(std::initializer_list<std::pair<std::string, Weight>> entries) {
  ZSetMap map;
  for (const auto& [row, weight] : entries) testing::add_entry(map, row, "", weight);
  return map;
}

// The example of temporal_filter.h: window [now - 10, now], a@5, b@12.
TEST(TemporalFilterTest, RowsLeaveAsTheClockPassesThem) {
  FilterCircuit c(WindowShape{10, 0}, nullptr);
  c.input->push_row(RowRef(event(5, 1)), 1);
  c.input->push_row(RowRef(event(12, 2)), 1);
  c.input->push_row(RowRef(event(std::nullopt, 3)), 1);
  c.clock->set_time(12);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(testing::to_map(*c.output.current()), rows({{event(5, 1), 1}, {event(12, 2), 1}}));
  EXPECT_EQ(c.clock->next_change(), 16);  // a@5 leaves when now - 10 > 5
  c.clock->set_time(16);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(testing::to_map(*c.output.current()), rows({{event(5, 1), -1}}));
  EXPECT_EQ(c.clock->next_change(), 23);
  c.clock->set_time(30);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(testing::to_map(*c.output.current()), rows({{event(12, 2), -1}}));
  EXPECT_EQ(c.clock->next_change(), std::nullopt);
}

TEST(TemporalFilterTest, UpperBoundRowsEnterLater) {
  FilterCircuit c(WindowShape{std::nullopt, 0, false, false}, nullptr);
  c.input->push_row(RowRef(event(100, 1)), 1);
  c.clock->set_time(50);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_TRUE(c.output.current()->empty());
  EXPECT_EQ(c.clock->next_change(), 100);
  c.clock->set_time(99);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_TRUE(c.output.current()->empty());
  c.clock->set_time(100);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(testing::to_map(*c.output.current()), rows({{event(100, 1), 1}}));
  c.clock->set_time(10);  // held at 100
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_TRUE(c.output.current()->empty());
  EXPECT_EQ(c.clock->now(), 100);
}

// Random inserts and deletes of timestamped rows (some NULL, duplicates) and
// random clock moves; after every step the integrated output must equal the
// integrated input filtered at the clock. Returns the first failing step, or -1.
int run_oracle(const WindowShape& shape, uint64_t seed, bool fault) {
  std::mt19937_64 random(seed);
  TemporalFilterCounters counters;
  counters.fault_keep_leaving_rows = fault;
  auto c = std::make_unique<FilterCircuit>(shape, &counters);
  ZSetMap input, output;
  int64_t now = 1000;
  std::vector<std::string> live;
  for (int step = 0; step < 600; ++step) {
    int updates = std::uniform_int_distribution<int>(0, 5)(random);
    for (int u = 0; u < updates; ++u) {
      if (!live.empty() && std::bernoulli_distribution(0.4)(random)) {
        size_t pick = std::uniform_int_distribution<size_t>(0, live.size() - 1)(random);
        c->input->push_row(RowRef(live[pick]), -1);
        testing::add_entry(input, live[pick], "", -1);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
      } else {
        std::optional<int64_t> ts;
        if (!std::bernoulli_distribution(0.1)(random))
          ts = now + std::uniform_int_distribution<int64_t>(-60, 60)(random);
        std::string row = event(ts, std::uniform_int_distribution<int64_t>(0, 3)(random));
        c->input->push_row(RowRef(row), 1);
        testing::add_entry(input, row, "", 1);
        live.push_back(row);
      }
    }
    // The clock: still, a small move, a long jump, or set back (held).
    int move = std::uniform_int_distribution<int>(0, 9)(random);
    int64_t target = move < 3    ? now
                     : move < 8  ? now + std::uniform_int_distribution<int64_t>(1, 8)(random)
                     : move == 8 ? now + 200
                                 : now - 30;
    c->clock->set_time(target);
    now = c->clock->now();
    if (!c->circuit.step().ok()) return step;
    testing::add_batch(output, *c->output.current());
    ZSetMap expected;
    TemporalWindow window = shape.at(now);
    for (const auto& [entry, weight] : input) {
      std::optional<int64_t> ts = time_of(RowReader(*event_schema(), RowRef(entry.first)));
      if (ts && *ts >= window.low && *ts <= window.high) testing::add_entry(expected, entry.first, "", weight);
    }
    if (expected != output) return step;
    // The reported next change is never later than the first time (within
    // a horizon past every row) at which some row's passing changes.
    std::optional<int64_t> reported = c->clock->next_change();
    std::optional<int64_t> first;
    for (int64_t t = now + 1; t <= now + 300 && !first; ++t) {
      TemporalWindow later = shape.at(t);
      for (const auto& [entry, weight] : input) {
        std::optional<int64_t> ts = time_of(RowReader(*event_schema(), RowRef(entry.first)));
        if (!ts) continue;
        bool in_now = *ts >= window.low && *ts <= window.high, in_later = *ts >= later.low && *ts <= later.high;
        if (in_now != in_later) first = t;
      }
    }
    if (first && (!reported || *reported > *first)) return step;
    if (reported && *reported <= now) return step;
    if (step == 300) {  // a checkpoint round trip
      ByteWriter saved;
      c->circuit.save_state(saved);
      c = std::make_unique<FilterCircuit>(shape, &counters);
      if (!c->circuit.restore_state(saved.data()).ok()) return step;
      if (c->clock->now() != now) return step;
    }
  }
  // Windows with a low end dropped rows below it on the way.
  if (shape.back && counters.passed_rows_dropped == 0) return -2;
  return -1;
}

const WindowShape kShapes[] = {
    {10, std::nullopt, false, false},  // ts >= now - 10: rows leave
    {10, std::nullopt, true, false},   // ts > now - 10
    {std::nullopt, 0, false, false},   // ts <= now: rows enter
    {std::nullopt, 5, false, true},    // ts < now + 5
    {20, 5, true, false},              // both ends
    {0, 0, false, false},              // ts = now
};

TEST(TemporalFilterTest, OracleRandomChangesAndClockMoves) {
  uint64_t seed = testing::test_seed(16);
  for (const WindowShape& shape : kShapes) EXPECT_EQ(run_oracle(shape, seed, false), -1);
}

TEST(TemporalFilterTest, OracleCatchesAnOperatorThatKeepsLeavingRows) {
  uint64_t seed = testing::test_seed(16);
  EXPECT_NE(run_oracle(WindowShape{10, std::nullopt}, seed, true), -1);
  EXPECT_NE(run_oracle(WindowShape{20, 5, true, false}, seed, true), -1);
}

// A step with no input and a small clock move reads only the rows it crosses.
TEST(TemporalFilterTest, AStepReadsOnlyTheCrossedRows) {
  TemporalFilterCounters counters;
  FilterCircuit c(WindowShape{1000, std::nullopt}, &counters);
  for (int64_t ts = 0; ts < 100000; ++ts) c.input->push_row(RowRef(event(ts, ts % 7)), 1);
  c.clock->set_time(1000);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(c.output.current()->size(), 100000u);
  for (int64_t now = 1003; now < 1100; now += 3) {
    counters.entries_visited = 0;
    c.clock->set_time(now);
    ASSERT_TRUE(c.circuit.step().ok());
    EXPECT_EQ(c.output.current()->size(), 3u);  // rows now-1003 .. now-1001 leave
    EXPECT_LE(counters.entries_visited, 3u + 2u);
  }
  counters.entries_visited = 0;
  ASSERT_TRUE(c.circuit.step().ok());  // the clock did not move
  EXPECT_EQ(counters.entries_visited, 0u);
  EXPECT_TRUE(c.output.current()->empty());
  // Rows below the low end are dropped once they are half the state.
  size_t before = c.circuit.state_bytes();
  c.clock->set_time(90000);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_LT(c.circuit.state_bytes(), before / 4);
  counters.entries_visited = 0;
  c.clock->set_time(90001);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(counters.entries_visited, 1u);
  EXPECT_EQ(c.output.current()->size(), 1u);
  EXPECT_GE(counters.passed_rows_dropped, 1u);
}

TEST(TemporalFilterTest, NoTimeYetPassesNothing) {
  FilterCircuit c(WindowShape{10, std::nullopt}, nullptr);
  c.input->push_row(RowRef(event(5, 1)), 1);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_TRUE(c.output.current()->empty());
  EXPECT_FALSE(c.clock->next_change().has_value());
  c.clock->set_time(0);
  ASSERT_TRUE(c.circuit.step().ok());
  EXPECT_EQ(testing::to_map(*c.output.current()), rows({{event(5, 1), 1}}));
}

}  // namespace
}  // namespace freshet
