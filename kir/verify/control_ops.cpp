// Verifier rules for structured control (seed 000 §1, §5, §6): if with a scalar bool condition
// (a tensor predicate uses select, L6.3), for/while loops whose carries keep one schema from init
// through region arguments, yields, breaks/continues and results (L6.2), unordered parallel
// without carries (L5.1), terminators in their place (L6.1), structured break/continue (L6.3),
// helper returns (L1.2), kernels without returned values (L1.1) and helper calls: callee, arity,
// extent binding, substituted results (L1.3, L1.4) and constexpr arguments (L2.5).
#include "kir/op_registry.h"
#include "kir/verify/context.h"
#include "kir/verify/core_util.h"

namespace kir::verify {

using namespace core;

namespace {

std::vector<Type> types_of(const std::vector<Value*>& vs, size_t from = 0) {
  std::vector<Type> out;
  for (size_t i = from; i < vs.size(); ++i) out.push_back(vs[i] ? vs[i]->type : Type());
  return out;
}
std::vector<Type> types_of(const std::vector<std::unique_ptr<Value>>& vs, size_t from = 0) {
  std::vector<Type> out;
  for (size_t i = from; i < vs.size(); ++i) out.push_back(vs[i] ? vs[i]->type : Type());
  return out;
}

const Operation* last_op(const Region& r) { return r.ops.empty() ? nullptr : r.ops.back().get(); }

// Compares the carry schema `ref` (from `ref_what`, e.g. "the init") with `got` (from `what`).
// `got_values` (optional) lets the message point out a broadcast that tried to widen a carry.
bool carries_match(const Operation& op, Context& cx, const std::vector<Type>& ref, const std::string& ref_what,
                   const std::vector<Type>& got, const std::string& what, const std::vector<Value*>* got_values = nullptr,
                   const char* noun = "carry") {
  if (ref.size() != got.size()) {
    cx.error(op, "L6.2", std::to_string(ref.size()) + " " + noun + (ref.size() == 1 ? "" : "s") + " in " + ref_what +
                             " but " + std::to_string(got.size()) + " in " + what);
    return false;
  }
  for (size_t i = 0; i < ref.size(); ++i) {
    if (ref[i] == got[i]) continue;
    std::string msg = std::string(noun) + " " + std::to_string(i) + " has type " + ty(ref[i]) + " in " + ref_what +
                      " but " + ty(got[i]) + " in " + what + " (" + type_difference(ref[i], got[i]) + ")";
    if (got_values && i < got_values->size() && (*got_values)[i] && (*got_values)[i]->def &&
        (*got_values)[i]->def->name == "broadcast")
      msg += "; broadcast in the body does not widen a carry";
    cx.error(op, "L6.2", msg);
    return false;
  }
  return true;
}

// A region's final op must be one of `allowed` terminators.
const Operation* require_terminator(const Operation& op, Context& cx, const Region& r, size_t index,
                                    std::initializer_list<const char*> allowed, const std::string& rule) {
  const Operation* t = last_op(r);
  for (const char* a : allowed)
    if (t && t->name == a) return t;
  std::string names;
  for (const char* a : allowed) names += std::string(names.empty() ? "" : " or ") + a;
  cx.error(op, rule, "region " + std::to_string(index) + " must end with " + names +
                         (t ? ", but ends with '" + t->name + "'" : ", but is empty"));
  return nullptr;
}

bool is_domain_like(const Type& t) { return t.is(TypeKind::Domain) || t.is(TypeKind::Subregion); }

void check_if(const Operation& op, Context& cx) {
  bool a = cx.operands(op, 1, "L6.1");
  bool b = cx.regions(op, 2, "L6.1");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L6.1");
  Type c = operand_type(op, 0);
  if (c.is_tensor() && c.dtype() == DType::Bool)
    return cx.error(op, "L6.3", "the condition " + ty(c) + " is a tensor predicate; use select, not if");
  if (!is_bool_scalar(c)) return cx.error(op, "L6.1", "the condition must be a scalar bool, got " + ty(c));
  std::vector<Type> results = types_of(op.results);
  for (size_t i = 0; i < 2; ++i) {
    const Region& r = *op.regions[i];
    if (!r.args.empty()) {
      cx.error(op, "L6.1", "region " + std::to_string(i) + " of if takes no arguments");
      continue;
    }
    const Operation* t = require_terminator(op, cx, r, i, {"yield", "break", "continue"}, "L6.1");
    if (!t || t->name != "yield") continue;
    std::vector<Type> got = types_of(t->operands);
    if (got.size() != results.size()) {
      cx.error(op, "L6.1", "region " + std::to_string(i) + " yields " + std::to_string(got.size()) +
                               " values but the if has " + std::to_string(results.size()) + " results");
      continue;
    }
    for (size_t k = 0; k < got.size(); ++k)
      if (got[k] != results[k]) {
        cx.error(op, "L6.1", "result " + std::to_string(k) + " has type " + ty(results[k]) + " but region " +
                                 std::to_string(i) + " yields " + ty(got[k]) + " (" + type_difference(results[k], got[k]) + ")");
        break;
      }
  }
}

// Shared by for (body = region 0, carries after the index argument) and while (after-region).
void check_loop_body(const Operation& op, Context& cx, const Region& body, size_t index, const std::vector<Type>& init) {
  const Operation* t = require_terminator(op, cx, body, index, {"yield", "break", "continue"}, "L6.1");
  if (t && t->name == "yield")
    carries_match(op, cx, init, "the init", types_of(t->operands), "the yield", &t->operands);
}

void check_for(const Operation& op, Context& cx) {
  bool a = cx.operands_between(op, 1, SIZE_MAX, "L6.1");
  bool b = cx.regions(op, 1, "L6.1");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L6.1");
  Type d = operand_type(op, 0);
  if (!is_domain_like(d)) return cx.error(op, "L6.1", "for iterates a domain or subregion, got " + ty(d));
  std::vector<Type> init = types_of(op.operands, 1);
  const Region& body = *op.regions[0];
  if (body.args.empty() || !body.args[0] || body.args[0]->type != Type::scalar(DType::Index))
    return cx.error(op, "L6.1", "the body's first argument is the index coordinate (%i: index)");
  if (!carries_match(op, cx, init, "the init", types_of(body.args, 1), "the body arguments")) return;
  if (!carries_match(op, cx, init, "the init", types_of(op.results), "the results")) return;
  check_loop_body(op, cx, body, 0, init);
}

void check_while(const Operation& op, Context& cx) {
  if (!cx.regions(op, 2, "L6.1") || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L6.1");
  std::vector<Type> init = types_of(op.operands);
  if (!carries_match(op, cx, init, "the init", types_of(op.regions[0]->args), "the before-region arguments")) return;
  if (!carries_match(op, cx, init, "the init", types_of(op.regions[1]->args), "the after-region arguments")) return;
  if (!carries_match(op, cx, init, "the init", types_of(op.results), "the results")) return;
  require_terminator(op, cx, *op.regions[0], 0, {"condition"}, "L6.1");  // its values: check_condition
  check_loop_body(op, cx, *op.regions[1], 1, init);
}

void check_parallel(const Operation& op, Context& cx) {
  if (op.operands.size() > 1)
    return cx.error(op, "L5.1", "parallel has no loop-carried values; it takes only its domain");
  if (!op.results.empty()) return cx.error(op, "L5.1", "parallel has no results (no loop-carried values)");
  bool a = cx.operands(op, 1, "L5.1");
  bool b = cx.regions(op, 1, "L5.1");
  if (!a || !b || !has_operand_types(op)) return;
  cx.only_attrs(op, {}, "L5.1");
  Type d = operand_type(op, 0);
  if (!is_domain_like(d)) return cx.error(op, "L5.1", "parallel iterates a domain or subregion, got " + ty(d));
  const Region& body = *op.regions[0];
  if (body.args.size() != 1 || !body.args[0] || body.args[0]->type != Type::scalar(DType::Index))
    return cx.error(op, "L5.1", "the body takes exactly the point coordinate (%i: index) and no carries");
  const Operation* t = require_terminator(op, cx, body, 0, {"yield"}, "L5.1");
  if (t && !t->operands.empty()) cx.error(op, "L5.1", "the body ends with yield() carrying no values");
}

bool is_last_in_region(const Operation& op) {
  return op.parent && !op.parent->ops.empty() && op.parent->ops.back().get() == &op;
}

void check_yield(const Operation& op, Context& cx) {
  cx.only_attrs(op, {}, "L6.1");
  const Operation* p = op.parent_op();
  if (!p) return cx.error(op, "L6.1", "yield ends an if/for/while/parallel region; a function body ends with return");
  if (p->name != "if" && p->name != "for" && p->name != "while" && p->name != "parallel")
    return cx.error(op, "L6.1", "yield cannot end a region of '" + p->name + "'");
  if (p->name == "while" && !p->regions.empty() && p->regions[0].get() == op.parent)
    return cx.error(op, "L6.1", "the before-region of while ends with condition, not yield");
  if (!is_last_in_region(op)) cx.error(op, "L6.1", "yield must be the last op of its region");
}

void check_condition(const Operation& op, Context& cx) {
  cx.only_attrs(op, {}, "L6.1");
  const Operation* p = op.parent_op();
  if (!p || p->name != "while" || p->regions.empty() || p->regions[0].get() != op.parent)
    return cx.error(op, "L6.1", "condition ends the before-region of a while");
  if (!is_last_in_region(op)) return cx.error(op, "L6.1", "condition must be the last op of its region");
  if (!cx.operands_between(op, 1, SIZE_MAX, "L6.1") || !has_operand_types(op)) return;
  Type c = operand_type(op, 0);
  if (c.is_tensor() && c.dtype() == DType::Bool)
    return cx.error(op, "L6.3", "the condition " + ty(c) + " is a tensor predicate; reduce it to a scalar bool");
  if (!is_bool_scalar(c)) return cx.error(op, "L6.1", "the condition must be a scalar bool, got " + ty(c));
  carries_match(op, cx, types_of(p->operands), "the init", types_of(op.operands, 1), "the condition", nullptr);
}

// The loop a break/continue belongs to: through `if`s only.
const Operation* enclosing_loop(const Operation& op, std::string& stop) {
  const Region* r = op.parent;
  int guard = 0;
  while (r && ++guard < 100000) {
    const Operation* p = r->parent;
    if (!p) {
      stop = "function body";
      return nullptr;
    }
    if (p->name == "for") return p;
    if (p->name == "while") {
      if (!p->regions.empty() && p->regions[0].get() == r) {
        stop = "while condition region";
        return nullptr;
      }
      return p;
    }
    if (p->name != "if") {
      stop = p->name;
      return nullptr;
    }
    r = p->parent;
  }
  stop = "function body";
  return nullptr;
}

void check_break_continue(const Operation& op, Context& cx) {
  cx.only_attrs(op, {}, "L6.3");
  std::string stop;
  const Operation* loop = enclosing_loop(op, stop);
  if (!loop) {
    if (stop == "parallel")
      return cx.error(op, "L6.3", op.name + " cannot leave a parallel body (points are unordered, L5.1); it is only "
                                            "allowed inside a for/while body");
    return cx.error(op, "L6.3", op.name + " outside a loop: it must be inside a for/while body (through ifs only), not in " +
                                    (stop == "function body" ? std::string("the function body") : "'" + stop + "'"));
  }
  if (!is_last_in_region(op)) return cx.error(op, "L6.3", op.name + " must be the last op of its region");
  std::vector<Type> carries = types_of(loop->operands, loop->name == "for" ? 1 : 0);
  carries_match(op, cx, carries, "the loop's init", types_of(op.operands), "the " + op.name, &op.operands);
}

void check_return(const Operation& op, Context& cx) {
  cx.only_attrs(op, {}, "L1.2");
  if (op.parent && op.parent->parent)
    return cx.error(op, "L1.2", "return ends a function body; regions end with yield (or break/continue)");
  if (!is_last_in_region(op)) return cx.error(op, "L1.2", "return must be the last op of the function body");
  const Function* f = cx.function;
  if (!f) return;
  if (f->is_kernel()) {
    if (!op.operands.empty())
      cx.error(op, "L1.1", "a kernel has no host-visible return; write results through Out/InOut views");
    return;
  }
  std::vector<Type> got = types_of(op.operands);
  if (got.size() != f->result_types.size())
    return cx.error(op, "L1.2", "@" + f->name + " returns " + std::to_string(f->result_types.size()) +
                                    " values, but return gives " + std::to_string(got.size()));
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != f->result_types[i])
      return cx.error(op, "L1.2", "return value " + std::to_string(i) + " has type " + ty(got[i]) + " but @" + f->name +
                                      " returns " + ty(f->result_types[i]) + " (" +
                                      type_difference(f->result_types[i], got[i]) + ")");
}

void check_call(const Operation& op, Context& cx) {
  cx.only_attrs(op, {"callee"}, "L1.4");
  const Attribute* a = cx.attr(op, "callee", Attribute::Kind::Symbol, "L1.4");
  if (!a) return;
  const Function* f = cx.module.find_function(a->s);
  if (!f) return cx.error(op, "L1.4", "callee @" + a->s + " is not defined");
  if (f->is_kernel())
    return cx.error(op, "L1.3", "@" + a->s + " is a kernel: a kernel launch inside a kernel or helper is not allowed");
  if (!has_operand_types(op)) return;
  std::vector<Value*> params = f->params();
  if (params.size() != op.operands.size())
    return cx.error(op, "L1.4", "@" + f->name + " takes " + std::to_string(params.size()) + " arguments, got " +
                                    std::to_string(op.operands.size()));
  std::map<std::string, Extent> binding;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i]) continue;
    std::string why;
    if (!cx.unify(params[i]->type, op.operands[i]->type, binding, why))
      return cx.error(op, "L1.4", "argument " + std::to_string(i) + " (%" + params[i]->name + ") of @" + f->name +
                                      ": " + why);
    if (params[i]->is_constexpr && !is_constexpr_value(op.operands[i]))
      return cx.error(op, "L2.5", "argument " + std::to_string(i) + " binds constexpr parameter %" + params[i]->name +
                                      " of @" + f->name + " but %" + op.operands[i]->name + " is a runtime value");
  }
  if (op.results.size() != f->result_types.size())
    return cx.error(op, "L1.4", "@" + f->name + " returns " + std::to_string(f->result_types.size()) + " values, the call has " +
                                    std::to_string(op.results.size()) + " results");
  for (size_t i = 0; i < op.results.size(); ++i) {
    std::vector<std::string> syms;
    collect_symbols(f->result_types[i], syms);
    for (const auto& s : syms)
      if (!binding.count(s))
        return cx.error(op, "L1.4", "result " + std::to_string(i) + " of @" + f->name + " uses extent " + s +
                                        ", which no argument binds");
    Type want = substitute(f->result_types[i], binding);
    if (result_type(op, i) != want)
      return cx.error(op, "L1.4", "result " + std::to_string(i) + " must be " + ty(want) + " (the helper's " +
                                      ty(f->result_types[i]) + " with its extents bound), got " + ty(result_type(op, i)));
  }
}

}  // namespace

void register_control_ops(OpTable& t) {
  t["if"] = check_if;
  t["for"] = check_for;
  t["while"] = check_while;
  t["parallel"] = check_parallel;
  t["yield"] = check_yield;
  t["condition"] = check_condition;
  t["break"] = check_break_continue;
  t["continue"] = check_break_continue;
  t["return"] = check_return;
  t["call"] = check_call;
}

}  // namespace kir::verify
