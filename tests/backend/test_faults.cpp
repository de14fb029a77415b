// Faults are effects (checklist C5, C1): every element of a value that can fault faults whether
// or not the kernel reads it, the native run reports the fault the language's order reaches
// first (op by op, element by element in coordinate order), and a run stops soon after its
// first fault. Each program is a reproducer of a fault the backend once lost or reported late;
// the expected fault is the interpreter's (hand-checked in each case's comment).
#include <regex>

#include "tests/backend/backend_test.h"

using namespace kir;

namespace {

// The location (line:col) and coordinates ("at (...)") a fault message names, or "" each.
struct FaultSite {
  std::string where, at;
};

FaultSite site_of(const std::string& message) {
  FaultSite f;
  std::smatch m;
  if (std::regex_search(message, m, std::regex(R"(:(\d+:\d+): (runtime )?error)"))) f.where = m[1];
  if (std::regex_search(message, m, std::regex(R"( at \(([-0-9, ]*)\))"))) f.at = m[1];
  return f;
}

// Runs `kernel` on both engines; both must fail at the same op and element, the one `where`
// (line:col) and `at` name.
void same_first_fault(const Module& m, const std::string& kernel, const std::map<std::string, interp::KernelArg>& args,
                      const std::string& where, const std::string& at) {
  auto d = oracle::run_differential(m, kernel, args, nullptr, btest::options());
  INFO("interpreter: " << d.interp_error << "\nbackend: " << d.backend_error);
  REQUIRE(!d.interp_error.empty());
  REQUIRE(!d.backend_error.empty());
  const FaultSite i = site_of(d.interp_error), b = site_of(d.backend_error);
  CHECK(i.where == where);
  CHECK(i.at == at);
  CHECK(b.where == where);
  CHECK(b.at == at);
}

interp::KernelArg i32s(std::vector<double> v) {
  const auto n = static_cast<int64_t>(v.size());
  return btest::view(DType::I32, {n}, std::move(v));
}

// a / b with b = [3, 0]: the quotient faults at element 1 — line 9, col 3 in every program below.
const char* kDivHead = R"(kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %o: Out<i32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %d = div(%av, %bv) : i32[N]
  %r0 = relation(%zero) : relation<1 -> []>
)";

std::map<std::string, interp::KernelArg> div_args() {
  return {{"a", i32s({6, 7})}, {"b", i32s({3, 0})}, {"o", btest::view(DType::I32, {1})}};
}

}  // namespace

TEST_CASE("a faulting value read at one element faults at the element not read", "[C5][faults]") {
  auto m = btest::load(std::string(kDivHead) + R"(  %g = gather(%d, %r0) : i32
  view.store(%o, %r0, %g)
}
)");
  same_first_fault(*m, "k", div_args(), "9:3", "1");
}

TEST_CASE("a faulting value read under an untaken if faults", "[C5][faults]") {
  auto m = btest::load(std::string(kDivHead) + R"(  %f = const() {value = false} : bool
  %r = if(%f) : i32 region() {
    %g = gather(%d, %r0) : i32
    yield(%g)
  } region() {
    %z = const() {value = 0} : i32
    yield(%z)
  }
  view.store(%o, %r0, %r)
}
)");
  same_first_fault(*m, "k", div_args(), "9:3", "1");
}

TEST_CASE("a faulting value read in a for loop of zero trips faults", "[C5][faults]") {
  auto m = btest::load(std::string(kDivHead) + R"(  %none = domain(%zero, %zero) : domain<0>
  %c = const() {value = 0} : i32
  %r = for(%none, %c) : i32 region(%t: index, %acc: i32) {
    %g = gather(%d, %r0) : i32
    yield(%g)
  }
  view.store(%o, %r0, %r)
}
)");
  same_first_fault(*m, "k", div_args(), "9:3", "1");
}

TEST_CASE("a faulting value read in a parallel region of zero points faults", "[C5][C1][faults]") {
  auto m = btest::load(std::string(kDivHead) + R"(  %none = domain(%zero, %zero) : domain<0>
  parallel(%none) region(%p: index) {
    %g = gather(%d, %r0) : i32
    view.store(%o, %r0, %g)
    yield()
  }
}
)");
  same_first_fault(*m, "k", div_args(), "9:3", "1");
}

TEST_CASE("a faulting value stored through a mask faults where the mask is off", "[C5][faults]") {
  auto m = btest::load(R"(kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %o: Out<i32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %d = div(%av, %bv) : i32[N]
  %one = const() {value = 1} : index
  %ones = broadcast(%one) {dims = []} : index[N]
  %keep = cmp(%i, %ones) {pred = lt} : bool[N]
  %mrel = relation(%i, %keep) : relation<1 -> [N], masked>
  view.store(%o, %mrel, %d)
}
)");
  auto args = div_args();
  args["o"] = btest::view(DType::I32, {2});
  same_first_fault(*m, "k", args, "9:3", "1");
}

TEST_CASE("a faulting value scattered through a mask faults where the mask is off", "[C5][faults]") {
  auto m = btest::load(R"(fn @addi(%x: i32, %y: i32) -> i32 {
  %s = add(%x, %y) : i32
  return(%s)
}
kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %o: InOut<i32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %d = div(%av, %bv) : i32[N]
  %one = const() {value = 1} : index
  %ones = broadcast(%one) {dims = []} : index[N]
  %keep = cmp(%i, %ones) {pred = lt} : bool[N]
  %mrel = relation(%i, %keep) : relation<1 -> [N], masked>
  scatter_reduce(%o, %mrel, %d) {combine = @addi}
}
)");
  auto args = div_args();
  args["o"] = btest::view(DType::I32, {2});
  same_first_fault(*m, "k", args, "13:3", "1");
}

TEST_CASE("a faulting value gathered with partial validity faults where the relation is invalid", "[C5][faults]") {
  auto m = btest::load(std::string(kDivHead) + R"(  %one = const() {value = 1} : index
  %ones = broadcast(%one) {dims = []} : index[N]
  %keep = cmp(%i, %ones) {pred = lt} : bool[N]
  %mrel = relation(%i, %keep) : relation<1 -> [N], masked>
  %fill = const() {value = -1} : i32
  %g = gather(%d, %mrel, %fill) : i32[N]
  %orel = relation(%zero) : relation<1 -> []>
  %g0 = gather(%g, %orel) : i32
  view.store(%o, %r0, %g0)
}
)");
  same_first_fault(*m, "k", div_args(), "9:3", "1");
}

TEST_CASE("a faulting value reduced over a prefix faults past the prefix", "[C5][faults]") {
  auto m = btest::load(std::string("fn @addi(%x: i32, %y: i32) -> i32 {\n  %s = add(%x, %y) : i32\n  return(%s)\n}\n") +
                       kDivHead + R"(  %one = const() {value = 1} : index
  %pre = subregion(%dn, %zero, %one) : subregion<1>
  %ip = indices(%pre) : index[1]
  %prel = relation(%ip) : relation<1 -> [1]>
  %dp = gather(%d, %prel) : i32[1]
  %zi = const() {value = 0} : i32
  %s = reduce(%dp, %zi) {axes = [0], combine = @addi} : i32
  view.store(%o, %r0, %s)
}
)");
  same_first_fault(*m, "k", div_args(), "13:3", "1");
}

TEST_CASE("a gather at a coordinate outside a fused value faults instead of reading past it", "[C5][faults]") {
  // d = a + b cannot fault, but the gather at j = 5 of its 2 elements must (the fused value
  // once read a[5] and b[5]).
  auto m = btest::load(R"(kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %j: index, %o: Out<i32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %d = add(%av, %bv) : i32[N]
  %r0 = relation(%zero) : relation<1 -> []>
  %rj = relation(%j) : relation<1 -> []>
  %g = gather(%d, %rj) : i32
  view.store(%o, %r0, %g)
}
)");
  auto args = div_args();
  args["j"] = num::Scalar{DType::Index, 5};
  auto d = oracle::run_differential(*m, "k", args, nullptr, btest::options());
  INFO("interpreter: " << d.interp_error << "\nbackend: " << d.backend_error);
  CHECK(d.interp_error.find("12:3: runtime error[out-of-bounds]") != std::string::npos);
  CHECK(d.backend_error.find("12:3: error[backend]: index out of bounds in `gather`") != std::string::npos);
  args["j"] = num::Scalar{DType::Index, 1};
  auto out = btest::differential(*m, "k", args);
  CHECK(btest::out_view(out, "o").storage->bits[0] == 7);  // 7 + 0
}

TEST_CASE("of two faults the native run reports the one the language's order reaches first", "[C5][faults]") {
  // q = a / b faults at (1); s = q << c, evaluated after it, would fault at (0) (shift 40).
  auto m = btest::load(R"(kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %c: In<i32[N]>, %o: Out<i32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %cv = view.load(%c, %rel) : i32[N]
  %q = div(%av, %bv) : i32[N]
  %s = shl(%q, %cv) : i32[N]
  view.store(%o, %rel, %s)
}
)");
  std::map<std::string, interp::KernelArg> args = {
      {"a", i32s({6, 7})}, {"b", i32s({3, 0})}, {"c", i32s({40, 1})}, {"o", btest::view(DType::I32, {2})}};
  same_first_fault(*m, "k", args, "10:3", "1");
}

TEST_CASE("a fault in one row of a partitioned loop is the first in the loop's order", "[C1][faults]") {
  // 2^16 rows split into tasks: the rows 1000 and 60000 both divide by zero; row 1000 is first.
  auto m = btest::load(R"(kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %o: Out<i32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %d = div(%av, %bv) : i32[N]
  view.store(%o, %rel, %d)
}
)");
  const int64_t n = 1 << 16;
  std::vector<double> b(static_cast<size_t>(n), 1.0);
  b[1000] = 0;
  b[60000] = 0;
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::I32, {n})},
                                                  {"b", btest::view(DType::I32, {n}, b)},
                                                  {"o", btest::view(DType::I32, {n})}};
  for (int run = 0; run < 5; ++run) same_first_fault(*m, "k", args, "9:3", "1000");
}

TEST_CASE("the first fault ends the native run: no later statement runs", "[C1][C14][faults]") {
  // The quotient faults at (0); the increment of %c after it must not happen.
  auto m = btest::load(R"(kernel @k(%a: In<i32[N]>, %b: In<i32[N]>, %o: Out<i32[N]>, %c: InOut<i32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %dn = domain(%zero, %n) : domain<N>
  %i = indices(%dn) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %rel) : i32[N]
  %bv = view.load(%b, %rel) : i32[N]
  %d = div(%av, %bv) : i32[N]
  view.store(%o, %rel, %d)
  %cv = view.load(%c, %rel) : i32[N]
  %one = const() {value = 1} : i32
  %ones = broadcast(%one) {dims = []} : i32[N]
  %c2 = add(%cv, %ones) : i32[N]
  view.store(%c, %rel, %c2)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"a", i32s({6, 7, 8})},
                                                  {"b", i32s({0, 1, 2})},
                                                  {"o", btest::view(DType::I32, {3})},
                                                  {"c", i32s({10, 20, 30})}};
  auto native = cpu::build_kernel(*m, "k", btest::options());
  oracle::BoundCall call(*native, *m, "k", args);
  const kir_fault f = call.call();
  call.write_back();
  CHECK(f.code == KIR_FAULT_DIVIDE_BY_ZERO);
  CHECK(f.rank == 1);
  CHECK(f.coord[0] == 0);
  const auto& c = btest::out_view(args, "c").storage->bits;
  CHECK(c == std::vector<uint64_t>{10, 20, 30});
}

TEST_CASE("a fault ends the native run at once: a subregion of 2^40 elements of an 8-element view", "[C1][C14][faults]") {
  // It ran on over the 2^40 elements the bad extent names (minutes); the subregion's check is
  // the fault, and nothing runs after it.
  auto m = btest::load(R"(fn @add(%a: f32, %b: f32) -> f32 {
  %s = add(%a, %b) : f32
  return(%s)
}

kernel @k(%x: In<f32[N]>, %e: index, %y: Out<f32[1]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %all = domain(%zero, %n) : domain<N>
  %part = subregion(%all, %zero, %e) : subregion<%e>
  %idx = indices(%part) : index[%e]
  %rel = relation(%idx) : relation<1 -> [%e]>
  %v = view.load(%x, %rel) : f32[%e]
  %zf = const() {value = 0.0} : f32
  %s = reduce(%v, %zf) {axes = [0], combine = @add} : f32
  %r0 = relation(%zero) : relation<1 -> []>
  view.store(%y, %r0, %s)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"x", btest::view(DType::F32, {8})},
                                                  {"e", num::Scalar{DType::Index, uint64_t{1} << 40}},
                                                  {"y", btest::view(DType::F32, {1})}};
  same_first_fault(*m, "k", args, "10:3", "");
}
