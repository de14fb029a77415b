// `kir run` conveniences of issue 4 item 4: the kernel's default invocation supplies extents the
// inputs and --dim leave open (so `kir run FILE` works out of the box), --dim overrides it, and
// --dump prints every definition of an intermediate value with all its elements.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "interp_test.h"
#include "tests/run_tool.h"

namespace {

std::string write_tmp(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / ("kir_inv_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

// iota(N) as f32 into %y, so the output summary shows the extent used.
const char* kIota = R"(kernel @iota(%y: Out<f32[N]>) invocation {N = 12} {
  %zero = const() {value = 0} : index
  %n = dim(%y) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %f = cast(%i) : f32[N]
  %twice = add(%f, %f) : f32[N]
  %rel = relation(%i) : relation<1 -> [N]>
  view.store(%y, %rel, %twice)
}
)";

}  // namespace

TEST_CASE("kir run takes extents from the kernel's default invocation", "[interp][cli]") {
  auto r = kir::test::run_kir("run " + write_tmp("iota.kir", kIota));
  INFO(r.out);
  CHECK(r.code == 0);
  // N = 12: y = 2*i for i < 12, so max = 22 (more than 8 elements: summarized as min/max).
  CHECK(r.out.find("%y: f32[12] min=0 max=22") != std::string::npos);
  CHECK(r.out.find("note: extent") == std::string::npos);
}

TEST_CASE("--dim overrides the default invocation", "[interp][cli]") {
  auto r = kir::test::run_kir("run " + write_tmp("iota2.kir", kIota) + " --dim N=3");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("%y: f32[3] {0, 2, 4}") != std::string::npos);
}

TEST_CASE("--dump prints every element of an intermediate value", "[interp][cli]") {
  auto r = kir::test::run_kir("run " + write_tmp("iota3.kir", kIota) + " --dump %twice --dim N=4");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find(":7:3: %twice = f32[4]") != std::string::npos);
  CHECK(r.out.find("[0, 2, 4, 6]") != std::string::npos);
}

TEST_CASE("--dump of a name no op defines is a usage error", "[interp][cli]") {
  auto r = kir::test::run_kir("run " + write_tmp("iota4.kir", kIota) + " --dump %nothing");
  CHECK(r.code == 2);
  CHECK(r.out.find("no op of") != std::string::npos);
  CHECK(r.out.find("%nothing") != std::string::npos);
}

TEST_CASE("render_elements nests like NumPy and truncates", "[interp]") {
  using namespace kir::interp;
  Tensor t;
  t.dtype = kir::DType::I32;
  t.shape = {2, 3};
  t.bits = {1, 2, 3, 4, 5, 6};
  CHECK(render_elements(Value(t)) == "[[1, 2, 3], [4, 5, 6]]");
  CHECK(render_elements(Value(t), 4) == "[[1, 2, 3], [4, ...]]");
}
