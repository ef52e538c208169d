// The orders/customers pipeline built by hand from the core's operators, as
// the SQL planner will build it from
//
//   CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR);
//   CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
//   CREATE VIEW by_region AS
//     SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
//     FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
//
//   orders ──► map: customer → amount ──┐
//                                        ⋈ ──► region → amount ──► aggregate ──► by_region
//   customers ─► map: id → region ──────┘                            COUNT, SUM
//
// Used by the sample program (npm start) and the benchmarks.
#pragma once

#include <string>

#include "freshet/circuit/circuit.h"
#include "freshet/operators/input.h"

namespace freshet::examples {

struct OrdersCircuit {
  Circuit circuit;
  SchemaPtr customer_schema, order_schema;
  InputOperator* customers = nullptr;
  InputOperator* orders = nullptr;
  Stream by_region;  //!< Z-set of (region, orders, total)

  OrdersCircuit();
  OrdersCircuit(const OrdersCircuit&) = delete;
  OrdersCircuit& operator=(const OrdersCircuit&) = delete;

  //! Encodes rows of the two tables.
  std::string customer_row(int64_t id, const std::string& region) const;
  std::string order_row(int64_t id, int64_t customer, double amount) const;
};

}  // namespace freshet::examples
