// The KIR object model (MLIR-like): a Module holds enums, kernels and helpers; a Function has a
// body Region; a Region has typed arguments and a list of Operations; an Operation has operands
// (Values defined earlier), attributes, typed results, nested regions and a source Location.
// Ops are generic: the op registry (kir/op_registry.h) and the verifier give each name its rules.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kir/attribute.h"
#include "kir/location.h"
#include "kir/type.h"

namespace kir {

class Operation;
class Region;

// An SSA value: an op result or a region argument (kernel/helper parameters are the arguments of
// the body region).
class Value {
 public:
  Type type;
  std::string name;            // without '%'; unique within a function
  Operation* def = nullptr;    // defining op, or null for a region argument
  Region* owner = nullptr;     // region of an argument
  unsigned index = 0;          // result number or argument number
  bool is_constexpr = false;   // a constexpr parameter (L2.5)
  std::optional<Attribute> default_value;  // constexpr default of a parameter
  Location loc;                // of a parameter
};

class Region {
 public:
  std::vector<std::unique_ptr<Value>> args;
  std::vector<std::unique_ptr<Operation>> ops;
  Operation* parent = nullptr;  // null for a function body

  Value* add_arg(Type t, std::string name);
  Operation* append(std::unique_ptr<Operation> op);
  // Insert before position `pos` (an index into ops).
  Operation* insert(size_t pos, std::unique_ptr<Operation> op);
};

class Operation {
 public:
  std::string name;             // "add", "view.load", "region_fold", ...
  std::vector<Value*> operands;
  AttrMap attrs;
  std::vector<std::unique_ptr<Value>> results;
  std::vector<std::unique_ptr<Region>> regions;
  Location loc;
  Region* parent = nullptr;     // the region holding this op

  Value* result(size_t i = 0) const { return results.at(i).get(); }
  Value* add_result(Type t, std::string name = "");
  Region* add_region();
  const Attribute* attr(const std::string& key) const;
  bool has_attr(const std::string& key) const { return attrs.count(key) != 0; }
  Operation* parent_op() const { return parent ? parent->parent : nullptr; }
};

enum class FunctionKind { Kernel, Helper };

class Function;
// "@a -> @b -> @c": the functions of a call chain, outermost first; a chain longer than seven
// keeps its first three and last three around "-> ... (N more)" (depth-limit messages).
std::string call_chain_text(const std::vector<const Function*>& chain);

class Function {
 public:
  FunctionKind kind = FunctionKind::Kernel;
  std::string name;  // without '@'
  Region body;       // args = parameters
  std::vector<Type> result_types;  // helpers only
  // Kernels only: the default invocation `kir run` uses when the command line does not fix an
  // extent (`invocation {M = 4, N = 16}`); tooling metadata, no meaning to the program itself.
  AttrMap invocation;
  // Kernels only: the manifest param values this kernel variant hard-codes (`fixes {stride = 2,
  // padding = [1, 1]}`), in declaration order; `kir spec run` chooses a kernel only for a call
  // with exactly these values, and parity checks them against the manifest's param kinds
  // (docs/kir-text.md, docs/spec-run.md). A keyword value is `none` or an extent symbol.
  std::vector<std::pair<std::string, Attribute>> fixes;
  Location loc;
  bool is_kernel() const { return kind == FunctionKind::Kernel; }
  std::vector<Value*> params() const;
};

struct EnumDecl {
  std::string name;
  std::vector<std::pair<std::string, int64_t>> members;
  Location loc;
};

class Module {
 public:
  std::vector<EnumDecl> enums;
  std::vector<std::unique_ptr<Function>> functions;
  std::shared_ptr<const std::string> file;  // name of the source the module was read from

  Function* find_function(const std::string& name) const;
  const EnumDecl* find_enum(const std::string& name) const;
};

// Walk every op (pre-order) of a region, including nested regions.
template <typename F>
void walk(Region& r, F&& f) {
  for (auto& op : r.ops) {
    f(*op);
    for (auto& sub : op->regions) walk(*sub, f);
  }
}
template <typename F>
void walk(const Region& r, F&& f) {
  for (const auto& op : r.ops) {
    f(static_cast<const Operation&>(*op));
    for (const auto& sub : op->regions) walk(static_cast<const Region&>(*sub), f);
  }
}

// Replace every use of `from` by `to` inside region `r` (recursively).
void replace_all_uses(Region& r, Value* from, Value* to);

// Deep copy of a module (values remapped).
std::unique_ptr<Module> clone(const Module& m);

}  // namespace kir
