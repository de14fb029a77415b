// Extents near the ends of the 64-bit index range (seed 000 §3): the interpreter evaluates
// extents exactly, with 128-bit intermediates, so an extent whose value fits evaluates although
// a partial sum of its polynomial does not; a value that does not fit is a located error — a
// negative extent a shape-mismatch, a positive one beyond the range (or a domain with more
// points than the range holds) a limit — never an unlocated one.
#include "interp_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;

std::vector<int64_t> i64s(const interp::HostView& h) {
  std::vector<int64_t> out;
  for (uint64_t b : h.storage->bits) out.push_back(static_cast<int64_t>(b));
  return out;
}

// The points of domain(%b, %e, %st) in order through its typed extent: k = (i - b) / st.
const char* kIndicesForm = R"(kernel @k(%o: Out<index[3]>, %b: index, %e: index, %st: index) {
  %d = domain(%b, %e, %st) : domain<floordiv(%e - %b + %st - 1, %st)>
  %i = indices(%d) : index[floordiv(%e - %b + %st - 1, %st)]
  %fb = full(%b) : index[floordiv(%e - %b + %st - 1, %st)]
  %fs = full(%st) : index[floordiv(%e - %b + %st - 1, %st)]
  %j = sub(%i, %fb) : index[floordiv(%e - %b + %st - 1, %st)]
  %k = div(%j, %fs) : index[floordiv(%e - %b + %st - 1, %st)]
  %r = relation(%k) : relation<1 -> [floordiv(%e - %b + %st - 1, %st)]>
  view.store(%o, %r, %i)
}
)";

// A value of extent `extent` over the runtime scalars %a and %c (line 2, col 3).
std::string full_of(const std::string& extent) {
  return "kernel @k(%a: index, %c: index, %y: Out<index[1]>) {\n  %f = full(%a) : index[" + extent +
         "]\n  %k = dim(%f) {axis = 0} : index\n  %z = const() {value = 0} : index\n"
         "  %r0 = relation(%z) : relation<1 -> []>\n  view.store(%y, %r0, %k)\n}\n";
}

}  // namespace

TEST_CASE("the indices of domain(INT64_MIN, INT64_MIN + 8, 3) evaluate their extent 3 exactly", "[interp][L3.1][L3.4][limits]") {
  // Reproducer: floordiv(%e - %b + %st - 1, %st) was evaluated term by term in 64 bits, and
  // -1 * INT64_MIN failed with an unlocated "extent arithmetic overflows 64 bits".
  auto m = load(kIndicesForm);
  interp::HostView o = view(DType::Index, {3});
  interp::Interpreter it(*m);
  it.run_kernel("k", {{"o", o}, {"b", idx(kMin)}, {"e", idx(kMin + 8)}, {"st", idx(3)}});
  CHECK(i64s(o) == std::vector<int64_t>{kMin, kMin + 3, kMin + 6});
  // e - b + st - 1 = 2^63 + 2^62 - 2 leaves the range; the extent, 2, does not.
  interp::HostView o3 = view(DType::Index, {3});
  it.run_kernel("k", {{"o", o3}, {"b", idx(0)}, {"e", idx(kMax)}, {"st", idx(int64_t{1} << 62)}});
  // Two points: 0 and 2^62; k = 0, 1; the third element is never written.
  CHECK(i64s(o3)[0] == 0);
  CHECK(i64s(o3)[1] == int64_t{1} << 62);
}

TEST_CASE("a domain with more points than the index range holds is a located limit error", "[interp][L3.1][limits]") {
  auto m = load(R"(kernel @k(%o: Out<index[1]>, %b: index, %e: index) {
  %d = domain(%b, %e) : domain<%e - %b>
  %zero = const() {value = 0} : index
  %r0 = relation(%zero) : relation<1 -> []>
  %cnt = const() {value = 0} : index
  %n = for(%d, %cnt) : index region(%i: index, %c: index) {
    %one = const() {value = 1} : index
    %c2 = add(%c, %one) : index
    yield(%c2)
  }
  view.store(%o, %r0, %n)
}
)");
  // [-2, INT64_MAX) has 2^63 + 1 points (the count once wrapped to a negative extent).
  expect_error(*m, "k", {{"o", view(DType::Index, {1})}, {"b", idx(-2)}, {"e", idx(kMax)}}, interp::ErrorKind::Limit,
               {"t.kir:2:3", "op 'domain'", "domain [-2, 9223372036854775807) has more points than the 64-bit index range holds"});
  // Begin after end by more than INT64_MAX: an empty domain, no error.
  interp::HostView o = view(DType::Index, {1});
  interp::Interpreter(*m).run_kernel("k", {{"o", o}, {"b", idx(kMax)}, {"e", idx(-2)}});
  CHECK(values(o) == std::vector<double>{0});
}

TEST_CASE("an extent outside the index range is a located error of the op: limit or shape-mismatch", "[interp][L4.9][limits]") {
  // 2^32 * 2^32 = 2^64: beyond the range.
  auto sq = load(full_of("%a * %c"));
  expect_error(*sq, "k", {{"a", idx(int64_t{1} << 32)}, {"c", idx(int64_t{1} << 32)}, {"y", view(DType::Index, {1})}},
               interp::ErrorKind::Limit,
               {"t.kir:2:3", "op 'full'", "evaluates to 18446744073709551616, beyond the 64-bit index range"});
  // INT64_MIN - 1: negative, whatever its magnitude, is a shape mismatch.
  auto diff = load(full_of("%a - %c"));
  expect_error(*diff, "k", {{"a", idx(kMin)}, {"c", idx(1)}, {"y", view(DType::Index, {1})}}, interp::ErrorKind::ShapeMismatch,
               {"t.kir:2:3", "op 'full'", "evaluates to -9223372036854775809 < 0"});
  // A partial sum beyond 64 bits is fine when the extent is not: INT64_MAX - (INT64_MAX - 2) = 2.
  interp::HostView y = view(DType::Index, {1});
  interp::Interpreter(*diff).run_kernel("k", {{"a", idx(kMax)}, {"c", idx(kMax - 2)}, {"y", y}});
  CHECK(values(y) == std::vector<double>{2});
  // Beyond 128 bits: (2^62)^3 = 2^186.
  auto cube = load(full_of("%a * %a * %a"));
  expect_error(*cube, "k", {{"a", idx(int64_t{1} << 62)}, {"c", idx(0)}, {"y", view(DType::Index, {1})}},
               interp::ErrorKind::Limit, {"t.kir:2:3", "op 'full'", "exceeds 128 bits"});
}
