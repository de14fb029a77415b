// Shared machinery of law checking (internal to interp/; laws.cpp for region_fold and the laws
// of summarize/combine/identity, scan_laws.cpp for region_scan's action and emit laws): the
// segmentations compared with the whole one, and one region op execution under check with its
// summarize/combine calls on source ranges (on values, and on enclosures for the comparison of
// two sides under the numerics contract) and its report.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interp/engine.h"
#include "interp/envelope_log_enclosure.h"

namespace kir::interp::laws {

using Segments = std::vector<std::pair<int64_t, int64_t>>;  // [begin, end) each, in source order
using enclosure::Enclosure;

bool same_value(const Value& a, const Value& b);  // bit for bit (float +-0 equal, NaNs equal), structure included
std::string seg_str(const Segments& segs);         // "[0, 1) [1, 3)"
std::string range_str(int64_t b, int64_t e);       // "[0, 3)"
std::string brief(const Value& v);                 // summarize(v), tensors above 8 elements as dtype and shape only

// One side of a law: the interpreter's value, and its enclosure (envelope_log_enclosure.h),
// computed only when the bits differ from the other side's. `enclose` may throw
// enclosure::Unsupported.
struct Side {
  Value value;
  std::function<Enclosure()> enclose;
};

// Two sides compared under the numerics contract: equal when every element has the same bits
// (float zeros of either sign equal, NaNs equal) or its two enclosures, each widened by the
// interpreter's value, have a value in common. `detail` lists up to kShownElements differing
// elements with their coordinates, both values and both enclosures.
struct Verdict {
  bool equal = true;
  std::string detail;
};
constexpr size_t kShownElements = 5;

// A segmentation of [0, n) compared with the whole one: per element, then (n >= 3) the two
// splits 1 + (n-1) and (n-1) + 1, then `splits` seeded random splits into at least two
// segments (n >= 2), drawn from seed and salt (one salt per checked execution).
struct Segmentation {
  std::string name;
  Segments segs;
};
std::vector<Segmentation> segmentations(int64_t n, uint64_t seed, uint64_t salt, int splits);

// Summary calls spent looking for the smallest witness of one law.
constexpr int64_t kSearchBudget = 4096;

// One execution of a region op under check (n > 0 elements along `axis`).
class LawCheck {
 public:
  LawCheck(Engine& E, const Operation& op, LawReport& report, const std::vector<Value>& sources,
           const std::vector<Value>& captures, int64_t axis, int64_t n);

  Value summ(int64_t b, int64_t e);  // summarize(sources[b, e), captures...); one-element ranges cached
  Value comb(const Value& a, const Value& b);
  std::vector<Value> source_args(int64_t b, int64_t e) const;  // the sources cut to [b, e)
  bool reported(const std::string& law) const;                  // already reported for this op
  void add(const std::string& law, Segments segs, const std::string& detail);

  // The same calls on enclosures (throw enclosure::Unsupported when some op has no interval rule).
  Enclosure esumm(int64_t b, int64_t e);  // cached per range
  Enclosure ecomb(const Enclosure& a, const Enclosure& b);
  std::vector<Enclosure> ecall(const Function& fn, const std::vector<Enclosure>& args) { return eval_.call(fn, args); }
  std::vector<Enclosure> esource_args(int64_t b, int64_t e);  // the sources' enclosures cut to [b, e)
  const std::vector<Enclosure>& ecaptures();
  // The two sides of one law instance under the numerics contract. Once some helper turns out to
  // have no interval rule, this execution is compared bit for bit and the reason is named.
  Verdict compare(const Side& a, const Side& b);

  // The laws of summarize/combine/identity shared by region_fold and region_scan: identity
  // neutrality per element, then the homomorphism under every segmentation against the whole,
  // searched down to the smallest adjacent pair of segments when broken.
  void check_summary_laws(const Value& identity);

  Engine& E;
  const Operation& op;
  LawReport& report;
  const int64_t axis, n;
  uint64_t salt() const { return static_cast<uint64_t>(report.folds_checked + report.scans_checked); }

 private:
  const std::vector<Value>& sources_;
  const std::vector<Value>& captures_;
  const Function& summarize_fn_;
  const Function& combine_fn_;
  std::vector<Value> single_;  // summarize([k, k + 1)), filled on first use
  enclosure::Evaluator eval_;
  std::optional<std::vector<Enclosure>> esources_, ecaptures_;
  std::map<std::pair<int64_t, int64_t>, Enclosure> esumm_;
  std::string bitwise_;  // why enclosures are not available for this execution ("" while they are)
};

// Suspends law checking while one execution is checked (the helpers' own region ops run plainly).
class Suspend {
 public:
  explicit Suspend(Engine& E) : E_(E), report_(E.laws) { E.laws = nullptr; }
  ~Suspend() { E_.laws = report_; }
  Suspend(const Suspend&) = delete;
  Suspend& operator=(const Suspend&) = delete;
  LawReport& report() const { return *report_; }

 private:
  Engine& E_;
  LawReport* report_;
};

}  // namespace kir::interp::laws
