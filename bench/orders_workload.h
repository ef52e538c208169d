// The orders/customers workload shared by the benchmarks (see README.md):
// the rows to load, then 1,000 changes alternating an insert of a new order
// and an update of an existing one.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "freshet/types/row.h"

namespace freshet::bench {

using Clock = std::chrono::steady_clock;

inline constexpr int kCustomers = 1000;
inline constexpr int kRegions = 10;
inline constexpr int kChanges = 1000;
inline constexpr int kLoadChunk = 10000;
inline constexpr size_t kRawOrderBytes = 3 * 8;  // id, customer, amount: three 8-byte values

struct Order {
  int64_t id, customer;
  double amount;
};

struct Percentiles {
  double p50_us, p99_us;
};

inline Percentiles percentiles(std::vector<double> nanos) {
  std::sort(nanos.begin(), nanos.end());
  return {nanos[nanos.size() / 2] / 1000, nanos[nanos.size() * 99 / 100] / 1000};
}

inline double amount_for(std::mt19937_64& random) { return static_cast<double>(random() % 100000) / 100; }

// The same workload for both engines: the load, then the changes.
struct Workload {
  std::vector<Order> load;
  // Change i: an insert of a new order, or an update (old, new) of an existing one.
  std::vector<std::pair<Order, Order>> updates;
  std::vector<Order> inserts;

  explicit Workload(size_t orders) {
    std::mt19937_64 random(42);
    for (size_t i = 0; i < orders; ++i) {
      load.push_back({static_cast<int64_t>(i), static_cast<int64_t>(random() % kCustomers), amount_for(random)});
    }
    for (int i = 0; i < kChanges / 2; ++i) {
      inserts.push_back({static_cast<int64_t>(orders + i), static_cast<int64_t>(random() % kCustomers), amount_for(random)});
      Order old = load[random() % orders];
      Order updated{old.id, static_cast<int64_t>(random() % kCustomers), amount_for(random)};
      load[old.id] = updated;  // later updates of the same order start from here
      updates.push_back({old, updated});
    }
    // Undo the in-place edits so the load is the initial state again.
    for (auto it = updates.rbegin(); it != updates.rend(); ++it) load[it->first.id] = it->first;
  }
};

}  // namespace freshet::bench
