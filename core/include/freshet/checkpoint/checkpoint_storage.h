// CheckpointStorage: where checkpoints go — named blobs with put, get, list
// and remove. The JS layer has its own for IndexedDB, KV, files and memory
// (wasm-bindings/js); these two serve native hosts and tests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "freshet/common/status.h"

namespace freshet {

class CheckpointStorage {
 public:
  virtual ~CheckpointStorage() = default;
  //! Stores a blob, replacing one of the same name; all or nothing.
  virtual Status put(const std::string& name, const std::string& bytes) = 0;
  //! kStorageError when there is no such blob.
  virtual Result<std::string> get(const std::string& name) = 0;
  //! Names starting with `prefix`, sorted.
  virtual Result<std::vector<std::string>> list(const std::string& prefix) = 0;
  //! Removing a blob that is not there is not an error.
  virtual Status remove(const std::string& name) = 0;
};

class MemoryCheckpointStorage : public CheckpointStorage {
 public:
  Status put(const std::string& name, const std::string& bytes) override;
  Result<std::string> get(const std::string& name) override;
  Result<std::vector<std::string>> list(const std::string& prefix) override;
  Status remove(const std::string& name) override;

  //! The blobs themselves (tests damage them).
  std::map<std::string, std::string>& blobs() { return blobs_; }

 private:
  std::map<std::string, std::string> blobs_;
};

//! One file per blob in a directory (created if missing). A put writes a
//! temporary file and renames it over the name, so a crash mid-write never
//! leaves half a blob under the real name.
class FileCheckpointStorage : public CheckpointStorage {
 public:
  explicit FileCheckpointStorage(std::string directory) : directory_(std::move(directory)) {}
  Status put(const std::string& name, const std::string& bytes) override;
  Result<std::string> get(const std::string& name) override;
  Result<std::vector<std::string>> list(const std::string& prefix) override;
  Status remove(const std::string& name) override;

 private:
  std::string path_of(const std::string& name) const { return directory_ + "/" + name; }
  std::string directory_;
};

}  // namespace freshet
