// Timing-dependent findings reproduce (fuzz/campaign/repeat.h): attempts run in child processes,
// the second on under the pool's schedule perturbation seeded by the attempt number, until one
// fails as recorded — a verdict with the recorded signature, or a crash or hang when that is
// what was recorded. The attempts below fail on a chosen perturbation seed, so the expected
// attempt number is known in advance.
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "backends/cpu/runtime/worker_pool.h"
#include "fuzz/campaign/repeat.h"

using namespace kir;

namespace {

oracle::Verdict wrong_if_seed(uint64_t seed) {
  oracle::Verdict v;
  if (cpu::rt::schedule_jitter() == seed) {
    v.outcome = oracle::Outcome::Wrong;
    v.rule = "bit-exact";
    v.op = "add";
    v.dtype = "f32";
  }
  return v;
}

const std::string kSig = wrong_if_seed(0).signature();  // the first attempt runs unperturbed (seed 0)

void quiet(const oracle::Verdict&) {}

}  // namespace

TEST_CASE("repeat: stops at the first attempt that fails as recorded", "[repro]") {
  auto r = fuzz::repeat_until_failing([] { return wrong_if_seed(3); }, kSig, "wrong", 10, 30, quiet);
  CHECK(r.reproduced);
  CHECK(r.attempts == 3);
  CHECK(r.last == kSig);
}

TEST_CASE("repeat: an attempt that never fails uses up the attempts", "[repro]") {
  auto r = fuzz::repeat_until_failing([] { return oracle::Verdict{}; }, kSig, "wrong", 4, 30, quiet);
  CHECK_FALSE(r.reproduced);
  CHECK(r.attempts == 4);
  CHECK(r.last == "pass");
}

TEST_CASE("repeat: a recorded crash reproduces when an attempt dies of a signal", "[repro]") {
  auto r = fuzz::repeat_until_failing(
      [] {
        if (cpu::rt::schedule_jitter() == 2) std::abort();
        return oracle::Verdict{};
      },
      "crash|worker|||", "crash", 5, 30, quiet);
  CHECK(r.reproduced);
  CHECK(r.attempts == 2);
  CHECK(r.last == "crash (signal " + std::to_string(SIGABRT) + ")");
}

TEST_CASE("repeat: a recorded timeout reproduces when an attempt runs past the limit", "[repro]") {
  auto r = fuzz::repeat_until_failing(
      [] {
        std::this_thread::sleep_for(std::chrono::seconds(20));
        return oracle::Verdict{};
      },
      "timeout|worker|||", "timeout", 3, 0.3, quiet);
  CHECK(r.reproduced);
  CHECK(r.attempts == 1);
  CHECK(r.last == "timeout");
}

TEST_CASE("repeat: a crash does not count for a recorded wrong result", "[repro]") {
  auto r = fuzz::repeat_until_failing([]() -> oracle::Verdict { std::abort(); }, kSig, "wrong", 2, 30, quiet);
  CHECK_FALSE(r.reproduced);
  CHECK(r.attempts == 2);
}
