// IR surgery for the KIR reducer (rewrite.h).
#include "fuzz/campaign/reduce/rewrite.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "kir/op_registry.h"
#include "kir/verify/context.h"
#include "kir/verify/core_util.h"
#include "kir/verify/effects.h"

namespace kir::fuzz::reduce_detail {

std::vector<Operation*> preorder(const Function& f) {
  std::vector<Operation*> out;
  std::function<void(const Region&)> rec = [&](const Region& r) {
    for (const auto& op : r.ops) {
      out.push_back(op.get());
      for (const auto& sub : op->regions) rec(*sub);
    }
  };
  rec(f.body);
  return out;
}

Operation* find_op(const Module& m, OpRef r) {
  if (r.fn >= m.functions.size()) return nullptr;
  auto ops = preorder(*m.functions[r.fn]);
  return r.index < ops.size() ? ops[r.index] : nullptr;
}

std::vector<std::pair<OpRef, Operation*>> all_ops(const Module& m) {
  std::vector<std::pair<OpRef, Operation*>> out;
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    auto ops = preorder(*m.functions[fi]);
    for (size_t i = 0; i < ops.size(); ++i) out.push_back({OpRef{fi, i}, ops[i]});
  }
  return out;
}

size_t op_index(const Region& r, const Operation* op) {
  for (size_t i = 0; i < r.ops.size(); ++i)
    if (r.ops[i].get() == op) return i;
  return r.ops.size();
}

namespace {

void extent_names(const Extent& e, std::set<std::string>& out) {
  for (const auto& s : e.symbols())
    if (!s.empty() && s[0] == '%') out.insert(s.substr(1));
}

}  // namespace

void type_value_names(const Type& t, std::set<std::string>& out) {
  if (!t) return;
  switch (t.kind()) {
    case TypeKind::Tensor:
    case TypeKind::Relation:
      for (const auto& e : t.shape()) extent_names(e, out);
      break;
    case TypeKind::Tuple:
      for (const auto& e : t.elements()) type_value_names(e, out);
      break;
    case TypeKind::Record:
      for (const auto& [n, f] : t.fields()) type_value_names(f, out);
      break;
    case TypeKind::Domain:
    case TypeKind::Subregion:
      extent_names(t.extent(), out);
      break;
    case TypeKind::View:
      type_value_names(t.tensor_type(), out);
      if (t.strides())
        for (const auto& e : *t.strides()) extent_names(e, out);
      if (t.offset()) extent_names(*t.offset(), out);
      break;
    case TypeKind::Buffer:
      type_value_names(t.tensor_type(), out);
      break;
    default:
      break;
  }
}

Uses collect_uses(const Function& f) {
  Uses u;
  for (const auto& p : f.body.args) type_value_names(p->type, u.type_names);
  for (const auto& t : f.result_types) type_value_names(t, u.type_names);
  walk(f.body, [&](const Operation& op) {
    for (const Value* v : op.operands) u.operands.insert(v);
    for (const auto& r : op.results) type_value_names(r->type, u.type_names);
    for (const auto& reg : op.regions)
      for (const auto& a : reg->args) type_value_names(a->type, u.type_names);
  });
  return u;
}

std::set<std::string> value_names(const Function& f) {
  std::set<std::string> out;
  for (const auto& p : f.body.args) out.insert(p->name);
  walk(f.body, [&](const Operation& op) {
    for (const auto& r : op.results) out.insert(r->name);
    for (const auto& reg : op.regions)
      for (const auto& a : reg->args) out.insert(a->name);
  });
  return out;
}

std::string fresh_name(const std::string& base, std::set<std::string>& taken) {
  std::string n = base;
  for (int i = 1; taken.count(n); ++i) n = base + "_" + std::to_string(i);
  taken.insert(n);
  return n;
}

Function* function_of(Module& m, const Operation* op) {
  const Region* r = op->parent;
  while (r && r->parent) r = r->parent->parent;
  for (auto& f : m.functions)
    if (&f->body == r) return f.get();
  return nullptr;
}

namespace {

// Nested ops of a region op: removable, and break/continue only where a loop inside catches them.
bool nested_removable(const Module& m, const Region& r, bool in_loop) {
  for (const auto& op : r.ops) {
    const std::string& n = op->name;
    if (n == "yield" || n == "condition") continue;
    if (n == "break" || n == "continue") {
      if (!in_loop) return false;
      continue;
    }
    if (n == "return") return false;
    if (!removable(m, *op)) return false;
  }
  return true;
}

}  // namespace

bool removable(const Module& m, const Operation& op) {
  if (is_terminator(op.name)) return false;
  const OpInfo* info = kir::find_op(op.name);
  if (!info) return false;
  switch (info->effect) {
    case Effect::Pure:
    case Effect::Read:
    case Effect::Random:
      return true;
    case Effect::Write:
      return op.name == "buffer.alloc";
    case Effect::Atomic:
      return op.name == "atomic.load";
    case Effect::Call: {
      const Attribute* c = op.attr("callee");
      const Function* f = c ? m.find_function(c->s) : nullptr;
      if (!f || f->is_kernel()) return false;
      const verify::HelperEffects e = verify::helper_effects(m, *f);
      return !e.writes && !e.atomics && !e.calls_kernel;
    }
    case Effect::Control: {
      const bool loop = op.name == "for" || op.name == "while";
      for (const auto& r : op.regions)
        if (!nested_removable(m, *r, loop)) return false;
      return true;
    }
  }
  return false;
}

bool is_leaf(const Operation& op) { return op.name == "const" || op.name == "full"; }

void erase_op(Operation& op) {
  Region* r = op.parent;
  const size_t i = op_index(*r, &op);
  if (i < r->ops.size()) r->ops.erase(r->ops.begin() + static_cast<std::ptrdiff_t>(i));
}

namespace {

bool sweep(const Module& m, Region& r, const Uses& u) {
  bool changed = false;
  for (size_t i = r.ops.size(); i-- > 0;) {
    Operation& op = *r.ops[i];
    for (auto& sub : op.regions) changed |= sweep(m, *sub, u);
    bool unused = true;
    for (const auto& res : op.results) unused = unused && !u.used(res.get());
    if (unused && removable(m, op)) {
      r.ops.erase(r.ops.begin() + static_cast<std::ptrdiff_t>(i));
      changed = true;
    }
  }
  return changed;
}

void symbol_refs(const Attribute& a, std::vector<std::string>& out) {
  if (a.kind == Attribute::Kind::Symbol) out.push_back(a.s);
  for (const auto& e : a.list) symbol_refs(e, out);
}

}  // namespace

int eliminate_dead_code(Module& m) {
  int removed = 0;
  for (auto& f : m.functions) {
    for (;;) {
      const size_t before = preorder(*f).size();
      if (!sweep(m, f->body, collect_uses(*f))) break;
      removed += static_cast<int>(before - preorder(*f).size());
    }
  }
  // Helpers no kernel reaches (through call callees and symbol attributes such as combine).
  std::set<std::string> reached;
  std::vector<const Function*> todo;
  for (const auto& f : m.functions)
    if (f->is_kernel()) todo.push_back(f.get());
  while (!todo.empty()) {
    const Function* f = todo.back();
    todo.pop_back();
    if (!reached.insert(f->name).second) continue;
    walk(f->body, [&](const Operation& op) {
      std::vector<std::string> refs;
      for (const auto& [k, a] : op.attrs) symbol_refs(a, refs);
      for (const auto& s : refs)
        if (const Function* g = m.find_function(s); g && !reached.count(s)) todo.push_back(g);
    });
  }
  for (size_t i = m.functions.size(); i-- > 0;)
    if (!m.functions[i]->is_kernel() && !reached.count(m.functions[i]->name)) {
      m.functions.erase(m.functions.begin() + static_cast<std::ptrdiff_t>(i));
      ++removed;
    }
  return removed;
}

bool splice_before(Function& f, Operation& at, Region& body, const std::vector<Value*>& arg_values,
                   const std::vector<std::string>& terminators, std::vector<Value*>& yielded) {
  if (body.ops.empty() || body.args.size() != arg_values.size()) return false;
  const Operation& term = *body.ops.back();
  if (std::find(terminators.begin(), terminators.end(), term.name) == terminators.end()) return false;
  for (size_t i = 0; i < arg_values.size(); ++i) replace_all_uses(body, body.args[i].get(), arg_values[i]);
  (void)f;
  yielded.clear();
  for (Value* v : body.ops.back()->operands) {
    // A terminator returning a body argument yields what replaced it.
    Value* y = v;
    for (size_t i = 0; i < arg_values.size(); ++i)
      if (v == body.args[i].get()) y = arg_values[i];
    yielded.push_back(y);
  }
  Region& dst = *at.parent;
  size_t pos = op_index(dst, &at);
  while (body.ops.size() > 1) {
    std::unique_ptr<Operation> op = std::move(body.ops.front());
    body.ops.erase(body.ops.begin());
    dst.insert(pos++, std::move(op));
  }
  return true;
}

void replace_op(Function& f, Operation& op, const std::vector<Value*>& values) {
  for (size_t i = 0; i < op.results.size() && i < values.size(); ++i)
    replace_all_uses(f.body, op.results[i].get(), values[i]);
  erase_op(op);
}

Value* insert_before(Operation& at, const std::string& op_name, std::vector<Value*> operands, AttrMap attrs, Type type,
                     const std::string& name) {
  auto op = std::make_unique<Operation>();
  op->name = op_name;
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  op->loc = at.loc;
  Value* v = op->add_result(std::move(type), name);
  Region& r = *at.parent;
  r.insert(op_index(r, &at), std::move(op));
  return v;
}

namespace {

struct Inliner {
  std::unordered_map<const Value*, Value*> map;
  std::map<std::string, Extent> binding;  // helper extent symbols and renamed value names
  std::set<std::string>* taken = nullptr;

  Type type(const Type& t) const { return verify::core::substitute(t, binding); }

  std::string rename(const std::string& old) {
    const std::string n = fresh_name(old, *taken);
    binding["%" + old] = Extent::symbol("%" + n);
    return n;
  }

  void region(const Region& src, Region& dst) {
    for (const auto& a : src.args) {
      const std::string n = rename(a->name);
      map[a.get()] = dst.add_arg(type(a->type), n);
    }
    for (const auto& op : src.ops) dst.append(clone(*op));
  }

  std::unique_ptr<Operation> clone(const Operation& op) {
    auto c = std::make_unique<Operation>();
    c->name = op.name;
    c->attrs = op.attrs;
    c->loc = op.loc;
    for (const Value* v : op.operands) {
      auto it = map.find(v);
      c->operands.push_back(it == map.end() ? const_cast<Value*>(v) : it->second);
    }
    // Names first (types of later values may mention them), then types.
    for (const auto& r : op.results) map[r.get()] = c->add_result(Type(), rename(r->name));
    for (size_t i = 0; i < op.results.size(); ++i) c->results[i]->type = type(op.results[i]->type);
    for (const auto& r : op.regions) region(*r, *c->add_region());
    return c;
  }
};

}  // namespace

bool inline_call(Module& m, Function& f, Operation& call) {
  const Attribute* c = call.attr("callee");
  Function* h = c ? m.find_function(c->s) : nullptr;
  if (!h || h->is_kernel() || h == &f) return false;
  const auto params = h->params();
  if (params.size() != call.operands.size()) return false;
  if (h->body.ops.empty() || h->body.ops.back()->name != "return") return false;
  Inliner in;
  std::set<std::string> taken = value_names(f);
  in.taken = &taken;
  Diagnostics d;
  VerifyOptions vo;
  verify::Context cx(m, d, vo);
  for (size_t i = 0; i < params.size(); ++i) {
    std::string why;
    if (!cx.unify(params[i]->type, call.operands[i]->type, in.binding, why)) return false;
    in.map[params[i]] = call.operands[i];
    in.binding["%" + params[i]->name] = Extent::symbol("%" + call.operands[i]->name);
  }
  Region& dst = *call.parent;
  size_t pos = op_index(dst, &call);
  const auto& hops = h->body.ops;
  for (size_t i = 0; i + 1 < hops.size(); ++i) dst.insert(pos++, in.clone(*hops[i]));
  std::vector<Value*> returned;
  for (const Value* v : hops.back()->operands) {
    auto it = in.map.find(v);
    if (it == in.map.end()) return false;
    returned.push_back(it->second);
  }
  if (returned.size() != call.results.size()) return false;
  replace_op(f, call, returned);
  return true;
}

}  // namespace kir::fuzz::reduce_detail
