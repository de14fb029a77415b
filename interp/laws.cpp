// Law checking of region_fold (seed section 9.1, issue 4 item 3, checklist L9.3) and the
// machinery it shares with region_scan (laws.h, scan_laws.cpp). While law checking is active
// (Interpreter::check_region_fold_laws, Options::check_laws), every executed region_fold is also
// evaluated under segmentation per element, the two-segment splits 1 + (n-1) and (n-1) + 1, and
// seeded random splits (segment summaries combined left to right), each compared bit for bit
// with the whole segmentation; combine(identity, s) and combine(s, identity) are compared with s
// for every one-element segment. When a segmentation disagrees, adjacent segment pairs
// [a, m) ++ [m, b) are searched by increasing length b - a for the smallest one where
// summarize(A ++ B) != combine(summarize A, summarize B) (within a budget of summarize calls;
// past it the disagreeing segmentation itself is reported). Values are compared bit for bit,
// except that float zeros of either sign are equal, and so are NaNs.
#include "interp/laws.h"

#include <sstream>

#include "interp/tree.h"
#include "numerics/format.h"

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
      summarize_fn_(e.helper(o, "summarize")), combine_fn_(e.helper(o, "combine")), single_(static_cast<size_t>(count)) {}

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
  // Identity neutrality on every one-element segment.
  for (int64_t k = 0; k < n; ++k) {
    const Value s = summ(k, k + 1);
    Value l = comb(identity, s);
    if (!same_value(l, s)) {
      add("left identity", {{k, k + 1}}, "combine(identity, s) = " + summarize(l) + " but s = summarize(" + range_str(k, k + 1) + ") = " + summarize(s));
      break;
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const Value s = summ(k, k + 1);
    Value r = comb(s, identity);
    if (!same_value(r, s)) {
      add("right identity", {{k, k + 1}}, "combine(s, identity) = " + summarize(r) + " but s = summarize(" + range_str(k, k + 1) + ") = " + summarize(s));
      break;
    }
  }

  // Segmentations against the whole.
  const Value whole = summ(0, n);
  std::string seen;
  Segments bad;
  for (const auto& sg : segmentations(n, E.law_seed, salt(), E.law_splits)) {
    Value acc = summ(sg.segs[0].first, sg.segs[0].second);
    for (size_t i = 1; i < sg.segs.size(); ++i) acc = comb(acc, summ(sg.segs[i].first, sg.segs[i].second));
    if (!same_value(acc, whole)) {
      bad = sg.segs;
      seen = "; the " + sg.name + " " + seg_str(sg.segs) + " gives " + summarize(acc) + " instead of the whole " + summarize(whole);
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
        if (!same_value(c, ab)) {
          std::ostringstream d;
          d << "summarize(" << range_str(a, a + len) << ") = " << summarize(ab) << " but combine(summarize(" << range_str(a, m)
            << "), summarize(" << range_str(m, a + len) << ")) = " << summarize(c) << seen;
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
