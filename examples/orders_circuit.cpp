#include "orders_circuit.h"

#include "freshet/operators/aggregate.h"
#include "freshet/operators/join.h"
#include "freshet/operators/map.h"

namespace freshet::examples {

OrdersCircuit::OrdersCircuit() {
  customer_schema = make_schema({{"id", SqlType::bigint(false)}, {"region", SqlType::varchar()}});
  order_schema =
      make_schema({{"id", SqlType::bigint(false)}, {"customer", SqlType::bigint()}, {"amount", SqlType::double_precision()}});
  customers = add_input(circuit, customer_schema);
  orders = add_input(circuit, order_schema);

  SchemaPtr id_key = make_schema({{"id", SqlType::bigint(false)}});
  SchemaPtr region = make_schema({{"region", SqlType::varchar()}});
  SchemaPtr amount = make_schema({{"amount", SqlType::double_precision()}});

  // Index both sides by the join key, keeping only the columns used above the
  // join. customers.id is NOT NULL, so an order whose customer is NULL
  // matches nothing, as SQL requires.
  Stream customers_by_id = map(customers->stream(), id_key, region,
                               [](const RowReader& row, const RowReader&, RowBuilder& key, RowBuilder& value) {
                                 key.copy_field(0, row, 0);
                                 value.copy_field(0, row, 1);
                               });
  Stream orders_by_customer = map(orders->stream(), id_key, amount,
                                  [](const RowReader& row, const RowReader&, RowBuilder& key, RowBuilder& value) {
                                    key.copy_field(0, row, 1);
                                    value.copy_field(0, row, 2);
                                  });
  Stream amounts_by_region =
      join(orders_by_customer, customers_by_id, region, amount,
           [](const RowReader&, const RowReader& order, const RowReader* customer, RowBuilder& key, RowBuilder& value) {
             key.copy_field(0, *customer, 0);
             value.copy_field(0, order, 0);
           });
  by_region = aggregate(amounts_by_region,
                        {{AggregateKind::kCountStar, 0, "orders", SqlType::bigint(false)},
                         {AggregateKind::kSum, 0, "total", SqlType::double_precision()}});
}

std::string OrdersCircuit::customer_row(int64_t id, const std::string& region) const {
  RowBuilder row(*customer_schema);
  row.set_int(0, id);
  row.set_string(1, region);
  return row.finish().to_bytes();
}

std::string OrdersCircuit::order_row(int64_t id, int64_t customer, double amount) const {
  RowBuilder row(*order_schema);
  row.set_int(0, id);
  row.set_int(1, customer);
  row.set_double(2, amount);
  return row.finish().to_bytes();
}

}  // namespace freshet::examples
