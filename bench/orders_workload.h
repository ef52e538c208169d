// The orders/customers workload shared by the benchmarks (see README.md):
// the rows to load, then 1,000 changes alternating an insert of a new order
// and an update of an existing one.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "freshet/types/row.h"
#include "freshet/zset/cursor.h"
#include "orders_circuit.h"

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

//! One engine's figures on the workload.
struct EngineResult {
  Percentiles latency;
  double load_ms;
  size_t state_bytes;
};

//! Runs the workload on an engine: loads it (customers, then orders in steps
//! of kLoadChunk), then times each change from pushing it to having the
//! view's delta in hand. An Engine has push_customer(row), push_order(row,
//! weight), step(), delta() (the view's last Batch) and state_bytes().
//! With `updates_as_upserts` an update pushes only the new row (PRIMARY KEY
//! tables replace the old one themselves).
template <typename Engine>
EngineResult run_workload(Engine& engine, const Workload& work, bool updates_as_upserts = false) {
  freshet::examples::OrdersCircuit rows;  // encodes rows of the workload's schemas
  for (int c = 0; c < kCustomers; ++c) engine.push_customer(rows.customer_row(c, "region-" + std::to_string(c % kRegions)));
  auto start = Clock::now();
  for (size_t i = 0; i < work.load.size(); ++i) {
    const Order& o = work.load[i];
    engine.push_order(rows.order_row(o.id, o.customer, o.amount), 1);
    if ((i + 1) % kLoadChunk == 0 || i + 1 == work.load.size()) engine.step();
  }
  double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();

  std::vector<double> nanos;
  int64_t checksum = 0;
  for (int i = 0; i < kChanges; ++i) {
    std::string removed, added;
    if (i % 2 == 0) {
      const Order& o = work.inserts[i / 2];
      added = rows.order_row(o.id, o.customer, o.amount);
    } else {
      const auto& [old, updated] = work.updates[i / 2];
      if (!updates_as_upserts) removed = rows.order_row(old.id, old.customer, old.amount);
      added = rows.order_row(updated.id, updated.customer, updated.amount);
    }
    auto begin = Clock::now();
    if (!removed.empty()) engine.push_order(removed, -1);
    engine.push_order(added, 1);
    engine.step();
    for (freshet::BatchCursor c(engine.delta()); c.valid(); c.next()) checksum += c.weight();
    nanos.push_back(std::chrono::duration<double, std::nano>(Clock::now() - begin).count());
  }
  if (checksum == 12345678) std::printf(" ");  // keeps the delta reads from being optimised away
  return {percentiles(nanos), load_ms, engine.state_bytes()};
}

//! The hand-built circuit of examples/orders_circuit as an Engine.
struct HandBuiltEngine {
  freshet::examples::OrdersCircuit p;
  void push_customer(const std::string& row) { p.customers->push_row(freshet::RowRef(row), 1); }
  void push_order(const std::string& row, freshet::Weight weight) { p.orders->push_row(freshet::RowRef(row), weight); }
  void step() {
    if (!p.circuit.step().ok()) std::abort();
  }
  const freshet::Batch& delta() const { return *p.by_region.current(); }
  size_t state_bytes() const { return p.circuit.state_bytes(); }
};

inline EngineResult run_hand_built(const Workload& work) {
  HandBuiltEngine engine;
  return run_workload(engine, work);
}

}  // namespace freshet::bench
