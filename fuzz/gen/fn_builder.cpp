// See fn_builder.h.
#include "fuzz/gen/fn_builder.h"

namespace kir::fuzz {

std::string FnBuilder::fresh() { return "%v" + std::to_string(counter_++); }

void FnBuilder::line(const std::string& text) { lines.push_back(std::string(static_cast<size_t>(2 * indent_), ' ') + text); }

std::string FnBuilder::def(const std::string& rhs, const VType& t, bool pool) {
  std::string n = fresh();
  line(n + " = " + rhs + " : " + t.str());
  if (pool) add(n, t);
  return n;
}

std::string FnBuilder::def_raw(const std::string& rhs, const std::string& type_text) {
  std::string n = fresh();
  line(n + " = " + rhs + " : " + type_text);
  return n;
}

void FnBuilder::add(const std::string& name, const VType& t, bool outermost) {
  (outermost ? scopes_.front() : scopes_.back()).values.push_back({name, t, 0});
}

void FnBuilder::open(const std::string& header, RegionKind kind) {
  line(header);
  ++indent_;
  scopes_.push_back({kind, {}, {}});
}

void FnBuilder::next_region(const std::string& header) {
  RegionKind k = scopes_.back().kind;
  scopes_.pop_back();
  --indent_;
  line("} " + header);
  ++indent_;
  scopes_.push_back({k, {}, {}});
}

void FnBuilder::close() {
  scopes_.pop_back();
  --indent_;
  line("}");
}

std::vector<PoolValue> FnBuilder::visible() const {
  std::vector<PoolValue> r;
  for (const auto& s : scopes_) r.insert(r.end(), s.values.begin(), s.values.end());
  return r;
}

std::vector<PoolValue> FnBuilder::current_scope() const { return scopes_.back().values; }

void FnBuilder::use(const std::string& name) {
  for (auto& s : scopes_)
    for (auto& v : s.values)
      if (v.name == name) ++v.uses;
}

bool FnBuilder::used(const std::string& name) const {
  for (const auto& s : scopes_)
    for (const auto& v : s.values)
      if (v.name == name) return v.uses > 0;
  return false;
}

std::optional<std::string> FnBuilder::cached(const std::string& key) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->cache.find(key);
    if (f != it->cache.end()) return f->second;
  }
  return std::nullopt;
}

void FnBuilder::cache(const std::string& key, const std::string& name) { scopes_.back().cache[key] = name; }

bool FnBuilder::inside(RegionKind k) const {
  for (const auto& s : scopes_)
    if (s.kind == k) return true;
  return false;
}

int FnBuilder::loop_depth() const {
  int n = 0;
  for (const auto& s : scopes_) n += (s.kind == RegionKind::For || s.kind == RegionKind::While) ? 1 : 0;
  return n;
}

}  // namespace kir::fuzz
