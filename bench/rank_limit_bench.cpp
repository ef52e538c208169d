// The rank-limited operators of the 20-view dashboard (bench/js/
// dashboard20_program.mjs), each alone on a circuit of its own: 200k orders
// loaded in steps of 10,000, then single-row changes alternating a new order
// and an update of a random one, each stepped. For instruction counts of one
// build against another (this machine's times are noise at a few µs):
//
//   valgrind --tool=callgrind --instr-atstart=no rank_limit_bench orders 2000
//
// counts the changes only (callgrind_annotate --inclusive=yes: the
// operator's evaluate() per change). Operators (argv[1]):
//   orders     top_k ORDER BY amount DESC, id LIMIT 10        (top10_orders)
//   latest     top_k ORDER BY id DESC LIMIT 10                (latest_orders)
//   customers  top_k over (customer, revenue) rows, -old +new per changed
//              customer, ORDER BY revenue DESC, customer LIMIT 10 (top10_customers)
//   window     ROW_NUMBER() OVER (PARTITION BY region ORDER BY amount DESC, id),
//              rank limit 3                                  (top3_by_region)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include "freshet/circuit/circuit.h"
#include "freshet/operators/input.h"
#include "freshet/operators/top_k.h"
#include "freshet/operators/window.h"
#include "freshet/zset/cursor.h"

using namespace freshet;

struct Order {
  int64_t id, customer;
  double amount;
};

int main(int argc, char** argv) {
  std::string which = argc > 1 ? argv[1] : "orders";
  int changes = argc > 2 ? atoi(argv[2]) : 2000;
  const int kOrders = 200000, kCustomers = 1000, kRegions = 10;
  SchemaPtr order_schema = make_schema(
      {{"id", SqlType::bigint()}, {"customer", SqlType::bigint()}, {"amount", SqlType::double_precision()}});
  SchemaPtr revenue_schema = make_schema({{"customer", SqlType::bigint()}, {"revenue", SqlType::double_precision()}});
  SchemaPtr region_schema = make_schema({{"region", SqlType::bigint()}});
  Circuit circuit;
  const bool by_region = which == "window", customers = which == "customers";
  InputOperator* in =
      add_input(circuit, by_region ? region_schema : empty_schema(), customers ? revenue_schema : order_schema);
  Stream out;
  if (which == "orders") out = top_k(in->stream(), {{2, true, true}, {0, false, false}}, 10);
  if (which == "latest") out = top_k(in->stream(), {{0, true, true}}, 10);
  if (customers) out = top_k(in->stream(), {{1, true, true}, {0, false, false}}, 10);
  if (by_region) {
    WindowOptions options;
    options.order_by = {{2, true, true}, {0, false, false}};
    WindowFunction rn;
    rn.kind = WindowFunctionKind::kRowNumber;
    rn.name = "rn";
    rn.result_type = SqlType::bigint();
    options.functions = {rn};
    options.rank_limit = 3;
    out = window(in->stream(), options);
  }
  std::mt19937_64 random(42);
  auto below = [&](uint64_t n) { return random() % n; };
  std::vector<Order> orders;
  std::vector<double> revenue(kCustomers, 0);
  std::vector<double> pushed_revenue(kCustomers, -1);
  std::vector<bool> touched(kCustomers, false);
  uint64_t out_rows = 0;
  auto push_order = [&](const Order& o, Weight w) {
    if (customers) {
      revenue[o.customer] += w * o.amount;
      touched[o.customer] = true;
      return;
    }
    RowBuilder row(*order_schema);
    row.set_int(0, o.id);
    row.set_int(1, o.customer);
    row.set_double(2, o.amount);
    std::string bytes = row.finish().to_bytes();
    std::string key;
    if (by_region) {
      RowBuilder k(*region_schema);
      k.set_int(0, o.customer % kRegions);
      key = k.finish().to_bytes();
    }
    in->push(RowRef(key), RowRef(bytes), w);
  };
  auto step = [&] {
    if (customers) {
      for (int c = 0; c < kCustomers; ++c) {
        if (!touched[c]) continue;
        touched[c] = false;
        auto push = [&](double value, Weight w) {
          RowBuilder row(*revenue_schema);
          row.set_int(0, c);
          row.set_double(1, value);
          std::string bytes = row.finish().to_bytes();
          in->push(RowRef(), RowRef(bytes), w);
        };
        if (pushed_revenue[c] >= 0) push(pushed_revenue[c], -1);
        push(revenue[c], 1);
        pushed_revenue[c] = revenue[c];
      }
    }
    if (!circuit.step().ok()) abort();
    out_rows += out.current()->size();
  };
  for (int id = 0; id < kOrders; ++id) {
    orders.push_back({id, (int64_t)below(kCustomers), below(100000) / 100.0});
    push_order(orders.back(), 1);
    if ((id + 1) % 10000 == 0) step();
  }
  uint64_t load_rows = out_rows;
  CALLGRIND_START_INSTRUMENTATION;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < changes; ++i) {
    if (i % 2 == 0) {
      Order o{(int64_t)orders.size(), (int64_t)below(kCustomers), below(100000) / 100.0};
      orders.push_back(o);
      push_order(o, 1);
    } else {
      Order& old = orders[below(kOrders)];
      push_order(old, -1);
      old.customer = (int64_t)below(kCustomers);
      old.amount = below(100000) / 100.0;
      push_order(old, 1);
    }
    step();
  }
  double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / changes;
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%s: %.2f us per change, output rows %llu (load %llu)\n", which.c_str(), us,
              (unsigned long long)(out_rows - load_rows), (unsigned long long)load_rows);
}
