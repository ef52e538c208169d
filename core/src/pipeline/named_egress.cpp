// Named egress streams: Pipeline::open_named_egress and close_named_egress.
//
// A named egress is an egress endpoint registered under a name as well as
// its id. Its consumer connects, takes chunks, disconnects (close_egress
// leaves it in place: its queue fills under its lag policy), and connects
// again under a new id, resuming where it was (OutputEndpoint::resume_after).
// Giving each connection a new id means a connection the consumer gave up
// on can never take a chunk meant for the one that replaced it.
#include "freshet/pipeline/pipeline.h"

namespace freshet {

Result<uint64_t> Pipeline::open_named_egress(const std::string& name, EndpointConfig config, RetentionLimits retention,
                                             std::optional<uint64_t> resume_after) {
  if (name.empty()) return Status(ErrorCode::kInvalidArgument, "an egress name must not be empty");
  auto named = named_egress_.find(name);
  if (named == named_egress_.end()) {
    if (resume_after) {
      return Status(ErrorCode::kResumeUnavailable,
                    "no egress named '" + name + "' to resume (never opened, closed, or opened after the checkpoint " +
                        "the pipeline restarted from); start again with a snapshot");
    }
    Result<std::unique_ptr<OutputEndpoint>> endpoint = make_endpoint(name, std::move(config), nullptr);
    if (!endpoint.ok()) return endpoint.status();
    if (named_egress_.size() >= kMaxNamedEgress) close_least_recently_connected();
    (*endpoint)->retain(retention);
    uint64_t id = next_egress_++;
    egress_.emplace(id, std::move(*endpoint));
    named_egress_[name] = id;
    return id;
  }
  std::unique_ptr<OutputEndpoint>& current = egress_.at(named->second);
  if (current->config().view != config.view || current->config().index != config.index) {
    return Status(ErrorCode::kInvalidArgument,
                  "egress '" + name + "' follows view '" + current->config().view +
                      (current->config().index.empty() ? "" : "' through index '" + current->config().index) +
                      "'; close it or use another name");
  }
  if (resume_after) {
    FRESHET_RETURN_IF_ERROR(current->resume_after(*resume_after));
    current->retain(retention);
  } else {
    // Starts over with the new configuration; sequence numbers go on.
    Result<std::unique_ptr<OutputEndpoint>> fresh = make_endpoint(name, std::move(config), nullptr);
    if (!fresh.ok()) return fresh.status();
    (*fresh)->retain(retention);
    (*fresh)->resume_from(current->checkpoint());
    (*fresh)->restart();
    current = std::move(*fresh);
  }
  uint64_t id = next_egress_++;
  egress_.emplace(id, std::move(current));
  egress_.erase(named->second);
  named->second = id;
  return id;
}

void Pipeline::close_least_recently_connected() {
  // Ids grow with every connection: the smallest is the oldest connection.
  auto oldest = named_egress_.begin();
  for (auto it = named_egress_.begin(); it != named_egress_.end(); ++it) {
    if (it->second < oldest->second) oldest = it;
  }
  egress_.erase(oldest->second);
  named_egress_.erase(oldest);
}

Status Pipeline::close_named_egress(std::string_view name) {
  auto named = named_egress_.find(name);
  if (named == named_egress_.end()) {
    return Status(ErrorCode::kUnknownOutput, "no egress named '" + std::string(name) + "'");
  }
  egress_.erase(named->second);
  named_egress_.erase(named);
  return Status::OK();
}

}  // namespace freshet
