// The family table and the dispatch of one generation step (families.h).
#include "fuzz/gen/families.h"

namespace kir::fuzz {

namespace {
constexpr unsigned kMem = kTop | kRegion | kParallel;  // kernel bodies (memory, RNG, calls)
constexpr unsigned kSeq = kTop | kRegion;              // not inside a parallel
}  // namespace

// Order matters only for shrinking: a plan's family choice shrinks toward the first entries.
const std::vector<Family>& family_table() {
  static const std::vector<Family> t = {
      {"binary", 14, kAnywhere, fam_binary},
      {"const", 3, kAnywhere, fam_const},
      {"unary", 8, kAnywhere, fam_unary},
      {"compare", 5, kAnywhere, fam_compare},
      {"select", 5, kAnywhere, fam_select},
      {"cast", 9, kAnywhere, fam_cast},
      {"bitcast", 3, kAnywhere, fam_bitcast},
      {"broadcast", 5, kAnywhere, fam_broadcast},
      {"reshape", 3, kAnywhere, fam_reshape},
      {"transpose", 3, kAnywhere, fam_transpose},
      {"join", 2, kAnywhere, fam_join},
      {"aggregate", 1, kAnywhere, fam_aggregate},
      {"gather", 5, kMem, fam_gather},
      {"view.load", 4, kMem, fam_view_load},
      {"view.store", 3, kSeq, fam_view_store},
      {"buffer", 2, kSeq, fam_buffer},
      {"reduce", 5, kAnywhere, fam_reduce},
      {"reduce.user", 3, kMem, fam_reduce_user},
      {"scan", 3, kAnywhere, fam_scan},
      {"scan.user", 2, kMem, fam_scan_user},
      {"contract", 4, kAnywhere, fam_contract},
      {"contract.sparse", 1, kMem, fam_sparse_contract},
      {"contract.scaled", 1, kMem, fam_scaled_contract},
      {"contract_epilogue", 3, kTop, fam_contract_epilogue},
      {"quantize", 1, kMem, fam_quantize},
      {"histogram", 1, kMem, fam_histogram},
      {"for", 3, kAnywhere, fam_for},
      {"while", 2, kAnywhere, fam_while},
      {"if", 3, kAnywhere, fam_if},
      {"parallel", 3, kTop, fam_parallel},
      {"atomic", 2, kTop, fam_atomic},
      {"scatter", 2, kTop, fam_scatter},
      {"call", 3, kMem, fam_call},
      {"random", 1, kMem, fam_random},
      {"region_fold", 1, kMem, fam_region_fold},
      {"region_scan", 1, kMem, fam_region_scan},
      {"faults", 1, kTop, fam_faults},
  };
  return t;
}

const std::vector<std::string>& family_names() {
  static const std::vector<std::string> n = [] {
    std::vector<std::string> v;
    for (const auto& f : family_table()) v.push_back(f.name);
    return v;
  }();
  return n;
}

unsigned where_of(const FnBuilder& fb) {
  if (!fb.kernel) return kHelper;
  if (fb.inside(RegionKind::Parallel)) return kParallel;
  return fb.depth() == 0 ? kTop : kRegion;
}

std::vector<const Family*> allowed_families(const Ctx& c, unsigned where, std::vector<int>& weights) {
  std::vector<const Family*> fs;
  weights.clear();
  for (const auto& f : family_table()) {
    if (!(f.where & where)) continue;
    fs.push_back(&f);
    weights.push_back(c.weights.at(f.name));
  }
  return fs;
}

void run_family(Ctx& c, FnBuilder& fb, Rng& r, uint64_t choice) {
  std::vector<int> w;
  auto fs = allowed_families(c, where_of(fb), w);
  int64_t total = 0;
  for (int x : w) total += x > 0 ? x : 0;
  if (total > 0) {
    int64_t pos = static_cast<int64_t>(choice % static_cast<uint64_t>(total));
    for (size_t i = 0; i < fs.size(); ++i) {
      if (w[i] <= 0) continue;
      if (pos < w[i]) {
        if (fs[i]->fn(c, fb, r)) {
          c.family(fs[i]->name);
          return;
        }
        break;
      }
      pos -= w[i];
    }
  }
  if (fam_binary(c, fb, r)) c.family("binary");
  else if (fam_const(c, fb, r)) c.family("const");
}

void run_steps(Ctx& c, FnBuilder& fb, Rng& r, int n) {
  for (int i = 0; i < n; ++i) run_family(c, fb, r, r.next());
}

}  // namespace kir::fuzz
