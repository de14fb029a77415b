// The native runtime (backends/cpu/runtime): the worker pool runs every task once and joins
// (C1), tasks see the default FP environment and the caller keeps its own (C9), capabilities are
// detected facts with matching compiler flags (C10), and the kir_env services (C14).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cfenv>
#include <chrono>
#include <cstdint>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "backends/cpu/runtime/capabilities.h"
#include "backends/cpu/runtime/env.h"
#include "backends/cpu/runtime/fp_env.h"
#include "backends/cpu/runtime/worker_pool.h"
#include "numerics/dtype.h"
#include "numerics/math.h"
#include "numerics/result.h"

using namespace kir::cpu::rt;

namespace {

// Counts, per task index, how often it ran.
struct Counter {
  std::vector<std::atomic<int>> hits;
  explicit Counter(int64_t n) : hits(static_cast<size_t>(n)) {}
  static void task(void* ctx, int64_t t) {
    static_cast<Counter*>(ctx)->hits[static_cast<size_t>(t)].fetch_add(1, std::memory_order_relaxed);
  }
  bool each_once() const {
    for (const auto& h : hits)
      if (h.load() != 1) return false;
    return true;
  }
};

// Plain (non-atomic) writes, one slot per task: visible after run() only if it joined.
struct Slots {
  std::vector<int64_t> v;
  explicit Slots(int64_t n) : v(static_cast<size_t>(n), -1) {}
  static void task(void* ctx, int64_t t) {
    auto* s = static_cast<Slots*>(ctx);
    if (t == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the last to finish
    s->v[static_cast<size_t>(t)] = t * 3;
  }
  bool all_written() const {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] != static_cast<int64_t>(i) * 3) return false;
    return true;
  }
};

struct Nested {
  WorkerPool* pool;
  std::vector<Counter> inner;
  static void inner_task(void* ctx, int64_t t) {
    auto* p = static_cast<std::pair<Counter*, std::thread::id>*>(ctx);
    Counter::task(p->first, t);
    if (std::this_thread::get_id() != p->second) ++wrong_thread_count;
  }
  static void task(void* ctx, int64_t t) {
    auto* n = static_cast<Nested*>(ctx);
    std::pair<Counter*, std::thread::id> inner_ctx{&n->inner[static_cast<size_t>(t)],
                                                   std::this_thread::get_id()};
    n->pool->run(100, &inner_task, &inner_ctx);
  }
  static inline std::atomic<int> wrong_thread_count{0};
};

// Restores the test thread's FP environment even when a REQUIRE fails.
struct RestoreFpEnv {
  std::fenv_t env;
  uint32_t mxcsr = read_mxcsr();
  RestoreFpEnv() { std::fegetenv(&env); }
  ~RestoreFpEnv() {
    std::fesetenv(&env);
    write_mxcsr(mxcsr);
  }
};

constexpr uint32_t kFtz = 0x8000, kDaz = 0x0040, kStatusFlags = 0x3F;

// What a task observed of its floating-point environment.
struct FpObservation {
  std::atomic<int> bad{0}, ran{0};
  static void task(void* ctx, int64_t) {
    auto* o = static_cast<FpObservation*>(ctx);
    volatile float one = 1.0f, half_ulp = 0x1p-24f;  // a tie: RNE keeps 1, upward rounds up
    volatile float a = 0x1p-100f, b = 0x1p-30f;      // exact subnormal product 2^-130
    volatile float sub = 0x1p-130f;                  // a subnormal input (DAZ would zero it)
    const float sum = one + half_ulp, prod = a * b, twice = sub * 2.0f;
    const bool ok = sum == 1.0f && prod == 0x1p-130f && twice == 0x1p-129f &&
                    std::fegetround() == FE_TONEAREST &&
                    (read_mxcsr() & ~kStatusFlags) == kDefaultMxcsr;
    if (!ok) ++o->bad;
    ++o->ran;
  }
};

struct NamedFact {
  std::string_view name;
  bool Capabilities::*member;
};
const std::vector<NamedFact> kFacts = {
    {"sse42", &Capabilities::sse42},       {"avx", &Capabilities::avx},
    {"avx2", &Capabilities::avx2},         {"fma", &Capabilities::fma},
    {"f16c", &Capabilities::f16c},         {"bmi2", &Capabilities::bmi2},
    {"avx512f", &Capabilities::avx512f},   {"avx512bw", &Capabilities::avx512bw},
    {"avx512vl", &Capabilities::avx512vl}, {"avx512dq", &Capabilities::avx512dq},
    {"avx512cd", &Capabilities::avx512cd}, {"avx512_bf16", &Capabilities::avx512_bf16},
    {"avx512_vnni", &Capabilities::avx512_vnni}, {"avx512_fp16", &Capabilities::avx512_fp16},
    {"avx_vnni", &Capabilities::avx_vnni}, {"amx_tile", &Capabilities::amx_tile},
    {"amx_bf16", &Capabilities::amx_bf16}, {"amx_int8", &Capabilities::amx_int8},
};

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

void check_consistent(const Capabilities& c) {
  std::vector<std::string_view> expected;
  for (const NamedFact& f : kFacts)
    if (c.*f.member) expected.push_back(f.name);
  CHECK(c.names() == expected);
  std::string joined;
  for (std::string_view n : expected) joined += (joined.empty() ? "" : " ") + std::string(n);
  CHECK(c.str() == joined);
  const std::vector<std::string> flags = split(c.march_flags());
  CHECK(flags.size() == expected.size());
  for (const std::string& f : flags) {
    CHECK(f.rfind("-m", 0) == 0);
    CHECK(f.find("march") == std::string::npos);
    CHECK(f.find("native") == std::string::npos);
    CHECK(f.find("mtune") == std::string::npos);
  }
  const auto has = [&](const char* f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
  CHECK(has("-mavx512f") == c.avx512f);
  CHECK(has("-mavx2") == c.avx2);
  CHECK(has("-mamx-tile") == c.amx_tile);
  CHECK(has("-mavx512bf16") == c.avx512_bf16);
  CHECK(Capabilities::from_names(c.names()) == c);
}

}  // namespace

TEST_CASE("worker pool runs every task exactly once and joins", "[runtime][C1]") {
  for (int threads : {1, 2, 4}) {
    WorkerPool pool(threads);
    CHECK(pool.threads() == threads);
    Counter c(100000);
    pool.run(100000, &Counter::task, &c);
    CHECK(c.each_once());
    Slots s(64);
    pool.run(64, &Slots::task, &s);
    CHECK(s.all_written());
  }
  CHECK(WorkerPool(0).threads() == 1);
}

TEST_CASE("worker pool: under schedule perturbation every task still runs exactly once", "[runtime][C1]") {
  set_schedule_jitter(7);
  for (int threads : {2, 4}) {
    WorkerPool pool(threads);
    Counter c(3000);
    pool.run(3000, &Counter::task, &c);
    CHECK(c.each_once());
  }
  CHECK(schedule_jitter() == 7);
  set_schedule_jitter(0);
  CHECK(schedule_jitter() == 0);
}

TEST_CASE("worker pool: a process forked while a job is running runs its own jobs inline", "[runtime][C1]") {
  // The parent's pool is mid-job when fork() copies it (its job mutex held, a worker inside the
  // job); the workers do not exist in the child. Found by the campaign's reducer, which judges
  // candidates in forked children: one hung until its time limit whenever the fork caught a
  // worker inside a job.
  WorkerPool pool(2);
  std::atomic<bool> release{false};
  std::atomic<int> entered{0};
  struct Block {
    std::atomic<bool>* release;
    std::atomic<int>* entered;
    static void task(void* p, int64_t) {
      auto* b = static_cast<Block*>(p);
      b->entered->fetch_add(1);
      while (!b->release->load()) std::this_thread::yield();
    }
  } block{&release, &entered};
  std::thread runner([&] { pool.run(2, &Block::task, &block); });
  const auto start = std::chrono::steady_clock::now();
  while (entered.load() < 1 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10))
    std::this_thread::yield();
  REQUIRE(entered.load() >= 1);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid == 0) {
    Counter c(1000);
    pool.run(1000, &Counter::task, &c);
    _exit(c.each_once() ? 0 : 1);
  }
  release.store(true);
  runner.join();
  REQUIRE(pid > 0);
  int status = 0;
  bool exited = false;
  for (int i = 0; i < 200 && !exited; ++i) {  // 20 s
    exited = waitpid(pid, &status, WNOHANG) == pid;
    if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  CHECK(exited);
  CHECK((exited && WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("worker pool: no task, one task, many small runs back to back", "[runtime][C1]") {
  WorkerPool pool(3);
  Counter none(1);
  pool.run(0, &Counter::task, &none);
  pool.run(-5, &Counter::task, &none);
  CHECK(none.hits[0].load() == 0);

  struct One {
    std::thread::id id;
    int calls = 0;
    int64_t task = -1;
  } one;
  pool.run(1, [](void* ctx, int64_t t) {
    auto* o = static_cast<One*>(ctx);
    o->id = std::this_thread::get_id();
    ++o->calls;
    o->task = t;
  }, &one);
  CHECK(one.calls == 1);
  CHECK(one.task == 0);
  CHECK(one.id == std::this_thread::get_id());

  bool ok = true;
  for (int round = 0; round < 2000 && ok; ++round) {  // stresses job hand-over between runs
    const int64_t n = 2 + round % 7;
    Counter c(n);
    pool.run(n, &Counter::task, &c);
    ok = c.each_once();
  }
  CHECK(ok);

  // Workers that went to sleep wake up for the next run.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  Counter after_sleep(1000);
  pool.run(1000, &Counter::task, &after_sleep);
  CHECK(after_sleep.each_once());
}

TEST_CASE("worker pool: nested run executes inline", "[runtime][C1]") {
  WorkerPool pool(3);
  Nested n{&pool, {}};
  for (int i = 0; i < 8; ++i) n.inner.emplace_back(100);
  Nested::wrong_thread_count = 0;
  pool.run(8, &Nested::task, &n);
  for (const Counter& c : n.inner) CHECK(c.each_once());
  CHECK(Nested::wrong_thread_count.load() == 0);
}

TEST_CASE("worker pool: concurrent callers and the C trampoline", "[runtime][C1]") {
  WorkerPool pool(3);
  std::atomic<int> failures{0};
  auto caller = [&] {
    for (int round = 0; round < 200; ++round) {
      Counter c(257);
      pool_run_tasks(&pool, 257, &Counter::task, &c);
      if (!c.each_once()) ++failures;
    }
  };
  std::thread a(caller), b(caller);
  a.join();
  b.join();
  CHECK(failures.load() == 0);

  Counter inline_run(10);
  pool_run_tasks(nullptr, 10, &Counter::task, &inline_run);
  CHECK(inline_run.each_once());
  Counter global(5000);
  WorkerPool::global().run(5000, &Counter::task, &global);
  CHECK(global.each_once());
  CHECK(WorkerPool::global().threads() >= 1);
}

TEST_CASE("FpEnvGuard sets the default environment and restores the caller's exactly", "[runtime][C9]") {
  RestoreFpEnv restore;
  std::feclearexcept(FE_ALL_EXCEPT);
  REQUIRE(std::fesetround(FE_UPWARD) == 0);
  write_mxcsr(read_mxcsr() | kFtz | kDaz);
  std::feraiseexcept(FE_INEXACT);
  const uint32_t caller_mxcsr = read_mxcsr();
  int inside_round = -1, overflow_after = -1;
  uint32_t inside_mxcsr = 0;
  {
    FpEnvGuard guard;
    inside_round = std::fegetround();
    inside_mxcsr = read_mxcsr();
    std::feraiseexcept(FE_OVERFLOW);
  }
  const uint32_t after_mxcsr = read_mxcsr();
  const int after_round = std::fegetround();
  overflow_after = std::fetestexcept(FE_OVERFLOW);
  const int inexact_after = std::fetestexcept(FE_INEXACT);
  CHECK(inside_round == FE_TONEAREST);
  CHECK(inside_mxcsr == kDefaultMxcsr);
  CHECK(after_mxcsr == caller_mxcsr);
  CHECK(after_round == FE_UPWARD);
  CHECK(overflow_after == 0);
  CHECK(inexact_after != 0);
}

TEST_CASE("tasks compute in the default FP environment; the caller keeps its own", "[runtime][C9]") {
  RestoreFpEnv restore;
  REQUIRE(std::fesetround(FE_UPWARD) == 0);
  write_mxcsr(read_mxcsr() | kFtz | kDaz);
  // Workers created now start with the caller's (upward, FTZ/DAZ) environment.
  WorkerPool pool(3);
  for (int64_t n : {int64_t{1}, int64_t{64}, int64_t{20000}}) {
    FpObservation obs;
    const uint32_t before = read_mxcsr();
    pool.run(n, &FpObservation::task, &obs);
    const uint32_t after = read_mxcsr();
    const int round_after = std::fegetround();
    CHECK(obs.ran.load() == n);
    CHECK(obs.bad.load() == 0);
    CHECK(after == before);
    CHECK((after & (kFtz | kDaz)) == (kFtz | kDaz));
    CHECK(round_after == FE_UPWARD);
  }
  {
    // The same computation outside a task does see the caller's environment.
    volatile float one = 1.0f, half_ulp = 0x1p-24f, a = 0x1p-100f, b = 0x1p-30f;
    const float sum = one + half_ulp, prod = a * b;
    CHECK(sum > 1.0f);
    CHECK(prod == 0.0f);
  }
}

TEST_CASE("capabilities are consistent detected facts", "[runtime][C10]") {
  const Capabilities& host = host_capabilities();
  CHECK(&host == &host_capabilities());
  check_consistent(host);
  std::vector<std::string_view> all_names;
  for (const NamedFact& f : kFacts) all_names.push_back(f.name);
  CHECK(capability_names() == all_names);

  // Every detected fact is also one the kernel reports (the converse needs OS support too).
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line) && line.rfind("flags", 0) != 0) {}
  if (!line.empty()) {
    const std::vector<std::string> words = split(line);
    const std::set<std::string> flags(words.begin(), words.end());
    for (std::string_view n : host.names()) {
      const std::string kernel_name = n == "sse42" ? "sse4_2" : std::string(n);
      INFO(n);
      CHECK(flags.count(kernel_name) == 1);
    }
  }
  INFO(host.str());
  INFO(host.march_flags());
  SUCCEED();
}

TEST_CASE("capabilities from names: closure, round trip, flags", "[runtime][C10]") {
  const Capabilities none = Capabilities::from_names({});
  CHECK(none.names().empty());
  CHECK(none.str().empty());
  CHECK(none.march_flags().empty());
  check_consistent(none);

  const Capabilities bf16 = Capabilities::from_names({"avx512_bf16"});
  CHECK(bf16.str() == "sse42 avx avx2 fma f16c avx512f avx512bw avx512_bf16");
  CHECK(bf16.march_flags() == "-msse4.2 -mavx -mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512bf16");
  CHECK_FALSE(bf16.avx512vl);
  check_consistent(bf16);

  const Capabilities avx2 = Capabilities::from_names({"bmi2", "avx2", "fma"});
  CHECK(avx2.str() == "sse42 avx avx2 fma bmi2");
  CHECK_FALSE(avx2.avx512f);
  CHECK(avx2.march_flags().find("-mavx512f") == std::string::npos);
  check_consistent(avx2);

  const Capabilities amx = Capabilities::from_names({"amx_int8"});
  CHECK(amx.str() == "amx_tile amx_int8");
  check_consistent(amx);

  std::vector<std::string_view> every;
  for (const NamedFact& f : kFacts) every.push_back(f.name);
  const Capabilities all = Capabilities::from_names(every);
  CHECK(all.names() == every);
  CHECK(split(all.march_flags()).size() == kFacts.size());
  check_consistent(all);

  CHECK_THROWS_AS(Capabilities::from_names({"skylake"}), std::invalid_argument);
  CHECK_THROWS_AS(Capabilities::from_names({"AVX2"}), std::invalid_argument);
}

TEST_CASE("default_env binds the runtime services", "[runtime][C14]") {
  const kir_env* env = default_env();
  REQUIRE(env != nullptr);
  CHECK(env == default_env());
  CHECK(env->abi_version == KIR_ABI_VERSION);
  CHECK(env->pool == &WorkerPool::global());
  REQUIRE(env->run_tasks != nullptr);
  REQUIRE(env->math != nullptr);
  REQUIRE(env->cast != nullptr);
  REQUIRE(env->alloc != nullptr);
  REQUIRE(env->free != nullptr);

  const auto f32 = static_cast<int32_t>(kir::DType::F32);
  const auto i32 = static_cast<int32_t>(kir::DType::I32);
  const uint64_t one = std::bit_cast<uint32_t>(1.0f);
  CHECK(env->math(static_cast<int32_t>(kir::num::MathFn::Exp), f32, one) ==
        std::bit_cast<uint32_t>(2.7182817f));
  CHECK(env->math(static_cast<int32_t>(kir::num::MathFn::Sqrt), f32, std::bit_cast<uint32_t>(4.0f)) ==
        std::bit_cast<uint32_t>(2.0f));

  uint64_t out = 12345;
  CHECK(env->cast(f32, i32, std::bit_cast<uint32_t>(-3.75f), &out) == 0);
  CHECK(out == 0xFFFFFFFDu);  // -3 in i32's bits
  CHECK(env->cast(i32, f32, 0xFFFFFFFDu, &out) == 0);
  CHECK(out == std::bit_cast<uint32_t>(-3.0f));
  out = 7;
  CHECK(env->cast(f32, i32, std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN()), &out) ==
        static_cast<int32_t>(kir::num::Status::InvalidCast));
  CHECK(out == 7);
  CHECK(env->cast(f32, 200, 0, &out) != 0);

  for (int64_t align : {1, 8, 64, 4096}) {
    void* p = env->alloc(1000, align);
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(p) % static_cast<uintptr_t>(align) == 0);
    std::memset(p, 0xAB, 1000);
    env->free(p);
  }
  void* empty = env->alloc(0, 64);
  CHECK(empty != nullptr);
  env->free(empty);
  CHECK(env->alloc(16, 3) == nullptr);
  CHECK(env->alloc(-1, 64) == nullptr);

  Counter c(777);
  env->run_tasks(env->pool, 777, &Counter::task, &c);
  CHECK(c.each_once());
}
