// C++ builder API for KIR: used by tests, passes and the Python frontend to construct modules
// without going through text. It only builds; kir::verify_module checks the result.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "kir/ir.h"

namespace kir {

class Builder {
 public:
  explicit Builder(Module& m) : module_(m) {}

  // Starts a kernel or helper and sets the insertion point to its body.
  Function& kernel(const std::string& name);
  Function& helper(const std::string& name, std::vector<Type> results);
  Value* param(Type t, const std::string& name, bool is_constexpr = false);
  void add_enum(const std::string& name, std::vector<std::pair<std::string, int64_t>> members);

  // Appends a generic op at the insertion point.
  Operation& op(const std::string& name, std::vector<Value*> operands, std::vector<Type> result_types,
                AttrMap attrs = {});
  // Appends an op with exactly one result and returns that result.
  Value* value(const std::string& name, std::vector<Value*> operands, Type result, AttrMap attrs = {});
  // Appends an op without results (stores, yields).
  void effect(const std::string& name, std::vector<Value*> operands, AttrMap attrs = {});

  Value* const_int(int64_t v, DType d = DType::Index);
  Value* const_float(double v, DType d);
  Value* const_bool(bool v);

  // Adds a region to `op` with the given argument types and moves the insertion point into it;
  // `end_region` returns to the previous insertion point.
  Region& region(Operation& op, std::vector<Type> arg_types, std::vector<std::string> arg_names = {});
  void end_region();

  Region& insertion() { return *insert_.back(); }
  void set_location(Location loc) { loc_ = std::move(loc); }
  // Names given to results are "name", "name_1", ...; unnamed results print as %tN.
  void set_next_name(std::string n) { next_name_ = std::move(n); }

 private:
  Module& module_;
  std::vector<Region*> insert_;
  Location loc_;
  std::string next_name_;
};

}  // namespace kir
