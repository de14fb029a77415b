// Audit of the run-time error classes of issue 4 item 2: each is triggered by a small program and
// its error names the op, the exact file:line:col and, where elements are involved, the
// coordinates (RuntimeError::op/location/coords and the rendered text). Classes: undefined Out /
// buffer read, out-of-bounds access, unique-store collision, parallel write/write and write/read
// conflicts, histogram value out of range on an active lane, integer division by zero, shape
// mismatch with dynamic extents (the carry case is in test_ops_control.cpp).
#include "ops_test.h"

using namespace kir;
using namespace kir::itest;

namespace {

struct Where {
  std::string op, loc, coords;  // coords empty: the error concerns no element
};

// Runs `call` and checks the error's kind, op, location and coordinates, and that the rendered
// message starts with the location and names the op.
template <class F>
void expect_located(F&& call, interp::ErrorKind kind, const Where& w, const std::vector<std::string>& fragments = {}) {
  try {
    call();
    FAIL("expected a run-time error");
  } catch (const interp::RuntimeError& e) {
    const std::string text = e.what();
    INFO(text);
    CHECK(e.kind() == kind);
    CHECK(e.op() == w.op);
    CHECK(e.location() == w.loc);
    CHECK(text.rfind(w.loc + ": ", 0) == 0);
    CHECK(text.find("op '" + w.op + "'") != std::string::npos);
    if (!w.coords.empty()) CHECK(text.find(w.coords) != std::string::npos);
    for (const auto& f : fragments) CHECK(text.find(f) != std::string::npos);
  }
}

void run(const Module& m, const std::map<std::string, interp::KernelArg>& args, interp::Options opts = {}) {
  interp::Interpreter(m, opts).run_kernel("k", args);
}

}  // namespace

TEST_CASE("errors: read of an Out element never written", "[interp][errors][L2.2]") {
  auto m = load(R"(
kernel @k(%o: Out<f32[2, 3]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c2 = const() {value = 2} : index
  %r = relation(%c0, %c1) : relation<2 -> []>
  %z = const() {value = 1.0} : f32
  view.store(%o, %r, %z)
  %ok = view.load(%o, %r) : f32
  %bad = relation(%c1, %c2) : relation<2 -> []>
  %v = view.load(%o, %bad) : f32
}
)");
  auto o = view(DType::F32, {2, 3});
  expect_located([&] { run(*m, {{"o", o}}); }, interp::ErrorKind::UndefinedRead, {"view.load", "t.kir:11:3", "(1, 2)"}, {"%o"});
}

TEST_CASE("errors: read of a buffer element before initialization", "[interp][errors][L15.4]") {
  auto m = load(R"(
kernel @k(%o: Out<i32[1]>) {
  %c0 = const() {value = 0} : index
  %c3 = const() {value = 3} : index
  %d = domain(%c0, %c3) : domain<3>
  %i = indices(%d) : index[3]
  %r = relation(%i) : relation<1 -> [3]>
  %b = buffer.alloc() : buffer<i32[3]>
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1} : i32
  buffer.store(%b, %r0, %one)
  %v = buffer.load(%b, %r) : i32[3]
}
)");
  auto o = view(DType::I32, {1});
  expect_located([&] { run(*m, {{"o", o}}); }, interp::ErrorKind::UndefinedRead, {"buffer.load", "t.kir:12:3", "(1)"}, {"buffer %b"});
}

TEST_CASE("errors: out-of-bounds view load, gather and store", "[interp][errors][L15.1]") {
  auto m = load(R"(
kernel @k(%x: In<f32[N]>, %o: Out<f32[N]>, %sh: index, constexpr %which: i32) {
  %c0 = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %shb = broadcast(%sh) {dims = []} : index[N]
  %j = add(%i, %shb) : index[N]
  %rj = relation(%j) : relation<1 -> [N]>
  %w0 = const() {value = 0} : i32
  %w1 = const() {value = 1} : i32
  %is0 = cmp(%which, %w0) {pred = eq} : bool
  %is1 = cmp(%which, %w1) {pred = eq} : bool
  if(%is0) region() {
    %a = view.load(%x, %rj) : f32[N]
    yield()
  } region() {
    yield()
  }
  %v = view.load(%x, %r) : f32[N]
  if(%is1) region() {
    %g = gather(%v, %rj) : f32[N]
    yield()
  } region() {
    view.store(%o, %rj, %v)
    yield()
  }
}
)");
  auto x = view(DType::F32, {4}, {1, 2, 3, 4});
  auto o = view(DType::F32, {4});
  auto args = [&](int which) {
    return std::map<std::string, interp::KernelArg>{{"x", x}, {"o", o}, {"sh", idx(3)}, {"which", interp::Scalar{DType::I32, static_cast<uint64_t>(which)}}};
  };
  // Point 1 is the first whose coordinate 1 + 3 = 4 leaves [0, 4).
  expect_located([&] { run(*m, args(0)); }, interp::ErrorKind::OutOfBounds, {"view.load", "t.kir:16:5", "(1)"}, {"coordinate 4 on axis 0"});
  expect_located([&] { run(*m, args(1)); }, interp::ErrorKind::OutOfBounds, {"gather", "t.kir:23:5", "(1)"}, {"coordinate 4 on axis 0"});
  expect_located([&] { run(*m, args(2)); }, interp::ErrorKind::OutOfBounds, {"view.store", "t.kir:26:5", "(1)"}, {"coordinate 4 on axis 0"});
}

TEST_CASE("errors: unique_store collision names both points and the element", "[interp][errors][L15.3]") {
  auto m = load(R"(
kernel @k(%idx: In<index[N]>, %o: Out<f32[4]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%idx) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %t = view.load(%idx, %r) : index[N]
  %v = cast(%i) : f32[N]
  %dst = relation(%t) : relation<1 -> [N]>
  unique_store(%o, %dst, %v)
}
)");
  auto o = view(DType::F32, {4});
  expect_located([&] { run(*m, {{"idx", view(DType::Index, {3}, {3, 1, 3})}, {"o", o}}); }, interp::ErrorKind::UniqueCollision,
                 {"unique_store", "t.kir:11:3", "(2)"}, {"points (0) and (2)", "element (3)"});
}

namespace {
const char* kParallel = R"(
kernel @k(%src: In<index[N]>, %dst: In<index[N]>, %y: InOut<f32[8]>) {
  %c0 = const() {value = 0} : index
  %n = dim(%src) {axis = 0} : index
  %d = domain(%c0, %n) : domain<N>
  parallel(%d) region(%i: index) {
    %r = relation(%i) : relation<1 -> []>
    %s = view.load(%src, %r) : index
    %t = view.load(%dst, %r) : index
    %sr = relation(%s) : relation<1 -> []>
    %tr = relation(%t) : relation<1 -> []>
    %a = view.load(%y, %sr) : f32
    view.store(%y, %tr, %a)
    yield()
  }
}
)";
}  // namespace

TEST_CASE("errors: parallel write/write and write/read conflicts", "[interp][errors][L5.1]") {
  auto m = load(kParallel);
  auto y = view(DType::F32, {8}, {0, 1, 2, 3, 4, 5, 6, 7});
  // Disjoint: point i reads 4 + i and writes i.
  run(*m, {{"src", view(DType::Index, {3}, {4, 5, 6})}, {"dst", view(DType::Index, {3}, {0, 1, 2})}, {"y", y}});
  CHECK(values(y) == std::vector<double>{4, 5, 6, 3, 4, 5, 6, 7});
  // Points 0 and 2 both write element 1.
  expect_located([&] { run(*m, {{"src", view(DType::Index, {3}, {4, 5, 6})}, {"dst", view(DType::Index, {3}, {1, 2, 1})}, {"y", y}}); },
                 interp::ErrorKind::ParallelConflict, {"view.store", "t.kir:13:5", "element (1)"},
                 {"points (0) and (2)", "parallel at t.kir:6:3"});
  // Point 0 writes element 2, point 1 reads it.
  expect_located([&] { run(*m, {{"src", view(DType::Index, {2}, {5, 2})}, {"dst", view(DType::Index, {2}, {2, 3})}, {"y", y}}); },
                 interp::ErrorKind::ParallelConflict, {"view.load", "t.kir:12:5", "element (2)"},
                 {"point (0) writes and point (1) reads", "parallel at t.kir:6:3"});
}

TEST_CASE("errors: histogram value out of range on an active lane (masked lanes are not read)", "[interp][errors][L13.1]") {
  auto m = load(R"(
kernel @k(%v: In<i32[R, C]>, %mask: In<bool[R, C]>, %h: Out<u32[4]>) {
  %c0 = const() {value = 0} : index
  %r = dim(%v) {axis = 0} : index
  %c = dim(%v) {axis = 1} : index
  %dr = domain(%c0, %r) : domain<R>
  %dc = domain(%c0, %c) : domain<C>
  %ir = indices(%dr) : index[R]
  %ic = indices(%dc) : index[C]
  %br = broadcast(%ir) {dims = [0]} : index[R, C]
  %bc = broadcast(%ic) {dims = [1]} : index[R, C]
  %rel = relation(%br, %bc) : relation<2 -> [R, C]>
  %vals = view.load(%v, %rel) : i32[R, C]
  %valid = view.load(%mask, %rel) : bool[R, C]
  %bins = const() {value = 4} : index
  %hist = histogram(%vals, %bins, %valid) : u32[4]
  %d4 = domain(%c0, %bins) : domain<4>
  %i4 = indices(%d4) : index[4]
  %r4 = relation(%i4) : relation<1 -> [4]>
  view.store(%h, %r4, %hist)
}
)");
  auto v = view(DType::I32, {2, 2}, {0, 7, 3, -1});
  auto h = view(DType::U32, {4});
  run(*m, {{"v", v}, {"mask", view(DType::Bool, {2, 2}, {1, 0, 1, 0})}, {"h", h}});
  CHECK(values(h) == std::vector<double>{1, 0, 0, 1});
  expect_located([&] { run(*m, {{"v", v}, {"mask", view(DType::Bool, {2, 2}, {1, 0, 1, 1})}, {"h", h}}); },
                 interp::ErrorKind::HistogramRange, {"histogram", "t.kir:16:3", "(1, 1)"}, {"-1", "[0, 4)"});
}

TEST_CASE("errors: integer division and remainder by zero", "[interp][errors][L4.14]") {
  auto m = load(R"(
kernel @k(%a: In<i64[R, C]>, %b: In<i64[R, C]>, %o: Out<i64[R, C]>) {
  %c0 = const() {value = 0} : index
  %r = dim(%a) {axis = 0} : index
  %c = dim(%a) {axis = 1} : index
  %dr = domain(%c0, %r) : domain<R>
  %dc = domain(%c0, %c) : domain<C>
  %ir = indices(%dr) : index[R]
  %ic = indices(%dc) : index[C]
  %br = broadcast(%ir) {dims = [0]} : index[R, C]
  %bc = broadcast(%ic) {dims = [1]} : index[R, C]
  %rel = relation(%br, %bc) : relation<2 -> [R, C]>
  %x = view.load(%a, %rel) : i64[R, C]
  %y = view.load(%b, %rel) : i64[R, C]
  %q = rem(%x, %y) : i64[R, C]
  view.store(%o, %rel, %q)
}
)");
  auto a = view(DType::I64, {2, 2}, {7, -7, 5, 9});
  auto o = view(DType::I64, {2, 2});
  run(*m, {{"a", a}, {"b", view(DType::I64, {2, 2}, {2, 2, -3, 4})}, {"o", o}});
  CHECK(values(o) == std::vector<double>{1, -1, 2, 1});  // remainder has the dividend's sign
  expect_located([&] { run(*m, {{"a", a}, {"b", view(DType::I64, {2, 2}, {2, 2, 0, 4})}, {"o", o}}); },
                 interp::ErrorKind::DivisionByZero, {"rem", "t.kir:15:3", "(1, 0)"});
}

TEST_CASE("errors: shape mismatches that only run time can see (dynamic extents)", "[interp][errors][L4.2][L11.3][L12.1]") {
  SECTION("quantize: a dynamic K that is not a multiple of 256") {
    auto m = load(R"(
fn @q(%x: f32[K]) -> record<d: f32[floordiv(K, 256)], qs: i8[K], bsums: i16[floordiv(K, 16)]> {
  %q = quantize(%x) {format = q8_k} : record<d: f32[floordiv(K, 256)], qs: i8[K], bsums: i16[floordiv(K, 16)]>
  return(%q)
}
)");
    interp::Interpreter it(*m);
    expect_located([&] { it.call_helper("q", {interp::Value(tensor(DType::F32, {384}, std::vector<double>(384, 1.0)))}); },
                   interp::ErrorKind::ShapeMismatch, {"quantize", "t.kir:3:3", ""}, {"K = 384"});
  }
  SECTION("sparse_contract: a dynamic compressed extent that is not a whole number of groups") {
    auto m = load(R"(
fn @s(%c: f32[M, KC], %meta: u8[M, KC], %rhs: f32[2*KC, N]) -> f32[M, N] {
  %y = sparse_contract(%c, %meta, %rhs) {batch = [], format = two_of_four, reduce = [[1, 0]]} : f32[M, N]
  return(%y)
}
)");
    interp::Interpreter it(*m);
    expect_located(
        [&] {
          it.call_helper("s", {interp::Value(tensor(DType::F32, {1, 3}, {1, 1, 1})), interp::Value(tensor(DType::U8, {1, 3}, {0, 1, 0})),
                               interp::Value(tensor(DType::F32, {6, 1}, {1, 1, 1, 1, 1, 1}))});
        },
        interp::ErrorKind::ShapeMismatch, {"sparse_contract", "t.kir:3:3", ""}, {"compressed extent 3"});
  }
  SECTION("kernel views disagreeing on one extent symbol") {
    auto m = load(R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[2*N]>) {
  %c0 = const() {value = 0} : index
}
)");
    try {
      run(*m, {{"x", view(DType::F32, {3})}, {"y", view(DType::F32, {5})}});
      FAIL("expected a binding error");
    } catch (const interp::RuntimeError& e) {
      INFO(e.what());
      CHECK((e.kind() == interp::ErrorKind::Binding || e.kind() == interp::ErrorKind::ShapeMismatch));
      CHECK(std::string(e.what()).find("%y") != std::string::npos);
    }
  }
}

TEST_CASE("errors: a view whose strides differ from the declared ones is a binding error", "[interp][errors][L2.4]") {
  // A symbolic declared stride is given with its value; a constant one as written ("2", not "2 = 2").
  auto m = load(R"(
kernel @k(%x: In<f32[M, N], strides = [2*N, 1]>, %z: In<f32[N], strides = [2]>) {
  %c0 = const() {value = 0} : index
}
)");
  auto binding_error = [&](const interp::HostView& x) -> std::string {
    try {
      run(*m, {{"x", x}, {"z", view(DType::F32, {4})}});
    } catch (const interp::RuntimeError& e) {
      CHECK(e.kind() == interp::ErrorKind::Binding);
      return e.what();
    }
    FAIL("expected a binding error");
    return "";
  };
  std::string text = binding_error(view(DType::F32, {2, 4}));
  CHECK(text.find("parameter %x: stride 0 is 4 but the type declares 2*N = 8") != std::string::npos);
  interp::HostView x = view(DType::F32, {2, 8});  // rows 8 apart: the declared 2*N
  x.shape = {2, 4};
  x.strides = {8, 1};
  text = binding_error(x);
  CHECK(text.find("parameter %z: stride 0 is 1 but the type declares 2") != std::string::npos);
  CHECK(text.find("declares 2 = 2") == std::string::npos);
}
