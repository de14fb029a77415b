// Text-spelled interpreter options (see run_options.h).
#include "interp/run_options.h"

namespace kir::interp {

namespace {

// SEED: decimal digits of a uint64 (one parser for every seeded policy).
bool seed_of(const std::string& v, uint64_t& out) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return false;
  try {
    out = std::stoull(v);
  } catch (...) {
    return false;
  }
  return true;
}

}  // namespace

std::string apply_policy(const std::string& p, Options& opts) {
  const std::string usage =
      "policy takes parallel=canonical|reverse|shuffle:SEED, atomics=sequential|interleaved:SEED, "
      "region=whole|element|random:SEED|blocks:B, accumulation=canonical|sequential|sequential-fused|sequential-fused-pairs, lanes=L[:C] (C a multiple of L) or scan=blocks:C, "
      "got '" + p + "'";
  if (p == "region=whole" || p == "region=element") {
    opts.segmentation = p == "region=whole" ? Segmentation::Whole : Segmentation::PerElement;
    return "";
  }
  if (p.rfind("region=random:", 0) == 0) {
    if (!seed_of(p.substr(14), opts.segmentation_seed)) return usage;
    opts.segmentation = Segmentation::Random;
    return "";
  }
  if (p.rfind("region=blocks:", 0) == 0) {  // the CPU backend's region_fold.blocks: B elements per segment
    uint64_t b = 0;
    if (!seed_of(p.substr(14), b) || b == 0 || b > (uint64_t{1} << 62)) return usage;
    opts.segmentation = Segmentation::Blocks;
    opts.region_block = static_cast<int64_t>(b);
    return "";
  }
  if (p.rfind("scan=blocks:", 0) == 0) {  // the CPU backend's scan order: blocks of C points
    uint64_t c = 0;
    if (!seed_of(p.substr(12), c) || c == 0 || c > (uint64_t{1} << 62)) return usage;
    opts.scan_block = static_cast<int64_t>(c);
    return "";
  }
  if (p.rfind("lanes=", 0) == 0) {  // the CPU backend's reduce order: L lanes, blocks of C points
    const std::string v = p.substr(6);
    const auto colon = v.find(':');
    uint64_t l = 0, c = 0;
    if (!seed_of(v.substr(0, colon), l) || (colon != std::string::npos && !seed_of(v.substr(colon + 1), c)) || l == 0 ||
        l > (uint64_t{1} << 20) || c > (uint64_t{1} << 62) || c % l != 0)
      return usage;
    opts.reduce_lanes = {static_cast<int64_t>(l), static_cast<int64_t>(c)};
    return "";
  }
  if (p == "accumulation=canonical" || p == "accumulation=sequential") {
    opts.accumulation = p == "accumulation=canonical" ? AccumulationOrder::Canonical : AccumulationOrder::Sequential;
    return "";
  }
  if (p == "accumulation=sequential-fused" || p == "accumulation=sequential-fused-pairs") {  // the packed contracts' orders
    opts.accumulation = p == "accumulation=sequential-fused" ? AccumulationOrder::SequentialFused : AccumulationOrder::SequentialFusedPairs;
    return "";
  }
  if (p == "atomics=sequential") {
    opts.atomic_schedule = AtomicSchedule::Sequential;
    return "";
  }
  if (p.rfind("atomics=interleaved:", 0) == 0) {
    if (!seed_of(p.substr(20), opts.atomic_seed)) return usage;
    opts.atomic_schedule = AtomicSchedule::Interleaved;
    return "";
  }
  if (p.rfind("parallel=", 0) != 0) return usage;
  const std::string v = p.substr(9);
  if (v == "canonical") opts.parallel_order = ParallelOrder::Canonical;
  else if (v == "reverse") opts.parallel_order = ParallelOrder::Reverse;
  else if (v.rfind("shuffle:", 0) == 0 && seed_of(v.substr(8), opts.policy_seed))
    opts.parallel_order = ParallelOrder::Shuffle;
  else return usage;
  return "";
}

std::string apply_break_on(const std::string& what, Options& opts) {
  if (what == "nan") opts.break_on_nan = true;
  else if (what == "inf") opts.break_on_inf = true;
  else return "takes nan or inf, got '" + what + "'";
  return "";
}

std::string apply_dump(const std::string& name, const Module& m, const std::string& file, Options& opts) {
  const std::string n = !name.empty() && name[0] == '%' ? name.substr(1) : name;
  bool found = false;
  for (const auto& f : m.functions)
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) {
      for (const auto& r : op.results) found = found || r->name == n;
    });
  if (!found) return "no op of " + file + " defines a value %" + n;
  opts.dump.push_back(n);
  return "";
}

}  // namespace kir::interp
