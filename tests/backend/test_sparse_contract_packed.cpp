// The packed 2:4 / 1:2 sparse_contract (sparse_contract.packed.avx512 / avx2 / portable; C6, C7,
// C11): kept values and their k packed per MR-row micro-panel, the dense rhs in the packed
// contract's KC x NR panels, the gemm_sparse micro-kernel. Each result is checked bit for bit
// against the interpreter under the declared order (sequential-fused over the kept terms) and
// against an fma loop over the kept terms written here, over shapes that exercise every tail
// (M, N below, at and above the micro-tile and the blocks; K one group, around KC), both formats;
// Inf and NaN in the rhs at dropped positions, -0 terms, invalid metadata faulting as under
// sparse_contract.sequential, the golden CPU IR expansion and a row lacking the implementation.
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "backend_test.h"
#include "backends/cpu/runtime/capabilities.h"

using namespace kir;

namespace {

std::vector<std::string> runnable_rows() {
  std::vector<std::string> rows = {"portable-4x4"};
  const auto& h = cpu::rt::host_capabilities();
  if (h.avx2 && h.fma) rows.push_back("avx2-6x2");
  if (h.avx512f) {
    rows.push_back("avx512-12x2");
    rows.push_back("avx512-14x2");
    rows.push_back("avx512-8x3");
    rows.push_back("avx512-6x4");
  }
  return rows;
}

// kernel @sm: %c[M, N] = sparse_contract(values [M, C], metadata [M, C], rhs [2C, N]).
std::string sparse_kir(const std::string& format, const std::string& dt) {
  return "kernel @sm(%v: In<" + dt + "[M, C]>, %meta: In<u8[M, C]>, %b: In<" + dt + "[2*C, N]>, %c: Out<" + dt + R"([M, N]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %m = dim(%v) {axis = 0} : index
  %kc = dim(%v) {axis = 1} : index
  %kd = mul(%kc, %two) : index
  %n = dim(%b) {axis = 1} : index
  %dm = domain(%zero, %m) : domain<M>
  %dc = domain(%zero, %kc) : domain<C>
  %dd = domain(%zero, %kd) : domain<2*C>
  %dn = domain(%zero, %n) : domain<N>
  %im = indices(%dm) : index[M]
  %ic = indices(%dc) : index[C]
  %id = indices(%dd) : index[2*C]
  %in = indices(%dn) : index[N]
  %am = broadcast(%im) {dims = [0]} : index[M, C]
  %ac = broadcast(%ic) {dims = [1]} : index[M, C]
  %arel = relation(%am, %ac) : relation<2 -> [M, C]>
  %vals = view.load(%v, %arel) : )" + dt + R"([M, C]
  %mv = view.load(%meta, %arel) : u8[M, C]
  %bk = broadcast(%id) {dims = [0]} : index[2*C, N]
  %bn = broadcast(%in) {dims = [1]} : index[2*C, N]
  %brel = relation(%bk, %bn) : relation<2 -> [2*C, N]>
  %bv = view.load(%b, %brel) : )" + dt + R"([2*C, N]
  %acc = sparse_contract(%vals, %mv, %bv) {batch = [], format = )" + format + R"(, reduce = [[1, 0]]} : )" + dt + R"([M, N]
  %cm = broadcast(%im) {dims = [0]} : index[M, N]
  %cn = broadcast(%in) {dims = [1]} : index[M, N]
  %crel = relation(%cm, %cn) : relation<2 -> [M, N]>
  view.store(%c, %crel, %acc)
}
)";
}

struct Case {
  int64_t m, c, n;  // c: compressed extent (kept terms per row)
};

// Values, metadata (ascending distinct picks per group) and rhs with Inf / NaN where no row keeps.
struct Data {
  std::vector<double> v, meta, b;
};
Data make_data(int64_t M, int64_t C, int64_t N, int64_t group, int64_t keep, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(-2000, 2000);
  Data d;
  const int64_t groups = C / keep, D = groups * group;
  for (int64_t i = 0; i < M * C; ++i) d.v.push_back(i % 11 == 5 ? -0.0 : u(g) / 64.0);
  std::vector<char> kept(static_cast<size_t>(D), 0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t q = 0; q < groups; ++q) {
      std::vector<int> pos;
      for (int p = 0; p < group; ++p) pos.push_back(p);
      std::shuffle(pos.begin(), pos.end(), g);
      pos.resize(static_cast<size_t>(keep));
      std::sort(pos.begin(), pos.end());
      for (int p : pos) {
        d.meta.push_back(p);
        kept[static_cast<size_t>(q * group + p)] = 1;
      }
    }
  for (int64_t k = 0; k < D; ++k)
    for (int64_t j = 0; j < N; ++j)
      d.b.push_back(kept[static_cast<size_t>(k)] ? u(g) / 32.0 : (j % 2 ? INFINITY : NAN));
  return d;
}

// The kept terms in order, one fma each, from -0 (in T).
template <class T>
std::vector<double> expected(const Data& d, int64_t M, int64_t C, int64_t N, int64_t group, int64_t keep) {
  std::vector<double> out(static_cast<size_t>(M * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      T acc = T(-0.0);
      for (int64_t k = 0; k < C; ++k) {
        const int64_t dk = (k / keep) * group + static_cast<int64_t>(d.meta[static_cast<size_t>(i * C + k)]);
        acc = std::fma(static_cast<T>(d.v[static_cast<size_t>(i * C + k)]), static_cast<T>(d.b[static_cast<size_t>(dk * N + j)]), acc);
      }
      out[static_cast<size_t>(i * N + j)] = acc;
    }
  return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<uint64_t>(a[i]) != std::bit_cast<uint64_t>(b[i]) && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
  return true;
}

}  // namespace

TEST_CASE("packed sparse contract: every row, both formats, f32 and f64, every tail, bitwise", "[C6][C7][C11][L12.1]") {
  // Micro-tiles 4x4 .. 14x32; KC 128 / 256 / 512 (cut on groups); MC 64 .. 144.
  const std::vector<Case> shapes = {{1, 2, 1},   {3, 2, 5},    {5, 4, 17},   {13, 6, 33},  {12, 64, 32},
                                    {37, 66, 45}, {150, 10, 70}, {17, 258, 49}, {9, 300, 130}};
  uint32_t seed = 11;
  for (const std::string fmt : {"two_of_four", "one_of_two"}) {
    const int64_t group = fmt == "two_of_four" ? 4 : 2, keep = group / 2;
    for (const std::string dt : {"f32", "f64"}) {
      const DType d = dt == "f32" ? DType::F32 : DType::F64;
      auto m = btest::load(sparse_kir(fmt, dt));
      for (const auto& row : runnable_rows())
        for (const auto& s : shapes) {
          const int64_t C = s.c / keep * keep;
          INFO(fmt << " " << dt << " row " << row << " M=" << s.m << " C=" << C << " N=" << s.n);
          Data x = make_data(s.m, C, s.n, group, keep, seed++);
          std::map<std::string, interp::KernelArg> args = {{"v", btest::view(d, {s.m, C}, x.v)},
                                                          {"meta", btest::view(DType::U8, {s.m, C}, x.meta)},
                                                          {"b", btest::view(d, {2 * C, s.n}, x.b)},
                                                          {"c", btest::view(d, {s.m, s.n})}};
          auto out = btest::differential(*m, "sm", args, row);
          const auto got = btest::values(btest::out_view(out, "c"));
          CHECK(same_bits(got, d == DType::F32 ? expected<float>(x, s.m, C, s.n, group, keep)
                                               : expected<double>(x, s.m, C, s.n, group, keep)));
          for (double y : got) CHECK(!std::isnan(y));  // Inf / NaN sit only at dropped positions
        }
    }
  }
}

TEST_CASE("packed sparse contract: -0 terms sum to -0, a dropped position adds no +0", "[C6][C11][L12.1]") {
  auto m = btest::load(sparse_kir("two_of_four", "f32"));
  // Kept values -0 and 1 at positions 0 and 2; rhs 1 at 0 and -0 at 2: terms -0, -0 -> -0. The
  // dropped positions hold 1 (a decompressed +0 times 1 would make the sum +0).
  for (const auto& row : runnable_rows()) {
    INFO("row " << row);
    std::map<std::string, interp::KernelArg> args = {{"v", btest::view(DType::F32, {1, 2}, {-0.0, 1})},
                                                    {"meta", btest::view(DType::U8, {1, 2}, {0, 2})},
                                                    {"b", btest::view(DType::F32, {4, 1}, {1, 1, -0.0, 1})},
                                                    {"c", btest::view(DType::F32, {1, 1})}};
    auto out = btest::differential(*m, "sm", args, row);
    CHECK(std::signbit(btest::values(btest::out_view(out, "c"))[0]));
    CHECK(btest::values(btest::out_view(out, "c"))[0] == 0.0);
  }
}

TEST_CASE("packed sparse contract: invalid metadata faults as under sparse_contract.sequential", "[C6][L12.1]") {
  // The packed rows run sparse_contract.sequential's own validation (sparse_validation in
  // format_impls.cpp) before the nest: an invalid-value fault at the op, the same on every row.
  auto m = btest::load(sparse_kir("two_of_four", "f32"));
  for (const auto& meta : {std::vector<double>{0, 4}, std::vector<double>{2, 1}, std::vector<double>{3, 3}}) {
    std::string first;
    for (const auto& row : runnable_rows()) {
      std::map<std::string, interp::KernelArg> args = {{"v", btest::view(DType::F32, {1, 2}, {1, 2})},
                                                      {"meta", btest::view(DType::U8, {1, 2}, meta)},
                                                      {"b", btest::view(DType::F32, {4, 1}, {1, 2, 3, 4})},
                                                      {"c", btest::view(DType::F32, {1, 1})}};
      auto opt = btest::options();
      opt.config_row = row;
      std::map<std::string, interp::KernelArg> out;
      auto d = oracle::run_differential(*m, "sm", args, &out, opt);
      INFO(row << "\n" << d.str());
      REQUIRE(!d.backend_error.empty());
      CHECK(d.interp_error.find("is not a legal two_of_four position") != std::string::npos);
      CHECK(d.backend_error.find("t.kir:25:3: error[backend]: invalid value in `sparse_contract` at (0, 0)") != std::string::npos);
      if (first.empty()) first = d.backend_error;
      else CHECK(d.backend_error == first);
    }
  }
}

TEST_CASE("packed sparse contract: its expansion is real CPU IR (golden)", "[C7][C11]") {
  const std::string ir = btest::ir_after(*btest::load(sparse_kir("two_of_four", "f32")), "sm", "portable-4x4", "expand");
  // The binding, the kept terms of a KC block (kc / 4 * 2), the kept-term k panel and the kernel.
  for (const char* text : {"sparse_contract.packed.portable {mr=4, nv=4, task_m=0, task_n=0, mc=64, nc=1024, kc=128}",
                           "= mul.index(floordiv.index(%kc, 4), 2)", "_akpanel", "kernel gemm_sparse.f32.portable.4x4"}) {
    INFO(text << "\n" << ir);
    CHECK(ir.find(text) != std::string::npos);
  }
}

TEST_CASE("packed sparse contract: a row without an implementation of the kind is rejected naming it", "[C6][C11]") {
  btest::WithRows rows(
      "rows:\n  - name: lacking\n    shared: {task_m: 0, task_n: 0, mc: 64, nc: 256, kc: 64}\n    local: {mr: 4, nv: 4, lanes: 8, block: 64}\n"
      "    implementations: [contract.sequential, scaled_contract.sequential]\n");
  auto opt = btest::options();
  opt.config_row = "lacking";
  try {
    cpu::compile_to_source(*btest::load(sparse_kir("two_of_four", "f32")), "sm", opt);
    FAIL("expected the row to be rejected");
  } catch (const std::exception& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("row `lacking`") != std::string::npos);
    CHECK(std::string(e.what()).find("no member of its implementation set realizes this sparse_contract") != std::string::npos);
  }
}

TEST_CASE("packed sparse contract: every NaN of the result is canonical, whatever the operands' payloads", "[C6][L12.1]") {
  // The differential fuzz campaign's finding (a bitcast of the result saw 0x7FC00001): fmas carry
  // a kept value's NaN payload and give x86's negative default NaN for Inf * 0.
  uint32_t seed = 900;
  for (const std::string dt : {"f32", "f64"}) {
    const DType d = dt == "f32" ? DType::F32 : DType::F64;
    const uint64_t payload = d == DType::F32 ? 0x7FC00001u : 0x7FF8000000000001ull;
    const uint64_t negative = d == DType::F32 ? 0xFFC12345u : 0xFFF8000000012345ull;
    auto m = btest::load(sparse_kir("two_of_four", dt));
    for (const auto& row : runnable_rows())
      for (const auto& s : {Case{3, 2, 5}, Case{13, 6, 33}, Case{17, 258, 49}}) {
        INFO(dt << " row " << row << " M=" << s.m << " C=" << s.c << " N=" << s.n);
        Data x = make_data(s.m, s.c, s.n, 4, 2, seed++);
        interp::HostView v = btest::view(d, {s.m, s.c}, x.v);
        v.storage->bits[0] = payload;                                      // row 0
        v.storage->bits[static_cast<size_t>((s.m - 1) * s.c)] = negative;  // the last row
        v.storage->bits[static_cast<size_t>(s.c)] = num::inf_bits(d);      // row 1: Inf times the
        const int64_t k = static_cast<int64_t>(x.meta[static_cast<size_t>(s.c)]);  // kept rhs, set to 0
        interp::HostView b = btest::view(d, {2 * s.c, s.n}, x.b);
        b.storage->bits[static_cast<size_t>(k * s.n)] = 0;
        std::map<std::string, interp::KernelArg> args = {{"v", v},
                                                        {"meta", btest::view(DType::U8, {s.m, s.c}, x.meta)},
                                                        {"b", b},
                                                        {"c", btest::view(d, {s.m, s.n})}};
        auto out = btest::differential(*m, "sm", args, row);
        CHECK(btest::require_canonical_nans(btest::out_view(out, "c")) >= static_cast<size_t>(2 * s.n + 1));
      }
  }
}
