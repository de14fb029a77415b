// The reduction passes (passes.h; the list is documented in reduce.h).
#include "fuzz/campaign/reduce/passes.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

#include "fuzz/campaign/reduce/rewrite.h"
#include "kir/op_registry.h"
#include "kir/text/printer.h"

namespace kir::fuzz::reduce_detail {
namespace {

std::string describe(const Operation& op) {
  std::string s = op.name;
  if (!op.results.empty()) s += " %" + op.results[0]->name;
  if (op.loc.known()) s += " (line " + std::to_string(op.loc.line) + ")";
  return s;
}

// Where a candidate acts, in terms that survive other edits: the op's first result name, or
// the op's text for an op without results.
std::string anchor_of(const Operation& op) { return op.results.empty() ? print_op(op) : "%" + op.results[0]->name; }

// A candidate acting on the op at `ref` of the clone.
Candidate on_op(OpRef ref, const Operation& at, std::string what,
                std::function<bool(Module&, Function&, Operation&, State&)> fn) {
  return {std::move(what),
          [ref, fn = std::move(fn)](Module& m, State& st) {
            Operation* op = find_op(m, ref);
            if (!op) return false;
            Function* f = function_of(m, op);
            return f && fn(m, *f, *op, st);
          },
          anchor_of(at)};
}

// ---- other kernels ----------------------------------------------------------------------------

std::vector<Candidate> other_kernels(const Module& m, const State& st) {
  std::vector<Candidate> out;
  for (const auto& f : m.functions) {
    if (!f->is_kernel() || f->name == st.kernel) continue;
    const std::string name = f->name;
    out.push_back({"delete kernel @" + name, [name](Module& mm, State&) {
                     for (size_t i = 0; i < mm.functions.size(); ++i)
                       if (mm.functions[i]->name == name) {
                         mm.functions.erase(mm.functions.begin() + static_cast<std::ptrdiff_t>(i));
                         return true;
                       }
                     return false;
                   },
                   "@" + name});
  }
  return out;
}

// ---- extents ----------------------------------------------------------------------------------

// Whether a fixed param value (kir/ir.h Function::fixes) names an extent symbol not in `syms`.
bool names_symbol_outside(const Attribute& a, const std::set<std::string>& syms) {
  if (a.kind == Attribute::Kind::Keyword) return a.s != "none" && !syms.count(a.s);
  if (a.kind != Attribute::Kind::List) return false;
  return std::any_of(a.list.begin(), a.list.end(), [&](const Attribute& x) { return names_symbol_outside(x, syms); });
}

std::vector<Candidate> extents(const Module& m, const State& st) {
  std::vector<Candidate> out;
  const Function* k = m.find_function(st.kernel);
  if (!k) return out;
  for (const auto& [sym, v] : st.dims) {
    if (v <= 0) continue;
    std::vector<int64_t> values;
    for (int64_t c : {int64_t{0}, int64_t{1}, v / 2, v - 1})
      if (c < v && std::find(values.begin(), values.end(), c) == values.end()) values.push_back(c);
    for (int64_t c : values) {
      const std::string s = sym;
      out.push_back({"extent " + s + " = " + std::to_string(v) + " -> " + std::to_string(c), [s, c](Module& mm, State& st2) {
                       Function* kk = mm.find_function(st2.kernel);
                       if (!kk) return false;
                       auto dims = st2.dims;
                       dims[s] = c;
                       KernelArgs args;
                       if (!reshape_args(*kk, st2.args, dims, args)) return false;
                       st2.args = std::move(args);
                       st2.dims = std::move(dims);
                       if (auto it = kk->invocation.find(s); it != kk->invocation.end()) it->second = Attribute::integer(c);
                       return true;
                     },
                     s});
    }
  }
  return out;
}

// ---- unwrap control flow ----------------------------------------------------------------------

Value* domain_begin(const Operation& loop) {
  if (loop.operands.empty()) return nullptr;
  const Value* d = loop.operands[0];
  if (!d->def || d->def->name != "domain" || d->def->operands.empty()) return nullptr;
  return d->def->operands[0];
}

std::vector<Candidate> unwrap(const Module& m, const State&) {
  std::vector<Candidate> out;
  for (const auto& [ref, op] : all_ops(m)) {
    const std::string d = describe(*op);
    if (op->name == "if" && op->regions.size() == 2) {
      for (size_t k = 0; k < 2; ++k)
        out.push_back(on_op(ref, *op, "if " + d + " -> its " + (k ? "else" : "then") + " branch",
                            [k](Module&, Function& f, Operation& o, State&) {
                              std::vector<Value*> y;
                              if (!splice_before(f, o, *o.regions[k], {}, {"yield"}, y)) return false;
                              replace_op(f, o, y);
                              return true;
                            }));
    } else if (op->name == "for" && op->regions.size() == 1 && !op->operands.empty()) {
      out.push_back(on_op(ref, *op, "delete loop " + d, [](Module&, Function& f, Operation& o, State&) {
        replace_op(f, o, std::vector<Value*>(o.operands.begin() + 1, o.operands.end()));
        return true;
      }));
      if (domain_begin(*op))
        out.push_back(on_op(ref, *op, "loop " + d + " -> its first iteration", [](Module&, Function& f, Operation& o, State&) {
          std::vector<Value*> args{domain_begin(o)};
          args.insert(args.end(), o.operands.begin() + 1, o.operands.end());
          std::vector<Value*> y;
          if (!splice_before(f, o, *o.regions[0], args, {"yield", "break", "continue"}, y)) return false;
          replace_op(f, o, y);
          return true;
        }));
    } else if (op->name == "while" && op->regions.size() == 2) {
      out.push_back(on_op(ref, *op, "delete loop " + d, [](Module&, Function& f, Operation& o, State&) {
        replace_op(f, o, std::vector<Value*>(o.operands.begin(), o.operands.end()));
        return true;
      }));
      for (bool once : {false, true})
        out.push_back(on_op(ref, *op, "loop " + d + (once ? " -> one iteration" : " -> its condition region only"),
                            [once](Module&, Function& f, Operation& o, State&) {
                              std::vector<Value*> v;
                              if (!splice_before(f, o, *o.regions[0], o.operands, {"condition"}, v) || v.empty())
                                return false;
                              v.erase(v.begin());
                              if (once) {
                                std::vector<Value*> w;
                                if (!splice_before(f, o, *o.regions[1], v, {"yield", "break", "continue"}, w)) return false;
                                v = w;
                              }
                              replace_op(f, o, v);
                              return true;
                            }));
    } else if (op->name == "parallel" && op->regions.size() == 1) {
      out.push_back(on_op(ref, *op, "delete " + d, [](Module&, Function&, Operation& o, State&) {
        erase_op(o);
        return true;
      }));
      if (domain_begin(*op))
        out.push_back(on_op(ref, *op, d + " -> its body at one point", [](Module&, Function& f, Operation& o, State&) {
          std::vector<Value*> y;
          if (!splice_before(f, o, *o.regions[0], {domain_begin(o)}, {"yield"}, y)) return false;
          erase_op(o);
          return true;
        }));
    }
  }
  return out;
}

// ---- delete ops whose results nothing uses (stores, atomics, calls, region ops) ---------------

std::vector<Candidate> deletions(const Module& m, const State& st) {
  std::vector<OpRef> refs;
  std::vector<std::string> names;
  std::vector<Uses> uses;
  for (const auto& f : m.functions) uses.push_back(collect_uses(*f));
  for (const auto& [ref, op] : all_ops(m)) {
    if (is_terminator(op->name)) continue;
    bool unused = true;
    for (const auto& r : op->results) unused = unused && !uses[ref.fn].used(r.get());
    if (!unused) continue;
    refs.push_back(ref);
    names.push_back(describe(*op));
  }
  std::vector<Candidate> out;
  // Chunks first (halves, quarters, ...), then one op at a time.
  const size_t n = refs.size();
  for (size_t size = n / 2; size >= 1; size /= 2) {
    for (size_t start = 0; start < n; start += size) {
      const size_t end = std::min(n, start + size);
      std::vector<OpRef> chunk(refs.begin() + static_cast<std::ptrdiff_t>(start), refs.begin() + static_cast<std::ptrdiff_t>(end));
      const std::string what =
          chunk.size() == 1 ? "delete " + names[start] : "delete " + std::to_string(chunk.size()) + " ops from " + names[start];
      out.push_back({what, [chunk](Module& mm, State&) {
                       std::vector<Operation*> ops;
                       for (const OpRef& r : chunk)
                         if (Operation* o = find_op(mm, r)) ops.push_back(o);
                       // Inner ops before the ops holding them (reverse pre-order per function).
                       for (size_t i = ops.size(); i-- > 0;) erase_op(*ops[i]);
                       return !ops.empty();
                     },
                     what});
    }
    if (size == 1) break;
  }
  // Biggest cut first: ops left after each candidate and the dead code it leaves behind.
  std::vector<std::pair<int, size_t>> order;
  for (size_t i = 0; i < out.size(); ++i) {
    std::unique_ptr<Module> c = clone(m);
    State s;
    s.kernel = st.kernel;
    int left = INT32_MAX;
    if (out[i].apply(*c, s)) {
      eliminate_dead_code(*c);
      left = count_ops(*c);
    }
    order.push_back({left, i});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Candidate> sorted;
  for (const auto& [left, i] : order) sorted.push_back(std::move(out[i]));
  return sorted;
}

// ---- inline calls -----------------------------------------------------------------------------

std::vector<Candidate> inlining(const Module& m, const State&) {
  std::vector<Candidate> out;
  for (const auto& [ref, op] : all_ops(m))
    if (op->name == "call")
      out.push_back(on_op(ref, *op, "inline " + describe(*op) + " of @" + (op->attr("callee") ? op->attr("callee")->s : "?"),
                          [](Module& mm, Function& f, Operation& o, State&) { return inline_call(mm, f, o); }));
  return out;
}

// ---- replace a result by a simpler value ------------------------------------------------------

// Sorts out[from..] by the size of the program each candidate leaves (dead code removed):
// (ops other than constants, ops); candidates that do not apply go last.
void best_first(const Module& m, const State& st, std::vector<Candidate>& out, size_t from) {
  if (out.size() - from < 2) return;
  std::vector<std::pair<std::pair<int, int>, size_t>> order;
  for (size_t i = from; i < out.size(); ++i) {
    std::unique_ptr<Module> c = clone(m);
    State s;
    s.kernel = st.kernel;
    std::pair<int, int> size{INT32_MAX, INT32_MAX};
    if (out[i].apply(*c, s)) {
      eliminate_dead_code(*c);
      size = {0, 0};
      for (const auto& f : c->functions)
        walk(f->body, [&](const Operation& o) {
          size.first += !is_leaf(o);
          ++size.second;
        });
    }
    order.push_back({size, i});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Candidate> sorted;
  for (const auto& [size, i] : order) sorted.push_back(std::move(out[i]));
  for (size_t i = 0; i < sorted.size(); ++i) out[from + i] = std::move(sorted[i]);
}

std::vector<Attribute> simple_constants(DType d, bool special) {
  if (d == DType::Bool) return {Attribute::boolean(false), Attribute::boolean(true)};
  if (is_integer(d)) return {Attribute::integer(0), Attribute::integer(1)};
  std::vector<Attribute> v{Attribute::floating(0.0), Attribute::floating(1.0)};
  if (special && is_float(d)) v.push_back(Attribute::floating(std::nan("")));
  return v;
}

// Values of type t defined before `op` in its scope (nearest first; function parameters last).
std::vector<Value*> earlier_values(const Operation& op, const Type& t, size_t max) {
  std::vector<Value*> out;
  const Operation* at = &op;
  const Region* r = op.parent;
  while (r && out.size() < max) {
    for (size_t j = op_index(*r, at); j-- > 0 && out.size() < max;)
      for (const auto& res : r->ops[j]->results)
        if (res->type == t && out.size() < max) out.push_back(res.get());
    for (size_t j = r->args.size(); j-- > 0 && out.size() < max;)
      if (r->args[j]->type == t) out.push_back(r->args[j].get());
    at = r->parent;
    r = at ? at->parent : nullptr;
  }
  return out;
}

std::vector<Candidate> replacements(const Module& m, const State& st, bool special) {
  std::vector<Candidate> out;
  size_t group_start = 0;
  for (const auto& [ref, op] : all_ops(m)) {
    if (is_leaf(*op) || is_terminator(op->name)) continue;
    for (size_t ri = 0; ri < op->results.size(); ++ri) {
      const Value* res = op->results[ri].get();
      const Type t = res->type;
      const std::string rn = "%" + res->name;
      // Constants (scalar or tensor of a dtype; enums and aggregates have none).
      if (t.is_shaped_or_scalar()) {
        for (const Attribute& c : simple_constants(t.dtype(), special)) {
          out.push_back(on_op(ref, *op, "replace " + rn + " (" + op->name + ") by " + c.str(),
                              [ri, c](Module&, Function& f, Operation& o, State&) {
                                Value* old = o.results[ri].get();
                                std::set<std::string> taken = value_names(f);
                                const std::string name = old->name;
                                old->name = fresh_name(name + "_old", taken);
                                Value* v;
                                if (old->type.is_scalar()) {
                                  v = insert_before(o, "const", {}, {{"value", c}}, old->type, name);
                                } else {
                                  Value* k = insert_before(o, "const", {}, {{"value", c}}, old->type.element(),
                                                           fresh_name(name + "_c", taken));
                                  v = insert_before(o, "full", {k}, {}, old->type, name);
                                }
                                replace_all_uses(f.body, old, v);
                                return true;
                              }));
        }
      }
      // Operands of the same type, then earlier values of that type.
      std::vector<const Value*> seen;
      const OpRef at = ref;  // copies: older compilers do not let a lambda capture structured bindings
      const Operation& at_op = *op;
      auto add_value = [&](const Value* v, const std::string& how) {
        if (v == res || std::find(seen.begin(), seen.end(), v) != seen.end()) return;
        seen.push_back(v);
        const std::string vn = v->name;
        out.push_back(on_op(at, at_op, "replace " + rn + " (" + at_op.name + ") by " + how + " %" + vn,
                            [ri, vn](Module&, Function& f, Operation& o, State&) {
                              Value* target = nullptr;
                              for (Value* x : o.operands)
                                if (x->name == vn) target = x;
                              if (!target)
                                for (Value* x : earlier_values(o, o.results[ri]->type, 64))
                                  if (x->name == vn) target = x;
                              if (!target) return false;
                              replace_all_uses(f.body, o.results[ri].get(), target);
                              return true;
                            }));
      };
      for (const Value* v : op->operands)
        if (v->type == t) add_value(v, "operand");
      for (const Value* v : earlier_values(*op, t, 3)) add_value(v, "earlier value");
      // The variants of this result, best first: fewest ops other than constants, then fewest
      // ops, once dead code is gone (a constant cuts whole chains; an existing value adds no op).
      best_first(m, st, out, group_start);
      group_start = out.size();
    }
  }
  return out;
}

// ---- unused kernel parameters -----------------------------------------------------------------

std::vector<Candidate> parameters(const Module& m, const State& st) {
  std::vector<Candidate> out;
  const Function* k = m.find_function(st.kernel);
  if (!k) return out;
  const Uses u = collect_uses(*k);
  for (const auto& p : k->body.args) {
    if (u.used(p.get())) continue;
    const std::string n = p->name;
    out.push_back({"delete unused parameter %" + n, [n](Module& mm, State& st2) {
                     Function* kk = mm.find_function(st2.kernel);
                     if (!kk) return false;
                     auto& args = kk->body.args;
                     for (size_t i = 0; i < args.size(); ++i)
                       if (args[i]->name == n) {
                         args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
                         for (size_t j = 0; j < args.size(); ++j) args[j]->index = static_cast<unsigned>(j);
                         st2.args.erase(n);
                         // The default invocation names only extents the remaining views still have.
                         std::set<std::string> syms;
                         for (const auto& a : args)
                           if (a->type.is(TypeKind::View))
                             for (const auto& e : a->type.shape())
                               for (const auto& sym : e.symbols()) syms.insert(sym);
                         for (auto it = kk->invocation.begin(); it != kk->invocation.end();)
                           it = syms.count(it->first) ? std::next(it) : kk->invocation.erase(it);
                         // So do the fixed params' extent symbols (a fix naming a gone one is dropped).
                         std::erase_if(kk->fixes, [&](const auto& fx) { return names_symbol_outside(fx.second, syms); });
                         return true;
                       }
                     return false;
                   },
                   "%" + n});
  }
  return out;
}

// ---- constants toward simple values -----------------------------------------------------------

std::vector<Attribute> simpler_values(const Attribute& a, DType d) {
  std::vector<Attribute> v;
  if (a.kind == Attribute::Kind::Bool) {
    if (a.b) v.push_back(Attribute::boolean(false));
  } else if (a.kind == Attribute::Kind::Int) {
    for (int128 c : {int128{0}, int128{1}, int128{-1}, a.i / 2, a.i > 0 ? a.i - 1 : a.i + 1, -a.i})
      v.push_back(Attribute::integer(c));
  } else if (a.kind == Attribute::Kind::Float) {
    const double f = a.f;
    std::vector<double> c{0.0, 1.0, -1.0};
    if (std::isfinite(f)) {
      c.push_back(std::trunc(f));
      c.push_back(f / 2);
      c.push_back(-f);
      c.push_back(std::round(f));
    }
    for (double x : c) v.push_back(Attribute::floating(x));
  }
  (void)d;
  const int64_t now = const_complexity(a);
  std::vector<Attribute> out;
  for (const auto& x : v)
    if (const_complexity(x) < now &&
        std::find_if(out.begin(), out.end(), [&](const Attribute& y) { return y.str() == x.str(); }) == out.end())
      out.push_back(x);
  std::stable_sort(out.begin(), out.end(),
                   [](const Attribute& x, const Attribute& y) { return const_complexity(x) < const_complexity(y); });
  return out;
}

std::vector<Candidate> constants(const Module& m, const State&) {
  std::vector<Candidate> out;
  for (const auto& [ref, op] : all_ops(m)) {
    if (op->name != "const" || op->results.size() != 1 || !op->results[0]->type.is_scalar()) continue;
    const Attribute* a = op->attr("value");
    if (!a) continue;
    for (const Attribute& c : simpler_values(*a, op->results[0]->type.dtype()))
      out.push_back(on_op(ref, *op, "constant %" + op->results[0]->name + " = " + a->str() + " -> " + c.str(),
                          [c](Module&, Function&, Operation& o, State&) {
                            o.attrs["value"] = c;
                            return true;
                          }));
  }
  return out;
}

// ---- optional attributes ----------------------------------------------------------------------

std::vector<Candidate> attributes(const Module& m, const State&) {
  std::vector<Candidate> out;
  for (const auto& [ref, op] : all_ops(m)) {
    if (op->name == "const" || op->name == "call") continue;
    for (const auto& [key, val] : op->attrs) {
      const std::string k = key;
      out.push_back(on_op(ref, *op, "drop {" + k + "} of " + describe(*op), [k](Module&, Function&, Operation& o, State&) {
        return o.attrs.erase(k) == 1;
      }));
    }
  }
  return out;
}

int bit_length(uint128 v) {
  int n = 0;
  while (v) {
    ++n;
    v >>= 1;
  }
  return n;
}

}  // namespace

int64_t const_complexity(const Attribute& a) {
  switch (a.kind) {
    case Attribute::Kind::Bool:
      return a.b ? 1 : 0;
    case Attribute::Kind::Int: {
      const bool neg = a.i < 0;
      const uint128 mag = neg ? static_cast<uint128>(-(a.i + 1)) + 1 : static_cast<uint128>(a.i);
      if (mag == 0) return 0;
      if (mag == 1) return neg ? 2 : 1;
      return 2 + bit_length(mag) + (neg ? 1 : 0);
    }
    case Attribute::Kind::Float: {
      const double f = a.f;
      if (std::isnan(f)) return 3;
      const bool neg = std::signbit(f);
      if (f == 0) return neg ? 1 : 0;
      if (f == 1) return 1;
      if (f == -1) return 2;
      if (std::isinf(f)) return 4 + (neg ? 1 : 0);
      const double mag = std::fabs(f);
      if (mag == std::trunc(mag) && mag < 1e18) return 3 + bit_length(static_cast<uint128>(mag)) + (neg ? 1 : 0);
      int e = 0;
      std::frexp(mag, &e);
      return 80 + std::abs(e) + (neg ? 1 : 0);
    }
    default:
      return 0;
  }
}

std::vector<Pass> reduction_passes(const ReduceOptions& o) {
  std::vector<Pass> p;
  p.push_back({"kernels", other_kernels});
  if (o.shrink_extents) p.push_back({"extents", extents});
  p.push_back({"unwrap", unwrap});
  p.push_back({"delete", deletions, true});
  p.push_back({"inline", inlining});
  const bool special = o.special_constants;
  p.push_back({"replace", [special](const Module& m, const State& st) { return replacements(m, st, special); }});
  p.push_back({"params", parameters});
  p.push_back({"constants", constants});
  p.push_back({"attributes", attributes});
  return p;
}

}  // namespace kir::fuzz::reduce_detail
