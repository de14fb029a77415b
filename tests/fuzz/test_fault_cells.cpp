// The construct a fault is counted under (fuzz/campaign/fault_cells.h): the op at the fault's
// location, its masked relation, and the innermost parallel, if or loop around it. Locations
// are the ops' own line:col in the program text below (counted by hand).
#include <catch2/catch.hpp>

#include "fuzz/campaign/fault_cells.h"
#include "kir/text/parser.h"
#include "kir/verify/verifier.h"

using namespace kir;

namespace {

const char* kProgram = R"(fn @h(%x: i32, %y: i32) -> i32 {
  %q = div(%x, %y) : i32
  return(%q)
}

kernel @k(%a: In<i32[N]>, %o: Out<i32[N]>, %c: bool) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %av = view.load(%a, %r) : i32[N]
  %q0 = div(%av, %av) : i32[N]
  %t = if(%c) : i32[N] region() {
    %q1 = div(%av, %av) : i32[N]
    yield(%q1)
  } region() {
    yield(%q0)
  }
  parallel(%d) region(%p: index) {
    %rp = relation(%p) : relation<1 -> []>
    %e = view.load(%a, %rp) : i32
    %q2 = div(%e, %e) : i32
    view.store(%o, %rp, %q2)
    yield()
  }
  %s = const() {value = 0} : i32
  %f = for(%d, %s) : i32 region(%j: index, %acc: i32) {
    %q3 = call(%acc, %acc) {callee = @h} : i32
    yield(%q3)
  }
  %zb = broadcast(%zero) {dims = []} : index[N]
  %ok = cmp(%i, %zb) {pred = ge} : bool[N]
  %mr = relation(%i, %ok) : relation<1 -> [N], masked>
  %fill = const() {value = 0} : i32
  %g = view.load(%a, %mr, %fill) : i32[N]
  view.store(%o, %r, %t)
}
)";

std::unique_ptr<Module> module() {
  Diagnostics d;
  auto m = parse_module(kProgram, "p.kir", d);
  const bool ok = m && verify_module(*m, d);
  INFO(d.render(kProgram));
  REQUIRE(ok);
  return m;
}

}  // namespace

TEST_CASE("a fault's construct is the innermost masked access, parallel, branch, loop or helper", "[coverage]") {
  auto m = module();
  CHECK(fuzz::fault_construct(*m, "p.kir:13:3") == "plain");     // %q0
  CHECK(fuzz::fault_construct(*m, "p.kir:15:5") == "branch");    // %q1 in the if
  CHECK(fuzz::fault_construct(*m, "p.kir:23:5") == "parallel");  // %q2
  CHECK(fuzz::fault_construct(*m, "p.kir:29:5") == "loop");      // the call in the for
  CHECK(fuzz::fault_construct(*m, "p.kir:2:3") == "helper");     // %q in @h
  CHECK(fuzz::fault_construct(*m, "p.kir:36:3") == "masked");    // the masked load
  CHECK(fuzz::fault_construct(*m, "p.kir:99:1") == "unknown");
  CHECK(fuzz::fault_construct(*m, "garbage") == "unknown");
}

TEST_CASE("fault cells name the kind and construct; the universe lists every kind under every construct", "[coverage]") {
  auto m = module();
  oracle::Fault f;
  f.kind = "division-by-zero";
  f.location = "p.kir:23:5";
  f.message = "p.kir:23:5: runtime error[division-by-zero]";
  CHECK(fuzz::fault_cell(*m, f) == "fault:division-by-zero@parallel");
  CHECK(fuzz::fault_cell(*m, oracle::Fault{}).empty());
  cpu::CoverageMap c;
  fuzz::add_fault_cells(c);
  CHECK(c.cells.size() == 11 * 6);
  CHECK(c.cells.count("fault:out-of-bounds@masked") == 1);
}
