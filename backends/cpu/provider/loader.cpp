#include "backends/cpu/provider/loader.h"

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace kir::cpu {
namespace {

std::string last_dl_error() {
  const char* e = ::dlerror();
  return e ? e : "unknown dlerror";
}

}  // namespace

LoadedObject::LoadedObject(const std::filesystem::path& path) : path_(path) {
  handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_)
    throw std::runtime_error("cannot load compiled kernel " + path.string() + ": " +
                             last_dl_error());
}

LoadedObject::~LoadedObject() {
  if (handle_) ::dlclose(handle_);
}

LoadedObject::LoadedObject(LoadedObject&& other) noexcept
    : path_(std::move(other.path_)), handle_(std::exchange(other.handle_, nullptr)) {}

LoadedObject& LoadedObject::operator=(LoadedObject&& other) noexcept {
  if (this != &other) {
    if (handle_) ::dlclose(handle_);
    path_ = std::move(other.path_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

void* LoadedObject::symbol(const std::string& name) const {
  if (!handle_)
    throw std::runtime_error("symbol '" + name + "' requested from a moved-from object");
  ::dlerror();  // clear a stale error: a symbol's value may legitimately be null
  void* p = ::dlsym(handle_, name.c_str());
  if (const char* e = ::dlerror())
    throw std::runtime_error("compiled kernel " + path_.string() + " has no symbol '" + name +
                             "': " + e);
  return p;
}

std::shared_ptr<LoadedObject> load_object(const std::filesystem::path& path) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<LoadedObject>> loaded;
  std::error_code ec;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
  std::string key = (ec ? std::filesystem::absolute(path) : canonical).string();
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = loaded[key];
  if (!slot) slot = std::make_shared<LoadedObject>(std::filesystem::path(key));
  return slot;
}

}  // namespace kir::cpu
