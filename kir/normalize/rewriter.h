// The small rewriting toolkit shared by every normalization family: it collects the canonical ops
// that replace one surface op (inserted just before it, named after its result so the printed
// output stays readable and deterministic), reports diagnostics that name the op and a checklist
// rule, and creates the generated pure helpers (combines) once per module at the end of the
// function list.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kir/builder.h"
#include "kir/ir.h"

namespace kir::normalize {

// Prefix of every generated helper; reserved for the normalizer.
inline constexpr const char* kGeneratedPrefix = "__kir_";

class Rewriter {
 public:
  Rewriter(Module& m, Function& f, Diagnostics& d);

  Module& module() { return module_; }
  Function& function() { return function_; }

  // Starts rewriting `op`; ops emitted from now on go just before it.
  void begin(Operation& op);
  Operation& op() { return *op_; }

  // Reports "op 'name': message" under `rule` at the op's location. Always returns false.
  bool fail(const std::string& rule, const std::string& message);

  // Emits a canonical op before the current op; its results are named "<base>.<suffix>" (made
  // unique in the function), where <base> is the name of the current op's first result.
  Operation& emit(const std::string& name, std::vector<Value*> operands, std::vector<Type> types, AttrMap attrs,
                  const std::string& suffix);
  Value* value(const std::string& name, std::vector<Value*> operands, Type type, AttrMap attrs,
               const std::string& suffix);
  Value* constant(const Attribute& v, DType d, const std::string& suffix);
  // A scalar constant of `t`'s dtype, then `full` when `t` is a tensor (the constant is then
  // named "<suffix>0" and the full "<suffix>").
  Value* splat(const Attribute& v, const Type& t, const std::string& suffix);
  // `broadcast(x) {dims}` to `target` (skipped when x already has that type).
  Value* broadcast(Value* x, const Type& target, const std::vector<int64_t>& dims, const std::string& suffix);
  // `cast(x)` to dtype d (skipped when x already has it).
  Value* cast(Value* x, DType d, const std::string& suffix);

  // Replaces the current op's results by `values` (one per result, same types): the emitted ops
  // are inserted, every use is redirected, the op is erased and its result names move to the
  // replacements. Returns the number of ops now standing where the op stood.
  size_t replace(const std::vector<Value*>& values);
  // Inserts the emitted ops before the current op and keeps it. Returns the number inserted.
  size_t commit_keep();
  // Drops the emitted ops (after an error).
  void abandon() { pending_.clear(); }

  // Returns the generated helper `name`, building it with `build` on first use. `build` gets a
  // Builder positioned in the new helper's body and its parameters; it must emit the return.
  using HelperBody = std::function<void(Builder&, const std::vector<Value*>&)>;
  const std::string& helper(const std::string& name, const std::vector<Type>& params,
                            const std::vector<std::string>& param_names, const std::vector<Type>& results,
                            const HelperBody& build);

 private:
  Module& module_;
  Function& function_;
  Diagnostics& diags_;
  Operation* op_ = nullptr;
  std::vector<std::unique_ptr<Operation>> pending_;
  std::set<std::string> names_;
  std::set<const Value*> created_;  // results of the ops emitted for the current op
  std::string base_;

  std::string fresh(const std::string& suffix);
  size_t insert_pending();
};

// Helpers used by several families.
std::string type_str(const Type& t);  // "<none>" for a null type
// Accumulator type: `t`'s dtype `d`, shape `shape`; a scalar when the shape is empty (L7.1: removing
// every axis yields a scalar).
Type acc_type(DType d, const std::vector<Extent>& shape);
// The same type with its extents replaced by the helper's own generic symbols A0, A1, ...
Type generic_type(const Type& t);
// Reads a dtype keyword attribute (acc_dtype = f32) into `out` (left empty when absent and not
// required). Returns false (reported) when it is missing but required, or not an arithmetic dtype.
bool dtype_attr(Rewriter& rw, const std::string& key, const std::string& rule, bool required,
                std::optional<DType>& out);
// Normalizes an axis into [0, rank); nullopt if out of range.
std::optional<size_t> norm_axis(int64_t axis, size_t rank);
// A boolean attribute with a default; nullopt (reported) if it is not a bool.
std::optional<bool> bool_attr(Rewriter& rw, const std::string& key, bool dflt, const std::string& rule);
// Reports every attribute not in `allowed`; returns false if there was one.
bool only_attrs(Rewriter& rw, std::initializer_list<const char*> allowed, const std::string& rule);
// Checks operand count (and that each operand has a type), result count and no regions.
bool arity(Rewriter& rw, size_t operands, size_t results, const std::string& rule);
// Checks the declared result type `i` against the type the canonical form produces.
bool check_result(Rewriter& rw, size_t i, const Type& produced, const std::string& rule);
// Arithmetic dtypes: integers, index and f16/bf16/f32/f64 (not bool, not storage formats).
bool is_arithmetic(DType d);

}  // namespace kir::normalize
