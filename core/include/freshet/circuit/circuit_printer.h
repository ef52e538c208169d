// The circuit printer: a circuit's operators with their edges, parameters,
// state and time, as text (one line per operator) and as JSON. The circuit
// knows its graph; which tables, views and indexes each stream serves is
// the program's to say, so the caller names them (pipeline_explain.cpp).
//
//   #3 join on (id) <- #1, #2 | 2 rows, 96 B | shared: 2 consumers | views: v1, v2
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "freshet/circuit/circuit.h"

namespace freshet {

//! The printed id of operator `index`. The one place that names operators,
//! so that stable ids replace positions here alone.
std::string operator_label(const Circuit& circuit, size_t index);

//! What the printer says of one operator.
struct OperatorReport {
  size_t index = 0;
  std::string id;                    //!< operator_label
  std::string kind;                  //!< Operator::name()
  std::string description;           //!< Operator::describe()
  std::vector<std::string> inputs;   //!< ids of the operators whose outputs it reads
  size_t consumers = 0;              //!< operators reading its output
  std::vector<std::string> outputs;  //!< "table t", "view v", "index i": what its output stream is
  std::vector<std::string> views;    //!< the views (and indexes) that depend on it
  size_t rows = 0, bytes = 0;        //!< its state
  OperatorTime time;
  //! Its output is read more than once: by several operators, or is several
  //! views/indexes, or both (a table's name does not count as a reader).
  bool shared() const;
};

//! The reports of the operators `indexes` (in evaluation order), graph and
//! live figures filled in; outputs and views are the caller's.
std::vector<OperatorReport> report_operators(const Circuit& circuit, const std::vector<size_t>& indexes);
//! Every operator `roots` depend on, the roots included, in evaluation order.
std::vector<size_t> upstream_of(const Circuit& circuit, const std::vector<size_t>& roots);

//! One line per operator; with `figures`, state and time (without, the
//! text depends on the program alone: golden files).
std::string circuit_text(const std::vector<OperatorReport>& reports, bool figures);
//! `[{"id":...,"kind":...}, ...]`, with the figures.
std::string circuit_json(const std::vector<OperatorReport>& reports);

}  // namespace freshet
