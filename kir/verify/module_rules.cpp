// Module-level rules (seed 000 §1, §2, §4): unique symbols, enum declarations (L2.6), kernel and
// helper signatures (L1.1, L1.2, L2.4, L2.5, L2.6, L4.13), well-formed types (records L4.12,
// components L4.13, enum references L2.6), values used only inside their own function (runtime
// captures are explicit parameters, L1.3), no recursion through calls or symbol attributes
// (L1.3); then the whole-function rules of core_rules.h (L2.2, L2.6, L5.1).
#include <set>

#include "kir/verify/context.h"
#include "kir/verify/core_rules.h"
#include "kir/verify/core_util.h"

namespace kir::verify {

using namespace core;

namespace {

// Types are well formed: records non-empty with unique fields, aggregate components are
// scalars/tensors/tuples/records, enum types name a declared enum.
void check_type(Context& cx, const Location& loc, const std::string& where, const Type& t) {
  if (!t) return cx.error(loc, "L4.13", where + " has no type");
  switch (t.kind()) {
    case TypeKind::Enum:
      if (!cx.module.find_enum(t.enum_name()))
        cx.error(loc, "L2.6", where + ": enum @" + t.enum_name() + " is not defined");
      return;
    case TypeKind::Tuple:
      for (size_t i = 0; i < t.elements().size(); ++i) {
        const Type& e = t.elements()[i];
        if (!(e.is_scalar() || e.is_tensor() || e.is(TypeKind::Tuple) || e.is(TypeKind::Record)))
          return cx.error(loc, e.is(TypeKind::Enum) ? "L2.6" : "L4.13",
                          where + ": tuple component " + std::to_string(i) + " must be a scalar, tensor, tuple or record, got " + ty(e));
        check_type(cx, loc, where, e);
      }
      return;
    case TypeKind::Record: {
      if (t.fields().empty()) return cx.error(loc, "L4.12", where + ": a record has at least one field");
      std::set<std::string> names;
      for (const auto& [n, e] : t.fields()) {
        if (!names.insert(n).second) return cx.error(loc, "L4.12", where + ": duplicate record field '" + n + "'");
        if (!(e.is_scalar() || e.is_tensor() || e.is(TypeKind::Tuple) || e.is(TypeKind::Record)))
          return cx.error(loc, e.is(TypeKind::Enum) ? "L2.6" : "L4.13",
                          where + ": record field '" + n + "' must be a scalar, tensor, tuple or record, got " + ty(e));
        check_type(cx, loc, where, e);
      }
      return;
    }
    default:
      return;
  }
}

void check_symbols(Context& cx) {
  std::set<std::string> seen;
  for (const auto& e : cx.module.enums)
    if (!seen.insert(e.name).second) cx.error(e.loc, "L1.1", "redefinition of symbol @" + e.name);
  for (const auto& f : cx.module.functions)
    if (f && !seen.insert(f->name).second) cx.error(f->loc, "L1.1", "redefinition of symbol @" + f->name);
}

void check_enum_decls(Context& cx) {
  for (const auto& e : cx.module.enums) {
    if (e.members.empty()) {
      cx.error(e.loc, "L2.6", "enum @" + e.name + " is empty; an enum has at least one member");
      continue;
    }
    std::set<std::string> names;
    std::set<int64_t> values;
    for (const auto& [n, v] : e.members) {
      if (!names.insert(n).second) cx.error(e.loc, "L2.6", "enum @" + e.name + " has duplicate member name '" + n + "'");
      if (!values.insert(v).second)
        cx.error(e.loc, "L2.6", "enum @" + e.name + " has duplicate member value " + std::to_string(v) + " ('" + n + "')");
    }
  }
}

void check_default(Context& cx, const Function& f, const Value& p) {
  if (!p.default_value) return;
  std::string where = "parameter %" + p.name + " of @" + f.name;
  if (!p.is_constexpr) return cx.error(p.loc, "L2.5", where + ": only constexpr parameters have default values");
  const Attribute& a = *p.default_value;
  if (p.type.is(TypeKind::Enum)) {
    if (a.kind != Attribute::Kind::EnumMember || a.s != p.type.enum_name())
      return cx.error(p.loc, "L2.6", where + ": the default must be a member of @" + p.type.enum_name() + ", got " + a.str());
    const EnumDecl* e = cx.module.find_enum(a.s);
    bool found = false;
    if (e)
      for (const auto& m : e->members) found = found || m.first == a.member;
    if (!found) cx.error(p.loc, "L2.6", where + ": @" + a.s + " has no member '" + a.member + "'");
    return;
  }
  if (!p.type.is_scalar()) return;
  DType d = p.type.dtype();
  bool ok = d == DType::Bool ? a.kind == Attribute::Kind::Bool
            : is_integer(d)  ? a.kind == Attribute::Kind::Int
                             : a.kind == Attribute::Kind::Float;
  if (!ok) cx.error(p.loc, "L2.5", where + ": default " + a.str() + " is not a " + ty(p.type) + " value");
}

// The default invocation (docs/kir-text.md): each key an extent symbol of a view parameter, each
// value a non-negative integer extent.
void check_invocation(Context& cx, const Function& f) {
  std::set<std::string> symbols;
  for (const Value* p : f.params())
    if (p && p->type.is(TypeKind::View))
      for (const Extent& e : p->type.shape())
        for (const auto& s : e.symbols())
          if (s.empty() || s[0] != '%') symbols.insert(s);
  for (const auto& [k, v] : f.invocation) {
    std::string where = "invocation of kernel @" + f.name + ": ";
    if (!symbols.count(k)) {
      std::string known;
      for (const auto& s : symbols) known += (known.empty() ? "" : ", ") + s;
      cx.error(f.loc, "invocation", where + "'" + k + "' is no extent symbol of a view parameter (they are: " +
                                        (known.empty() ? "none" : known) + ")");
    } else if (!v.is_int() || v.i < 0 || v.i > (int128{1} << 31)) {
      cx.error(f.loc, "invocation", where + "'" + k + " = " + v.str() + "' is not an extent (an integer in [0, 2^31])");
    }
  }
}

// The fixed params (docs/kir-text.md): unique names, values built from integers, floats, bools,
// strings and lists, a keyword being `none` or an extent symbol of a view parameter (L2.5: the
// clause states what a specialized kernel variant hard-codes).
bool fixes_value_ok(const Attribute& a, const std::set<std::string>& symbols, std::string& bad) {
  switch (a.kind) {
    case Attribute::Kind::Bool: case Attribute::Kind::Int: case Attribute::Kind::Float: case Attribute::Kind::String: return true;
    case Attribute::Kind::Keyword:
      if (a.s == "none" || symbols.count(a.s)) return true;
      bad = "'" + a.s + "' is neither none nor an extent symbol of a view parameter";
      return false;
    case Attribute::Kind::List:
      for (const auto& x : a.list)
        if (!fixes_value_ok(x, symbols, bad)) return false;
      return true;
    case Attribute::Kind::Symbol: case Attribute::Kind::EnumMember: break;
  }
  bad = a.str() + " is no param value (integers, floats, bools, strings, none, extent symbols and lists of them)";
  return false;
}

void check_fixes(Context& cx, const Function& f) {
  std::set<std::string> symbols, seen, params;
  for (const Value* p : f.params()) {
    if (!p) continue;
    params.insert(p->name);
    if (p->type.is(TypeKind::View))
      for (const Extent& e : p->type.shape())
        for (const auto& s : e.symbols())
          if (s.empty() || s[0] != '%') symbols.insert(s);
  }
  for (const auto& [k, v] : f.fixes) {
    std::string where = "fixes of kernel @" + f.name + ": '" + k + "'";
    std::string bad;
    if (!seen.insert(k).second) cx.error(f.loc, "L2.5", where + " is fixed twice");
    else if (params.count(k)) cx.error(f.loc, "L2.5", where + " is also a parameter %" + k + "; a kernel either takes a param or fixes it");
    else if (!fixes_value_ok(v, symbols, bad)) cx.error(f.loc, "L2.5", where + ": " + bad);
  }
}

void check_kernel_signature(Context& cx, const Function& f) {
  if (!f.result_types.empty())
    cx.error(f.loc, "L1.1", "kernel @" + f.name + " declares results: a kernel has no host-visible return; write "
                            "results through Out/InOut views");
  for (const Value* p : f.params()) {
    if (!p) continue;
    std::string where = "parameter %" + p->name + " of kernel @" + f.name;
    const Type& t = p->type;
    check_type(cx, p->loc, where, t);
    if (!t) continue;
    if (t.is(TypeKind::Enum)) {
      if (!p->is_constexpr)
        cx.error(p->loc, "L2.6", where + " is a runtime enum; enum parameters are constexpr (never runtime, never in the ABI)");
    } else if (t.is_scalar()) {
      if (p->is_constexpr && !(t.dtype() == DType::Bool || is_integer(t.dtype())))
        cx.error(p->loc, "L2.5", where + ": a constexpr is a bool, integer or enum, got " + ty(t));
    } else if (t.is(TypeKind::View)) {
      if (p->is_constexpr) cx.error(p->loc, "L2.5", where + ": a view is a runtime parameter, not constexpr");
    } else if (t.is_tensor()) {
      cx.error(p->loc, "L2.4", where + " is a tensor value; a kernel takes tensors as In/Out/InOut views and scalars as "
                                       "runtime dtype scalars");
    } else {
      cx.error(p->loc, "L4.13", where + " has type " + ty(t) + "; kernel parameters are views, runtime scalars or "
                                        "constexpr values (tuples, records, buffers, domains and relations are not)");
    }
    check_default(cx, f, *p);
  }
  check_invocation(cx, f);
  check_fixes(cx, f);
}

void check_helper_signature(Context& cx, const Function& f) {
  if (!f.invocation.empty())
    cx.error(f.loc, "invocation", "helper @" + f.name + " has an invocation; only kernels are invoked");
  if (!f.fixes.empty())
    cx.error(f.loc, "L2.5", "helper @" + f.name + " fixes params; only a kernel fixes the manifest params it specializes");
  for (size_t i = 0; i < f.result_types.size(); ++i) {
    const Type& t = f.result_types[i];
    std::string where = "result " + std::to_string(i) + " of @" + f.name;
    check_type(cx, f.loc, where, t);
    if (t.is(TypeKind::Enum))
      cx.error(f.loc, "L2.6", where + " is an enum; enum values are constexpr, not helper results");
    else if (t && !(t.is_scalar() || t.is_tensor() || t.is(TypeKind::Tuple) || t.is(TypeKind::Record)))
      cx.error(f.loc, "L1.2", where + " has type " + ty(t) + "; a helper returns scalars, tensors, tuples or records");
  }
  for (const Value* p : f.params()) {
    if (!p) continue;
    std::string where = "parameter %" + p->name + " of @" + f.name;
    check_type(cx, p->loc, where, p->type);
    if (p->type.is(TypeKind::Enum) && !p->is_constexpr)
      cx.error(p->loc, "L2.6", where + " is a runtime enum; enum parameters are constexpr");
    else if (p->is_constexpr && !p->type.is(TypeKind::Enum) &&
             !(p->type.is_scalar() && (p->type.dtype() == DType::Bool || is_integer(p->type.dtype()))))
      cx.error(p->loc, "L2.5", where + ": a constexpr is a bool, integer or enum, got " + ty(p->type));
    check_default(cx, f, *p);
  }
  const Operation* last = f.body.ops.empty() ? nullptr : f.body.ops.back().get();
  if (!last || last->name != "return")
    cx.error(f.loc, "L1.2", "helper @" + f.name + " must end with return(...)");
}

// Every operand is a value of the same function, defined (parser-built modules guarantee this;
// builder-built ones may not); a value of another function is an implicit runtime capture.
void check_values(Context& cx, const Function& f) {
  std::set<const Value*> defined;
  for (const auto& a : f.body.args) defined.insert(a.get());
  walk(f.body, [&](const Operation& op) {
    for (const auto& r : op.results) defined.insert(r.get());
    for (const auto& sub : op.regions)
      for (const auto& a : sub->args) defined.insert(a.get());
  });
  walk(f.body, [&](const Operation& op) {
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const Value* v = op.operands[i];
      if (!v) {
        cx.error(op, "L1.4", "operand " + std::to_string(i) + " is missing");
      } else if (!defined.count(v)) {
        cx.error(op, "L1.3", "operand %" + v->name + " is not a value of @" + f.name +
                                 "; runtime captures must be explicit parameters");
      } else if (!v->type) {
        cx.error(op, "L1.4", "operand %" + v->name + " has no type");
      }
    }
    for (const auto& r : op.results) {
      if (!r || !r->type) {
        cx.error(op, "L1.4", "a result has no type");
        continue;
      }
      check_type(cx, op.loc, "result of op '" + op.name + "'", r->type);
    }
    for (const auto& sub : op.regions)
      for (const auto& a : sub->args)
        if (a) check_type(cx, op.loc, "region argument %" + a->name + " of op '" + op.name + "'", a->type);
  });
}

// Recursion, direct or mutual, through `call` or any @symbol attribute (combine = @f, ...).
// Depth-first with an explicit stack: a chain of thousands of helpers (@f0 calls @f1 calls ...)
// must not exhaust the native stack.
struct RecursionCheck {
  Context& cx;
  std::map<const Function*, int> color;  // 0 unvisited, 1 on stack, 2 done
  std::vector<const Function*> stack;

  using Edges = std::vector<std::pair<const Operation*, const Function*>>;
  // The helpers `f` names, with the naming op, in walk order.
  Edges edges(const Function* f) {
    Edges out;
    walk(f->body, [&](const Operation& op) {
      for (const auto& [key, a] : op.attrs) {
        if (a.kind != Attribute::Kind::Symbol) continue;
        const Function* g = cx.module.find_function(a.s);
        if (!g || g->is_kernel()) continue;  // undefined symbols / kernel launches: the op's own check
        out.emplace_back(&op, g);
      }
    });
    return out;
  }

  void visit(const Function* root) {
    struct Entry {
      const Function* f;
      Edges edges;
      size_t next = 0;
    };
    std::vector<Entry> work;
    auto enter = [&](const Function* f) {
      color[f] = 1;
      stack.push_back(f);
      work.push_back({f, edges(f), 0});
    };
    enter(root);
    while (!work.empty()) {
      if (work.back().next == work.back().edges.size()) {
        color[work.back().f] = 2;
        stack.pop_back();
        work.pop_back();
        continue;
      }
      const auto [op, g] = work.back().edges[work.back().next++];
      if (color[g] == 1) {
        std::string path;
        bool on = false;
        for (const Function* s : stack) {
          on = on || s == g;
          if (on) path += "@" + s->name + " -> ";
        }
        cx.error(*op, "L1.3", "recursion is not allowed: " + path + "@" + g->name);
      } else if (color[g] == 0) {
        enter(g);
      }
    }
  }
};

}  // namespace

void verify_module_rules(Context& cx) {
  check_symbols(cx);
  check_enum_decls(cx);
  for (const auto& f : cx.module.functions) {
    if (!f) continue;
    cx.function = f.get();
    if (f->is_kernel()) check_kernel_signature(cx, *f);
    else check_helper_signature(cx, *f);
    check_values(cx, *f);
  }
  RecursionCheck rec{cx, {}, {}};
  for (const auto& f : cx.module.functions)
    if (f && rec.color[f.get()] == 0) rec.visit(f.get());
  cx.function = nullptr;
  check_enum_uses(cx);
  check_out_reads(cx);
  check_parallel_conflicts(cx);
}

}  // namespace kir::verify
