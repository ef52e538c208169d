// The sample pipeline `npm start` runs (until the web demo exists): orders
// and customers, joined and grouped by region, printed step by step as the
// changes each step produces and the view they add up to.
#include <cstdio>
#include <string>
#include <vector>

#include "freshet/zset/cursor.h"
#include "freshet/zset/trace.h"
#include "orders_circuit.h"

namespace {

using freshet::BatchCursor;
using freshet::RowReader;
using freshet::RowRef;
using freshet::examples::OrdersCircuit;

struct Change {
  const char* description;
  std::vector<std::pair<std::string, int>> customers, orders;  // (row, weight)
};

void print_rows(const freshet::Batch& batch, const freshet::Schema& schema, bool signs) {
  if (batch.empty()) std::printf("    (nothing)\n");
  for (BatchCursor c(batch); c.valid(); c.next()) {
    std::printf("    %s%s", signs ? (c.weight() > 0 ? "+ " : "- ") : "  ", RowReader(schema, c.key()).to_string().c_str());
    long long copies = c.weight() < 0 ? -c.weight() : c.weight();
    if (copies != 1) std::printf(" x%lld", copies);
    std::printf("\n");
  }
}

}  // namespace

int main() {
  OrdersCircuit p;
  auto customer = [&](int64_t id, const char* region) { return p.customer_row(id, region); };
  auto order = [&](int64_t id, int64_t who, double amount) { return p.order_row(id, who, amount); };

  std::vector<Change> changes = {
      {"load 4 customers in 3 regions",
       {{customer(1, "north"), 1}, {customer(2, "south"), 1}, {customer(3, "east"), 1}, {customer(4, "north"), 1}},
       {}},
      {"3 orders arrive", {}, {{order(100, 1, 25.0), 1}, {order(101, 2, 40.0), 1}, {order(102, 4, 10.5), 1}}},
      {"order 101 is updated: amount 40 -> 55", {}, {{order(101, 2, 40.0), -1}, {order(101, 2, 55.0), 1}}},
      {"an order for an unknown customer (no match yet)", {}, {{order(103, 9, 99.0), 1}}},
      {"customer 9 signs up in the east: order 103 joins", {{customer(9, "east"), 1}}, {}},
      {"customer 1 moves north -> south", {{customer(1, "north"), -1}, {customer(1, "south"), 1}}, {}},
      {"order 102 is cancelled: north has no orders left", {}, {{order(102, 4, 10.5), -1}}},
      {"a step with no input changes nothing", {}, {}},
  };

  const freshet::Schema& view_schema = p.by_region.key_schema();
  freshet::Trace view;
  std::printf("Freshet sample pipeline\n\n"
              "  CREATE VIEW by_region AS SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total\n"
              "  FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;\n\n"
              "view columns: %s\n",
              view_schema.to_string().c_str());
  for (const Change& change : changes) {
    for (const auto& [row, weight] : change.customers) p.customers->push_row(RowRef(row), weight);
    for (const auto& [row, weight] : change.orders) p.orders->push_row(RowRef(row), weight);
    freshet::Status status = p.circuit.step();
    if (!status.ok()) {
      std::fprintf(stderr, "step failed: %s\n", status.to_string().c_str());
      return 1;
    }
    std::printf("\nstep %llu: %s\n  changes to by_region:\n", static_cast<unsigned long long>(p.circuit.step_count() - 1),
                change.description);
    print_rows(*p.by_region.current(), view_schema, true);
    view.insert(p.by_region.current());
    std::printf("  by_region is now:\n");
    print_rows(*view.consolidated(), view_schema, false);
  }
  return 0;
}
