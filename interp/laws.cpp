// Law checking of region_fold (seed section 9.1, issue 4 item 3, checklist L9.3) and the
// machinery it shares with region_scan (laws.h, scan_laws.cpp). While law checking is active
// (Interpreter::check_region_fold_laws, Options::check_laws), every executed region_fold is also
// evaluated under segmentation per element, the two-segment splits 1 + (n-1) and (n-1) + 1, and
// seeded random splits (segment summaries combined left to right), each compared with the whole
// segmentation; combine(identity, s) and combine(s, identity) are compared with s for every
// one-element segment. When a segmentation disagrees, adjacent segment pairs [a, m) ++ [m, b) are
// searched by increasing length b - a for the smallest one where summarize(A ++ B) !=
// combine(summarize A, summarize B) (within a budget of summarize calls; past it the disagreeing
// segmentation itself is reported).
// The two sides of a law are compared under the numerics contract (issue 11 item 6): elements
// with the same bits are equal (float zeros of either sign, and NaNs, too); elements whose bits
// differ are equal when the enclosures of both sides (envelope_log_enclosure.h: intervals
// containing the exact real value and every value a legal reassociation of the sums gives)
// have a value in common. Exact results (integers, bools, min/max of exact values, float
// operations whose exact result is representable) have single-point enclosures, so they are
// still compared bit for bit. A helper with an
// op the enclosures do not cover makes that execution compare bit for bit, and says so.
#include "interp/laws.h"

#include <sstream>

#include "interp/tree.h"
#include "numerics/format.h"
#include "numerics/value_text.h"

namespace kir::interp {
namespace laws {
namespace {

uint64_t mix(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One element: the same bits, or (floats) two zeros of either sign or two NaNs: the laws' "=="
// is value equality, and an identity +0 of a float sum is neutral for -0 in that sense.
bool same_elem(DType d, uint64_t x, uint64_t y) {
  if (x == y) return true;
  if (!is_any_float(d)) return false;
  const num::FpClass cx = num::classify(x, d), cy = num::classify(y, d);
  return cx == cy && (cx == num::FpClass::Zero || cx == num::FpClass::NaN);
}

}  // namespace

bool same_value(const Value& a, const Value& b) {
  if (a.v.index() != b.v.index()) return false;
  if (a.is_scalar()) return a.scalar().dtype == b.scalar().dtype && same_elem(a.scalar().dtype, a.scalar().bits, b.scalar().bits);
  if (a.is_tensor()) {
    const Tensor &ta = a.tensor(), &tb = b.tensor();
    if (ta.dtype != tb.dtype || ta.shape != tb.shape || ta.bits.size() != tb.bits.size()) return false;
    for (size_t i = 0; i < ta.bits.size(); ++i)
      if (!same_elem(ta.dtype, ta.bits[i], tb.bits[i])) return false;
    return true;
  }
  if (a.is_tuple() || a.is_record()) {
    const auto& ea = a.is_tuple() ? a.tuple().elems : a.record().elems;
    const auto& eb = b.is_tuple() ? b.tuple().elems : b.record().elems;
    if (ea.size() != eb.size()) return false;
    for (size_t i = 0; i < ea.size(); ++i)
      if (!same_value(ea[i], eb[i])) return false;
    return true;
  }
  return summarize(a) == summarize(b);
}

std::string brief(const Value& v) {
  if (v.is_tensor() && v.tensor().size() > 8)
    return std::string(name(v.tensor().dtype)) + shape_str(v.tensor().shape) + " (" + std::to_string(v.tensor().size()) + " elements)";
  if (v.is_tuple() || v.is_record()) {
    const auto& el = v.is_tuple() ? v.tuple().elems : v.record().elems;
    std::string s = v.is_tuple() ? "tuple(" : "record(";
    for (size_t i = 0; i < el.size(); ++i) s += (i ? ", " : "") + (v.is_record() ? v.record().names[i] + ": " : "") + brief(el[i]);
    return s + ")";
  }
  return summarize(v);
}

namespace {

// The value of an element as a double (integers beyond 2^53 rounded: they only widen an enclosure).
double exact_double(Scalar x) {
  if (x.dtype == DType::Bool) return x.bits ? 1 : 0;
  if (is_any_float(x.dtype)) return num::to_double(x.bits, x.dtype);
  return is_signed_integer(x.dtype) ? static_cast<double>(num::as_signed(x)) : static_cast<double>(x.bits);
}

// The differing elements of two sides, leaf by leaf.
struct Differ {
  int64_t differing = 0, compared = 0;
  bool structure = false;  // the sides differ in kind, dtype or shape
  std::vector<std::string> shown;

  // Leaves a, b (enclosures ea, eb or null) at component `path` (".1", ".x", "" for the whole).
  void leaves(const Value& a, const Value& b, const Enclosure* ea, const Enclosure* eb, const std::string& path) {
    if ((a.is_tuple() && b.is_tuple()) || (a.is_record() && b.is_record())) {
      const auto& xa = a.is_tuple() ? a.tuple().elems : a.record().elems;
      const auto& xb = b.is_tuple() ? b.tuple().elems : b.record().elems;
      if (xa.size() != xb.size()) {
        structure = true;
        return;
      }
      const bool sub = ea && eb && ea->elems.size() == xa.size() && eb->elems.size() == xa.size();
      for (size_t i = 0; i < xa.size(); ++i)
        leaves(xa[i], xb[i], sub ? &ea->elems[i] : nullptr, sub ? &eb->elems[i] : nullptr,
               path + "." + (a.is_record() ? a.record().names[i] : std::to_string(i)));
      return;
    }
    const bool sa = a.is_scalar(), sb = b.is_scalar();
    if (!(sa || a.is_tensor()) || !(sb || b.is_tensor()) || sa != sb) {
      if (!same_value(a, b)) structure = true;
      return;
    }
    const DType d = sa ? a.scalar().dtype : a.tensor().dtype;
    if (d != (sb ? b.scalar().dtype : b.tensor().dtype) || (!sa && a.tensor().shape != b.tensor().shape)) {
      structure = true;
      return;
    }
    const int64_t n = sa ? 1 : a.tensor().size();
    const bool enc = ea && eb && ea->kind == Enclosure::Kind::Numeric && eb->kind == Enclosure::Kind::Numeric &&
                     ea->el.size() == static_cast<size_t>(n) && eb->el.size() == static_cast<size_t>(n);
    for (int64_t i = 0; i < n; ++i) {
      ++compared;
      const Scalar x = sa ? a.scalar() : a.tensor().at(i), y = sb ? b.scalar() : b.tensor().at(i);
      if (same_elem(d, x.bits, y.bits)) continue;
      enclosure::Interval ia, ib;
      if (enc) {  // each enclosure widened by the interpreter's own value
        ia = ea->el[static_cast<size_t>(i)].hull(enclosure::Interval::point(exact_double(x)));
        ib = eb->el[static_cast<size_t>(i)].hull(enclosure::Interval::point(exact_double(y)));
        if (ia.meets(ib)) continue;
      }
      ++differing;
      if (shown.size() >= kShownElements) continue;
      std::string where = path.empty() ? "" : "component " + path.substr(1);
      if (!sa) where += (where.empty() ? "element " : " element ") + coord_str(unravel(i, a.tensor().shape));
      if (where.empty()) where = "the value";
      std::string s = where + ": " + num::format_value(x) + " vs " + num::format_value(y);
      if (enc) s += ", enclosures " + enclosure::str(ia) + " and " + enclosure::str(ib) + " do not meet";
      shown.push_back(s);
    }
  }
};

}  // namespace

std::string range_str(int64_t b, int64_t e) { return "[" + std::to_string(b) + ", " + std::to_string(e) + ")"; }

std::string seg_str(const Segments& segs) {
  std::string s;
  for (const auto& [b, e] : segs) s += (s.empty() ? "" : " ") + range_str(b, e);
  return s;
}

std::vector<Segmentation> segmentations(int64_t n, uint64_t seed, uint64_t salt, int splits) {
  std::vector<Segmentation> out;
  Segmentation per{"per-element segmentation", {}};
  for (int64_t k = 0; k < n; ++k) per.segs.push_back({k, k + 1});
  out.push_back(std::move(per));
  if (n >= 3)
    for (int64_t cut : {int64_t{1}, n - 1}) out.push_back({"two-segment split", {{0, cut}, {cut, n}}});
  uint64_t state = seed ^ (salt * 0xD1B54A32D192ED03ull);
  for (int t = 0; t < splits && n > 1; ++t) {
    Segmentation s{"random segmentation (seed " + std::to_string(seed) + ", split " + std::to_string(t) + ")", {}};
    int64_t b = 0;
    while (b < n) {
      int64_t len = 1 + static_cast<int64_t>(mix(state) % static_cast<uint64_t>(n - b));
      if (b == 0 && len == n) len = 1 + static_cast<int64_t>(mix(state) % static_cast<uint64_t>(n - 1));  // at least two segments
      s.segs.push_back({b, b + len});
      b += len;
    }
    out.push_back(std::move(s));
  }
  return out;
}

LawCheck::LawCheck(Engine& e, const Operation& o, LawReport& r, const std::vector<Value>& sources,
                   const std::vector<Value>& captures, int64_t ax, int64_t count)
    : E(e), op(o), report(r), axis(ax), n(count), sources_(sources), captures_(captures),
      summarize_fn_(e.helper(o, "summarize")), combine_fn_(e.helper(o, "combine")), single_(static_cast<size_t>(count)),
      eval_(e.module) {}

std::vector<Enclosure> LawCheck::esource_args(int64_t b, int64_t e) {
  if (!esources_) {
    std::vector<Enclosure> all;
    for (const auto& s : sources_) all.push_back(enclosure::of(s));
    esources_ = std::move(all);
  }
  std::vector<Enclosure> args;
  for (const auto& s : *esources_) args.push_back(enclosure::slice_range(s, axis, b, e));
  return args;
}

const std::vector<Enclosure>& LawCheck::ecaptures() {
  if (!ecaptures_) {
    std::vector<Enclosure> all;
    for (const auto& c : captures_) all.push_back(enclosure::of(c));
    ecaptures_ = std::move(all);
  }
  return *ecaptures_;
}

Enclosure LawCheck::esumm(int64_t b, int64_t e) {
  auto it = esumm_.find({b, e});
  if (it != esumm_.end()) return it->second;
  std::vector<Enclosure> args = esource_args(b, e);
  const auto& caps = ecaptures();
  args.insert(args.end(), caps.begin(), caps.end());
  Enclosure s = eval_.call(summarize_fn_, args).at(0);
  esumm_.emplace(std::make_pair(b, e), s);
  return s;
}

Enclosure LawCheck::ecomb(const Enclosure& a, const Enclosure& b) { return eval_.call(combine_fn_, {a, b}).at(0); }

Verdict LawCheck::compare(const Side& a, const Side& b) {
  if (same_value(a.value, b.value)) return {};
  std::optional<Enclosure> ea, eb;
  if (bitwise_.empty()) {
    try {
      ea = a.enclose();
      eb = b.enclose();
    } catch (const enclosure::Unsupported& u) {
      bitwise_ = u.what();
      ea.reset();
      eb.reset();
    }
  }
  Differ d;
  d.leaves(a.value, b.value, ea ? &*ea : nullptr, eb ? &*eb : nullptr, "");
  if (!d.structure && d.differing == 0) return {};
  Verdict v{false, ""};
  if (d.structure) {
    v.detail = "the two sides differ in structure, dtype or shape";
    return v;
  }
  v.detail = std::to_string(d.differing) + " of " + std::to_string(d.compared) + " elements differ";
  v.detail += bitwise_.empty() ? " beyond their enclosures" : " (compared bit for bit: " + bitwise_ + ")";
  for (size_t i = 0; i < d.shown.size(); ++i) v.detail += (i ? "; " : ": ") + d.shown[i];
  if (d.differing > static_cast<int64_t>(d.shown.size())) v.detail += "; ...";
  return v;
}

std::vector<Value> LawCheck::source_args(int64_t b, int64_t e) const {
  std::vector<Value> args;
  for (const auto& s : sources_) args.push_back(slice_range(s, axis, b, e));
  return args;
}

Value LawCheck::summ(int64_t b, int64_t e) {
  const bool one = e == b + 1;
  if (one && !single_[static_cast<size_t>(b)].empty()) return single_[static_cast<size_t>(b)];
  std::vector<Value> args = source_args(b, e);
  args.insert(args.end(), captures_.begin(), captures_.end());
  Value s = E.call_function(summarize_fn_, args, op).at(0);
  if (one) single_[static_cast<size_t>(b)] = s;
  return s;
}

Value LawCheck::comb(const Value& a, const Value& b) { return E.call_function(combine_fn_, {a, b}, op).at(0); }

bool LawCheck::reported(const std::string& law) const {
  for (const auto& v : report.violations)
    if (v.law == law && v.op_location == op.loc.str()) return true;
  return false;
}

void LawCheck::add(const std::string& law, Segments segs, const std::string& detail) {
  if (reported(law)) return;
  report.violations.push_back({law, op.loc.str(), std::move(segs), detail, op.name});
}

void LawCheck::check_summary_laws(const Value& identity) {
  auto eid = [&] { return enclosure::of(identity); };
  // Identity neutrality on every one-element segment.
  for (int64_t k = 0; k < n; ++k) {
    const Value s = summ(k, k + 1);
    const Verdict v = compare({comb(identity, s), [&] { return ecomb(eid(), esumm(k, k + 1)); }}, {s, [&] { return esumm(k, k + 1); }});
    if (!v.equal) {
      add("left identity", {{k, k + 1}},
          "combine(identity, s) = " + brief(comb(identity, s)) + " but s = summarize(" + range_str(k, k + 1) + ") = " + brief(s) + ": " + v.detail);
      break;
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const Value s = summ(k, k + 1);
    const Verdict v = compare({comb(s, identity), [&] { return ecomb(esumm(k, k + 1), eid()); }}, {s, [&] { return esumm(k, k + 1); }});
    if (!v.equal) {
      add("right identity", {{k, k + 1}},
          "combine(s, identity) = " + brief(comb(s, identity)) + " but s = summarize(" + range_str(k, k + 1) + ") = " + brief(s) + ": " + v.detail);
      break;
    }
  }

  // Segmentations against the whole.
  const Side whole{summ(0, n), [&] { return esumm(0, n); }};
  std::string seen;
  Segments bad;
  for (const auto& sg : segmentations(n, E.law_seed, salt(), E.law_splits)) {
    Value acc = summ(sg.segs[0].first, sg.segs[0].second);
    for (size_t i = 1; i < sg.segs.size(); ++i) acc = comb(acc, summ(sg.segs[i].first, sg.segs[i].second));
    const Verdict v = compare({acc, [&] {
                                 Enclosure e = esumm(sg.segs[0].first, sg.segs[0].second);
                                 for (size_t i = 1; i < sg.segs.size(); ++i) e = ecomb(e, esumm(sg.segs[i].first, sg.segs[i].second));
                                 return e;
                               }},
                              whole);
    if (!v.equal) {
      bad = sg.segs;
      seen = "; the " + sg.name + " " + seg_str(sg.segs) + " gives " + brief(acc) + " instead of the whole " + brief(whole.value) + " (" +
             v.detail + ")";
      break;
    }
  }
  if (bad.empty()) return;
  // Smallest adjacent pair showing the break.
  int64_t budget = kSearchBudget;
  for (int64_t len = 2; len <= n && budget > 0; ++len) {
    for (int64_t a = 0; a + len <= n && budget > 0; ++a) {
      const Value ab = summ(a, a + len);
      --budget;
      for (int64_t m = a + 1; m < a + len && budget > 0; ++m) {
        const Value c = comb(summ(a, m), summ(m, a + len));
        budget -= 2;
        const Verdict v = compare({ab, [&] { return esumm(a, a + len); }}, {c, [&] { return ecomb(esumm(a, m), esumm(m, a + len)); }});
        if (!v.equal) {
          std::ostringstream d;
          d << "summarize(" << range_str(a, a + len) << ") = " << brief(ab) << " but combine(summarize(" << range_str(a, m)
            << "), summarize(" << range_str(m, a + len) << ")) = " << brief(c) << ": " << v.detail << seen;
          add("homomorphism", {{a, m}, {m, a + len}}, d.str());
          return;
        }
      }
    }
  }
  add("homomorphism", bad, "no pair of adjacent segments within the search budget shows it" + seen);
}

}  // namespace laws

std::string LawReport::str() const {
  if (violations.empty())
    return "ok (" + std::to_string(folds_checked) + " region_fold and " + std::to_string(scans_checked) + " region_scan executions checked)";
  std::string s;
  for (const auto& v : violations)
    s += v.op_location + ": " + v.op + " breaks the " + v.law + " law on segments " + (v.segments.empty() ? "(none)" : laws::seg_str(v.segments)) +
         ": " + v.detail + "\n";
  return s;
}

void Engine::check_fold_laws(const Operation& op, const std::vector<Value>& sources, const Value& identity,
                             const std::vector<Value>& captures, int64_t axis, int64_t n) {
  laws::Suspend suspend(*this);
  ++suspend.report().folds_checked;
  laws::LawCheck check(*this, op, suspend.report(), sources, captures, axis, n);
  check.check_summary_laws(identity);
}

}  // namespace kir::interp
