// Coverage of the program generator over 1000 samples: every op family, index-relation form
// and dtype of the language appears; the counts are printed. The faults family alone produces
// each of its variants.
#include <catch2/catch.hpp>

#include <iostream>
#include <map>

#include "fuzz/gen/families.h"
#include "fuzz/gen/gen.h"
#include "fuzz_common.h"

using namespace kir::fuzz;

TEST_CASE("1000 samples cover every family and dtype", "[fuzz]") {
  std::map<std::string, int> families;
  std::map<std::string, int> dtypes;
  static const char* const kDtypes[] = {"bool", "i8",  "i16", "i32",  "i64",  "u8",   "u16",  "u32", "u64",
                                        "index", "f16", "bf16", "f32", "f64", "e4m3", "e5m2", "e2m1", "e8m0"};
  for (uint64_t seed = 5000; seed < 6000; ++seed) {
    const GeneratedCase c = sample_case(seed, test::size_for(seed)).value();
    for (const auto& f : c.families) ++families[f];
    for (const char* d : kDtypes) {
      const std::string s = d;
      if (c.kir.find(": " + s) != std::string::npos || c.kir.find(s + "[") != std::string::npos) ++dtypes[s];
    }
  }
  std::cout << "families over 1000 samples:";
  for (const auto& [f, k] : families) std::cout << " " << f << "=" << k;
  std::cout << "\ndtypes over 1000 samples:";
  for (const auto& [d, k] : dtypes) std::cout << " " << d << "=" << k;
  std::cout << "\n";
  for (const auto& f : family_table()) {
    INFO("family " << f.name);
    CHECK((families[f.name] > 0) == (f.weight > 0));  // opt-in families (weight 0) only when named
  }
  // Forms the families choose among (index relations, stores, views, extents, control exits).
  for (const char* f : {"index.identity", "index.transpose", "index.reverse", "index.strided", "index.window", "index.data",
                        "index.masked", "index.element", "store.unique", "store.reverse", "store.transpose", "store.masked",
                        "view.strided", "extent.zero", "for.break", "for.continue", "for.dynamic", "reduce.tuple",
                        "scan.tuple", "combine.captures", "call.constexpr", "atomic.sequential", "atomic.cas", "cast.small",
                        "contract.batch", "random.bits", "random.uniform", "parallel.view", "broadcast.unit", "store.inout",
                        "scatter.masked", "sparse.one_of_two", "sparse.two_of_four", "quantized_dot", "store.masked.inout",
                        "transpose.cycle3", "cast.roundtrip", "binary.muladd", "atomic.hot", "region_fold", "region_scan",
                        "region_fold.argmax", "region_fold.count", "region_scan.exclusive", "region.const_extent"}) {
    INFO("form " << f);
    CHECK(families[f] > 0);
  }
  for (const char* d : kDtypes) {
    INFO("dtype " << d);
    CHECK(dtypes[d] > 0);
  }
}

TEST_CASE("the faults family produces each of its variants", "[fuzz]") {
  std::map<std::string, int> families;
  const GenOptions o = test::only_family("faults");
  for (uint64_t seed = 7000; seed < 7400; ++seed)
    for (const auto& f : sample_case(seed, test::size_for(seed), o).value().families) ++families[f];
  std::cout << "faults variants over 400 samples:";
  for (const auto& [f, k] : families)
    if (f.rfind("faults", 0) == 0) std::cout << " " << f << "=" << k;
  std::cout << "\n";
  for (const char* f : {"faults", "faults.source.div", "faults.source.rem", "faults.source.shl", "faults.source.load",
                        "faults.source.cast", "faults.partial.element", "faults.partial.masked_store",
                        "faults.partial.masked_scatter", "faults.partial.masked_gather", "faults.partial.if",
                        "faults.partial.for", "faults.partial.parallel", "faults.partial.prefix", "faults.two",
                        "faults.huge.subregion", "faults.huge.for", "faults.edge.for",
                        "faults.edge.indices", "faults.atomic.float_add"}) {
    INFO("variant " << f);
    CHECK(families[f] > 0);
  }
}
