// Law checking of region_fold (seed section 9, issue 4 item 3, checklist L9.3). While
// Interpreter::check_region_fold_laws runs, every executed region_fold is also evaluated under
// segmentation per element, the two-segment splits 1 + (n-1) and (n-1) + 1, and seeded random
// splits (segment summaries combined left to right), each compared bit for bit with the whole
// segmentation; combine(identity, s) and combine(s, identity) are compared with s for every
// one-element segment. When a segmentation disagrees, adjacent segment pairs [a, m) ++ [m, b)
// are searched by increasing length b - a for the smallest one where summarize(A ++ B) !=
// combine(summarize A, summarize B) (within a budget of summarize calls; past it the
// disagreeing segmentation itself is reported).
#include <sstream>

#include "interp/engine.h"
#include "interp/tree.h"

namespace kir::interp {
namespace {

bool same_value(const Value& a, const Value& b) {
  if (a.v.index() != b.v.index()) return false;
  if (a.is_scalar()) return a.scalar().dtype == b.scalar().dtype && a.scalar().bits == b.scalar().bits;
  if (a.is_tensor())
    return a.tensor().dtype == b.tensor().dtype && a.tensor().shape == b.tensor().shape && a.tensor().bits == b.tensor().bits;
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

std::string seg_str(const std::vector<std::pair<int64_t, int64_t>>& segs) {
  std::string s;
  for (const auto& [b, e] : segs) s += (s.empty() ? "" : " ") + std::string("[") + std::to_string(b) + ", " + std::to_string(e) + ")";
  return s;
}

uint64_t mix(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr int64_t kSearchBudget = 4096;  // summarize calls spent looking for the smallest witness

}  // namespace

std::string LawReport::str() const {
  if (violations.empty()) return "ok (" + std::to_string(folds_checked) + " region_fold executions checked)";
  std::string s;
  for (const auto& v : violations)
    s += v.op_location + ": region_fold breaks the " + v.law + " law on segments " + seg_str(v.segments) + ": " + v.detail + "\n";
  return s;
}

void Engine::check_fold_laws(const Operation& op, const std::vector<Value>& sources, const Value& identity,
                             const std::vector<Value>& captures, int64_t axis, int64_t n) {
  LawReport* report = laws;
  laws = nullptr;  // nested region_folds of the helpers run plainly while this one is checked
  struct Restore {
    Engine& E;
    LawReport* r;
    ~Restore() { E.laws = r; }
  } restore{*this, report};
  ++report->folds_checked;
  const Function& summarize_fn = helper(op, "summarize");
  const Function& combine_fn = helper(op, "combine");
  auto summ = [&](int64_t b, int64_t e) {
    std::vector<Value> args;
    for (const auto& s : sources) args.push_back(slice_range(s, axis, b, e));
    args.insert(args.end(), captures.begin(), captures.end());
    return call_function(summarize_fn, args, op).at(0);
  };
  auto comb = [&](const Value& a, const Value& b) { return call_function(combine_fn, {a, b}, op).at(0); };
  auto reported = [&](const std::string& law) {
    for (const auto& v : report->violations)
      if (v.law == law && v.op_location == op.loc.str()) return true;
    return false;
  };
  auto add = [&](std::string law, std::vector<std::pair<int64_t, int64_t>> segs, std::string detail) {
    if (reported(law)) return;
    report->violations.push_back({std::move(law), op.loc.str(), std::move(segs), std::move(detail)});
  };

  // Identity neutrality on every one-element segment.
  std::vector<Value> single;
  for (int64_t k = 0; k < n; ++k) single.push_back(summ(k, k + 1));
  for (int64_t k = 0; k < n; ++k) {
    const Value& s = single[static_cast<size_t>(k)];
    Value l = comb(identity, s);
    if (!same_value(l, s)) {
      add("left identity", {{k, k + 1}}, "combine(identity, s) = " + summarize(l) + " but s = summarize([" + std::to_string(k) + ", " +
                                               std::to_string(k + 1) + ")) = " + summarize(s));
      break;
    }
  }
  for (int64_t k = 0; k < n; ++k) {
    const Value& s = single[static_cast<size_t>(k)];
    Value r = comb(s, identity);
    if (!same_value(r, s)) {
      add("right identity", {{k, k + 1}}, "combine(s, identity) = " + summarize(r) + " but s = summarize([" + std::to_string(k) + ", " +
                                                std::to_string(k + 1) + ")) = " + summarize(s));
      break;
    }
  }

  // Segmentations: whole vs per element vs seeded random splits.
  const Value whole = summ(0, n);
  std::vector<std::pair<int64_t, int64_t>> bad_segs;
  Value bad_value;
  std::string bad_name;
  {
    Value acc = single[0];
    for (int64_t k = 1; k < n; ++k) acc = comb(acc, single[static_cast<size_t>(k)]);
    if (!same_value(acc, whole)) {
      for (int64_t k = 0; k < n; ++k) bad_segs.push_back({k, k + 1});
      bad_value = acc;
      bad_name = "per-element segmentation";
    }
  }
  // Deterministic splits first: first element + rest, all but the last + last.
  for (int64_t cut : {int64_t{1}, n - 1}) {
    if (!bad_segs.empty() || n < 3) break;
    Value acc = comb(summ(0, cut), summ(cut, n));
    if (!same_value(acc, whole)) {
      bad_segs = {{0, cut}, {cut, n}};
      bad_value = acc;
      bad_name = "two-segment split";
    }
  }
  uint64_t state = law_seed ^ (static_cast<uint64_t>(report->folds_checked) * 0xD1B54A32D192ED03ull);
  for (int t = 0; t < law_splits && bad_segs.empty() && n > 1; ++t) {
    std::vector<std::pair<int64_t, int64_t>> segs;
    int64_t b = 0;
    while (b < n) {
      int64_t len = 1 + static_cast<int64_t>(mix(state) % static_cast<uint64_t>(n - b));
      if (b == 0 && len == n) len = 1 + static_cast<int64_t>(mix(state) % static_cast<uint64_t>(n - 1));  // at least two segments
      segs.push_back({b, b + len});
      b += len;
    }
    Value acc = summ(segs[0].first, segs[0].second);
    for (size_t i = 1; i < segs.size(); ++i) acc = comb(acc, summ(segs[i].first, segs[i].second));
    if (!same_value(acc, whole)) {
      bad_segs = segs;
      bad_value = acc;
      bad_name = "random segmentation (seed " + std::to_string(law_seed) + ", split " + std::to_string(t) + ")";
    }
  }
  if (bad_segs.empty()) return;
  const std::string seen = "; the " + bad_name + " " + seg_str(bad_segs) + " gives " + summarize(bad_value) + " instead of the whole " +
                           summarize(whole);
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
          d << "summarize([" << a << ", " << a + len << ")) = " << summarize(ab) << " but combine(summarize([" << a << ", " << m
            << ")), summarize([" << m << ", " << a + len << "))) = " << summarize(c) << seen;
          add("homomorphism", {{a, m}, {m, a + len}}, d.str());
          return;
        }
      }
    }
  }
  add("homomorphism", bad_segs, "no pair of adjacent segments within the search budget shows it" + seen);
}

}  // namespace kir::interp
