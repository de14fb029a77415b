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

// region_fold over [1, 2, 3, 4, 5] with summarize = sum of the slice and combine = add: every
// segmentation gives 15 exactly (small integers in f32); a non-associative combine (a - b) shows
// the segmentation: whole = summarize alone = 15, per element = ((((1-2)-3)-4)-5) = -13.
TEST_CASE("the region policy picks the segmentation of region_fold", "[interp][cli][L9.1]") {
  const std::string kernel = R"(fn @summ(%x: f32[S]) -> f32 {
  %z = const() {value = 0.0} : f32
  %r = reduce(%x, %z) {axes = [0], combine = @add} : f32
  return(%r)
}

fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @COMBINE(%a: f32, %b: f32) -> f32 {
  %r = OP(%a, %b) : f32
  return(%r)
}

kernel @k(%y: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %five = const() {value = 5} : index
  %d = domain(%zero, %five) : domain<5>
  %i = indices(%d) : index[5]
  %f = cast(%i) : f32[5]
  %one = const() {value = 1.0} : f32
  %ones = broadcast(%one) {dims = []} : f32[5]
  %x = add(%f, %ones) : f32[5]
  %id = const() {value = 0.0} : f32
  %s = region_fold(%x, %id) {axis = 0, combine = @COMBINE, segments = [1, 1, 0], summarize = @summ} : f32
  %o = relation(%zero) : relation<1 -> []>
  view.store(%y, %o, %s)
}
)";
  auto with = [&](const std::string& op) {
    std::string t = kernel;
    for (size_t p; (p = t.find("OP(")) != std::string::npos;) t.replace(p, 2, op);
    return t;
  };
  const std::string sum = write_tmp("seg_sum.kir", with("add"));
  const std::string diff = write_tmp("seg_diff.kir", with("sub"));
  for (const char* policy : {"region=whole", "region=element", "region=random:7"}) {
    auto r = kir::test::run_kir("run " + sum + " --policy " + policy);
    INFO(policy << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("%y: f32[1] {15}") != std::string::npos);
  }
  auto whole = kir::test::run_kir("run " + diff + " --policy region=whole");
  CHECK(whole.out.find("%y: f32[1] {15}") != std::string::npos);
  auto per = kir::test::run_kir("run " + diff + " --policy region=element");
  INFO(per.out);
  CHECK(per.out.find("%y: f32[1] {-13}") != std::string::npos);
  CHECK(kir::test::run_kir("run " + sum + " --policy region=random:x").code == 2);
  // Blocks of two from the start, the last shorter: [1, 2], [3, 4], [5] -> (3 - 7) - 5 = -9; a
  // block as long as the source is the whole segmentation.
  auto blocks = kir::test::run_kir("run " + diff + " --policy region=blocks:2");
  INFO(blocks.out);
  CHECK(blocks.out.find("%y: f32[1] {-9}") != std::string::npos);
  CHECK(kir::test::run_kir("run " + diff + " --policy region=blocks:5").out.find("%y: f32[1] {15}") != std::string::npos);
  CHECK(kir::test::run_kir("run " + sum + " --policy region=blocks:0").code == 2);
}
