// The declared blocks order of scan (Options::scan_blocks_at / scan_block, L7.3): along the scan
// order, blocks of C points each scanned from the identity; the totals of the earlier blocks
// folded left to right into P_b, combined on the left of every element of block b > 0 (an
// exclusive scan's first element of block b is P_b itself). Hand-computed answers where it
// differs from the canonical fold: an f32 sum that cancels, an i32 combine that is not
// associative (forward, reverse, exclusive), a block at least as long as the axis, and
// `kir run --policy scan=blocks:C`.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "interp/npy.h"
#include "ops_test.h"
#include "tests/run_tool.h"

using namespace kir;
using namespace kir::itest;

namespace {

const char* kScans = R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @horner(%a: i32, %b: i32) -> i32 {
  %three = const() {value = 3} : i32
  %m = mul(%a, %three) : i32
  %r = add(%m, %b) : i32
  return(%r)
}

fn @fsum(%x: f32[N], %z: f32) -> f32[N] {
  %p = scan(%x, %z) {axis = 0, combine = @add} : f32[N]
  return(%p)
}

fn @h(%x: i32[N], %z: i32) -> i32[N] {
  %p = scan(%x, %z) {axis = 0, combine = @horner} : i32[N]
  return(%p)
}

fn @h_excl(%x: i32[N], %z: i32) -> i32[N] {
  %p = scan(%x, %z) {axis = 0, combine = @horner, inclusive = false} : i32[N]
  return(%p)
}

fn @h_rev(%x: i32[N], %z: i32) -> i32[N] {
  %p = scan(%x, %z) {axis = 0, combine = @horner, reverse = true} : i32[N]
  return(%p)
}
)";

// The elements of helper `fn`'s result with its scan declared in blocks of `block` points.
std::vector<double> eval(const Module& m, const std::string& fn, DType d, const std::vector<double>& x, int64_t block) {
  interp::Options o;
  if (block > 0) {
    const Function* f = m.find_function(fn);
    REQUIRE(f);
    for (const auto& op : f->body.ops)
      if (op->name == "scan") o.scan_blocks_at[op->loc.str()] = block;
    REQUIRE(o.scan_blocks_at.size() == 1);
  }
  const int64_t n = static_cast<int64_t>(x.size());
  auto r = interp::Interpreter(m, o).call_helper(fn, {interp::Value(tensor(d, {n}, x)), interp::Value(interp::Scalar{d, 0})});
  std::vector<double> out;
  const auto& t = r.at(0).tensor();
  for (int64_t i = 0; i < n; ++i) out.push_back(as_double(d, t.bits[static_cast<size_t>(i)]));
  return out;
}

}  // namespace

TEST_CASE("[L7.3] scan blocks: an f32 sum that cancels differs from the canonical fold", "[L7.3][accumulation]") {
  auto m = load(kScans);
  // [1e8, 1, -1e8, 1] (ulp of 1e8 in f32 is 8): canonically 1e8, 1e8, 0, 1; in blocks of two the
  // second block scans -1e8, -1e8 (+1 rounds away) and adds P = 1e8: 0, 0.
  const std::vector<double> x = {1e8, 1, -1e8, 1};
  CHECK(eval(*m, "fsum", DType::F32, x, 0) == std::vector<double>{1e8, 1e8, 0, 1});
  CHECK(eval(*m, "fsum", DType::F32, x, 2) == std::vector<double>{1e8, 1e8, 0, 0});
  // A block at least as long as the axis is the canonical fold.
  CHECK(eval(*m, "fsum", DType::F32, x, 4) == std::vector<double>{1e8, 1e8, 0, 1});
  CHECK(eval(*m, "fsum", DType::F32, x, 100) == std::vector<double>{1e8, 1e8, 0, 1});
  CHECK(eval(*m, "fsum", DType::F32, {}, 2).empty());
}

TEST_CASE("[L7.3] scan blocks: a combine that is not associative, forward, exclusive and reverse", "[L7.3][accumulation]") {
  auto m = load(kScans);
  // combine(a, b) = 3a + b from 0 over [1, 2, 3, 4]: canonically 1, 5, 18, 58. Blocks of two:
  // block 0 gives 1, 5 (P = 5); block 1 scans 3, 13 and combines 3·5 + 3 = 18, 3·5 + 13 = 28.
  const std::vector<double> x = {1, 2, 3, 4};
  CHECK(eval(*m, "h", DType::I32, x, 0) == std::vector<double>{1, 5, 18, 58});
  CHECK(eval(*m, "h", DType::I32, x, 2) == std::vector<double>{1, 5, 18, 28});
  // Blocks of three: 1, 5, 18 (P = 18), then 4 combined: 3·18 + 4 = 58 (as canonical).
  CHECK(eval(*m, "h", DType::I32, x, 3) == std::vector<double>{1, 5, 18, 58});
  // Exclusive, blocks of two: 0, 1, then P = 5 itself, then 3·5 + 3 = 18.
  CHECK(eval(*m, "h_excl", DType::I32, x, 2) == std::vector<double>{0, 1, 5, 18});
  // Exclusive, blocks of one: 0, then P_1 = 1, P_2 = 3·1 + 2 = 5, P_3 = 3·5 + 3 = 18.
  CHECK(eval(*m, "h_excl", DType::I32, x, 1) == std::vector<double>{0, 1, 5, 18});
  // Reverse (acc = combine(x, acc) from the end): canonically 30, 27, 21, 12. Blocks of two in
  // scan order: 4 -> 12, 3 -> 21 (P = 21); then 2 -> 6, 1 -> 9, each combined as
  // combine(local, P): 3·6 + 21 = 39, 3·9 + 21 = 48.
  CHECK(eval(*m, "h_rev", DType::I32, x, 0) == std::vector<double>{30, 27, 21, 12});
  CHECK(eval(*m, "h_rev", DType::I32, x, 2) == std::vector<double>{48, 39, 21, 12});
}

TEST_CASE("[L7.3] kir run --policy scan=blocks:C scans in blocks", "[L7.3][accumulation][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("kir_scanblocks_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "cumsum.kir").string(), x = (dir / "x.npy").string();
  std::ofstream(file) << R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

kernel @cumsum(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %zf = const() {value = 0.0} : f32
  %s = scan(%a, %zf) {axis = 0, combine = @add} : f32[N]
  view.store(%y, %rel, %s)
}
)";
  auto b = [](double v) { return num::from_double(v, DType::F32); };
  interp::write_npy(x, DType::F32, {4}, {b(1e8), b(1), b(-1e8), b(1)});
  const std::string run = "run " + file + " --input x=" + x;
  for (auto [policy, want] : {std::pair{"", "{1e+08, 1e+08, 0, 1}"}, {" --policy scan=blocks:2", "{1e+08, 1e+08, 0, 0}"}}) {
    auto r = kir::test::run_kir(run + policy);
    INFO(policy << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find(want) != std::string::npos);
  }
  auto bad = kir::test::run_kir(run + " --policy scan=blocks:0");
  CHECK(bad.code != 0);
  CHECK(bad.out.find("scan=blocks:C") != std::string::npos);
  std::filesystem::remove_all(dir);
}
