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
// Values are compared as by laws::same_value (bits; float +-0 equal, NaNs equal).
#include <sstream>

#include "interp/laws.h"
#include "interp/tree.h"

namespace kir::interp {
namespace {

using laws::range_str;
using laws::same_value;
using laws::seg_str;
using laws::Segments;

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

  std::vector<Value> emit(int64_t b, int64_t e, const Value& state) {
    std::vector<Value> args = c_.source_args(b, e);
    args.push_back(state);
    args.insert(args.end(), captures_.begin(), captures_.end());
    return c_.E.call_function(emit_fn_, args, c_.op);
  }

  // "the initial state" or "the state after [0, k)".
  std::string state_name(int64_t k) const { return k == 0 ? "the initial state" : "the state after " + range_str(0, k); }

  void check_apply_identity() {
    for (int64_t k = 0; k <= c_.n; ++k) {
      const Value& s = carried_[static_cast<size_t>(k)];
      const Value r = apply(identity_, s);
      if (!same_value(r, s)) {
        c_.add("apply identity", k == 0 ? Segments{} : Segments{{0, k}},
               "apply(identity, state) = " + summarize(r) + " but state = " + summarize(s) + " (" + state_name(k) + ")");
        return;
      }
    }
  }

  // The first output whose part [b, e) differs between `whole` (an emit over [w, ...)) and
  // `part`; -1 if none. `what` receives both values.
  int first_diff(const std::vector<Value>& whole, int64_t w, const std::vector<Value>& part, int64_t b, int64_t e, std::string& what) const {
    for (size_t i = 0; i < whole.size() && i < part.size(); ++i) {
      const Value expect = slice_range(whole[i], c_.axis, b - w, e - w);
      if (!same_value(expect, part[i])) {
        what = summarize(part[i]) + " but the whole has " + summarize(expect);
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  void check_segmentations() {
    const Value whole_final = apply(c_.summ(0, c_.n), initial_);
    const std::vector<Value> whole_out = emit(0, c_.n, initial_);
    std::string action_seen, emit_seen;
    Segments action_bad, emit_bad;
    for (const auto& sg : laws::segmentations(c_.n, c_.E.law_seed, c_.salt(), c_.E.law_splits)) {
      Value state = initial_;
      for (const auto& [b, e] : sg.segs) {
        if (emit_bad.empty()) {
          std::string what;
          const int i = first_diff(whole_out, 0, emit(b, e, state), b, e, what);
          if (i >= 0) {
            emit_bad = sg.segs;
            emit_seen = "; under the " + sg.name + " " + seg_str(sg.segs) + " output " + std::to_string(i) + " of segment " + range_str(b, e) +
                        " is " + what;
          }
        }
        state = apply(c_.summ(b, e), state);
      }
      if (action_bad.empty() && !same_value(state, whole_final)) {
        action_bad = sg.segs;
        action_seen = "; the " + sg.name + " " + seg_str(sg.segs) + " ends in state " + summarize(state) + " instead of the whole " +
                      summarize(whole_final);
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
          if (same_value(lhs, rhs)) continue;
          std::ostringstream d;
          d << "apply(combine(summarize(" << range_str(a, m) << "), summarize(" << range_str(m, a + len) << ")), state) = " << summarize(lhs)
            << " but apply(summarize(" << range_str(m, a + len) << "), apply(summarize(" << range_str(a, m) << "), state)) = " << summarize(rhs)
            << ", state = " << summarize(s) << " (" << state_name(a) << ")" << seen;
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
        --budget;
        for (int64_t m = a + 1; m < a + len && budget > 0; ++m, budget -= 4) {
          std::string what;
          int i = first_diff(ab, a, emit(a, m, s), a, m, what);
          std::string part = "emit(" + range_str(a, m) + ", state)";
          if (i < 0) {
            i = first_diff(ab, a, emit(m, a + len, apply(c_.summ(a, m), s)), m, a + len, what);
            part = "emit(" + range_str(m, a + len) + ", apply(summarize(" + range_str(a, m) + "), state))";
          }
          if (i < 0) continue;
          c_.add("emit concatenation", {{a, m}, {m, a + len}},
                 "output " + std::to_string(i) + " of " + part + " is " + what + " (emit(" + range_str(a, a + len) + ", state), state = " +
                     summarize(s) + ", " + state_name(a) + ")" + seen);
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
