// Law checking of region_fold (issue 4 item 3, checklist L9.3): a lawful combine passes; a
// non-associative combine breaks the homomorphism law and the report names the smallest pair of
// adjacent segments; a combine for which the identity is not neutral breaks the identity law.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

// @fold_C: region_fold of an i32 vector whose summarize is a left fold with combine @C.
std::string fold_module(const std::string& combine_body) {
  return R"(
fn @comb(%a: i32, %b: i32) -> i32 {
)" + combine_body + R"(
  return(%r)
}

fn @summ(%x: i32[S]) -> i32 {
  %z = const() {value = 0} : i32
  %r = reduce(%x, %z) {axes = [0], combine = @comb} : i32
  return(%r)
}

fn @f(%x: i32[N]) -> i32 {
  %z = const() {value = 0} : i32
  %r = region_fold(%x, %z) {axis = 0, combine = @comb, segments = [1, 1, 0], summarize = @summ} : i32
  return(%r)
}
)";
}

interp::Value ints(const std::vector<uint64_t>& v) {
  interp::Tensor t;
  t.dtype = DType::I32;
  t.shape = {static_cast<int64_t>(v.size())};
  t.bits = v;
  return interp::Value(t);
}

}  // namespace

TEST_CASE("[L9.3] law checking: an associative combine with a neutral identity passes", "[interp][L9.3]") {
  auto m = load(fold_module("  %r = add(%a, %b) : i32"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({1, 2, 3, 4, 5})}, 7, 4);
  INFO(rep.str());
  CHECK(rep.ok());
  CHECK(rep.folds_checked == 1);
}

TEST_CASE("[L9.3] law checking: a non-associative combine breaks the homomorphism on the smallest segments",
          "[interp][L9.3]") {
  // a . b = a + b + a*b*b: 0 is neutral on both sides, but (1 . 2) . 3 = 73 while 1 . (2 . 3) = 553.
  auto m = load(fold_module("  %bb = mul(%b, %b) : i32\n  %abb = mul(%a, %bb) : i32\n  %s = add(%a, %b) : i32\n  %r = add(%s, %abb) : i32"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({1, 2, 3, 1})}, 3);
  INFO(rep.str());
  REQUIRE(rep.violations.size() == 1);
  const auto& v = rep.violations[0];
  CHECK(v.law == "homomorphism");
  CHECK(v.op_location == "t.kir:18:3");
  // No split of a length-2 range shows it (a left fold of two elements is one combine); [0, 3)
  // split after the first element is the smallest witness.
  CHECK(v.segments == std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 3}});
  CHECK(v.detail.find("summarize([0, 3)) = i32 73") != std::string::npos);
  CHECK(v.detail.find("= i32 553") != std::string::npos);
  CHECK(rep.str().find("breaks the homomorphism law on segments [0, 1) [1, 3)") != std::string::npos);
}

TEST_CASE("[L9.3] law checking: an identity that is not neutral is reported with its element", "[interp][L9.3]") {
  // a . b = a - b with identity 0: combine(s, 0) = s but combine(0, s) = -s.
  auto m = load(fold_module("  %r = sub(%a, %b) : i32"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({0, 5, 2})});
  INFO(rep.str());
  REQUIRE(!rep.ok());
  CHECK(rep.violations[0].law == "left identity");
  CHECK(rep.violations[0].segments == std::vector<std::pair<int64_t, int64_t>>{{1, 2}});
  bool right = false, homo = false;
  for (const auto& v : rep.violations) {
    right |= v.law == "right identity";
    homo |= v.law == "homomorphism";
  }
  CHECK(!right);
  CHECK(homo);
  // The ordinary result is the whole segmentation's.
  auto r = it.call_helper("f", {ints({0, 5, 2})});
  CHECK(num::as_signed(r[0].scalar()) == -7);
}

// ---- region_scan (checklist L9.5) ----

namespace {

// @f: region_scan of an i32 vector (identity 0, initial state %init) with the given helper
// bodies; @summ is a left fold with @comb. The lawful choice is prefix sums: comb = add,
// apply(t, s) = s + t, emit(x, s) = inclusive prefix sums of x plus s.
struct ScanHelpers {
  std::string comb = "  %r = add(%a, %b) : i32";
  std::string apply = "  %r = add(%s, %t) : i32";
  std::string emit = "  %sb = broadcast(%s) {dims = []} : i32[S]\n  %r = add(%p, %sb) : i32[S]";
};

std::string scan_module(const ScanHelpers& h) {
  return R"(
fn @add(%a: i32, %b: i32) -> i32 {
  %r = add(%a, %b) : i32
  return(%r)
}

fn @comb(%a: i32, %b: i32) -> i32 {
)" + h.comb + R"(
  return(%r)
}

fn @summ(%x: i32[S]) -> i32 {
  %z = const() {value = 0} : i32
  %r = reduce(%x, %z) {axes = [0], combine = @comb} : i32
  return(%r)
}

fn @apply(%t: i32, %s: i32) -> i32 {
)" + h.apply + R"(
  return(%r)
}

fn @emit(%x: i32[S], %s: i32) -> i32[S] {
  %z = const() {value = 0} : i32
  %p = scan(%x, %z) {axis = 0, combine = @add} : i32[S]
)" + h.emit + R"(
  return(%r)
}

fn @f(%x: i32[N], %init: i32) -> tuple<i32[N], i32> {
  %z = const() {value = 0} : i32
  %out, %final = region_scan(%x, %z, %init) {apply = @apply, axis = 0, combine = @comb, emit = @emit, segments = [1, 1, 1, 0], summarize = @summ} : (i32[N], i32)
  %r = tuple(%out, %final) : tuple<i32[N], i32>
  return(%r)
}
)";
}

interp::Value i32v(int64_t v) { return interp::Value(num::make_int(DType::I32, static_cast<uint64_t>(v))); }

const interp::LawViolation* find_law(const interp::LawReport& rep, const std::string& law) {
  for (const auto& v : rep.violations)
    if (v.law == law) return &v;
  return nullptr;
}

using Segs = std::vector<std::pair<int64_t, int64_t>>;

}  // namespace

TEST_CASE("[L9.5] region_scan law checking: prefix sums with a sum summary pass every law", "[interp][L9.5]") {
  auto m = load(scan_module({}));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({1, 2, 3, 4, 5}), i32v(10)}, 7, 4);
  INFO(rep.str());
  CHECK(rep.ok());
  CHECK(rep.scans_checked == 1);
  CHECK(rep.folds_checked == 0);
  CHECK(rep.str() == "ok (0 region_fold and 1 region_scan executions checked)");
}

TEST_CASE("[L9.5] region_scan law checking: a wrong apply breaks the action laws on the smallest segments", "[interp][L9.5]") {
  ScanHelpers h;
  h.apply = "  %r = mul(%s, %t) : i32";  // state * t instead of state + t
  auto m = load(scan_module(h));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({2, 3, 4}), i32v(10)});
  INFO(rep.str());
  CHECK(find_law(rep, "homomorphism") == nullptr);  // summarize/combine are lawful
  // apply(identity 0, 10) = 10 * 0 = 0, not 10: shown by the initial state, no segment needed.
  const auto* id = find_law(rep, "apply identity");
  REQUIRE(id);
  CHECK(id->segments.empty());
  CHECK(id->op == "region_scan");
  CHECK(id->detail.find("apply(identity, state) = i32 0 but state = i32 10 (the initial state)") != std::string::npos);
  // A = [0, 1), B = [1, 2) from state 10: apply(combine(2, 3), 10) = 5 * 10 = 50 but
  // apply(3, apply(2, 10)) = 3 * 20 = 60.
  const auto* act = find_law(rep, "action composition");
  REQUIRE(act);
  CHECK(act->segments == Segs{{0, 1}, {1, 2}});
  CHECK(act->detail.find("= i32 50 but apply(summarize([1, 2)), apply(summarize([0, 1)), state)) = i32 60") != std::string::npos);
  // The (correct) emit then sees the wrong incoming state: emit([1, 2), apply(2, 10) = 20) = 23
  // where the whole emit from 10 has 10 + 2 + 3 = 15.
  const auto* em = find_law(rep, "emit concatenation");
  REQUIRE(em);
  CHECK(em->segments == Segs{{0, 1}, {1, 2}});
  CHECK(em->detail.find("{23}") != std::string::npos);
  CHECK(em->detail.find("{15}") != std::string::npos);
  CHECK(rep.str().find("t.kir:33:3: region_scan breaks the action composition law on segments [0, 1) [1, 2)") != std::string::npos);
}

TEST_CASE("[L9.5] region_scan law checking: an emit that ignores its incoming state breaks the emit law", "[interp][L9.5]") {
  ScanHelpers h;
  h.emit = "  %zb = broadcast(%z) {dims = []} : i32[S]\n  %r = add(%p, %zb) : i32[S]";  // local prefix sums only
  auto m = load(scan_module(h));
  interp::Interpreter it(*m);
  // x = [0, 2, 3]: A = [0, 1) has sum 0, so the pairs starting at 0 agree; at 1, emit([1, 3))
  // = {2, 5} but emit([2, 3), 2) = {3}: the smallest witness is [1, 2) [2, 3).
  auto rep = it.check_region_fold_laws("f", {ints({0, 2, 3}), i32v(0)});
  INFO(rep.str());
  REQUIRE(rep.violations.size() == 1);
  const auto& v = rep.violations[0];
  CHECK(v.law == "emit concatenation");
  CHECK(v.segments == Segs{{1, 2}, {2, 3}});
  CHECK(v.detail.find("output 0 of emit([2, 3), apply(summarize([1, 2)), state)) is i32[1] {3}") != std::string::npos);
  CHECK(v.detail.find("the whole has i32[1] {5}") != std::string::npos);
}

TEST_CASE("[L9.5][L9.3] region_scan law checking: a non-associative combine breaks the homomorphism", "[interp][L9.5][L9.3]") {
  ScanHelpers h;
  h.comb = "  %bb = mul(%b, %b) : i32\n  %abb = mul(%a, %bb) : i32\n  %s = add(%a, %b) : i32\n  %r = add(%s, %abb) : i32";
  auto m = load(scan_module(h));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {ints({1, 2, 3, 1}), i32v(0)}, 3);
  INFO(rep.str());
  // As for region_fold: (1 . 2) . 3 = 73 but 1 . (2 . 3) = 553, first seen on [0, 1) [1, 3).
  const auto* hom = find_law(rep, "homomorphism");
  REQUIRE(hom);
  CHECK(hom->op == "region_scan");
  CHECK(hom->segments == Segs{{0, 1}, {1, 3}});
  CHECK(hom->detail.find("summarize([0, 3)) = i32 73") != std::string::npos);
  CHECK(find_law(rep, "left identity") == nullptr);
  CHECK(find_law(rep, "apply identity") == nullptr);
}

TEST_CASE("[L9.5] Options::check_laws checks the region ops a kernel executes", "[interp][L9.5][L9.3]") {
  ScanHelpers h;
  h.apply = "  %r = mul(%s, %t) : i32";
  auto m = load(scan_module(h) + R"(
kernel @k(%x: In<i32[N]>, %o: Out<i32[N]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %r) : i32[N]
  %ten = const() {value = 10} : i32
  %t = call(%v, %ten) {callee = @f} : tuple<i32[N], i32>
  %out = tuple.get(%t) {index = 0} : i32[N]
  view.store(%o, %r, %out)
}
)");
  interp::Options opts;
  opts.check_laws = true;
  interp::Interpreter it(*m, opts);
  auto o = view(DType::I32, {3});
  it.run_kernel("k", {{"x", view(DType::I32, {3}, {2, 3, 4})}, {"o", o}});
  // The whole segmentation's outputs: 10 + prefix sums.
  CHECK(values(o) == std::vector<double>{12, 15, 19});
  CHECK(it.law_report().scans_checked == 1);
  CHECK(find_law(it.law_report(), "action composition"));
  // Without the option nothing is checked.
  interp::Interpreter plain(*m);
  plain.run_kernel("k", {{"x", view(DType::I32, {3}, {2, 3, 4})}, {"o", view(DType::I32, {3})}});
  CHECK(plain.law_report().scans_checked == 0);
}

TEST_CASE("[L9.3] law checking compares float zeros of either sign as equal", "[interp][L9.3]") {
  // summarize sums from -0, so a slice of -0 summarizes to -0; combine(+0 identity, -0) = +0.
  // +0 == -0 as values: the identity is neutral. A summary of 1 vs 2 still differs.
  auto m = load(R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @summ(%x: f32[S]) -> f32 {
  %nz = const() {value = -0.0} : f32
  %r = reduce(%x, %nz) {axes = [0], combine = @add} : f32
  return(%r)
}

fn @f(%x: f32[N]) -> f32 {
  %z = const() {value = 0.0} : f32
  %r = region_fold(%x, %z) {axis = 0, combine = @add, segments = [1, 1, 0], summarize = @summ} : f32
  return(%r)
}
)");
  interp::Tensor x;
  x.dtype = DType::F32;
  x.shape = {3};
  x.bits = {num::from_double(-0.0, DType::F32), num::from_double(-0.0, DType::F32), num::from_double(-0.0, DType::F32)};
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {interp::Value(x)});
  INFO(rep.str());
  CHECK(rep.ok());
  CHECK(rep.folds_checked == 1);
}

// ---- comparison under the numerics contract (issue 11 item 6) ----
// The two sides of a law are equal when their bits agree or when their enclosures (intervals
// holding the exact value and every legal reassociation of the sums) meet; exact results keep
// single-point enclosures, so integers stay bitwise. A combine off by more than rounding is
// reported with the differing elements, their coordinates, both values and both enclosures.

namespace {

// @f: region_fold of f32 rows x[N, 2], summaries are the column sums (reduce with @add from 0).
// @comb receives the summaries %a, %b and ends in %r.
std::string float_fold_module(const std::string& combine_body) {
  return R"(
fn @add(%a: f32[2], %b: f32[2]) -> f32[2] {
  %r = add(%a, %b) : f32[2]
  return(%r)
}

fn @comb(%a: f32[2], %b: f32[2]) -> f32[2] {
)" + combine_body + R"(
  return(%r)
}

fn @summ(%x: f32[S, 2]) -> f32[2] {
  %z = const() {value = 0.0} : f32
  %zc = full(%z) : f32[2]
  %r = reduce(%x, %zc) {axes = [0], combine = @add} : f32[2]
  return(%r)
}

fn @f(%x: f32[N, 2]) -> f32[2] {
  %z = const() {value = 0.0} : f32
  %zc = full(%z) : f32[2]
  %r = region_fold(%x, %zc) {axis = 0, combine = @comb, segments = [1, 1, 0], summarize = @summ} : f32[2]
  return(%r)
}
)";
}

interp::Value f32s(const interp::Shape& shape, const std::vector<double>& v) {
  interp::Tensor t;
  t.dtype = DType::F32;
  t.shape = shape;
  for (double x : v) t.bits.push_back(num::from_double(x, DType::F32));
  return interp::Value(t);
}

double f32_of(const interp::Value& v, size_t i) { return num::to_double(v.tensor().bits.at(i), DType::F32); }

// Column 0: 1 then three times 2^-24: the whole left fold stays 1 (each addition ties to even),
// while 1 + (2^-24 + 2^-24 + 2^-24) rounds to 1 + 2^-22. Column 1 is exact in every order.
const std::vector<double> kTies = {1, 0.5, 0x1p-24, 0.25, 0x1p-24, 0.125, 0x1p-24, 0.0625};

}  // namespace

TEST_CASE("[L9.3] law checking accepts float sums whose segmentations differ only by rounding", "[interp][L9.3]") {
  auto m = load(float_fold_module("  %r = add(%a, %b) : f32[2]"));
  interp::Interpreter it(*m);
  // The bits do differ: the whole summary has 1 where the split 1 + 3 gives 1 + 2^-22.
  const auto whole = it.call_helper("summ", {f32s({4, 2}, kTies)});
  const auto head = it.call_helper("summ", {f32s({1, 2}, {1, 0.5})});
  const auto tail = it.call_helper("summ", {f32s({3, 2}, {0x1p-24, 0.25, 0x1p-24, 0.125, 0x1p-24, 0.0625})});
  const auto split = it.call_helper("comb", {head[0], tail[0]});
  CHECK(f32_of(whole[0], 0) == 1);
  CHECK(f32_of(split[0], 0) == 1 + 0x1p-22);
  CHECK(f32_of(whole[0], 1) == f32_of(split[0], 1));
  // Both lie in the reassociation envelope of the sum: no law breaks.
  auto rep = it.check_region_fold_laws("f", {f32s({4, 2}, kTies)}, 5, 4);
  INFO(rep.str());
  CHECK(rep.ok());
  CHECK(rep.folds_checked == 1);
}

TEST_CASE("[L9.3] law checking rejects a combine off by a few ulps more than the envelope, listing the elements",
          "[interp][L9.3]") {
  // combine adds 2^-20 to column 1: 8 ulps at 0.5, far outside the envelope of four terms
  // (about one ulp), while column 0 stays a lawful sum.
  auto m = load(float_fold_module(R"(  %s = add(%a, %b) : f32[2]
  %e0 = const() {value = 0.0} : f32
  %e1 = const() {value = 0.00000095367431640625} : f32
  %eps = join(%e0, %e1) : f32[2]
  %r = add(%s, %eps) : f32[2])"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {f32s({4, 2}, kTies)});
  INFO(rep.str());
  const auto* left = find_law(rep, "left identity");
  REQUIRE(left);
  CHECK(left->segments == Segs{{0, 1}});
  // Element (1): combine(0, s) = 0.5 + 2^-20 against s = 0.5; element (0) agrees.
  CHECK(left->detail.find("1 of 2 elements differ beyond their enclosures: element (1): 0.5000009536743164 vs 0.5, "
                          "enclosures 0.5000009536743164 and 0.5 do not meet") != std::string::npos);
  const auto* hom = find_law(rep, "homomorphism");
  REQUIRE(hom);
  CHECK(hom->segments == Segs{{0, 1}, {1, 2}});
  CHECK(hom->detail.find("element (1): 0.75 vs 0.7500009536743164, enclosures 0.75 and 0.7500009536743164 do not meet") !=
        std::string::npos);
  // With inexact sums in column 1 the whole summary's enclosure is the envelope of its terms
  // (an interval of a few ulps), still far from the drifted combine.
  const std::vector<double> inexact = {1, 0.1, 0x1p-24, 0.2, 0x1p-24, 0.3, 0x1p-24, 0.7};
  auto rep2 = it.check_region_fold_laws("f", {f32s({4, 2}, inexact)});
  INFO(rep2.str());
  const auto* hom2 = find_law(rep2, "homomorphism");
  REQUIRE(hom2);
  CHECK(hom2->segments == Segs{{0, 1}, {1, 2}});
  const size_t at = hom2->detail.find("1 of 2 elements differ beyond their enclosures: element (1): 0.30000001192092896 vs ");
  CHECK(at != std::string::npos);
  CHECK(hom2->detail.find("enclosures [", at) != std::string::npos);
  CHECK(hom2->detail.find("element (0)") == std::string::npos);
}

TEST_CASE("[L9.3] law checking rejects max in place of a sum and integer sums off by one", "[interp][L9.3]") {
  auto m = load(float_fold_module("  %r = max(%a, %b) : f32[2]"));
  interp::Interpreter it(*m);
  auto rep = it.check_region_fold_laws("f", {f32s({4, 2}, kTies)});
  INFO(rep.str());
  const auto* hom = find_law(rep, "homomorphism");
  REQUIRE(hom);
  // Column 0 agrees (1 + 2^-24 rounds to 1 = max(1, 2^-24)); column 1: 0.5 + 0.25 against 0.5.
  CHECK(hom->detail.find("1 of 2 elements differ beyond their enclosures: element (1): 0.75 vs 0.5") != std::string::npos);
  // Integer summaries keep single-point enclosures: a combine adding 1 is reported exactly.
  auto mi = load(fold_module("  %s = add(%a, %b) : i32\n  %one = const() {value = 1} : i32\n  %r = add(%s, %one) : i32"));
  interp::Interpreter iti(*mi);
  auto repi = iti.check_region_fold_laws("f", {ints({1, 2, 3})});
  INFO(repi.str());
  const auto* idl = find_law(repi, "left identity");
  REQUIRE(idl);
  // summarize([0, 1)) = combine(0, 1) = 2, and combine(identity, 2) = 3.
  CHECK(idl->detail.find("the value: 3 vs 2, enclosures 3 and 2 do not meet") != std::string::npos);
}

namespace {

// Affine maps x -> a*x + u composed left to right (not commutative), summarizing f32 pairs (a, u);
// @f folds them with combine @COMB.
std::string affine_module(const std::string& comb) {
  return R"(
fn @compose(%l: tuple<f32, f32>, %r: tuple<f32, f32>) -> tuple<f32, f32> {
  %al = tuple.get(%l) {index = 0} : f32
  %ul = tuple.get(%l) {index = 1} : f32
  %ar = tuple.get(%r) {index = 0} : f32
  %ur = tuple.get(%r) {index = 1} : f32
  %a = mul(%al, %ar) : f32
  %s = mul(%ar, %ul) : f32
  %u = add(%s, %ur) : f32
  %res = tuple(%a, %u) : tuple<f32, f32>
  return(%res)
}

fn @swapped(%l: tuple<f32, f32>, %r: tuple<f32, f32>) -> tuple<f32, f32> {
  %res = call(%r, %l) {callee = @compose} : tuple<f32, f32>
  return(%res)
}

fn @summ(%a: f32[S], %u: f32[S]) -> tuple<f32, f32> {
  %src = tuple(%a, %u) : tuple<f32[S], f32[S]>
  %one = const() {value = 1.0} : f32
  %zero = const() {value = 0.0} : f32
  %id = tuple(%one, %zero) : tuple<f32, f32>
  %r = reduce(%src, %id) {axes = [0], combine = @compose} : tuple<f32, f32>
  return(%r)
}

fn @f(%a: f32[N], %u: f32[N]) -> tuple<f32, f32> {
  %one = const() {value = 1.0} : f32
  %zero = const() {value = 0.0} : f32
  %id = tuple(%one, %zero) : tuple<f32, f32>
  %r = region_fold(%a, %u, %id) {axis = 0, combine = @)" + comb + R"(, segments = [2, 1, 0], summarize = @summ} : tuple<f32, f32>
  return(%r)
}
)";
}

}  // namespace

TEST_CASE("[L9.3] law checking: a non-commutative float combine passes in order and breaks with swapped operands",
          "[interp][L9.3]") {
  const std::vector<double> a = {0.7, 1.3, 0.9, 1.1, 0.6, 1.45, 0.8}, u = {0.3, -0.7, 0.55, 0.1, -0.9, 0.25, 0.45};
  auto m = load(affine_module("compose"));
  interp::Interpreter it(*m);
  for (uint64_t seed : {0, 1, 2}) {
    auto rep = it.check_region_fold_laws("f", {f32s({7}, a), f32s({7}, u)}, seed, 4);
    INFO(rep.str());
    CHECK(rep.ok());
  }
  auto bad = load(affine_module("swapped"));
  interp::Interpreter itb(*bad);
  auto rep = itb.check_region_fold_laws("f", {f32s({7}, a), f32s({7}, u)});
  INFO(rep.str());
  const auto* hom = find_law(rep, "homomorphism");
  REQUIRE(hom);
  CHECK(hom->segments == Segs{{0, 1}, {1, 2}});
  // The products agree (component 0 commutes); the offsets do not: component 1 is listed.
  CHECK(hom->detail.find("1 of 2 elements differ beyond their enclosures: component 1: ") != std::string::npos);
  CHECK(find_law(rep, "left identity") == nullptr);
}

namespace {

// A region_scan of f32 prefix sums (state + inclusive prefix of the segment), @apply ending in %r.
std::string float_scan_module(const std::string& apply_body) {
  return R"(
fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @summ(%x: f32[S]) -> f32 {
  %z = const() {value = 0.0} : f32
  %r = reduce(%x, %z) {axes = [0], combine = @add} : f32
  return(%r)
}

fn @apply(%t: f32, %s: f32) -> f32 {
)" + apply_body + R"(
  return(%r)
}

fn @emit(%x: f32[S], %s: f32) -> f32[S] {
  %z = const() {value = 0.0} : f32
  %p = scan(%x, %z) {axis = 0, combine = @add} : f32[S]
  %sb = broadcast(%s) {dims = []} : f32[S]
  %r = add(%p, %sb) : f32[S]
  return(%r)
}

fn @f(%x: f32[N], %init: f32) -> tuple<f32[N], f32> {
  %z = const() {value = 0.0} : f32
  %out, %final = region_scan(%x, %z, %init) {apply = @apply, axis = 0, combine = @add, emit = @emit, segments = [1, 1, 1, 0], summarize = @summ} : (f32[N], f32)
  %r = tuple(%out, %final) : tuple<f32[N], f32>
  return(%r)
}
)";
}

}  // namespace

TEST_CASE("[L9.5] region_scan law checking accepts float prefix sums that differ by rounding and rejects a drifting apply",
          "[interp][L9.5]") {
  const std::vector<double> x = {0.1, 0.7, -0.3, 1e-8, 0.25, 3.3, -2.9, 0.01};
  auto m = load(float_scan_module("  %r = add(%s, %t) : f32"));
  interp::Interpreter it(*m);
  for (uint64_t seed : {0, 1, 2}) {
    auto rep = it.check_region_fold_laws("f", {f32s({8}, x), interp::Value(f32(0.4))}, seed, 4);
    INFO(rep.str());
    CHECK(rep.ok());
    CHECK(rep.scans_checked == 1);
  }
  // apply(t, s) = (s + t) * (1 + 2^-18): a drift of 32 ulps per application.
  auto bad = load(float_scan_module(R"(  %v = add(%s, %t) : f32
  %k = const() {value = 1.000003814697265625} : f32
  %r = mul(%v, %k) : f32)"));
  interp::Interpreter itb(*bad);
  auto rep = itb.check_region_fold_laws("f", {f32s({8}, x), interp::Value(f32(0.4))});
  INFO(rep.str());
  const auto* id = find_law(rep, "apply identity");
  REQUIRE(id);
  CHECK(id->detail.find("the value: 0.40000152587890625 vs 0.4000000059604645, enclosures") != std::string::npos);
  CHECK(find_law(rep, "action composition"));
  CHECK(find_law(rep, "homomorphism") == nullptr);
}
