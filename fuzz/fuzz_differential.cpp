// libFuzzer target of the differential campaign (docs/fuzzing.md "Scale-out"): the input bytes
// choose a generated program — bytes 0..7 the generator seed (little-endian, zero-padded), byte 8
// its size (0..100), byte 9 the number of generation steps (1..16) — which is compiled by the CPU
// backend, run on it and on the interpreter, and judged by the oracle. A failed verdict (a wrong
// element, a missed or spurious error, a generator bug) prints the program and the verdict and
// aborts, so any libFuzzer host (ClusterFuzzLite, OSS-Fuzz) runs the campaign unchanged and keeps
// the input as the reproducer; `kir fuzz`'s shrinking and finding directories are not involved.
// Unsupported forms pass. Compiled kernels go through the artifact cache ($KIR_CACHE_DIR).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "backends/cpu/provider/toolchain.h"
#include "fuzz/campaign/case_pipeline.h"
#include "fuzz/gen/gen.h"

// The generated kernels are compiled at run time: without a C++ compiler every case would be a
// spurious compile error, so the target refuses to start (the OSS-Fuzz runner image has none;
// docs/fuzzing.md "Scale-out").
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  try {
    kir::cpu::detect_toolchain("");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_differential: %s (the generated kernels need a C++ compiler at run time)\n", e.what());
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint64_t seed = 0;
  for (size_t i = 0; i < 8 && i < size; ++i) seed |= uint64_t{data[i]} << (8 * i);
  const int gen_size = size > 8 ? data[8] % 101 : 50;
  kir::fuzz::GenOptions o;
  if (size > 9) o.max_ops = 1 + data[9] % 16;
  kir::fuzz::GeneratedCase c;
  try {
    c = kir::fuzz::sample_case(seed, gen_size, o).value();
    kir::fuzz::PreparedCase p = kir::fuzz::prepare_case(c);
    const kir::oracle::Verdict v = kir::fuzz::judge_case(p);
    if (!v.failed()) return 0;
    std::fprintf(stderr, "fuzz_differential: seed %llu size %d max_ops %d fails\n%s\n%s", static_cast<unsigned long long>(seed),
                 gen_size, o.max_ops, c.kir.c_str(), v.str().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_differential: seed %llu size %d max_ops %d: uncaught exception: %s\n%s",
                 static_cast<unsigned long long>(seed), gen_size, o.max_ops, e.what(), c.kir.c_str());
  }
  std::abort();
}
