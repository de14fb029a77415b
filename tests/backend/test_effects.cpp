// Effects on the CPU backend (C1, C9): random.bits / random.uniform bit for bit as the numerics
// library's Philox, pow and float rem through the host (bitwise as the interpreter), atomics with
// real atomic instructions (sequential programs differential; parallel ones checked for every
// legal interleaving), scatter_reduce (canonical order outside parallel, atomic updates inside),
// and the dropout / index_add kernels of the specs compiling.
#include <algorithm>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include "backend_test.h"
#include "backends/cpu/runtime/env.h"
#include "numerics/float_extra.h"
#include "numerics/philox.h"

using namespace kir;

namespace {

interp::HostView bits_view(DType d, const interp::Shape& shape, std::vector<uint64_t> bits) {
  return interp::make_host_view(d, shape, std::move(bits));
}

const std::vector<uint64_t>& bits_of(const std::map<std::string, interp::KernelArg>& a, const std::string& n) {
  return btest::out_view(a, n).storage->bits;
}

std::map<std::string, interp::KernelArg> run_native(const Module& m, const std::string& k,
                                                    std::map<std::string, interp::KernelArg> args) {
  oracle::run_on_backend(m, k, args, btest::options());
  return args;
}

std::string read_text(const std::string& rel) {
  std::ifstream in(std::string(KIR_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

// ------------------------------------------------------------------------------------ random

const char* kRandomKernel = R"(
kernel @rng(%ctr: In<u64[N]>, %bits: Out<u32[N]>, %uf16: Out<f16[N]>, %ubf16: Out<bf16[N]>, %uf32: Out<f32[N]>,
            %uf64: Out<f64[N]>, %one: Out<u32[1]>, %seed: u64) {
  %c0 = const() {value = 0} : index
  %n = dim(%ctr) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %c = view.load(%ctr, %rel) : u64[N]
  %b = random.bits(%seed, %c) : u32[N]
  %h = random.uniform(%seed, %c) : f16[N]
  %g = random.uniform(%seed, %c) : bf16[N]
  %f = random.uniform(%seed, %c) : f32[N]
  %e = random.uniform(%seed, %c) : f64[N]
  view.store(%bits, %rel, %b)
  view.store(%uf16, %rel, %h)
  view.store(%ubf16, %rel, %g)
  view.store(%uf32, %rel, %f)
  view.store(%uf64, %rel, %e)
  %k = const() {value = 7} : u64
  %s = random.bits(%seed, %k) : u32
  %r0 = relation(%c0) : relation<1 -> []>
  view.store(%one, %r0, %s)
}
)";

TEST_CASE("random.bits and random.uniform give numerics' Philox bits for many seeds and counters",
          "[C1][C9][L17.1][L17.2]") {
  auto m = btest::load(kRandomKernel);
  std::mt19937_64 gen(20261129);
  std::vector<uint64_t> seeds = {0, 1, 0xFFFFFFFFull, 0x100000000ull, ~0ull, 0x0123456789ABCDEFull};
  for (int i = 0; i < 10; ++i) seeds.push_back(gen());
  std::vector<uint64_t> ctrs;
  for (uint64_t c = 0; c < 64; ++c) ctrs.push_back(c);
  for (uint64_t c : {0xFFFFFFFFull, 0x100000000ull, 0x3FFFFFFFFull, ~0ull, ~0ull - 1, ~0ull - 2, ~0ull - 3, 1ull << 63})
    ctrs.push_back(c);
  while (ctrs.size() < 300) ctrs.push_back(gen());
  const int64_t n = static_cast<int64_t>(ctrs.size());
  for (uint64_t seed : seeds) {
    std::map<std::string, interp::KernelArg> args = {
        {"ctr", bits_view(DType::U64, {n}, ctrs)},       {"bits", btest::view(DType::U32, {n})},
        {"uf16", btest::view(DType::F16, {n})},          {"ubf16", btest::view(DType::BF16, {n})},
        {"uf32", btest::view(DType::F32, {n})},          {"uf64", btest::view(DType::F64, {n})},
        {"one", btest::view(DType::U32, {1})},           {"seed", num::Scalar{DType::U64, seed}}};
    auto out = run_native(*m, "rng", args);
    INFO("seed " << seed);
    size_t bad = 0;
    for (size_t i = 0; i < ctrs.size(); ++i) {
      const uint32_t w = num::random_bits(seed, ctrs[i]);
      bad += bits_of(out, "bits")[i] != w;
      bad += bits_of(out, "uf16")[i] != num::uniform(w, DType::F16)->bits;
      bad += bits_of(out, "ubf16")[i] != num::uniform(w, DType::BF16)->bits;
      bad += bits_of(out, "uf32")[i] != num::uniform(w, DType::F32)->bits;
      bad += bits_of(out, "uf64")[i] != num::uniform(w, DType::F64)->bits;
    }
    CHECK(bad == 0);
    CHECK(bits_of(out, "one")[0] == num::random_bits(seed, 7));
  }
  // And bit for bit with the interpreter.
  std::map<std::string, interp::KernelArg> args = {
      {"ctr", bits_view(DType::U64, {n}, ctrs)}, {"bits", btest::view(DType::U32, {n})},
      {"uf16", btest::view(DType::F16, {n})},    {"ubf16", btest::view(DType::BF16, {n})},
      {"uf32", btest::view(DType::F32, {n})},    {"uf64", btest::view(DType::F64, {n})},
      {"one", btest::view(DType::U32, {1})},     {"seed", num::Scalar{DType::U64, 42}}};
  btest::differential(*m, "rng", args);
}

TEST_CASE("random with an index counter: agrees with the interpreter; a negative counter is a located fault",
          "[C1][C9][L17.1]") {
  auto m = btest::load(R"(
kernel @rng(%u: Out<f32[N]>, %seed: u64, %shift: index) {
  %c0 = const() {value = 0} : index
  %n = dim(%u) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %sb = broadcast(%shift) {dims = []} : index[N]
  %c = sub(%i, %sb) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %x = random.uniform(%seed, %c) : f32[N]
  view.store(%u, %rel, %x)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"u", btest::view(DType::F32, {100})},
                                                  {"seed", num::Scalar{DType::U64, 1234}},
                                                  {"shift", num::Scalar{DType::Index, static_cast<uint64_t>(int64_t{-5})}}};
  auto out = btest::differential(*m, "rng", args);
  CHECK(bits_of(out, "u")[3] == num::uniform(num::random_bits(1234, 8), DType::F32)->bits);
  args["shift"] = num::Scalar{DType::Index, 2};
  auto d = oracle::run_differential(*m, "rng", args, nullptr, btest::options());
  INFO(d.str());
  CHECK(!d.interp_error.empty());
  CHECK(d.backend_error.find("invalid value") != std::string::npos);
}

// ------------------------------------------------------------------------------- pow and rem

TEST_CASE("kir_env::binary computes pow and float rem exactly as the interpreter", "[C1][C9][C14]") {
  const kir_env* env = cpu::rt::default_env();
  REQUIRE(env->binary != nullptr);
  std::mt19937_64 gen(7);
  const std::vector<double> specials = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 3.0, -3.5, 1e-3, 1e3, 1e300,
                                        -1e-300, 1e-310, INFINITY, -INFINITY, NAN, 0.1, 7.25, -0.75};
  for (DType d : {DType::F16, DType::BF16, DType::F32, DType::F64}) {
    std::vector<uint64_t> vals;
    for (double v : specials) vals.push_back(num::from_double(v, d));
    for (int i = 0; i < 40; ++i) vals.push_back(gen() & num::width_mask(d));
    size_t bad = 0;
    for (uint64_t a : vals)
      for (uint64_t b : vals) {
        const num::Scalar x{d, a}, y{d, b};
        bad += env->binary(KIR_BINARY_POW, static_cast<int32_t>(d), a, b) != num::float_pow(x, y).bits;
        bad += env->binary(KIR_BINARY_REM, static_cast<int32_t>(d), a, b) != num::float_fmod(x, y).bits;
      }
    INFO(name(d));
    CHECK(bad == 0);
  }
}

TEST_CASE("pow and float rem run natively bit for bit as the interpreter", "[C1][C9][L4.1]") {
  for (const char* t : {"f16", "bf16", "f32", "f64"}) {
    const std::string T = t;
    auto m = btest::load(R"(
kernel @k(%a: In<)" + T + R"([N]>, %b: In<)" + T + R"([N]>, %p: Out<)" + T + R"([N]>, %r: Out<)" + T + R"([N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %x = view.load(%a, %rel) : )" + T + R"([N]
  %y = view.load(%b, %rel) : )" + T + R"([N]
  %pw = pow(%x, %y) : )" + T + R"([N]
  %rm = rem(%x, %y) : )" + T + R"([N]
  view.store(%p, %rel, %pw)
  view.store(%r, %rel, %rm)
}
)");
    const DType d = *parse_dtype(T);
    std::vector<double> a, b;
    const std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 3.0, 10.0, 0.1, INFINITY, -INFINITY, NAN, 1e-3};
    for (double x : v)
      for (double y : v) a.push_back(x), b.push_back(y);
    const int64_t n = static_cast<int64_t>(a.size());
    std::map<std::string, interp::KernelArg> args = {{"a", btest::view(d, {n}, a)},
                                                    {"b", btest::view(d, {n}, b)},
                                                    {"p", btest::view(d, {n})},
                                                    {"r", btest::view(d, {n})}};
    auto out = btest::differential(*m, "k", args);
    // Row x = 10 (value 8): 10^2 = 100 (column 5) and 10 rem 3 = 1 (column 7).
    CHECK(num::to_double(bits_of(out, "p")[8 * 14 + 5], d) == 100.0);
    CHECK(num::to_double(bits_of(out, "r")[8 * 14 + 7], d) == 1.0);
  }
}

// ---------------------------------------------------------------------------------- atomics

TEST_CASE("atomics in sequential code: load, store, every rmw kind, compare-exchange", "[C1][C9][L16.1]") {
  auto m = btest::load(R"(
kernel @k(%ci: InOut<i32[4]>, %cf: InOut<f32[3]>, %ch: InOut<f16[2]>, %cb: InOut<bf16[2]>, %cd: InOut<f64[1]>,
          %cu: InOut<u8[2]>, %res: Out<i32[8]>, %ok: Out<bool[2]>, %fres: Out<f32[3]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c2 = const() {value = 2} : index
  %c3 = const() {value = 3} : index
  %r0 = relation(%c0) : relation<1 -> []>
  %r1 = relation(%c1) : relation<1 -> []>
  %r2 = relation(%c2) : relation<1 -> []>
  %r3 = relation(%c3) : relation<1 -> []>
  %five = const() {value = 5} : i32
  %m3 = const() {value = -3} : i32
  %six = const() {value = 6} : i32
  atomic.store(%ci, %r0, %five) {order = release}
  %a = atomic.rmw(%ci, %r0, %m3) {kind = add, order = relaxed} : i32
  %b = atomic.rmw(%ci, %r0, %six) {kind = xor, order = acq_rel} : i32
  %c = atomic.rmw(%ci, %r1, %six) {kind = max, order = acquire} : i32
  %d = atomic.rmw(%ci, %r2, %m3) {kind = min, order = release} : i32
  %e = atomic.rmw(%ci, %r3, %six) {kind = and, order = relaxed} : i32
  %f = atomic.rmw(%ci, %r3, %five) {kind = or, order = relaxed} : i32
  %g = atomic.rmw(%ci, %r1, %m3) {kind = exchange, order = acq_rel} : i32
  %h = atomic.load(%ci, %r0) {order = acquire} : i32
  %x = atomic.compare_exchange(%ci, %r0, %h, %five) {order = acq_rel} : record<old_value: i32, success: bool>
  %y = atomic.compare_exchange(%ci, %r0, %h, %six) {order = relaxed} : record<old_value: i32, success: bool>
  %xo = record.get(%x) {field = old_value} : i32
  %xs = record.get(%x) {field = success} : bool
  %yo = record.get(%y) {field = old_value} : i32
  %ys = record.get(%y) {field = success} : bool
  %all = domain(%c0, %c2) : domain<2>
  view.store(%res, %r0, %a)
  view.store(%res, %r1, %b)
  view.store(%res, %r2, %c)
  view.store(%res, %r3, %d)
  %c4 = const() {value = 4} : index
  %c5 = const() {value = 5} : index
  %c6 = const() {value = 6} : index
  %c7 = const() {value = 7} : index
  %r4 = relation(%c4) : relation<1 -> []>
  %r5 = relation(%c5) : relation<1 -> []>
  %r6 = relation(%c6) : relation<1 -> []>
  %r7 = relation(%c7) : relation<1 -> []>
  view.store(%res, %r4, %e)
  view.store(%res, %r5, %f)
  view.store(%res, %r6, %g)
  view.store(%res, %r7, %yo)
  view.store(%ok, %r0, %xs)
  view.store(%ok, %r1, %ys)
  %q = const() {value = 0.375} : f32
  %fa = atomic.rmw(%cf, %r0, %q) {kind = add, order = relaxed} : f32
  %fm = atomic.rmw(%cf, %r1, %q) {kind = max, order = relaxed} : f32
  %fn = atomic.rmw(%cf, %r2, %q) {kind = min, order = relaxed} : f32
  view.store(%fres, %r0, %fa)
  view.store(%fres, %r1, %fm)
  view.store(%fres, %r2, %fn)
  %qh = const() {value = 0.375} : f16
  %ha = atomic.rmw(%ch, %r0, %qh) {kind = add, order = relaxed} : f16
  %hm = atomic.rmw(%ch, %r1, %qh) {kind = min, order = relaxed} : f16
  %qb = const() {value = 0.375} : bf16
  %ba = atomic.rmw(%cb, %r0, %qb) {kind = add, order = relaxed} : bf16
  %bm = atomic.rmw(%cb, %r1, %qb) {kind = max, order = relaxed} : bf16
  %qd = const() {value = 0.375} : f64
  %da = atomic.rmw(%cd, %r0, %qd) {kind = add, order = acq_rel} : f64
  %u9 = const() {value = 200} : u8
  %ua = atomic.rmw(%cu, %r0, %u9) {kind = add, order = relaxed} : u8
  %um = atomic.rmw(%cu, %r1, %u9) {kind = min, order = relaxed} : u8
}
)");
  std::map<std::string, interp::KernelArg> args = {
      {"ci", btest::view(DType::I32, {4}, {0, 1, 2, 12})}, {"cf", btest::view(DType::F32, {3}, {0.2, NAN, -1})},
      {"ch", btest::view(DType::F16, {2}, {1000.1, 0.25})}, {"cb", btest::view(DType::BF16, {2}, {3.3, 0.25})},
      {"cd", btest::view(DType::F64, {1}, {0.2})},        {"cu", btest::view(DType::U8, {2}, {100, 250})},
      {"res", btest::view(DType::I32, {8})},              {"ok", btest::view(DType::Bool, {2})},
      {"fres", btest::view(DType::F32, {3})}};
  auto out = btest::differential(*m, "k", args);
  // 5 + -3 = 2; 2 ^ 6 = 4; max(1, 6): old 1, then exchange -> old 6; min(2, -3): old 2; 12 & 6 = 4 | 5 = 5;
  // cas(4 -> 5) succeeds, cas(4 -> 6) fails and reads 5.
  CHECK(btest::values(btest::out_view(out, "res")) == std::vector<double>{5, 2, 1, 2, 12, 4, 6, 5});
  CHECK(btest::values(btest::out_view(out, "ok")) == std::vector<double>{1, 0});
  CHECK(btest::values(btest::out_view(out, "ci")) == std::vector<double>{5, -3, -3, 5});
  CHECK(btest::values(btest::out_view(out, "cu")) == std::vector<double>{44, 200});
  CHECK(bits_of(out, "cf")[0] == num::from_double(static_cast<double>(0.2f + 0.375f), DType::F32));
  CHECK(btest::values(btest::out_view(out, "fres"))[2] == -1.0);
  CHECK(btest::values(btest::out_view(out, "cf"))[2] == -1.0);
}

TEST_CASE("an atomic outside its destination is a located fault", "[C1][C9][L16.1]") {
  auto m = btest::load(R"(
kernel @k(%c: InOut<i32[4]>, %at: index) {
  %one = const() {value = 1} : i32
  %r = relation(%at) : relation<1 -> []>
  %o = atomic.rmw(%c, %r, %one) {kind = add, order = relaxed} : i32
}
)");
  std::map<std::string, interp::KernelArg> args = {{"c", btest::view(DType::I32, {4}, {0, 0, 0, 0})},
                                                  {"at", num::Scalar{DType::Index, 3}}};
  auto out = btest::differential(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "c")) == std::vector<double>{0, 0, 0, 1});
  args["at"] = num::Scalar{DType::Index, 4};
  auto d = oracle::run_differential(*m, "k", args, nullptr, btest::options());
  INFO(d.str());
  CHECK(!d.interp_error.empty());
  CHECK(d.backend_error.find("index out of bounds") != std::string::npos);
}

const char* kTickets = R"(
kernel @k(%cnt: InOut<i32[1]>, %first: Out<i32[N]>, %second: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%first) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %a = atomic.rmw(%cnt, %r0, %one) {kind = add, order = relaxed} : i32
    %b = atomic.rmw(%cnt, %r0, %one) {kind = add, order = acq_rel} : i32
    view.store(%first, %ri, %a)
    view.store(%second, %ri, %b)
    yield()
  }
}
)";

TEST_CASE("atomic adds under parallel: every ticket is handed out once", "[C1][C9][L16.1][L5.1]") {
  auto m = btest::load(kTickets);
  const int64_t n = 20000;
  for (int rep = 0; rep < 3; ++rep) {
    std::map<std::string, interp::KernelArg> args = {{"cnt", btest::view(DType::I32, {1}, {0})},
                                                    {"first", btest::view(DType::I32, {n})},
                                                    {"second", btest::view(DType::I32, {n})}};
    auto out = run_native(*m, "k", args);
    CHECK(btest::values(btest::out_view(out, "cnt")) == std::vector<double>{2.0 * n});
    auto all = btest::values(btest::out_view(out, "first"));
    auto s = btest::values(btest::out_view(out, "second"));
    all.insert(all.end(), s.begin(), s.end());
    std::sort(all.begin(), all.end());
    std::vector<double> want(static_cast<size_t>(2 * n));
    std::iota(want.begin(), want.end(), 0.0);
    CHECK(all == want);
  }
  // Small: the sequential result is one of the legal ones and the count is order-independent.
  std::map<std::string, interp::KernelArg> args = {{"cnt", btest::view(DType::I32, {1}, {0})},
                                                  {"first", btest::view(DType::I32, {6})},
                                                  {"second", btest::view(DType::I32, {6})}};
  auto out = run_native(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "cnt")) == std::vector<double>{12});
}

TEST_CASE("a compare-exchange retry loop under parallel counts every point once", "[C1][C9][L16.1][L5.1]") {
  auto m = btest::load(R"(
kernel @k(%cnt: InOut<i32[1]>, %tries: InOut<i32[1]>, %n: index) {
  %c0 = const() {value = 0} : index
  %d = domain(%c0, %n) : domain<%n>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  %no = const() {value = false} : bool
  parallel(%d) region(%i: index) {
    %done = while(%no) : bool region(%ok: bool) {
      %more = not(%ok) : bool
      condition(%more, %ok)
    } region(%prev: bool) {
      %cur = atomic.load(%cnt, %r0) {order = acquire} : i32
      %nx = add(%cur, %one) : i32
      %res = atomic.compare_exchange(%cnt, %r0, %cur, %nx) {order = acq_rel} : record<old_value: i32, success: bool>
      %t = atomic.rmw(%tries, %r0, %one) {kind = add, order = relaxed} : i32
      %s = record.get(%res) {field = success} : bool
      yield(%s)
    }
    yield()
  }
}
)");
  const int64_t n = 30000;
  std::map<std::string, interp::KernelArg> args = {{"cnt", btest::view(DType::I32, {1}, {0})},
                                                  {"tries", btest::view(DType::I32, {1}, {0})},
                                                  {"n", num::Scalar{DType::Index, static_cast<uint64_t>(n)}}};
  auto out = run_native(*m, "k", args);
  CHECK(btest::values(btest::out_view(out, "cnt")) == std::vector<double>{static_cast<double>(n)});
  CHECK(btest::values(btest::out_view(out, "tries"))[0] >= static_cast<double>(n));
  args = {{"cnt", btest::view(DType::I32, {1}, {0})},
          {"tries", btest::view(DType::I32, {1}, {0})},
          {"n", num::Scalar{DType::Index, 50}}};
  auto small = btest::differential(*m, "k", args);
  CHECK(btest::values(btest::out_view(small, "cnt")) == std::vector<double>{50});
}

TEST_CASE("float atomic add/min/max under parallel: integer-valued sums agree in every order", "[C1][C9][L16.1][L5.1]") {
  for (const char* t : {"f32", "f64", "f16", "bf16"}) {
    const std::string T = t;
    auto m = btest::load(R"(
kernel @k(%x: In<)" + T + R"([N]>, %acc: InOut<)" + T + R"([4]>, %hi: InOut<)" + T + R"([4]>, %lo: InOut<)" + T +
                         R"([4]>, %ii: InOut<i64[4]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %four = const() {value = 4} : index
  parallel(%d) region(%i: index) {
    %ri = relation(%i) : relation<1 -> []>
    %v = view.load(%x, %ri) : )" + T + R"(
    %b = rem(%i, %four) : index
    %rb = relation(%b) : relation<1 -> []>
    %o1 = atomic.rmw(%acc, %rb, %v) {kind = add, order = relaxed} : )" + T + R"(
    %o2 = atomic.rmw(%hi, %rb, %v) {kind = max, order = relaxed} : )" + T + R"(
    %o3 = atomic.rmw(%lo, %rb, %v) {kind = min, order = relaxed} : )" + T + R"(
    %vi = cast(%i) : i64
    %o4 = atomic.rmw(%ii, %rb, %vi) {kind = add, order = relaxed} : i64
    yield()
  }
}
)");
    const DType d = *parse_dtype(T);
    const int64_t n = 240;  // sums stay below 256: exact in bf16 too
    std::vector<double> x;
    for (int64_t i = 0; i < n; ++i) x.push_back(static_cast<double>((i * 7) % 3 - 1 + (i % 4 == 0 ? 0 : (i % 5 == 0) * 2)));
    std::map<std::string, interp::KernelArg> args = {{"x", btest::view(d, {n}, x)},
                                                    {"acc", btest::view(d, {4}, {0, 0, 0, 0})},
                                                    {"hi", btest::view(d, {4}, {-100, -100, -100, -100})},
                                                    {"lo", btest::view(d, {4}, {100, 100, 100, 100})},
                                                    {"ii", btest::view(DType::I64, {4}, {0, 0, 0, 0})}};
    INFO(T);
    auto out = btest::differential(*m, "k", args);
    std::vector<double> acc(4, 0), hi(4, -100), lo(4, 100), ii(4, 0);
    for (int64_t i = 0; i < n; ++i) {
      acc[i % 4] += x[i], hi[i % 4] = std::max(hi[i % 4], x[i]), lo[i % 4] = std::min(lo[i % 4], x[i]);
      ii[i % 4] += static_cast<double>(i);
    }
    CHECK(btest::values(btest::out_view(out, "acc")) == acc);
    CHECK(btest::values(btest::out_view(out, "hi")) == hi);
    CHECK(btest::values(btest::out_view(out, "lo")) == lo);
    CHECK(btest::values(btest::out_view(out, "ii")) == ii);
  }
}

// --------------------------------------------------------------------------- scatter_reduce

TEST_CASE("scatter_reduce outside parallel: canonical order, captures, masked points", "[C1][C9][L15.3][L13.1]") {
  auto m = btest::load(R"(
fn @add_f32(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}
fn @add_scaled(%a: f32, %b: f32, %w: f32) -> f32 {
  %p = mul(%b, %w) : f32
  %s = add(%a, %p) : f32
  return(%s)
}
fn @last(%a: i32, %b: i32) -> i32 {
  %t = mul(%a, %b) : i32
  %u = sub(%t, %b) : i32
  return(%u)
}
kernel @k(%x: In<f32[N]>, %bins: In<index[N]>, %hist: InOut<f32[8]>, %h2: InOut<f32[8]>, %seq: InOut<i32[3]>, %w: f32) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %b = view.load(%bins, %rel) : index[N]
  %brel = relation(%b) : relation<1 -> [N]>
  scatter_reduce(%hist, %brel, %v) {combine = @add_f32}
  %three = const() {value = 3} : index
  %tb = broadcast(%three) {dims = []} : index[N]
  %keep = cmp(%i, %tb) {pred = ge} : bool[N]
  %mrel = relation(%b, %keep) : relation<1 -> [N], masked>
  scatter_reduce(%h2, %mrel, %v, %w) {combine = @add_scaled}
  %vi = cast(%i) : i32[N]
  %twos = rem(%i, %tb) : index[N]
  %srel = relation(%twos) : relation<1 -> [N]>
  scatter_reduce(%seq, %srel, %vi) {combine = @last}
}
)");
  std::vector<double> x = {0.1, 1e8, -1e8, 0.3, 1.5, 2.25, 1e-8, 3, 4, 5, 0.7};
  std::vector<double> bins = {0, 0, 0, 1, 7, 7, 1, 3, 3, 3, 0};
  const int64_t n = static_cast<int64_t>(x.size());
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {n}, x)},
                                                  {"bins", btest::view(DType::Index, {n}, bins)},
                                                  {"hist", btest::view(DType::F32, {8}, {0, 0, 0, 0, 0, 0, 0, 0})},
                                                  {"h2", btest::view(DType::F32, {8}, {1, 1, 1, 1, 1, 1, 1, 1})},
                                                  {"seq", btest::view(DType::I32, {3}, {1, 2, 3})},
                                                  {"w", num::Scalar{DType::F32, num::from_double(0.5, DType::F32)}}};
  auto out = btest::differential(*m, "k", args);
  // Bin 0 in canonical order: ((0 + 0.1) + 1e8) + -1e8 + 0.7 in f32.
  float b0 = 0.0f;
  for (float v : {0.1f, 1e8f, -1e8f, 0.7f}) b0 += v;
  CHECK(btest::values(btest::out_view(out, "hist"))[0] == static_cast<double>(b0));
  CHECK(btest::values(btest::out_view(out, "h2"))[0] == static_cast<double>(1.0f + 0.7f * 0.5f));
  CHECK(btest::values(btest::out_view(out, "h2"))[7] == 1.0 + 0.75 + 1.125);
  // seq[k] = fold of (a * b - b) over i with i % 3 == k, in increasing i (order-sensitive).
  std::vector<double> seq = {1, 2, 3};
  for (int64_t i = 0; i < n; ++i) seq[i % 3] = seq[i % 3] * static_cast<double>(i) - static_cast<double>(i);
  CHECK(btest::values(btest::out_view(out, "seq")) == seq);
  // A point outside the destination is a located fault.
  bins[4] = 8;
  args["bins"] = btest::view(DType::Index, {n}, bins);
  auto d = oracle::run_differential(*m, "k", args, nullptr, btest::options());
  INFO(d.str());
  CHECK(!d.interp_error.empty());
  CHECK(d.backend_error.find("index out of bounds") != std::string::npos);
}

TEST_CASE("scatter_reduce inside parallel: atomic combine updates", "[C1][C9][L15.3][L5.1]") {
  auto m = btest::load(R"(
fn @add_scaled(%a: f32, %b: f32, %w: f32) -> f32 {
  %p = mul(%b, %w) : f32
  %s = add(%a, %p) : f32
  return(%s)
}
fn @maxi(%a: i16, %b: i16) -> i16 {
  %s = max(%a, %b) : i16
  return(%s)
}
kernel @k(%x: In<f32[R, C]>, %bins: In<index[R, C]>, %hist: InOut<f32[16]>, %mx: InOut<i16[16]>, %w: f32) {
  %c0 = const() {value = 0} : index
  %r = dim(%x) {axis = 0} : index
  %c = dim(%x) {axis = 1} : index
  %rows = domain(%c0, %r) : domain<R>
  %cols = domain(%c0, %c) : domain<C>
  %ci = indices(%cols) : index[C]
  parallel(%rows) region(%i: index) {
    %ib = broadcast(%i) {dims = []} : index[C]
    %rel = relation(%ib, %ci) : relation<2 -> [C]>
    %v = view.load(%x, %rel) : f32[C]
    %b = view.load(%bins, %rel) : index[C]
    %brel = relation(%b) : relation<1 -> [C]>
    scatter_reduce(%hist, %brel, %v, %w) {combine = @add_scaled}
    %vi = cast(%b) : i16[C]
    %ii = cast(%i) : i16
    %iib = broadcast(%ii) {dims = []} : i16[C]
    %s = add(%vi, %iib) : i16[C]
    scatter_reduce(%mx, %brel, %s) {combine = @maxi}
    yield()
  }
}
)");
  const int64_t R = 300, C = 16;
  std::vector<double> x, bins;
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) x.push_back(static_cast<double>((i + j) % 5)), bins.push_back(static_cast<double>((i * 3 + j) % 16));
  std::vector<double> zeros(16, 0.0);
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {R, C}, x)},
                                                  {"bins", btest::view(DType::Index, {R, C}, bins)},
                                                  {"hist", btest::view(DType::F32, {16}, zeros)},
                                                  {"mx", btest::view(DType::I16, {16}, zeros)},
                                                  {"w", num::Scalar{DType::F32, num::from_double(2.0, DType::F32)}}};
  auto out = btest::differential(*m, "k", args);
  std::vector<double> h(16, 0.0), mx(16, 0.0);
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) {
      auto b = static_cast<size_t>((i * 3 + j) % 16);
      h[b] += 2.0 * static_cast<double>((i + j) % 5);
      mx[b] = std::max(mx[b], static_cast<double>(b) + static_cast<double>(i));
    }
  CHECK(btest::values(btest::out_view(out, "hist")) == h);
  CHECK(btest::values(btest::out_view(out, "mx")) == mx);
}

// ------------------------------------------------------------------------------- spec kernels

TEST_CASE("the dropout and index_add kernels compile and agree with the interpreter", "[C1][C9][L17.2][L16.1]") {
  for (const char* file : {"specs/kernels/DropoutFwdOp.kir", "specs/kernels/IndexAddFwdOp.kir", "examples/dropout.kir"}) {
    INFO(file);
    const std::string text = read_text(file);
    REQUIRE(!text.empty());
    auto m = btest::load(text);
    for (const auto& fn : m->functions) {
      if (!fn->is_kernel()) continue;
      INFO(fn->name);
      CHECK_NOTHROW(cpu::compile_to_source(*m, fn->name, btest::options()));
    }
  }
  auto m = btest::load(read_text("specs/kernels/DropoutFwdOp.kir"));
  std::vector<double> x;
  for (int i = 0; i < 6 * 37; ++i) x.push_back(0.25 * (i % 11) - 1);
  std::map<std::string, interp::KernelArg> args = {
      {"input", btest::view(DType::F32, {6, 37}, x)},
      {"output", btest::view(DType::F32, {6, 37})},
      {"mask", btest::view(DType::Bool, {6, 37})},
      {"p", num::Scalar{DType::F32, num::from_double(0.3, DType::F32)}},
      {"seed", num::Scalar{DType::U64, 99}},
      {"offset", num::Scalar{DType::U64, 1000}}};
  auto out = btest::differential(*m, "DropoutFwdOp__f32", args);
  auto mask = btest::values(btest::out_view(out, "mask"));
  const double kept = std::accumulate(mask.begin(), mask.end(), 0.0);
  CHECK(kept > 0.5 * 222);
  CHECK(kept < 0.9 * 222);
  auto ia = btest::load(read_text("specs/kernels/IndexAddFwdOp.kir"));
  std::vector<double> in(5 * 3 * 2), src(4 * 3 * 2);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<double>(i);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i % 7);
  std::map<std::string, interp::KernelArg> a3 = {{"input", btest::view(DType::F32, {5, 3, 2}, in)},
                                                {"index", btest::view(DType::I64, {4}, {1, 4, 1, 0})},
                                                {"source", btest::view(DType::F32, {4, 3, 2}, src)},
                                                {"output", btest::view(DType::F32, {5, 3, 2})},
                                                {"alpha", num::Scalar{DType::F32, num::from_double(2, DType::F32)}}};
  btest::differential(*ia, "IndexAddFwdOp__f32__r3", a3);
  std::vector<double> in2(5 * 3), src2(4 * 3);
  for (size_t i = 0; i < in2.size(); ++i) in2[i] = static_cast<double>(i) * 0.1;
  for (size_t i = 0; i < src2.size(); ++i) src2[i] = static_cast<double>(i) * 0.3;
  std::map<std::string, interp::KernelArg> a2 = {{"input", btest::view(DType::F32, {5, 3}, in2)},
                                                {"index", btest::view(DType::I64, {4}, {1, 4, 1, 0})},
                                                {"source", btest::view(DType::F32, {4, 3}, src2)},
                                                {"output", btest::view(DType::F32, {5, 3})},
                                                {"alpha", num::Scalar{DType::F32, num::from_double(0.7, DType::F32)}}};
  btest::differential(*ia, "IndexAddFwdOp__f32", a2);
}
