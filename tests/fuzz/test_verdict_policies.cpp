// The verdict accepts every legal result and rejects planted wrong ones (issue 12 acceptance,
// checked over generated programs): the interpreter's own results under other legal policies —
// reverse and shuffled parallel orders, interleaved atomics, per-element and random region
// segmentations — are fed to oracle::judge_result as if a backend had produced them and must
// pass; the same results with one element changed must fail.
#include <catch2/catch.hpp>

#include "fuzz/campaign/case_args.h"
#include "fuzz_common.h"
#include "numerics/format.h"
#include "oracle/differential.h"
#include "oracle/verdict.h"

using namespace kir;

namespace {

struct Policy {
  const char* name;
  interp::Options o;
};

std::vector<Policy> policies() {
  std::vector<Policy> ps;
  auto base = [] {
    interp::Options o;
    o.accumulation = interp::AccumulationOrder::Sequential;
    return o;
  };
  Policy p{"parallel=reverse", base()};
  p.o.parallel_order = interp::ParallelOrder::Reverse;
  ps.push_back(p);
  p = {"parallel=shuffle:3", base()};
  p.o.parallel_order = interp::ParallelOrder::Shuffle;
  p.o.policy_seed = 3;
  ps.push_back(p);
  p = {"atomics=interleaved:5", base()};
  p.o.atomic_schedule = interp::AtomicSchedule::Interleaved;
  p.o.atomic_seed = 5;
  ps.push_back(p);
  p = {"region=element", base()};
  p.o.segmentation = interp::Segmentation::PerElement;
  ps.push_back(p);
  p = {"region=random:7", base()};
  p.o.segmentation = interp::Segmentation::Random;
  p.o.segmentation_seed = 7;
  ps.push_back(p);
  return ps;
}

// Changes one defined, non-NaN element of the first non-empty output by far: returns false when
// there is none.
bool plant(const Function& k, std::map<std::string, interp::KernelArg>& results) {
  for (const kir::Value* p : k.params()) {
    if (!p->type.is(TypeKind::View) || p->type.access() == Access::In) continue;
    auto& st = *std::get<interp::HostView>(results.at(p->name)).storage;
    for (size_t e = 0; e < st.bits.size(); ++e) {
      if (!st.is_defined(static_cast<int64_t>(e))) continue;
      const DType d = st.dtype;
      if (is_any_float(d)) {
        if (num::is_nan(st.bits[e], d)) continue;
        st.bits[e] = st.bits[e] ^ (uint64_t{1} << (info(d).bits - 1));  // the sign
        if (num::classify(st.bits[e], d) == num::FpClass::Zero) st.bits[e] = num::float_format(d).canonical_nan;
      } else {
        st.bits[e] ^= 1;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("the verdict accepts the interpreter's results under every legal policy and rejects planted changes",
          "[fuzz][verdict]") {
  int judged = 0, planted = 0, caught = 0, envelope_accepted = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    auto c = fuzz::sample_case(seed * 7919, fuzz::test::size_for(seed)).value();
    std::string why;
    auto m = fuzz::test::load_case(c, why);
    INFO(why);
    REQUIRE(m);
    auto args = fuzz::case_args(*m, c);
    const Function& k = *m->find_function(c.kernel);
    for (const auto& pol : policies()) {
      auto results = oracle::clone_args(args);
      std::string err;
      try {
        interp::Interpreter it(*m, pol.o);
        it.run_kernel(c.kernel, results);
      } catch (const std::exception& e) {
        err = e.what();
      }
      auto v = oracle::judge_result(*m, c.kernel, args, results, err);
      INFO("seed " << seed << ", policy " << pol.name << "\n" << c.kir << "\n" << v.str());
      CHECK(!v.failed());
      ++judged;
      if (!err.empty() || !plant(k, results)) continue;
      ++planted;
      auto w = oracle::judge_result(*m, c.kernel, args, results, err);
      if (w.failed()) ++caught;
      else if (w.rule == "reassociation envelope") ++envelope_accepted;  // a legal value after all
      else FAIL("a planted change passed under rule " << w.rule);
    }
  }
  WARN("judged " << judged << ", planted " << planted << ", caught " << caught << ", inside an envelope "
                 << envelope_accepted);
  CHECK(judged == 600);
  CHECK(planted > 300);
  CHECK(caught + envelope_accepted == planted);
}
