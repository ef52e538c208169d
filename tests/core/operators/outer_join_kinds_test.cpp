// Oracle tests of the outer_join operator (LEFT, RIGHT, FULL; with and
// without a filter on the matches), on (k, x, s) rows keyed by k, with NULL
// keys (which match nothing) and duplicates; and a check that the oracle
// catches a FULL join that forgets its unmatched right rows.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "freshet/operators/filter.h"
#include "freshet/operators/join.h"
#include "freshet/operators/outer_join.h"
#include "freshet/operators/plus.h"
#include "support/generators.h"

namespace freshet {
namespace {

using testing::ZSetMap;

//! The joined rows: the left (k, x, s), then the right (k, x, s).
SchemaPtr joined_rows_schema() {
  static const SchemaPtr kSchema = make_schema({{"lk", SqlType::bigint()},
                                                {"lx", SqlType::bigint()},
                                                {"ls", SqlType::varchar()},
                                                {"rk", SqlType::bigint()},
                                                {"rx", SqlType::bigint()},
                                                {"rs", SqlType::varchar()}});
  return kSchema;
}

// The extra condition of the filtered tests: lx <= rx (false when either is NULL).
bool condition(const RowReader& l, const RowReader& r) {
  return !l.is_null(1) && !r.is_null(1) && l.get_int(1) <= r.get_int(1);
}

Stream filter_matches(Stream matches) {
  return filter(matches, [](const RowReader& row, const RowReader&) {
    return !row.is_null(1) && !row.is_null(4) && row.get_int(1) <= row.get_int(4);
  });
}

std::string joined_row(const std::string* l, const std::string* r) {
  RowBuilder out(*joined_rows_schema());
  for (int side = 0; side < 2; ++side) {
    const std::string* bytes = side == 0 ? l : r;
    if (!bytes) {
      for (size_t c = 0; c < 3; ++c) out.set_null(side * 3 + c);
      continue;
    }
    RowReader row(*testing::kxs_schema(), RowRef(*bytes));
    for (size_t c = 0; c < 3; ++c) out.copy_field(side * 3 + c, row, c);
  }
  return out.finish().to_bytes();
}

// From scratch: every pair with equal non-NULL keys (passing the condition
// when `filtered`), and each kept side's entries without such a pair.
ZSetMap reference(const ZSetMap& left, const ZSetMap& right, OuterJoinKind kind, bool filtered) {
  static const std::string kEmpty = RowBuilder(*empty_schema()).finish().to_bytes();
  ZSetMap out;
  std::map<std::string, bool> right_matched;
  for (const auto& [l, lw] : left) {
    bool matched = false;
    RowReader key(*testing::bigint_schema(), RowRef(l.first));
    for (const auto& [r, rw] : right) {
      if (key.is_null(0) || r.first != l.first) continue;
      if (filtered && !condition(RowReader(*testing::kxs_schema(), RowRef(l.second)),
                                 RowReader(*testing::kxs_schema(), RowRef(r.second)))) {
        continue;
      }
      testing::add_entry(out, joined_row(&l.second, &r.second), kEmpty, lw * rw);
      matched = right_matched[r.first + r.second] = true;
    }
    if (!matched && kind != OuterJoinKind::kRight) testing::add_entry(out, joined_row(&l.second, nullptr), kEmpty, lw);
  }
  if (kind == OuterJoinKind::kLeft) return out;
  for (const auto& [r, rw] : right) {
    if (!right_matched[r.first + r.second]) testing::add_entry(out, joined_row(nullptr, &r.second), kEmpty, rw);
  }
  return out;
}

void run_kind(OuterJoinKind kind, bool filtered, uint64_t seed) {
  testing::run_oracle(
      {testing::indexed_kxs_input(6), testing::indexed_kxs_input(6)},
      [kind, filtered](const std::vector<Stream>& in) {
        return outer_join(in[0], in[1], joined_rows_schema(), kind, filtered ? MatchFilter(filter_matches) : nullptr);
      },
      [kind, filtered](const std::vector<ZSetMap>& in) { return reference(in[0], in[1], kind, filtered); }, seed,
      {.steps = 1000, .max_updates_per_step = 5, .delete_probability = 0.45});
}

TEST(OuterJoinKindsTest, LeftMatchesOracle) { run_kind(OuterJoinKind::kLeft, false, testing::test_seed(1701)); }
TEST(OuterJoinKindsTest, RightMatchesOracle) { run_kind(OuterJoinKind::kRight, false, testing::test_seed(1702)); }
TEST(OuterJoinKindsTest, FullMatchesOracle) { run_kind(OuterJoinKind::kFull, false, testing::test_seed(1703)); }
TEST(OuterJoinKindsTest, LeftWithConditionMatchesOracle) {
  run_kind(OuterJoinKind::kLeft, true, testing::test_seed(1704));
}
TEST(OuterJoinKindsTest, RightWithConditionMatchesOracle) {
  run_kind(OuterJoinKind::kRight, true, testing::test_seed(1705));
}
TEST(OuterJoinKindsTest, FullWithConditionMatchesOracle) {
  run_kind(OuterJoinKind::kFull, true, testing::test_seed(1706));
}

// A FULL join built as a LEFT join only: the oracle must notice.
void run_broken_full_join() {
  testing::run_oracle(
      {testing::indexed_kxs_input(6), testing::indexed_kxs_input(6)},
      [](const std::vector<Stream>& in) {
        return outer_join(in[0], in[1], joined_rows_schema(), OuterJoinKind::kLeft, MatchFilter(filter_matches));
      },
      [](const std::vector<ZSetMap>& in) { return reference(in[0], in[1], OuterJoinKind::kFull, true); }, 1707,
      {.steps = 200});
}

TEST(OuterJoinKindsTest, OracleCatchesAMissingSide) {
  EXPECT_FATAL_FAILURE(run_broken_full_join(), "differs from the reference");
}

}  // namespace
}  // namespace freshet
