// The declared lanes order of reduce (Options::reduce_lanes_at, L7.3): the point at coordinate c
// of the last reduced axis goes to lane c mod L, each lane folds its points in row-major order
// from the identity, and the lanes that received a point are folded left to right (lane 0
// alone when none did). Hand-computed f32 cases where it differs from the canonical fold, on the
// native fold path (a one-op combine) and the general path (any other combine) alike, over
// several reduced axes, an empty reduce (the identity, even when it is not neutral) and fewer
// points than lanes.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "interp/npy.h"
#include "ops_test.h"
#include "tests/run_tool.h"

using namespace kir;
using namespace kir::itest;

namespace {

const char* kReduces = R"(
fn @add_acc(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @add_acc_general(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  %one = const() {value = 1.0} : f32
  %s = mul(%r, %one) : f32
  return(%s)
}

fn @sum(%x: f32[N], %id: f32) -> f32 {
  %s = reduce(%x, %id) {axes = [0], combine = @add_acc} : f32
  return(%s)
}

fn @sum_general(%x: f32[N], %id: f32) -> f32 {
  %s = reduce(%x, %id) {axes = [0], combine = @add_acc_general} : f32
  return(%s)
}

fn @sum2(%x: f32[P, Q], %id: f32) -> f32 {
  %s = reduce(%x, %id) {axes = [0, 1], combine = @add_acc} : f32
  return(%s)
}

fn @sum2_general(%x: f32[P, Q], %id: f32) -> f32 {
  %s = reduce(%x, %id) {axes = [0, 1], combine = @add_acc_general} : f32
  return(%s)
}
)";

interp::Value tv(const interp::Shape& s, const std::vector<double>& v) { return interp::Value(tensor(DType::F32, s, v)); }

// The value of helper `fn` with its reduce declared in `lanes` lanes and blocks of `block`
// points along the last axis (lanes 0: not declared).
double eval(const Module& m, const std::string& fn, const interp::Value& x, double identity, int64_t lanes,
            int64_t block = 0) {
  interp::Options o;
  if (lanes > 0) {
    const Function* f = m.find_function(fn);
    REQUIRE(f);
    for (const auto& op : f->body.ops)
      if (op->name == "reduce") o.reduce_lanes_at[op->loc.str()] = {lanes, block};
    REQUIRE(o.reduce_lanes_at.size() == 1);
  }
  auto r = interp::Interpreter(m, o).call_helper(fn, {x, interp::Value(f32(identity))});
  return svalue(r.at(0));
}

}  // namespace

TEST_CASE("[L7.3] lanes order: [1e8, 1, -1e8, 1] in one, two and three lanes", "[L7.3][accumulation]") {
  auto m = load(kReduces);
  const auto x = tv({4}, {1e8, 1, -1e8, 1});
  for (const char* fn : {"sum", "sum_general"}) {
    INFO(fn);
    // Canonical: ((1e8 + 1) - 1e8) + 1: 1e8 + 1 rounds back to 1e8 (its ulp is 8), so 1.
    CHECK(eval(*m, fn, x, 0, 0) == 1);
    CHECK(eval(*m, fn, x, 0, 1) == 1);
    // Two lanes: (1e8 - 1e8) + (1 + 1) = 2.
    CHECK(eval(*m, fn, x, 0, 2) == 2);
    // Three lanes: lane 0 = 1e8 + 1 = 1e8, lane 1 = 1, lane 2 = -1e8: (1e8 + 1) - 1e8 = 0.
    CHECK(eval(*m, fn, x, 0, 3) == 0);
    // Four or more lanes: every point alone, then the same left fold as the canonical one.
    CHECK(eval(*m, fn, x, 0, 4) == 1);
    CHECK(eval(*m, fn, x, 0, 64) == 1);
  }
}

TEST_CASE("[L7.3] lanes order over two reduced axes: the lane is the last axis' coordinate", "[L7.3][accumulation]") {
  auto m = load(kReduces);
  // [[1e8, 1, 1], [-1e8, 1, 1]] in two lanes by column: lane 0 takes columns 0 and 2 in row-major
  // order (1e8 + 1 = 1e8, - 1e8 = 0, + 1 = 1), lane 1 column 1 (1 + 1 = 2): 3. Lanes by flat
  // index would give 0 (1e8 + 1 + 1 = 1e8 and 1 - 1e8 + 1 = -1e8); the canonical fold gives 2.
  const auto x = tv({2, 3}, {1e8, 1, 1, -1e8, 1, 1});
  for (const char* fn : {"sum2", "sum2_general"}) {
    INFO(fn);
    CHECK(eval(*m, fn, x, 0, 0) == 2);
    CHECK(eval(*m, fn, x, 0, 2) == 3);
  }
}

TEST_CASE("[L7.4] lanes order: an empty reduce is the identity; fewer points than lanes", "[L7.4][accumulation]") {
  auto m = load(kReduces);
  for (const char* fn : {"sum", "sum_general"}) {
    INFO(fn);
    // Identity 5 is not neutral for add: folding the idle lanes would give 10 or more.
    CHECK(eval(*m, fn, tv({0}, {}), 5, 8) == 5);
    // Two points, eight lanes: lanes 0 and 1 each start at 5: (5 + 1) + (5 + 2) = 13.
    CHECK(eval(*m, fn, tv({2}, {1, 2}), 5, 8) == 13);
    // Canonical: 5 + 1 + 2 = 8.
    CHECK(eval(*m, fn, tv({2}, {1, 2}), 5, 0) == 8);
  }
  CHECK(eval(*m, "sum2", tv({0, 3}, {}), 5, 2) == 5);
  CHECK(eval(*m, "sum2_general", tv({3, 0}, {}), 5, 2) == 5);
}

TEST_CASE("[L7.3] lanes order with blocks: per block its lanes, then the blocks left to right", "[L7.3][accumulation]") {
  auto m = load(kReduces);
  const auto x = tv({4}, {1e8, 1, -1e8, 1});
  for (const char* fn : {"sum", "sum_general"}) {
    INFO(fn);
    // One lane, blocks of two: (1e8 + 1 = 1e8) + (-1e8 + 1 = -1e8) = 0; canonically 1.
    CHECK(eval(*m, fn, x, 0, 1, 2) == 0);
    // Blocks of three: (1e8 + 1 - 1e8 = 0) + 1 = 1.
    CHECK(eval(*m, fn, x, 0, 1, 3) == 1);
    // Two lanes in blocks of two: each block's lanes 1e8 + 1 and -1e8 + 1: 1e8 + -1e8 = 0.
    CHECK(eval(*m, fn, x, 0, 2, 2) == 0);
    // A block at least as long as the axis is the plain lanes order: two lanes give 2.
    CHECK(eval(*m, fn, x, 0, 2, 4) == 2);
    CHECK(eval(*m, fn, x, 0, 2, 64) == 2);
    // The identity 5 enters every lane of every block: blocks of two, one lane: (5 + 1e8 + 1) +
    // (5 - 1e8 + 1): 1e8 + 5 = 100000008 (ties to even), + 1 = 100000008; 5 - 1e8 = -99999992,
    // + 1 = -99999992 (the ulp is 8); their sum is 16.
    CHECK(eval(*m, fn, x, 5, 1, 2) == 16);
    // No points: the identity, whatever the blocks.
    CHECK(eval(*m, fn, tv({0}, {}), 5, 4, 8) == 5);
  }
}

TEST_CASE("[L7.3] kir run --policy lanes=L[:C] folds every reduce in the lanes order", "[L7.3][accumulation][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("kir_lanes_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "sum.kir").string(), x = (dir / "x.npy").string();
  std::ofstream(file) << R"(
fn @add_acc(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

kernel @sum(%x: In<f32[N]>, %y: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %zf = const() {value = 0.0} : f32
  %s = reduce(%a, %zf) {axes = [0], combine = @add_acc} : f32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%y, %r0, %s)
}
)";
  auto b = [](double v) { return num::from_double(v, DType::F32); };
  interp::write_npy(x, DType::F32, {4}, {b(1e8), b(1), b(-1e8), b(1)});
  const std::string run = "run " + file + " --input x=" + x;
  // Canonical 1, two lanes 2, three lanes 0, one lane in blocks of two 0 (the known answers above).
  for (auto [policy, want] : {std::pair{"", "{1}"}, {" --policy lanes=1", "{1}"}, {" --policy lanes=2", "{2}"},
                              {" --policy lanes=3", "{0}"}, {" --policy lanes=1:2", "{0}"}, {" --policy lanes=2:4", "{2}"}}) {
    auto r = kir::test::run_kir(run + policy);
    INFO(policy << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find(std::string("%y: f32[1] ") + want) != std::string::npos);
  }
  for (const char* bad : {"lanes=0", "lanes=4:6", "lanes=x", "lanes=2:", "lanes=-1"}) {
    auto r = kir::test::run_kir(run + " --policy " + bad);
    INFO(bad << "\n" << r.out);
    CHECK(r.code == 2);
    CHECK(r.out.find("lanes=L[:C] (C a multiple of L)") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}
