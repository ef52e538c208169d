// The in-place program change of the facade (the package's p.replaceProgram).
#include "engine.h"
#include "freshet/format/json_output.h"

namespace freshet::wasm {

Reply Engine::replace_program(const std::string& sql) {
  if (!pipeline_) return closed_reply();
  Result<std::unique_ptr<Pipeline>> next = pipeline_->replace_program(sql, options_);
  if (!next.ok()) return Reply::error(next.status());
  pipeline_ = std::move(*next);
  std::string views = "[";
  for (const std::string& view : pipeline_->rebuilt_views()) {
    if (views.size() > 1) views += ',';
    format::append_json_string(view, &views);
  }
  return Reply::ok("{\"rebuilt_views\":" + views + "],\"restored_operators\":" +
                   std::to_string(pipeline_->restored_operators()) + ",\"rebuilt_operators\":" +
                   std::to_string(pipeline_->rebuilt_operators()) + "}");
}

}  // namespace freshet::wasm
