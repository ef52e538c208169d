#include "freshet/common/prefix_sort.h"

#include <random>
#include <tuple>

#include <gtest/gtest.h>

#include "support/oracle.h"

namespace freshet {
namespace {

// An item as the batch builder sorts them: a prefix, then more of the key
// that only the comparison sees, and its position to check what moved.
struct Item {
  uint64_t prefix;
  uint32_t rest;
  uint32_t position;
};

bool less(const Item& a, const Item& b) { return std::tie(a.prefix, a.rest) < std::tie(b.prefix, b.rest); }

// Prefixes that differ in `differing` chosen bytes (each drawing from
// `values` values), the other bytes shared.
std::vector<Item> random_items(std::mt19937_64& random, size_t n, int differing, int values) {
  std::vector<int> shifts;
  for (int shift = 0; shift < 64; shift += 8) shifts.push_back(shift);
  std::shuffle(shifts.begin(), shifts.end(), random);
  shifts.resize(static_cast<size_t>(differing));
  const uint64_t shared = random();
  std::vector<Item> items(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t prefix = shared;
    for (int shift : shifts) {
      prefix &= ~(uint64_t{0xff} << shift);
      prefix |= static_cast<uint64_t>(random() % static_cast<uint64_t>(values)) << shift;
    }
    items[i] = {prefix, static_cast<uint32_t>(random() % 3), static_cast<uint32_t>(i)};
  }
  return items;
}

// Every shape of prefix: none to all eight bytes differing (more than the
// radix passes cover), few or many values per byte, sizes around the
// threshold; against std::sort, and the sort keeps every item exactly once.
TEST(PrefixSortTest, SortsAsTheComparisonDoes) {
  std::mt19937_64 random(testing::test_seed(31));
  std::vector<Item> scratch;
  for (int round = 0; round < 300; ++round) {
    const size_t n = std::uniform_int_distribution<size_t>(0, 3000)(random);
    const int differing = std::uniform_int_distribution<int>(0, 8)(random);
    const int values = random() % 2 ? 2 : 256;
    std::vector<Item> items = random_items(random, n, differing, values);
    std::vector<Item> expected = items;
    std::sort(expected.begin(), expected.end(), less);
    sort_by_prefix(items, scratch, [](const Item& item) { return item.prefix; }, less);
    ASSERT_EQ(items.size(), n);
    std::vector<bool> seen(n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(items[i].prefix, expected[i].prefix) << "round " << round << ", item " << i;
      ASSERT_EQ(items[i].rest, expected[i].rest) << "round " << round << ", item " << i;
      ASSERT_FALSE(seen[items[i].position]);
      seen[items[i].position] = true;
    }
  }
}

}  // namespace
}  // namespace freshet
