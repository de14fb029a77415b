// RapidCheck generators of plans and cases, and deterministic sampling (gen.h, plan.h).
#include "fuzz/gen/plan.h"

#include <algorithm>
#include <ostream>

namespace kir::fuzz {

int64_t extent_value(uint32_t choice, int size, int64_t max_extent) {
  static const int64_t small[] = {3, 1, 2, 4, 0, 5, 7, 8, 9};
  static const int64_t mid[] = {15, 16, 17, 31, 33};
  static const int64_t big[] = {63, 64, 65};
  const uint32_t bucket = choice % 10, k = choice / 10;
  int64_t v;
  if (bucket < 7 || size < 20) v = small[k % 9];
  else if (bucket < 9 || size < 50) v = mid[k % 5];
  else v = big[k % 3];
  return std::min(v, max_extent);
}

rc::Gen<Plan> gen_plan(const GenOptions& o) {
  const int max_ops = std::max(1, o.max_ops);
  return rc::gen::withSize([max_ops](int size) {
    const int hi = std::max(1, max_ops * std::clamp(size, 0, 100) / 100);
    const auto step = rc::gen::build<PlanStep>(rc::gen::set(&PlanStep::family, rc::gen::inRange<uint32_t>(0, 1u << 20)),
                                               rc::gen::set(&PlanStep::seed, rc::gen::arbitrary<uint64_t>()));
    return rc::gen::build<Plan>(
        rc::gen::set(&Plan::size, rc::gen::just(size)), rc::gen::set(&Plan::symbols, rc::gen::inRange<uint32_t>(0, 3)),
        rc::gen::set(&Plan::dims, rc::gen::container<std::vector<uint32_t>>(3, rc::gen::inRange<uint32_t>(0, 1000))),
        rc::gen::set(&Plan::skeleton, rc::gen::arbitrary<uint64_t>()), rc::gen::set(&Plan::data, rc::gen::arbitrary<uint64_t>()),
        rc::gen::set(&Plan::steps, rc::gen::mapcat(rc::gen::inRange(1, hi + 1), [step](int n) {
                       return rc::gen::container<std::vector<PlanStep>>(static_cast<size_t>(n), step);
                     })));
  });
}

rc::Gen<GeneratedCase> gen_case(const GenOptions& o) {
  return rc::gen::map(gen_plan(o), [o](const Plan& p) { return build_case(p, o); });
}

rc::Shrinkable<GeneratedCase> sample_case(uint64_t seed, int size, const GenOptions& o) {
  return gen_case(o)(rc::Random(seed), size);
}

void showValue(const GeneratedCase& c, std::ostream& os) {
  os << c.kir << "// dims:";
  for (const auto& [k, v] : c.dims) os << " " << k << "=" << v;
  os << "\n";
}

}  // namespace kir::fuzz
