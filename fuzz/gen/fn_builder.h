// The text of one function under construction (kernel or helper): indented op lines, unique
// SSA names, and the pool of typed values visible at the current point (one scope per open
// region, so a value defined in a region body is never used after it). Per-scope caches keep
// the plumbing (constants, extents, domains, index vectors, relations) from being re-emitted.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/gen/types.h"

namespace kir::fuzz {

struct PoolValue {
  std::string name;  // with '%'
  VType type;
  int uses = 0;
};

enum class RegionKind { Body, If, For, While, Parallel };

class FnBuilder {
 public:
  explicit FnBuilder(bool is_kernel) : kernel(is_kernel) { scopes_.push_back({RegionKind::Body, {}, {}}); }

  const bool kernel;
  std::map<std::string, int64_t> atoms;  // values of the extent atoms this function's shapes use
  std::vector<Ext> extents;              // extents new axes may take here (symbols, constants)

  std::string fresh();                           // a new SSA name, "%v7"
  void line(const std::string& text);            // one op at the current indentation
  // Emits "%n = RHS : T" and adds %n to the pool (when `pool`); returns %n.
  std::string def(const std::string& rhs, const VType& t, bool pool = true);
  // Emits "%n = RHS : TYPE_TEXT" for non-pool kinds (domains, relations, buffers, tuples).
  std::string def_raw(const std::string& rhs, const std::string& type_text);
  void add(const std::string& name, const VType& t, bool outermost = false);

  // Regions: `open` emits HEADER (which ends in "{") and enters a scope; `next_region` closes
  // the current body and opens the next one of the same op with HEADER ("region(...) {");
  // `close` leaves the scope and emits "}".
  void open(const std::string& header, RegionKind kind);
  void next_region(const std::string& header);
  void close();

  std::vector<PoolValue> visible() const;        // outer scopes first
  std::vector<PoolValue> current_scope() const;
  void use(const std::string& name);
  bool used(const std::string& name) const;
  std::optional<std::string> cached(const std::string& key) const;
  void cache(const std::string& key, const std::string& name);

  bool inside(RegionKind k) const;
  int depth() const { return static_cast<int>(scopes_.size()) - 1; }
  int loop_depth() const;

  std::vector<std::string> lines;

 private:
  struct Scope {
    RegionKind kind;
    std::vector<PoolValue> values;
    std::map<std::string, std::string> cache;
  };
  std::vector<Scope> scopes_;
  int indent_ = 1;
  int counter_ = 0;
};

}  // namespace kir::fuzz
