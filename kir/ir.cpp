// Object-model helpers: construction, lookup, use replacement and deep copy.
#include "kir/ir.h"

#include <unordered_map>

namespace kir {

std::string call_chain_text(const std::vector<const Function*>& chain) {
  std::string text;
  const size_t n = chain.size(), head = 3, tail = 3;
  for (size_t i = 0; i < n; ++i) {
    if (i == head && n > head + tail + 1) {
      text += " -> ... (" + std::to_string(n - head - tail) + " more)";
      i = n - tail - 1;
      continue;
    }
    text += std::string(i ? " -> " : "") + "@" + chain[i]->name;
  }
  return text;
}

Value* Region::add_arg(Type t, std::string name) {
  auto v = std::make_unique<Value>();
  v->type = std::move(t);
  v->name = std::move(name);
  v->owner = this;
  v->index = static_cast<unsigned>(args.size());
  args.push_back(std::move(v));
  return args.back().get();
}

Operation* Region::append(std::unique_ptr<Operation> op) {
  op->parent = this;
  ops.push_back(std::move(op));
  return ops.back().get();
}

Operation* Region::insert(size_t pos, std::unique_ptr<Operation> op) {
  op->parent = this;
  auto it = ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(pos), std::move(op));
  return it->get();
}

Value* Operation::add_result(Type t, std::string n) {
  auto v = std::make_unique<Value>();
  v->type = std::move(t);
  v->name = std::move(n);
  v->def = this;
  v->index = static_cast<unsigned>(results.size());
  results.push_back(std::move(v));
  return results.back().get();
}

Region* Operation::add_region() {
  regions.push_back(std::make_unique<Region>());
  regions.back()->parent = this;
  return regions.back().get();
}

const Attribute* Operation::attr(const std::string& key) const {
  auto it = attrs.find(key);
  return it == attrs.end() ? nullptr : &it->second;
}

std::vector<Value*> Function::params() const {
  std::vector<Value*> out;
  for (const auto& a : body.args) out.push_back(a.get());
  return out;
}

Function* Module::find_function(const std::string& n) const {
  for (const auto& f : functions)
    if (f->name == n) return f.get();
  return nullptr;
}

const EnumDecl* Module::find_enum(const std::string& n) const {
  for (const auto& e : enums)
    if (e.name == n) return &e;
  return nullptr;
}

void replace_all_uses(Region& r, Value* from, Value* to) {
  walk(r, [&](Operation& op) {
    for (auto& v : op.operands)
      if (v == from) v = to;
  });
}

namespace {
using ValueMap = std::unordered_map<const Value*, Value*>;

void clone_region(const Region& src, Region& dst, ValueMap& map);

std::unique_ptr<Operation> clone_op(const Operation& op, ValueMap& map) {
  auto c = std::make_unique<Operation>();
  c->name = op.name;
  c->attrs = op.attrs;
  c->loc = op.loc;
  for (auto* v : op.operands) {
    auto it = map.find(v);
    c->operands.push_back(it == map.end() ? v : it->second);
  }
  for (const auto& r : op.results) {
    Value* nv = c->add_result(r->type, r->name);
    map[r.get()] = nv;
  }
  for (const auto& r : op.regions) clone_region(*r, *c->add_region(), map);
  return c;
}

void clone_region(const Region& src, Region& dst, ValueMap& map) {
  for (const auto& a : src.args) {
    Value* na = dst.add_arg(a->type, a->name);
    na->is_constexpr = a->is_constexpr;
    na->default_value = a->default_value;
    na->loc = a->loc;
    map[a.get()] = na;
  }
  for (const auto& op : src.ops) dst.append(clone_op(*op, map));
}
}  // namespace

std::unique_ptr<Module> clone(const Module& m) {
  auto out = std::make_unique<Module>();
  out->enums = m.enums;
  out->file = m.file;
  for (const auto& f : m.functions) {
    auto nf = std::make_unique<Function>();
    nf->kind = f->kind;
    nf->name = f->name;
    nf->result_types = f->result_types;
    nf->invocation = f->invocation;
    nf->fixes = f->fixes;
    nf->loc = f->loc;
    ValueMap map;
    clone_region(f->body, nf->body, map);
    out->functions.push_back(std::move(nf));
  }
  return out;
}

}  // namespace kir
