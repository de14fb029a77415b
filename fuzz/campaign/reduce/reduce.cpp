// The KIR reducer's driver (reduce.h): the greedy fixpoint over the passes of passes.cpp.
#include "fuzz/campaign/reduce/reduce.h"

#include <array>
#include <chrono>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "fuzz/campaign/reduce/passes.h"
#include "fuzz/campaign/reduce/rewrite.h"
#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"

namespace kir::fuzz {
using namespace reduce_detail;

int count_ops(const Module& m) {
  int n = 0;
  for (const auto& f : m.functions) walk(f->body, [&](const Operation&) { ++n; });
  return n;
}

KernelArgs copy_args(const KernelArgs& a) {
  KernelArgs out;
  std::unordered_map<const interp::Storage*, std::shared_ptr<interp::Storage>> copies;  // keeps aliasing
  for (const auto& [name, arg] : a) {
    const auto* h = std::get_if<interp::HostView>(&arg);
    if (!h || !h->storage) {
      out[name] = arg;
      continue;
    }
    auto& s = copies[h->storage.get()];
    if (!s) {
      s = std::make_shared<interp::Storage>();
      s->dtype = h->storage->dtype;
      s->bits = h->storage->bits;
      s->defined = h->storage->defined;
    }
    interp::HostView c = *h;
    c.storage = s;
    out[name] = c;
  }
  return out;
}

bool reshape_args(const Function& kernel, const KernelArgs& args, const std::map<std::string, int64_t>& dims,
                  KernelArgs& out) {
  out = args;
  auto lookup = [&](const std::string& s) -> std::optional<int64_t> {
    auto it = dims.find(s);
    return it == dims.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  for (const Value* p : kernel.params()) {
    if (!p->type.is(TypeKind::View)) continue;
    auto it = args.find(p->name);
    if (it == args.end() || !std::holds_alternative<interp::HostView>(it->second)) continue;
    const interp::HostView& h = std::get<interp::HostView>(it->second);
    auto shape = interp::param_shape(*p, dims);
    if (!shape || shape->size() != h.shape.size()) return false;
    if (*shape == h.shape) continue;
    for (size_t i = 0; i < shape->size(); ++i)
      if ((*shape)[i] < 0 || (*shape)[i] > h.shape[i]) return false;
    const interp::Shape old_strides = h.strides.empty() ? interp::row_major_strides(h.shape) : h.strides;
    interp::Shape strides;
    if (const auto& ds = p->type.strides()) {
      for (size_t i = 0; i < ds->size(); ++i) {
        auto v = (*ds)[i].evaluate(lookup);
        strides.push_back(v ? *v : old_strides.at(i));
      }
    } else if (old_strides == interp::row_major_strides(h.shape)) {
      strides = interp::row_major_strides(*shape);
    } else {
      strides = old_strides;
    }
    if (strides.size() != shape->size()) return false;
    int64_t offset = h.offset;
    if (const auto& off = p->type.offset())
      if (auto v = off->evaluate(lookup)) offset = *v;
    int64_t numel = 1, hi = offset;
    for (size_t i = 0; i < shape->size(); ++i) {
      numel *= (*shape)[i];
      if (strides[i] < 0) return false;
      if ((*shape)[i] > 0) hi += ((*shape)[i] - 1) * strides[i];
    }
    const int64_t size = numel == 0 ? 0 : hi + 1;
    const auto& src = *h.storage;
    std::vector<uint64_t> bits(static_cast<size_t>(size), 0);
    std::vector<uint8_t> defined;
    if (!src.defined.empty()) defined.assign(static_cast<size_t>(size), 0);
    std::vector<int64_t> c(shape->size(), 0);
    for (int64_t e = 0; e < numel; ++e) {
      int64_t from = h.offset, to = offset;
      for (size_t i = 0; i < c.size(); ++i) {
        from += c[i] * old_strides[i];
        to += c[i] * strides[i];
      }
      if (from < 0 || from >= static_cast<int64_t>(src.bits.size())) return false;
      bits[static_cast<size_t>(to)] = src.bits[static_cast<size_t>(from)];
      if (!defined.empty()) defined[static_cast<size_t>(to)] = src.defined[static_cast<size_t>(from)];
      for (size_t i = c.size(); i-- > 0;) {
        if (++c[i] < (*shape)[i]) break;
        c[i] = 0;
      }
    }
    interp::HostView n = interp::make_host_view(src.dtype, interp::Shape{size}, std::move(bits));
    n.storage->defined = std::move(defined);
    n.shape = *shape;
    n.strides = strides;
    n.offset = offset;
    n.absent = h.absent;
    out[p->name] = n;
  }
  return true;
}

std::string ReduceResult::summary() const {
  std::ostringstream s;
  s << "reduced " << ops_before << " -> " << ops_after << " ops in " << steps.size() << " steps (" << candidates
    << " candidates judged, " << invalid << " invalid, " << std::fixed << std::setprecision(1) << seconds << " s"
    << (exhausted ? ", budget exhausted" : "") << ")";
  return s.str();
}

namespace {

using Measure = std::array<int64_t, 9>;

Measure measure(const Module& m, const State& st, const std::string& text) {
  Measure r{};
  for (const auto& f : m.functions) {
    walk(f->body, [&](const Operation& op) {
      r[0] += op.name == "call";
      r[1] += !is_leaf(op);
      r[2] += 1;
      r[6] += static_cast<int64_t>(op.attrs.size());
      if (op.name == "const")
        if (const Attribute* a = op.attr("value")) r[7] += const_complexity(*a);
    });
  }
  r[3] = static_cast<int64_t>(m.functions.size());
  if (const Function* k = m.find_function(st.kernel)) r[4] = static_cast<int64_t>(k->body.args.size());
  for (const auto& [s, v] : st.dims) r[5] += v;
  r[8] = static_cast<int64_t>(text.size());
  return r;
}

std::string dims_key(const std::map<std::string, int64_t>& d) {
  std::string s;
  for (const auto& [k, v] : d) s += k + "=" + std::to_string(v) + ";";
  return s;
}

std::unique_ptr<Module> load(const std::string& text, const std::string& file) {
  Diagnostics d;
  auto m = parse_module(text, file, d);
  if (!m || !verify_module(*m, d)) return nullptr;
  return m;
}

// Where a pass goes on after accepting cands[i]: the first candidate of `next` at the accepted
// candidate's place when that still has candidates, else at the first later place of `cands`
// that `next` still has; else the same index.
size_t resume_at(const std::vector<Candidate>& cands, size_t i, const std::vector<Candidate>& next) {
  auto find = [&](const std::string& a) -> std::optional<size_t> {
    if (a.empty()) return std::nullopt;
    for (size_t j = 0; j < next.size(); ++j)
      if (next[j].anchor == a) return j;
    return std::nullopt;
  };
  if (auto j = find(cands[i].anchor)) return *j;
  for (size_t k = i + 1; k < cands.size(); ++k)
    if (cands[k].anchor != cands[i].anchor)
      if (auto j = find(cands[k].anchor)) return *j;
  return std::min(i, next.size());
}

}  // namespace

ReduceResult reduce_program(const std::string& kir_text, const std::string& kernel, const KernelArgs& args,
                            const ReducePredicate& still_fails, const ReduceOptions& o) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const std::string file = "reduced.kir";
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  ReduceResult r;
  std::unique_ptr<Module> cur = load(kir_text, file);
  if (!cur) throw std::invalid_argument("reduce: the program does not parse and verify");
  const Function* k = cur->find_function(kernel);
  if (!k || !k->is_kernel()) throw std::invalid_argument("reduce: no kernel @" + kernel);
  State st;
  st.kernel = kernel;
  st.args = args;
  st.dims = interp::bind_kernel_extents(*k, args);
  std::string cur_text = print_module(*cur);
  r.kir = kir_text;
  r.args = args;
  r.dims = st.dims;
  r.ops_before = r.ops_after = count_ops(*cur);

  auto judge = [&](const Module& m, const KernelArgs& a) {
    ++r.candidates;
    try {
      return still_fails(m, copy_args(a));
    } catch (const std::exception&) {
      return false;
    }
  };
  auto out_of_budget = [&] {
    return (o.time_limit > 0 && elapsed() >= o.time_limit) || (o.max_candidates >= 0 && r.candidates >= o.max_candidates);
  };

  r.initial_fails = judge(*cur, st.args);
  if (!r.initial_fails) {
    r.seconds = elapsed();
    return r;
  }
  r.kir = cur_text;
  Measure cur_measure = measure(*cur, st, cur_text);
  std::unordered_set<std::string> tried;
  tried.insert(cur_text + dims_key(st.dims));

  // One candidate: edit a clone, drop dead code, and keep it when it is valid, smaller and still fails.
  enum class Tried { Skipped, Rejected, Accepted, Budget };
  auto attempt = [&](const std::string& pass, const std::string& what,
                     const std::function<bool(Module&, State&)>& apply) {
    std::unique_ptr<Module> m = clone(*cur);
    State s = st;
    if (!apply(*m, s)) return Tried::Skipped;
    eliminate_dead_code(*m);
    std::string text = print_module(*m);
    if (!tried.insert(text + dims_key(s.dims)).second) return Tried::Skipped;
    std::unique_ptr<Module> parsed = load(text, file);
    if (!parsed) {
      ++r.invalid;
      ++r.passes[pass].invalid;
      return Tried::Skipped;
    }
    text = print_module(*parsed);
    try {  // symbols of deleted parameters go
      s.dims = interp::bind_kernel_extents(*parsed->find_function(st.kernel), s.args);
    } catch (const std::exception&) {
      ++r.invalid;
      return Tried::Skipped;
    }
    const Measure mm = measure(*parsed, s, text);
    if (!(mm < cur_measure)) return Tried::Skipped;
    if (out_of_budget()) return Tried::Budget;
    ++r.passes[pass].judged;
    if (!judge(*parsed, s.args)) return Tried::Rejected;
    ++r.passes[pass].accepted;
    cur = std::move(parsed);
    cur_text = std::move(text);
    cur_measure = mm;
    st = std::move(s);
    ReduceStep step{pass, what, count_ops(*cur)};
    if (o.log) o.log(pass + ": " + what + " (" + std::to_string(step.ops) + " ops)");
    r.steps.push_back(std::move(step));
    return Tried::Accepted;
  };

  bool stop = attempt("dce", "dead code", [](Module&, State&) { return true; }) == Tried::Budget;
  const std::vector<Pass> passes = reduction_passes(o);
  for (bool progress = true; progress && !stop;) {
    progress = false;
    for (const Pass& p : passes) {
      std::vector<Candidate> cands = p.candidates(*cur, st);
      for (size_t i = 0; i < cands.size() && !stop;) {
        const Tried t = attempt(p.name, cands[i].what, cands[i].apply);
        if (t == Tried::Budget) {
          stop = true;
        } else if (t == Tried::Accepted) {
          progress = true;
          std::vector<Candidate> next = p.candidates(*cur, st);
          i = p.restart ? 0 : resume_at(cands, i, next);
          cands = std::move(next);
        } else {
          ++i;
        }
      }
      if (stop) break;
    }
  }
  r.exhausted = stop;
  r.kir = cur_text;
  r.args = st.args;
  r.dims = st.dims;
  r.ops_after = count_ops(*cur);
  r.seconds = elapsed();
  return r;
}

}  // namespace kir::fuzz
