// Loading compiled artifacts (shared objects from artifact_cache.h) into the process: an RAII
// dlopen handle and a process-wide table so an artifact is opened once however often it is
// requested. Loading is its own step: it neither compiles nor calls anything.
#pragma once
#include <filesystem>
#include <memory>
#include <string>

namespace kir::cpu {

class LoadedObject {
 public:
  // dlopen(path, RTLD_NOW | RTLD_LOCAL); throws std::runtime_error with dlerror's text.
  explicit LoadedObject(const std::filesystem::path& path);
  ~LoadedObject();
  LoadedObject(LoadedObject&& other) noexcept;
  LoadedObject& operator=(LoadedObject&& other) noexcept;
  LoadedObject(const LoadedObject&) = delete;
  LoadedObject& operator=(const LoadedObject&) = delete;

  // The address of `name`; throws std::runtime_error naming the object and the symbol if the
  // object does not export it.
  void* symbol(const std::string& name) const;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  void* handle_ = nullptr;
};

// The object at `path`, opened on first request and kept open for the life of the process.
std::shared_ptr<LoadedObject> load_object(const std::filesystem::path& path);

}  // namespace kir::cpu
