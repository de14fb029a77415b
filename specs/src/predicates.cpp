// Implementations of the requires predicates (see predicates.h and docs/manifests.md).
#include "specs/src/predicates.h"

#include "specs/src/generators.h"

namespace kir::specs {
namespace {

std::vector<mpz_class> vec1(const Value& x, const std::string& who) {
  if (!x.is_seq()) throw EvalError(who + " reads a rank-1 list, got " + x.repr());
  return to_ints(x, who + " contents");
}

mpz_class int_of(const Value& v, const std::string& what) {
  if (!v.is_int()) throw EvalError(what + " must be an integer, got " + v.repr());
  return v.i;
}

bool in_range_all(const Value& x, const mpz_class& lo, const mpz_class& hi) {
  if (x.is_seq()) {
    for (const auto& y : x.seq)
      if (!in_range_all(y, lo, hi)) return false;
    return true;
  }
  if (!x.is_int()) throw EvalError("in_range: contents are not integers");
  return x.i >= lo && x.i < hi;
}

bool layout_valid(const Value& x, const std::vector<Value>& args) {
  const Value& lay = args[0];
  if (lay.t != Value::T::Adt) throw EvalError("moe.layout_valid: expected an MGroupedLayout, got " + lay.repr());
  mpz_class R = int_of(args[1], "R"), E = int_of(args[2], "E");
  auto v = vec1(x, "moe.layout_valid");
  const AdtValue& l = *lay.adt;
  auto field_int = [&](const char* f) {
    const Value* p = l.field(f);
    if (!p || !p->is_int()) throw EvalError(std::string("moe.layout_valid: layout lacks ") + f);
    return p->i;
  };
  auto field_str = [&](const char* f) {
    const Value* p = l.field(f);
    if (!p || p->t != Value::T::Str) throw EvalError(std::string("moe.layout_valid: layout lacks ") + f);
    return p->s;
  };
  if (l.ctor == "masked") {
    mpz_class m = field_int("max_m");
    if (mpz_class(static_cast<unsigned long>(v.size())) != E) return false;
    for (const auto& y : v)
      if (y < 0 || y > m) return false;
    return true;
  }
  if (l.ctor != "contiguous") throw EvalError("moe.layout_valid: unknown constructor '" + l.ctor + "'");
  bool aligned = field_str("packing") == "aligned";
  mpz_class a = field_int("alignment");
  if (a < 1) throw EvalError("moe.layout_valid: alignment must be >= 1");
  if (field_str("metadata_kind") == "per_row") {
    if (mpz_class(static_cast<unsigned long>(v.size())) != R) return false;
    mpz_class hi = E + (aligned ? 1 : 0);
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] < 0 || v[i] >= hi) return false;
      if (i > 0 && v[i] < v[i - 1]) return false;
      if (i > 0 && v[i] != v[i - 1] && mpz_class(static_cast<unsigned long>(i)) % a != 0) return false;
    }
    return true;
  }
  if (mpz_class(static_cast<unsigned long>(v.size())) != E) return false;
  if (v.empty()) return true;
  if (!aligned) {
    if (v[0] < 0) return false;
    for (size_t i = 1; i < v.size(); ++i)
      if (v[i] < v[i - 1]) return false;
    return v.back() == R;
  }
  mpz_class prev = 0;
  for (const auto& end : v) {
    mpz_class up;
    mpz_cdiv_q(up.get_mpz_t(), prev.get_mpz_t(), a.get_mpz_t());
    if (end < up * a) return false;
    prev = end;
  }
  return v.back() <= R;
}

}  // namespace

const std::vector<PredicateDef>& all_predicates() {
  static const std::vector<PredicateDef> table = {
      {"prefix_offsets", "I", 1, "non-empty, starts at 0, non-decreasing, ends at total"},
      {"max_segment", "I", 1, "every adjacent difference <= bound"},
      {"in_range", "II", -1, "every element in [lo, hi)"},
      {"sums_to", "I", 1, "sum equals total"},
      {"exclusive_prefix_of", "S", 1, "exclusive prefix sum of L"},
      {"chunk_offsets_of", "SI", 1, "prefix sum of per-segment chunk counts"},
      {"indices_within", "S", 2, "(segment, position) pairs inside the segments"},
      {"attn.paged_fits", "SI", 1, "cached + new tokens fit the capacity"},
      {"moe.layout_valid", "AII", 1, "valid metadata for the layout"},
  };
  return table;
}

const PredicateDef* find_predicate(const std::string& name) {
  for (const auto& p : all_predicates())
    if (p.name == name) return &p;
  return nullptr;
}

bool check_predicate(const std::string& name, const Value& x, const std::vector<Value>& args) {
  const PredicateDef* p = find_predicate(name);
  if (!p) throw EvalError("'" + name + "' is not a built-in requires predicate");
  if (args.size() != p->args.size())
    throw EvalError(name + "() takes " + std::to_string(p->args.size()) + " arguments, got " + std::to_string(args.size()));
  if (name == "prefix_offsets") {
    auto v = vec1(x, name);
    mpz_class total = int_of(args[0], "total");
    if (v.empty() || v[0] != 0) return false;
    for (size_t i = 1; i < v.size(); ++i)
      if (v[i] < v[i - 1]) return false;
    return v.back() == total;
  }
  if (name == "max_segment") {
    auto v = vec1(x, name);
    mpz_class bound = int_of(args[0], "bound");
    for (size_t i = 1; i < v.size(); ++i)
      if (v[i] - v[i - 1] > bound) return false;
    return true;
  }
  if (name == "in_range") return in_range_all(x, int_of(args[0], "lo"), int_of(args[1], "hi"));
  if (name == "sums_to") {
    mpz_class s = 0;
    for (const auto& y : vec1(x, name)) s += y;
    return s == int_of(args[0], "total");
  }
  if (name == "exclusive_prefix_of") {
    auto v = vec1(x, name);
    auto L = to_ints(args[0], "exclusive_prefix_of argument");
    if (v.size() != L.size()) return false;
    mpz_class s = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] != s) return false;
      s += L[i];
    }
    return true;
  }
  if (name == "chunk_offsets_of") {
    auto v = vec1(x, name);
    auto off = to_ints(args[0], "chunk_offsets_of offsets");
    mpz_class c = int_of(args[1], "chunk size");
    if (c <= 0) throw EvalError("chunk_offsets_of: chunk size must be > 0, got " + c.get_str());
    std::vector<mpz_class> expect{0};
    for (size_t i = 1; i < off.size(); ++i) {
      mpz_class len = off[i] - off[i - 1];
      if (len < 0) throw EvalError("chunk_offsets_of: offsets are decreasing");
      mpz_class q;
      mpz_cdiv_q(q.get_mpz_t(), len.get_mpz_t(), c.get_mpz_t());
      expect.push_back(expect.back() + q);
    }
    if (off.empty()) expect.clear();
    return v == expect;
  }
  if (name == "indices_within") {
    auto off = to_ints(args[0], "indices_within offsets");
    if (!x.is_seq()) throw EvalError("indices_within reads a rank-2 tensor");
    for (const auto& r : x.seq) {
      auto pair = to_ints(r, "indices_within row");
      if (pair.size() != 2) return false;
      if (pair[0] < 0 || pair[0] + 1 >= static_cast<long>(off.size())) return false;
      size_t i = pair[0].get_ui();
      if (pair[1] < 0 || pair[1] >= off[i + 1] - off[i]) return false;
    }
    return true;
  }
  if (name == "attn.paged_fits") {
    auto v = vec1(x, name);
    auto cu = to_ints(args[0], "attn.paged_fits cu");
    mpz_class cap = int_of(args[1], "capacity");
    if (cu.size() != v.size() + 1) return false;
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] + (cu[i + 1] - cu[i]) > cap) return false;
    return true;
  }
  if (name == "moe.layout_valid") return layout_valid(x, args);
  throw EvalError("'" + name + "' is not implemented");
}

}  // namespace kir::specs
