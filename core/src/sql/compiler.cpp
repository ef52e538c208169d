// compile_program: statements in order; each name (table, view or index)
// once. Tables are made and views bound in program order; the views are
// then pruned, planned and indexed in program order once all are bound, so
// that a sub-plan several views share keeps the columns all of them read
// (plan_sharing.h).
#include "freshet/sql/compiler.h"

#include <functional>
#include <map>
#include <set>

#include "bind_lateness.h"
#include "binder.h"
#include "freshet/circuit/operator_description.h"
#include "freshet/circuit/operator_ids.h"
#include "freshet/common/out_of_line.h"
#include "freshet/operators/map.h"
#include "freshet/sql/parser.h"
#include "plan_join_order.h"
#include "plan_sharing.h"
#include "planner.h"
#include "properties.h"
#include "prune_columns.h"
#include "runtime_error_typing.h"

namespace freshet::sql {
namespace {

class ProgramCompiler {
 public:
  explicit ProgramCompiler(const CompileOptions& options) : options_(options) {}

  Result<std::unique_ptr<CompiledProgram>> compile(const Program& program) {
    if (program.statements.size() > options_.max_statements) {
      return Status(ErrorCode::kLimitExceeded, "the program has " + std::to_string(program.statements.size()) +
                                                   " statements; the limit is " + std::to_string(options_.max_statements));
    }
    for (const Statement& statement : program.statements) {
      Status status = std::visit([this](const auto& s) { return add(s); }, statement);
      if (!status.ok()) return status;
    }
    prune_views();
    for (const std::function<Status()>& build : builds_) {
      FRESHET_RETURN_IF_ERROR(build());
      FRESHET_RETURN_IF_ERROR(check_operator_count());
    }
    compiled_->reused_subplans = shared_.reuses();
    add_system_views();
    return std::move(compiled_);
  }

 private:
  Status check_operator_count() const {
    const size_t count = compiled_->circuit->operator_count();
    if (count <= options_.max_operators) return Status::OK();
    return Status(ErrorCode::kLimitExceeded, "the program's circuit has more than " +
                                                 std::to_string(options_.max_operators) + " operators (" +
                                                 std::to_string(count) + " so far); split it or simplify its views");
  }

  //! A table's operators are named from its name, columns and key: a table
  //! changed in either gets new ones (and a checkpoint no longer fits it).
  static std::string table_id_key(const std::string& name, const Schema& schema, const std::vector<size_t>& key) {
    std::string id_key = "table " + name + " " + schema.to_string() + " primary key";
    for (size_t column : key) id_key += " " + std::to_string(column);
    return id_key;
  }

  Status claim_name(const std::string& name, SourcePosition position) {
    if (name == kErrorViewName) {
      return sql_error(position, "'error_view' is the name of the system view that lists runtime errors and late "
                                 "records (as Feldera's ERROR_VIEW); choose another name");
    }
    if (!names_.insert(name).second) return sql_error(position, "'" + name + "' is already defined");
    return Status::OK();
  }

  Status add(const CreateTable& table) {
    FRESHET_RETURN_IF_ERROR(claim_name(table.name, table.name_position));
    std::vector<Column> columns;
    std::set<std::string> seen;
    for (const ColumnDefinition& column : table.columns) {
      if (!seen.insert(column.name).second) {
        return sql_error(column.position, "table '" + table.name + "' has two columns named '" + column.name + "'");
      }
      if (column.type.is_interval()) {
        // As Feldera: intervals are computed in views, never stored in tables.
        return sql_error(column.position, "column '" + column.name + "' of table '" + table.name +
                                              "': a table column cannot have an INTERVAL type");
      }
      columns.push_back({column.name, column.type});
    }
    SchemaPtr schema = make_schema(std::move(columns));
    CompiledTable compiled{table.name, schema, {}, nullptr, nullptr, Stream(), nullptr, false, {}, {}};
    for (const std::string& key : table.primary_key) {
      std::optional<size_t> position = schema->find(key);
      if (!position) return sql_error(table.position, "PRIMARY KEY column '" + key + "' is not a column of " + table.name);
      compiled.primary_key.push_back(*position);
    }
    Circuit& circuit = *compiled_->circuit;
    OperatorIdScope ids(circuit, table_id_key(table.name, *schema, compiled.primary_key));  // operator_ids.h
    if (compiled.primary_key.empty()) {
      compiled.input = add_input(circuit, schema);
      compiled.stream = compiled.input->stream();
    } else {
      compiled.upsert_input = add_upsert_input(circuit, schema, compiled.primary_key);
      compiled.stream = compiled.upsert_input->stream();
    }
    FRESHET_RETURN_IF_ERROR(add_lateness(table, compiled));
    FRESHET_RETURN_IF_ERROR(apply_table_properties(table, compiled, compiled_->warnings));
    if (compiled.materialized) {
      compiled_->table_views.push_back({table.name, schema, true, compiled.stream, {}, {}, RuntimeErrorMode::kFail});
    }
    compiled_->tables.push_back(std::move(compiled));
    return Status::OK();
  }

  //! LATENESS: one column per table; its late updates are dropped where
  //! the table's input is (upsert input) or right after it.
  Status add_lateness(const CreateTable& table, CompiledTable& compiled) {
    const ColumnDefinition* late_column = nullptr;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnDefinition& column = table.columns[c];
      if (!column.lateness) continue;
      if (late_column) {
        return sql_error(
            column.lateness_position,
            "table '" + table.name + "' has LATENESS on two columns; one LATENESS column per table is supported");
      }
      late_column = &column;
      Result<int64_t> lateness = bind_lateness(column);
      if (!lateness.ok()) return lateness.status();
      if (compiled.upsert_input) {
        compiled.upsert_input->set_lateness(c, *lateness);
        compiled.upsert_input->watermark()->set_error_log(compiled_->circuit.get(), table.name);
        compiled.watermark = compiled.upsert_input->watermark();
      } else {
        compiled.stream = lateness_filter(compiled.stream, c, *lateness, &compiled.watermark, table.name);
      }
    }
    return Status::OK();
  }

  //! A view's logical plan, before pruning. Sharing binds each view again
  //! (prune_views): every step from the text to the unpruned plan belongs
  //! here, so that both bindings give the same plan.
  Result<PlanPtr> bind_view(const CreateView& view) {
    QueryBinder binder([this](const std::string& name) -> SchemaPtr {
      if (const CompiledTable* table = compiled_->find_table(name)) return table->schema;
      if (const CompiledView* view = compiled_->find_view(name)) return view->schema;
      return nullptr;
    });
    binder.set_view_name(view.name);
    NullOnErrorTyping typing(mode_of(view.name) == RuntimeErrorMode::kNull);
    Result<PlanPtr> plan = binder.bind(view.query);
    if (!plan.ok()) return plan.status();
    plan_join_order(*plan);
    return plan;
  }

  //! Binds a view (its stream comes when it is planned, after every view is bound).
  Status add(const CreateView& view) {
    FRESHET_RETURN_IF_ERROR(claim_name(view.name, view.name_position));
    Result<std::optional<RuntimeErrorMode>> own_mode = view_runtime_error_mode(view);
    if (!own_mode.ok()) return own_mode.status();
    modes_[view.name] = own_mode->value_or(options_.on_runtime_error);
    Result<PlanPtr> plan = bind_view(view);
    if (!plan.ok()) return plan.status();
    std::vector<Column> columns = (*plan)->schema->columns();
    if (!view.column_names.empty()) {
      if (view.column_names.size() != columns.size()) {
        return sql_error(view.name_position, "view '" + view.name + "' names " + std::to_string(view.column_names.size()) +
                                            " columns but its query has " + std::to_string(columns.size()));
      }
      for (size_t i = 0; i < columns.size(); ++i) columns[i].name = view.column_names[i];
    }
    std::set<std::string> seen;
    for (const Column& column : columns) {
      if (!seen.insert(column.name).second) {
        return sql_error(view.name_position, "view '" + view.name + "' has two columns named '" + column.name +
                                            "'; give one of them an alias");
      }
    }
    compiled_->views.push_back(
        {view.name, make_schema(std::move(columns)), view.materialized, Stream(), {}, {}, RuntimeErrorMode::kFail});
    FRESHET_RETURN_IF_ERROR(apply_view_properties(view, compiled_->views.back(), compiled_->warnings));
    compiled_->views.back().on_runtime_error = mode_of(view.name);
    const size_t index = bound_.size();
    bound_.push_back({&view, std::move(*plan)});
    builds_.push_back([this, index] { return plan_view(index); });
    return Status::OK();
  }

  //! Prunes every bound view; with sharing, each sub-plan to the columns
  //! all its users need, and counts its users.
  void prune_views() {
    ColumnDemand demand;
    if (options_.share_subplans) {
      demand = program_column_demand(
          bound_.size(),
          [this](size_t v) -> PlanPtr {
            Result<PlanPtr> plan = bind_view(*bound_[v].view);  // bound before: no error
            return plan.ok() ? std::move(*plan) : nullptr;
          },
          options_.share_arrangements);
      shared_.set_share_arrangements(options_.share_arrangements);
    }
    for (BoundView& view : bound_) {
      prune_columns(*view.plan, std::vector<bool>(view.plan->schema->size(), true),
                    options_.share_subplans ? &demand : nullptr);
      if (options_.share_subplans) shared_.count_users(*view.plan);
    }
  }

  //! Plans the bound view `view` (its position in compiled_->views and bound_).
  Status plan_view(size_t view_index) {
    LogicalPlan& plan = *bound_[view_index].plan;
    const CreateView& view = *bound_[view_index].view;
    Planner planner(*compiled_->circuit, [this](const std::string& name) -> std::optional<Stream> {
      if (const CompiledTable* table = compiled_->find_table(name)) return table->stream;
      if (const CompiledView* view = compiled_->find_view(name)) return view->stream;
      return std::nullopt;
    });
    planner.set_clock_source([this] {
      if (!compiled_->clock) {
        OperatorIdScope ids(*compiled_->circuit, "clock");  // not the first view's that reads NOW()
        compiled_->clock = add_clock(*compiled_->circuit);
      }
      return compiled_->clock;
    });
    WatermarkLookup watermarks = [this](const std::string& name, size_t column) -> std::optional<GroupEvictionSpec> {
      if (const CompiledTable* table = compiled_->find_table(name)) {
        if (!table->watermark || table->watermark->column() != column) return std::nullopt;
        return GroupEvictionSpec{column, table->watermark, 1};
      }
      auto view = view_times_.find(name);
      if (view == view_times_.end() || column >= view->second.size()) return std::nullopt;
      return view->second[column];
    };
    // Which of the view's columns follow a watermark, for aggregates over it
    // (read before the planner consumes the plan).
    std::vector<std::optional<GroupEvictionSpec>> times;
    for (size_t c = 0; c < plan.schema->size(); ++c) times.push_back(column_time(plan, c, watermarks));
    planner.set_watermarks(watermarks);
    if (options_.share_subplans) planner.set_shared_plans(&shared_);
    planner.set_runtime_error_mode(mode_of(view.name), view.name);
    Result<Stream> stream = planner.plan(plan);
    if (!stream.ok()) return stream.status();
    compiled_->views[view_index].stream = *stream;
    view_times_[view.name] = std::move(times);
    return Status::OK();
  }

  Status add(const CreateIndex& index) {
    FRESHET_RETURN_IF_ERROR(claim_name(index.name, index.name_position));
    const CompiledView* view = compiled_->find_view(index.view);
    if (!view) {
      std::string what = compiled_->find_table(index.view) ? "'" + index.view + "' is a table; indexes are on views"
                                                           : "unknown view '" + index.view + "'";
      return sql_error(index.view_position, what);
    }
    CompiledIndex compiled{index.name, index.view, {}, nullptr, Stream()};
    std::vector<Column> key_columns;
    for (size_t i = 0; i < index.columns.size(); ++i) {
      const std::string& name = index.columns[i];
      std::optional<size_t> position = view->schema->find(name);
      if (!position) {
        return sql_error(index.column_positions[i], "view '" + index.view + "' has no column '" + name + "'");
      }
      compiled.columns.push_back(*position);
      key_columns.push_back(view->schema->column(*position));
    }
    compiled.key_schema = make_schema(std::move(key_columns));
    compiled_->indexes.push_back(std::move(compiled));
    // The index's stream, once its view is planned.
    builds_.push_back([this, position = compiled_->indexes.size() - 1] {
      CompiledIndex& compiled = compiled_->indexes[position];
      const CompiledView& view = *compiled_->find_view(compiled.view);
      std::vector<size_t> positions = compiled.columns;
      std::string id_key = "index " + compiled.name + " on " + compiled.view;
      for (size_t column : positions) id_key += " " + std::to_string(column);
      OperatorIdScope ids(*compiled_->circuit, id_key);
      compiled.stream = map(view.stream, compiled.key_schema, view.schema,
                            [positions](const RowReader& row, const RowReader&, RowBuilder& key, RowBuilder& value) {
                              for (size_t i = 0; i < positions.size(); ++i) key.copy_field(i, row, positions[i]);
                              for (size_t c = 0; c < row.schema().size(); ++c) value.copy_field(c, row, c);
                            },
                            "key " + describe_columns(*compiled.key_schema));
      return Status::OK();
    });
    return Status::OK();
  }

  //! A view bound, not yet planned.
  struct BoundView {
    const CreateView* view;
    PlanPtr plan;
  };

  RuntimeErrorMode mode_of(const std::string& view) const {
    auto mode = modes_.find(view);
    return mode == modes_.end() ? options_.on_runtime_error : mode->second;
  }

  //! The system views, after the program's (CompiledProgram::system_views).
  void add_system_views() {
    SchemaPtr schema = make_schema({{"table_or_view_name", SqlType::varchar().with_nullable(false)},
                                    {"message", SqlType::varchar().with_nullable(false)},
                                    {"metadata", SqlType::varchar().with_nullable(false)}});
    Stream stream = compiled_->circuit->add_stream(schema, empty_schema());
    compiled_->system_views.push_back(
        {std::string(kErrorViewName), schema, true, stream, {}, {}, RuntimeErrorMode::kFail});
  }

  CompileOptions options_;
  //! Each view's runtime error mode (its own, or the program's).
  std::map<std::string, RuntimeErrorMode> modes_;
  std::unique_ptr<CompiledProgram> compiled_ = std::make_unique<CompiledProgram>();
  std::set<std::string> names_;
  std::vector<BoundView> bound_;
  //! What is left once every statement is read: plan each view, build each
  //! index, in program order.
  std::vector<std::function<Status()>> builds_;
  //! Sub-plans planned so far, across views (with options_.share_subplans).
  SharedPlans shared_;
  //! Per view, per column: its tie to a table's watermark (column_time.h).
  std::map<std::string, std::vector<std::optional<GroupEvictionSpec>>> view_times_;
};

template <typename T>
const T* find_named(const std::vector<T>& items, std::string_view name) {
  for (const T& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

}  // namespace

const CompiledTable* CompiledProgram::find_table(std::string_view name) const { return find_named(tables, name); }
const CompiledView* CompiledProgram::find_view(std::string_view name) const { return find_named(views, name); }
const CompiledView* CompiledProgram::find_system_view(std::string_view name) const {
  return find_named(system_views, name);
}
const CompiledIndex* CompiledProgram::find_index(std::string_view name) const { return find_named(indexes, name); }

std::vector<const CompiledIndex*> CompiledProgram::indexes_of(std::string_view view) const {
  std::vector<const CompiledIndex*> found;
  for (const CompiledIndex& index : indexes) {
    if (index.view == view) found.push_back(&index);
  }
  return found;
}

bool CompiledProgram::is_materialized(const CompiledView& view) const {
  return view.materialized || !indexes_of(view.name).empty();
}

Result<std::unique_ptr<CompiledProgram>> compile_program(std::string_view sql) {
  return compile_program(sql, CompileOptions());
}

Result<std::unique_ptr<CompiledProgram>> compile_program(std::string_view sql, const CompileOptions& options) {
  if (sql.size() > options.max_program_bytes) {
    return Status(ErrorCode::kLimitExceeded, "the program has " + std::to_string(sql.size()) +
                                                 " bytes; the limit is " + std::to_string(options.max_program_bytes));
  }
  // Out of line (out_of_line.h says why): inlined, the whole compiler would
  // be one wasm function with Pipeline::create, its only caller.
  Result<Program> program = call_out_of_line<&parse_program>(sql);
  if (!program.ok()) return program.status();
  ProgramCompiler compiler(options);
  return call_out_of_line<&ProgramCompiler::compile>(compiler, *program);
}

}  // namespace freshet::sql
