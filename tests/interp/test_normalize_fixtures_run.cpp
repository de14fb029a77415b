// Every normalization fixture (tests/kir/normalize/<name>.kir and <name>.expected.kir) loads
// through load_canonical — the loader `kir run` uses — and each of its functions runs in the
// interpreter on deterministic inputs (every extent symbol 3; small values; integers alternate
// 0, 1 so that sparse metadata is a legal 2:4 pattern). Kernels run through `kir run`. Surface
// forms of every kind are covered: shorthands, implicit broadcast (L4.1) and region ops without
// segments, degenerate ones included (L9.6).
#include <filesystem>
#include <fstream>

#include "interp_test.h"
#include "kir/load.h"
#include "numerics/format.h"
#include "tests/kir/file_suite.h"
#include "tests/run_tool.h"

using namespace kir;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kExtent = 3;

bool in_errors(const fs::path& p) { return p.parent_path().filename() == "errors"; }

std::optional<interp::Value> make_input(const Type& t) {
  if (!t.is_shaped_or_scalar()) return std::nullopt;
  interp::Shape shape;
  for (const Extent& e : t.shape()) {
    auto v = e.evaluate([](const std::string&) { return std::optional<int64_t>(kExtent); });
    if (!v) return std::nullopt;
    shape.push_back(*v);
  }
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  const DType d = t.dtype();
  std::vector<uint64_t> bits;
  for (int64_t i = 0; i < n; ++i) {
    if (d == DType::E8M0) bits.push_back(127 + static_cast<uint64_t>(i % 3));  // 1, 2, 4
    else if (is_any_float(d)) bits.push_back(num::from_double(static_cast<double>((i * 7) % 11 - 5) * 0.5, d));
    else bits.push_back(static_cast<uint64_t>(i % 2));
  }
  if (t.is_scalar()) return interp::Value(interp::Scalar{d, bits[0]});
  interp::Tensor x;
  x.dtype = d;
  x.shape = shape;
  x.bits = std::move(bits);
  return interp::Value(x);
}

}  // namespace

TEST_CASE("every normalize fixture loads canonically and runs in the interpreter", "[interp][normalize][L4.1][L9.6]") {
  int helpers = 0, kernels = 0, files = 0;
  for (const auto& path : test::kir_files("normalize")) {
    if (in_errors(path)) continue;
    ++files;
    INFO(path.string());
    Diagnostics d;
    std::string source;
    auto m = load_canonical(path.string(), d, source);
    INFO(d.render(source));
    REQUIRE(m);
    for (const auto& f : m->functions) {
      INFO("@" << f->name);
      if (f->is_kernel()) {
        ++kernels;
        auto r = test::run_kir("run " + path.string() + " --kernel " + f->name + " --seed 3 --dim M=3 --dim N=3");
        INFO(r.out);
        CHECK(r.code == 0);
        continue;
      }
      std::vector<interp::Value> args;
      bool runnable = true;
      for (const auto& p : f->body.args) {
        auto v = make_input(p->type);
        if (!v) runnable = false;
        else args.push_back(*v);
      }
      if (!runnable) continue;
      ++helpers;
      interp::Interpreter it(*m);
      try {
        auto out = it.call_helper(f->name, args);
        CHECK(out.size() == f->result_types.size());
      } catch (const interp::RuntimeError& e) {
        FAIL(e.what());
      }
    }
  }
  CHECK(files >= 40);
  CHECK(kernels >= 2);
  CHECK(helpers >= 60);
}

TEST_CASE("the degenerate region fixtures compute ordinary scans and reductions", "[interp][normalize][L9.6]") {
  auto load_fixture = [](const char* name) {
    const fs::path p = fs::path(KIR_SOURCE_DIR) / "tests" / "kir" / "normalize" / (std::string(name) + ".kir");
    Diagnostics d;
    std::string source;
    auto m = load_canonical(p.string(), d, source);
    INFO(d.render(source));
    REQUIRE(m);
    return m;
  };
  auto tensor = [](const interp::Shape& shape, const std::vector<double>& v) {
    interp::Tensor t;
    t.dtype = DType::F32;
    t.shape = shape;
    for (double x : v) t.bits.push_back(num::from_double(x, DType::F32));
    return interp::Value(t);
  };
  auto values = [](const interp::Value& v) {
    std::vector<double> out;
    if (v.is_scalar()) return std::vector<double>{num::to_double(v.scalar().bits, DType::F32)};
    for (uint64_t b : v.tensor().bits) out.push_back(num::to_double(b, DType::F32));
    return out;
  };
  {
    // Prefix sums of [1, 2, 3, 4] and their total.
    auto m = load_fixture("region_scan_degenerate");
    auto r = interp::Interpreter(*m).call_helper("f", {tensor({4}, {1, 2, 3, 4})});
    CHECK(values(r[0]) == std::vector<double>{1, 3, 6, 10});
    CHECK(values(r[1]) == std::vector<double>{10});
  }
  {
    // Running maxima of each row offset by the state: row [1, 5, 2] from 3 -> [3, 5, 5], final 5;
    // row [4, 0, 3] from -1 -> [4, 4, 4], final 4; the fold is the plain row maximum.
    auto m = load_fixture("region_state_offset");
    auto r = interp::Interpreter(*m).call_helper("f", {tensor({2, 3}, {1, 5, 2, 4, 0, 3}), tensor({2}, {3, -1})});
    CHECK(values(r[0]) == std::vector<double>{3, 5, 5, 4, 4, 4});
    CHECK(values(r[1]) == std::vector<double>{5, 4});
    CHECK(values(r[2]) == std::vector<double>{5, 4});
  }
}

TEST_CASE("kir normalize then kir run: a kernel over the degenerate region_scan fixture", "[interp][normalize][L9.6]") {
  const fs::path in = fs::path(KIR_SOURCE_DIR) / "tests" / "kir" / "normalize" / "region_scan_degenerate.kir";
  const std::string kernel = R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %dom = domain(%zero, %n) : domain<N>
  %i = indices(%dom) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %o, %s = call(%v) {callee = @f} : (f32[N], f32)
  view.store(%y, %rel, %o)
}
)";
  const fs::path surface = fs::temp_directory_path() / "kir_region_scan_surface.kir";
  const fs::path canonical = fs::temp_directory_path() / "kir_region_scan_canonical.kir";
  {
    std::ofstream out(surface);
    out << test::read_text(in) << kernel;
  }
  // The surface file runs directly (the loader normalizes it) ...
  auto direct = test::run_kir("run " + surface.string() + " --dim N=4 --seed 1");
  INFO(direct.out);
  CHECK(direct.code == 0);
  // ... and its `kir normalize` output is canonical and runs the same.
  auto norm = test::run_kir("normalize " + surface.string());
  REQUIRE(norm.code == 0);
  CHECK(norm.out.find("region_scan") == std::string::npos);
  {
    std::ofstream out(canonical);
    out << norm.out;
  }
  auto verify = test::run_kir("verify " + canonical.string());
  INFO(verify.out);
  CHECK(verify.code == 0);
  auto run = test::run_kir("run " + canonical.string() + " --dim N=4 --seed 1");
  INFO(run.out);
  CHECK(run.code == 0);
  CHECK(run.out == direct.out);
  fs::remove(surface);
  fs::remove(canonical);
}
