// Law checking of region_scan (seed section 9.2, issue 4 item 3, checklist L9.5). Besides the
// laws of summarize/combine/identity (as for region_fold, laws.cpp), every checked region_scan
// execution is tested for the action and emit laws of apply and emit:
//  * "apply identity": apply(identity, state) == state for every state the per-element
//    segmentation carries (the initial state, then the state after [0, k));
//  * "action composition": under every segmentation of laws::segmentations, the state carried
//    through the segments (state = apply(summarize(segment), state)) must end as the whole
//    final state apply(summarize(source), initial_state); when it does not, adjacent pairs
//    A = [a, m), B = [m, b) are searched by increasing length for the smallest one with
//    apply(combine(summarize A, summarize B), s) != apply(summarize B, apply(summarize A, s)),
//    s the state entering a. A final-state difference no pair explains is left to the
//    homomorphism report when there is one;
//  * "emit concatenation": under every segmentation, emit(segment, incoming state) must equal
//    the segment's part of the whole emit(source, initial_state); when it does not, the
//    smallest pair with emit(A ++ B, s) != emit(A, s) ++ emit(B, apply(summarize A, s)) is
//    searched the same way.
// The two sides of each law are compared as by LawCheck::compare: under the numerics contract
// (equal bits, or enclosures that meet). Enclosures take the carried states as exact inputs (the
// laws hold for every state) and summaries from the sources.
#include <memory>
#include <optional>
#include <sstream>

#include "interp/laws.h"
#include "interp/tree.h"

namespace kir::interp {
namespace {

using laws::brief;
using laws::Enclosure;
using laws::range_str;
using laws::seg_str;
using laws::Segments;
using laws::Side;
using laws::Verdict;

// The enclosures of one emit call's outputs, computed once on first use.
using LazyOutputs = std::function<const std::vector<Enclosure>&()>;
LazyOutputs lazily(std::function<std::vector<Enclosure>()> f) {
  auto cache = std::make_shared<std::optional<std::vector<Enclosure>>>();
  return [cache, f = std::move(f)]() -> const std::vector<Enclosure>& {
    if (!*cache) *cache = f();
    return **cache;
  };
}

class ScanCheck {
 public:
  ScanCheck(laws::LawCheck& c, const Value& identity, const Value& initial, const std::vector<Value>& captures)
      : c_(c), identity_(identity), initial_(initial), captures_(captures), apply_fn_(c.E.helper(c.op, "apply")),
        emit_fn_(c.E.helper(c.op, "emit")) {}

  void run() {
    // The states the per-element segmentation carries: carried_[k] enters element k.
    carried_.push_back(initial_);
    for (int64_t k = 0; k < c_.n; ++k) carried_.push_back(apply(c_.summ(k, k + 1), carried_.back()));
    check_apply_identity();
    check_segmentations();
  }

 private:
  Value apply(const Value& t, const Value& state) { return c_.E.call_function(apply_fn_, {t, state}, c_.op).at(0); }
  Enclosure eapply(const Enclosure& t, const Enclosure& state) { return c_.ecall(apply_fn_, {t, state}).at(0); }

  std::vector<Value> emit(int64_t b, int64_t e, const Value& state) {
    std::vector<Value> args = c_.source_args(b, e);
    args.push_back(state);
    args.insert(args.end(), captures_.begin(), captures_.end());
    return c_.E.call_function(emit_fn_, args, c_.op);
  }
  std::vector<Enclosure> eemit(int64_t b, int64_t e, const Enclosure& state) {
    std::vector<Enclosure> args = c_.esource_args(b, e);
    args.push_back(state);
    const auto& caps = c_.ecaptures();
    args.insert(args.end(), caps.begin(), caps.end());
    return c_.ecall(emit_fn_, args);
  }

  // "the initial state" or "the state after [0, k)".
  std::string state_name(int64_t k) const { return k == 0 ? "the initial state" : "the state after " + range_str(0, k); }

  void check_apply_identity() {
    for (int64_t k = 0; k <= c_.n; ++k) {
      const Value& s = carried_[static_cast<size_t>(k)];
      const Value r = apply(identity_, s);
      const Verdict v = c_.compare({r, [&] { return eapply(enclosure::of(identity_), enclosure::of(s)); }},
                                   {s, [&] { return enclosure::of(s); }});
      if (!v.equal) {
        c_.add("apply identity", k == 0 ? Segments{} : Segments{{0, k}},
               "apply(identity, state) = " + brief(r) + " but state = " + brief(s) + " (" + state_name(k) + "): " + v.detail);
        return;
      }
    }
  }

  // The first output whose part [b, e) differs between `whole` (an emit over [w, ...), enclosures
  // `ewhole`) and `part` (enclosures `epart`); -1 if none. `what` receives both values and the
  // differing elements.
  int first_diff(const std::vector<Value>& whole, int64_t w, const LazyOutputs& ewhole, const std::vector<Value>& part,
                 int64_t b, int64_t e, const LazyOutputs& epart, std::string& what) {
    for (size_t i = 0; i < whole.size() && i < part.size(); ++i) {
      const Value expect = slice_range(whole[i], c_.axis, b - w, e - w);
      const Verdict v = c_.compare({part[i], [&] { return epart().at(i); }},
                                   {expect, [&] { return enclosure::slice_range(ewhole().at(i), c_.axis, b - w, e - w); }});
      if (!v.equal) {
        what = brief(part[i]) + " but the whole has " + brief(expect) + ": " + v.detail;
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  void check_segmentations() {
    const Value whole_final = apply(c_.summ(0, c_.n), initial_);
    const std::vector<Value> whole_out = emit(0, c_.n, initial_);
    auto einitial = [&] { return enclosure::of(initial_); };
    const LazyOutputs ewhole_out = lazily([&] { return eemit(0, c_.n, einitial()); });
    std::string action_seen, emit_seen;
    Segments action_bad, emit_bad;
    for (const auto& sg : laws::segmentations(c_.n, c_.E.law_seed, c_.salt(), c_.E.law_splits)) {
      Value state = initial_;
      // The enclosure of the state entering segment i, computed on demand.
      std::vector<Enclosure> estates;
      auto estate = [&](size_t i) -> const Enclosure& {
        if (estates.empty()) estates.push_back(einitial());
        while (estates.size() <= i) {
          const auto& [b, e] = sg.segs[estates.size() - 1];
          estates.push_back(eapply(c_.esumm(b, e), estates.back()));
        }
        return estates[i];
      };
      for (size_t si = 0; si < sg.segs.size(); ++si) {
        const auto [b, e] = sg.segs[si];
        if (emit_bad.empty()) {
          std::string what;
          const std::vector<Value> part = emit(b, e, state);
          const int i = first_diff(whole_out, 0, ewhole_out, part, b, e, lazily([&, si, b = b, e = e] { return eemit(b, e, estate(si)); }), what);
          if (i >= 0) {
            emit_bad = sg.segs;
            emit_seen = "; under the " + sg.name + " " + seg_str(sg.segs) + " output " + std::to_string(i) + " of segment " + range_str(b, e) +
                        " is " + what;
          }
        }
        state = apply(c_.summ(b, e), state);
      }
      if (action_bad.empty()) {
        const Verdict v = c_.compare({state, [&] { return estate(sg.segs.size()); }},
                                     {whole_final, [&] { return eapply(c_.esumm(0, c_.n), einitial()); }});
        if (!v.equal) {
          action_bad = sg.segs;
          action_seen = "; the " + sg.name + " " + seg_str(sg.segs) + " ends in state " + brief(state) + " instead of the whole " +
                        brief(whole_final) + " (" + v.detail + ")";
        }
      }
      if (!action_bad.empty() && !emit_bad.empty()) break;
    }
    if (!action_bad.empty()) search_action(action_bad, action_seen);
    if (!emit_bad.empty()) search_emit(emit_bad, emit_seen);
  }

  void search_action(const Segments& bad, const std::string& seen) {
    int64_t budget = laws::kSearchBudget;
    for (int64_t len = 2; len <= c_.n && budget > 0; ++len)
      for (int64_t a = 0; a + len <= c_.n && budget > 0; ++a)
        for (int64_t m = a + 1; m < a + len && budget > 0; ++m, budget -= 5) {
          const Value& s = carried_[static_cast<size_t>(a)];
          const Value ta = c_.summ(a, m), tb = c_.summ(m, a + len);
          const Value lhs = apply(c_.comb(ta, tb), s), rhs = apply(tb, apply(ta, s));
          const Verdict v = c_.compare({lhs, [&] { return eapply(c_.ecomb(c_.esumm(a, m), c_.esumm(m, a + len)), enclosure::of(s)); }},
                                       {rhs, [&] { return eapply(c_.esumm(m, a + len), eapply(c_.esumm(a, m), enclosure::of(s))); }});
          if (v.equal) continue;
          std::ostringstream d;
          d << "apply(combine(summarize(" << range_str(a, m) << "), summarize(" << range_str(m, a + len) << ")), state) = " << brief(lhs)
            << " but apply(summarize(" << range_str(m, a + len) << "), apply(summarize(" << range_str(a, m) << "), state)) = " << brief(rhs)
            << ", state = " << brief(s) << " (" << state_name(a) << "): " << v.detail << seen;
          c_.add("action composition", {{a, m}, {m, a + len}}, d.str());
          return;
        }
    if (!c_.reported("homomorphism"))
      c_.add("action composition", bad, "no pair of adjacent segments within the search budget shows it" + seen);
  }

  void search_emit(const Segments& bad, const std::string& seen) {
    int64_t budget = laws::kSearchBudget;
    for (int64_t len = 2; len <= c_.n && budget > 0; ++len)
      for (int64_t a = 0; a + len <= c_.n && budget > 0; ++a) {
        const Value& s = carried_[static_cast<size_t>(a)];
        const std::vector<Value> ab = emit(a, a + len, s);
        const LazyOutputs eab = lazily([&, a, len] { return eemit(a, a + len, enclosure::of(s)); });
        --budget;
        for (int64_t m = a + 1; m < a + len && budget > 0; ++m, budget -= 4) {
          std::string what;
          int i = first_diff(ab, a, eab, emit(a, m, s), a, m, lazily([&, a, m] { return eemit(a, m, enclosure::of(s)); }), what);
          std::string part = "emit(" + range_str(a, m) + ", state)";
          if (i < 0) {
            i = first_diff(ab, a, eab, emit(m, a + len, apply(c_.summ(a, m), s)), m, a + len,
                           lazily([&, a, m, len] { return eemit(m, a + len, eapply(c_.esumm(a, m), enclosure::of(s))); }), what);
            part = "emit(" + range_str(m, a + len) + ", apply(summarize(" + range_str(a, m) + "), state))";
          }
          if (i < 0) continue;
          c_.add("emit concatenation", {{a, m}, {m, a + len}},
                 "output " + std::to_string(i) + " of " + part + " is " + what + " (emit(" + range_str(a, a + len) + ", state), state = " +
                     brief(s) + ", " + state_name(a) + ")" + seen);
          return;
        }
      }
    c_.add("emit concatenation", bad, "no pair of adjacent segments within the search budget shows it" + seen);
  }

  laws::LawCheck& c_;
  const Value& identity_;
  const Value& initial_;
  const std::vector<Value>& captures_;
  const Function& apply_fn_;
  const Function& emit_fn_;
  std::vector<Value> carried_;
};

}  // namespace

void Engine::check_scan_laws(const Operation& op, const std::vector<Value>& sources, const Value& identity,
                             const Value& initial_state, const std::vector<Value>& captures, int64_t axis, int64_t n) {
  laws::Suspend suspend(*this);
  ++suspend.report().scans_checked;
  laws::LawCheck check(*this, op, suspend.report(), sources, captures, axis, n);
  check.check_summary_laws(identity);
  ScanCheck(check, identity, initial_state, captures).run();
}

}  // namespace kir::interp
