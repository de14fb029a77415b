// IR surgery for the KIR reducer (reduce.h), internal to fuzz/campaign/reduce: addressing ops of
// a module by position (so that one edit can be replayed on a clone), uses (operands and value
// names mentioned in types), fresh value names, dead-code elimination, and the structural edits
// of the reduction passes (unwrap a region op, inline a call). Edits may leave a module that does
// not verify: the reducer prints, re-parses and verifies every candidate and drops invalid ones.
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "kir/ir.h"

namespace kir::fuzz::reduce_detail {

// An op by position: function index in the module, then pre-order index over its body.
struct OpRef {
  size_t fn = 0;
  size_t index = 0;
};

std::vector<Operation*> preorder(const Function& f);
Operation* find_op(const Module& m, OpRef r);           // null when out of range
std::vector<std::pair<OpRef, Operation*>> all_ops(const Module& m);
size_t op_index(const Region& r, const Operation* op);  // position of op in r.ops

// What a function uses: operand values, and value names (without '%') that some type mentions
// (an extent such as f32[%n]).
struct Uses {
  std::unordered_set<const Value*> operands;
  std::set<std::string> type_names;
  bool used(const Value* v) const { return operands.count(v) || type_names.count(v->name); }
};
Uses collect_uses(const Function& f);
void type_value_names(const Type& t, std::set<std::string>& out);

// Every value name of a function (parameters, results, region arguments).
std::set<std::string> value_names(const Function& f);
// `base`, or `base_1`, `base_2`, ... whichever is not in `taken`; the result is added to it.
std::string fresh_name(const std::string& base, std::set<std::string>& taken);

Function* function_of(Module& m, const Operation* op);

// An op the reducer may delete when its results are unused: no memory writes, atomics (other
// than a load) or kernel launches, nested ops likewise, and no break/continue leaving it.
bool removable(const Module& m, const Operation& op);
bool is_leaf(const Operation& op);  // const and full: what "simpler value" replacements produce

// Dead-code elimination: removes removable ops whose results nothing uses (to a fixpoint) and
// helpers no kernel reaches. Returns the number of ops and functions removed.
int eliminate_dead_code(Module& m);

// The ops of `body` (all but its terminator) moved in front of `at` (in at's region); the
// terminator's operands are returned (in `yielded`) and `body` is left with the terminator only.
// Uses of body's arguments are replaced by `arg_values` first. False when the body does not end
// in one of `terminators`.
bool splice_before(Function& f, Operation& at, Region& body, const std::vector<Value*>& arg_values,
                   const std::vector<std::string>& terminators, std::vector<Value*>& yielded);

// Replaces every use of op's results by `values` (one per result) and erases op.
void replace_op(Function& f, Operation& op, const std::vector<Value*>& values);
void erase_op(Operation& op);

// Inlines the helper called by `call`: its body cloned (values renamed fresh, the helper's
// extent symbols bound from the argument types) in front of the call, which is replaced by the
// returned values. False when it cannot be done.
bool inline_call(Module& m, Function& f, Operation& call);

// A new op in front of `at` with one result named `name`.
Value* insert_before(Operation& at, const std::string& op_name, std::vector<Value*> operands, AttrMap attrs, Type type,
                     const std::string& name);

}  // namespace kir::fuzz::reduce_detail
