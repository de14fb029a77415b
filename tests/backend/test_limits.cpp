// Limits and faults the interpreter and the CPU backend agree on (docs/backend.md "Limits"):
// exact stepped-domain trip counts near the ends of the index range, an extent beyond the range
// (`limit`), a negative runtime extent (`shape-mismatch` at the op making the value), the fault
// kinds of histogram range and view binding, the nesting depth of helper calls and the ABI's view
// rank. Each program is the reproducer of a disagreement the backend once had; expected values
// are the interpreter's, computed by hand in the comments.
#include "tests/backend/backend_test.h"

using namespace kir;

namespace {

constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;

interp::Scalar index_arg(int64_t v) { return {DType::Index, static_cast<uint64_t>(v)}; }

// o := -1 everywhere, then o[c] := the c-th point of domain(%b, %e, %st) for each point the
// domain has (the domain at line 10, col 3).
const char* kSteppedFor = R"(kernel @k(%o: Out<i64[N]>, %b: index, %e: index, %st: index) {
  %zero = const() {value = 0} : index
  %n = dim(%o) {axis = 0} : index
  %da = domain(%zero, %n) : domain<N>
  %ia = indices(%da) : index[N]
  %ra = relation(%ia) : relation<1 -> [N]>
  %m1 = const() {value = -1} : i64
  %mb = full(%m1) : i64[N]
  view.store(%o, %ra, %mb)
  %d = domain(%b, %e, %st) : domain<floordiv(%e - %b + %st - 1, %st)>
  %cnt = const() {value = 0} : index
  %r = for(%d, %cnt) : index region(%i: index, %c: index) {
    %rc = relation(%c) : relation<1 -> []>
    %iv = cast(%i) : i64
    view.store(%o, %rc, %iv)
    %one = const() {value = 1} : index
    %c2 = add(%c, %one) : index
    yield(%c2)
  }
}
)";

std::map<std::string, interp::KernelArg> stepped_args(int64_t b, int64_t e, int64_t st) {
  return {{"o", btest::view(DType::I64, {4})}, {"b", index_arg(b)}, {"e", index_arg(e)}, {"st", index_arg(st)}};
}

std::vector<int64_t> i64s(const interp::HostView& h) {
  std::vector<int64_t> out;
  for (uint64_t b : h.storage->bits) out.push_back(static_cast<int64_t>(b));
  return out;
}

// Both runs fail at `where` (line:col) with error kind `kind` (the interpreter's `runtime
// error[kind]`, the backend's `(kir explain kind)`).
void same_fault(const Module& m, const std::string& kernel, const std::map<std::string, interp::KernelArg>& args,
                const std::string& where, const std::string& kind) {
  auto d = oracle::run_differential(m, kernel, args, nullptr, btest::options());
  INFO("interpreter: " << d.interp_error << "\nbackend: " << d.backend_error);
  CHECK(d.interp_error.find("t.kir:" + where + ": runtime error[" + kind + "]") != std::string::npos);
  CHECK(d.backend_error.find("t.kir:" + where + ": ") != std::string::npos);
  CHECK(d.backend_error.find("(kir explain " + kind + ")") != std::string::npos);
}

// Helpers @f0 .. @f{n-1}: @f0 adds 1 to its argument, @fi returns @f{i-1}'s result; kernel @k
// stores @f{n-1}(0) into %y: a chain of n helper calls (the call in @f1 at line 7, col 3).
std::string call_chain(int n) {
  std::string s = "fn @f0(%x: index) -> index {\n  %one = const() {value = 1} : index\n  %r = add(%x, %one) : index\n"
                  "  return(%r)\n}\n";
  for (int i = 1; i < n; ++i)
    s += "fn @f" + std::to_string(i) + "(%x: index) -> index {\n  %r = call(%x) {callee = @f" + std::to_string(i - 1) +
         "} : index\n  return(%r)\n}\n";
  s += "kernel @k(%y: Out<index[1]>) {\n  %c0 = const() {value = 0} : index\n  %r0 = relation(%c0) : relation<1 -> []>\n"
       "  %v = call(%c0) {callee = @f" + std::to_string(n - 1) + "} : index\n  view.store(%y, %r0, %v)\n}\n";
  return s;
}

}  // namespace

TEST_CASE("a stepped domain runs its exact trip count where end - begin + step - 1 overflows", "[C4][L3.1][limits]") {
  auto m = btest::load(kSteppedFor);
  // Reproducer: b = 0, e = INT64_MAX, st = 2^62: ceil((2^63 - 1) / 2^62) = 2 points, 0 and 2^62.
  // The native run once computed (e - b + st - 1) in 64 bits, which wrapped: zero iterations.
  auto out = btest::differential(*m, "k", stepped_args(0, kMax, int64_t{1} << 62));
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{0, int64_t{1} << 62, -1, -1});
  // The whole range with step 2^63 - 1: (2^64 - 1) / (2^63 - 1) is 2 remainder 1, so 3 points:
  // INT64_MIN, INT64_MIN + 2^63 - 1 = -1 and -1 + 2^63 - 1 = INT64_MAX - 1.
  out = btest::differential(*m, "k", stepped_args(kMin, kMax, kMax));
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{kMin, -1, kMax - 1, -1});
  // Negative bounds, a step that does not divide the span: -5, -1, 3 (7 is the end, excluded).
  out = btest::differential(*m, "k", stepped_args(-5, 7, 4));
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{-5, -1, 3, -1});
  // End before begin by more than INT64_MAX: no point.
  out = btest::differential(*m, "k", stepped_args(kMax, kMin, 3));
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{-1, -1, -1, -1});
  // Step 1 near the top: INT64_MAX - 2 and INT64_MAX - 1.
  out = btest::differential(*m, "k", stepped_args(kMax - 2, kMax, 1));
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{kMax - 2, kMax - 1, -1, -1});
}

TEST_CASE("a domain with more points than the index range holds is a located limit fault on both", "[C4][C5][L3.1][limits]") {
  auto m = btest::load(kSteppedFor);
  // domain(INT64_MIN, INT64_MAX, 1) has 2^64 - 1 points.
  same_fault(*m, "k", stepped_args(kMin, kMax, 1), "10:3", "limit");
  // The same bounds with a constant step 1 (the domain without a step operand).
  auto c = btest::load(R"(kernel @k(%o: Out<index[1]>, %b: index, %e: index) {
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
  same_fault(*c, "k", {{"o", btest::view(DType::Index, {1})}, {"b", index_arg(-2)}, {"e", index_arg(kMax)}}, "2:3", "limit");
  // Just inside the range: [-1, INT64_MAX - 1) has INT64_MAX points, and no iteration runs
  // when begin is after end by more than INT64_MAX.
  auto out = btest::differential(*c, "k", {{"o", btest::view(DType::Index, {1})}, {"b", index_arg(kMax)}, {"e", index_arg(-2)}});
  CHECK(btest::values(btest::out_view(out, "o")) == std::vector<double>{0});
}

TEST_CASE("the indices of domain(INT64_MIN, INT64_MIN + 8, 3) have 3 points on both", "[C4][L3.1][L3.4][limits]") {
  // Reproducer: the interpreter failed with an unlocated "extent arithmetic overflows 64 bits"
  // evaluating floordiv(%e - %b + %st - 1, %st) term by term (-1 * INT64_MIN); its value is 3.
  // k = (i - b) / st = 0, 1, 2 puts the points INT64_MIN, INT64_MIN + 3, INT64_MIN + 6 in order.
  auto m = btest::load(R"(kernel @k(%o: Out<index[3]>, %b: index, %e: index, %st: index) {
  %d = domain(%b, %e, %st) : domain<floordiv(%e - %b + %st - 1, %st)>
  %i = indices(%d) : index[floordiv(%e - %b + %st - 1, %st)]
  %fb = full(%b) : index[floordiv(%e - %b + %st - 1, %st)]
  %fs = full(%st) : index[floordiv(%e - %b + %st - 1, %st)]
  %j = sub(%i, %fb) : index[floordiv(%e - %b + %st - 1, %st)]
  %k = div(%j, %fs) : index[floordiv(%e - %b + %st - 1, %st)]
  %r = relation(%k) : relation<1 -> [floordiv(%e - %b + %st - 1, %st)]>
  view.store(%o, %r, %i)
}
)");
  std::map<std::string, interp::KernelArg> args = {
      {"o", btest::view(DType::Index, {3})}, {"b", index_arg(kMin)}, {"e", index_arg(kMin + 8)}, {"st", index_arg(3)}};
  auto out = btest::differential(*m, "k", args);
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{kMin, kMin + 3, kMin + 6});
  // At the top of the range: INT64_MAX - 8 + {0, 3, 6}.
  args["b"] = index_arg(kMax - 8);
  args["e"] = index_arg(kMax);
  out = btest::differential(*m, "k", args);
  CHECK(i64s(btest::out_view(out, "o")) == std::vector<int64_t>{kMax - 8, kMax - 5, kMax - 2});
}

TEST_CASE("a negative runtime extent is a shape-mismatch fault at the op making the value, on both", "[C5][L4.9][limits]") {
  // Reproducer: full(1.0) : f32[%n] with n = -5 ran natively and stored dim = -5 (exit 0).
  auto full = btest::load(R"(kernel @k(%n: index, %y: Out<index[1]>) {
  %c0 = const() {value = 0} : index
  %r0 = relation(%c0) : relation<1 -> []>
  %one = const() {value = 1.0} : f32
  %f = full(%one) : f32[%n]
  %k = dim(%f) {axis = 0} : index
  view.store(%y, %r0, %k)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"n", index_arg(-5)}, {"y", btest::view(DType::Index, {1})}};
  same_fault(*full, "k", args, "5:3", "shape-mismatch");
  args["n"] = index_arg(3);
  auto out = btest::differential(*full, "k", args);
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{3});

  // buffer.alloc, broadcast and relation check their runtime extents the same way: each program
  // makes its value of extent %n first (line 3). (A reshape's extents are provably its source's.)
  const std::vector<std::pair<std::string, std::string>> makers = {
      {"buffer.alloc", "  %v = buffer.alloc(%c0) : buffer<index[%n]>\n  %k = dim(%v) {axis = 0} : index\n"},
      {"broadcast", "  %v = broadcast(%c0) {dims = []} : index[%n]\n  %k = dim(%v) {axis = 0} : index\n"},
      {"relation", "  %v = relation(%c0) : relation<1 -> [%n]>\n  %k = const() {value = 7} : index\n"},
  };
  for (const auto& [op, body] : makers) {
    INFO(op);
    auto m = btest::load("kernel @k(%n: index, %y: Out<index[1]>) {\n  %c0 = const() {value = 0} : index\n"
                         + body +
                         "  %r0 = relation(%c0) : relation<1 -> []>\n  view.store(%y, %r0, %k)\n}\n");
    same_fault(*m, "k", {{"n", index_arg(-2)}, {"y", btest::view(DType::Index, {1})}}, "3:3", "shape-mismatch");
  }
}

TEST_CASE("an active histogram value out of range is a histogram-range fault on both", "[C5][C6][L13.1]") {
  // Reproducer: the native run reported `invalid-value`, the interpreter `histogram-range`.
  auto m = btest::load(R"(kernel @h(%ids: In<i32[T]>, %counts: Out<u32[V]>) {
  %zero = const() {value = 0} : index
  %t = dim(%ids) {axis = 0} : index
  %dt = domain(%zero, %t) : domain<T>
  %it = indices(%dt) : index[T]
  %rel = relation(%it) : relation<1 -> [T]>
  %iv = view.load(%ids, %rel) : i32[T]
  %v = dim(%counts) {axis = 0} : index
  %on = const() {value = true} : bool
  %h = histogram(%iv, %v, %on) : u32[V]
  %dv = domain(%zero, %v) : domain<V>
  %ib = indices(%dv) : index[V]
  %crel = relation(%ib) : relation<1 -> [V]>
  view.store(%counts, %crel, %h)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"ids", btest::view(DType::I32, {4}, {0, 1, 5, 2})},
                                                  {"counts", btest::view(DType::U32, {3})}};
  same_fault(*m, "h", args, "10:3", "histogram-range");
  try {
    oracle::run_on_backend(*m, "h", args, btest::options());
    FAIL("expected a native fault");
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Catch::Contains("t.kir:10:3: error[backend]: histogram value outside [0, bins) in `histogram` at (2)") &&
                             Catch::Contains("(kir explain histogram-range)"));
  }
  CHECK(cpu::fault_kind(KIR_FAULT_HISTOGRAM_RANGE) == "histogram-range");
}

TEST_CASE("a view whose extent differs from the declared one is a binding fault at the parameter on both", "[C8][C5]") {
  // Reproducer: an In<f32[N + 1]> view of 4 elements with N = 4 was not checked on entry, and the
  // native run faulted `out-of-bounds` in the load of x[4]; the interpreter says `binding`.
  auto m = btest::load(R"(kernel @v(%x: In<f32[N + 1]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %one = const() {value = 1} : index
  %n = dim(%y) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %r = relation(%i) : relation<1 -> [N]>
  %ones = full(%one) : index[N]
  %i1 = add(%i, %ones) : index[N]
  %r1 = relation(%i1) : relation<1 -> [N]>
  %v = view.load(%x, %r1) : f32[N]
  view.store(%y, %r, %v)
}
)");
  auto out = btest::differential(*m, "v", {{"x", btest::view(DType::F32, {5}, {0, 1, 2, 3, 4})}, {"y", btest::view(DType::F32, {4})}});
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{1, 2, 3, 4});
  // The backend binds N = 4 from %y; %x (4 elements) is one short of N + 1.
  std::map<std::string, interp::KernelArg> good = {{"x", btest::view(DType::F32, {5})}, {"y", btest::view(DType::F32, {4})}};
  auto k = oracle::run_on_backend(*m, "v", good, btest::options()).kernel;
  std::vector<float> x(4, 1.0f), y(4, 0.0f);
  std::vector<kir_view> views(2);
  float* data[2] = {x.data(), y.data()};
  for (size_t v = 0; v < 2; ++v) {
    views[v].data = data[v];
    views[v].rank = 1;
    views[v].shape[0] = 4;
    views[v].strides[0] = 1;
  }
  kir_fault f = k->call(views, {}, {4});
  CHECK(f.code == KIR_FAULT_BINDING);
  CHECK_THAT(cpu::fault_message(*k, f), Catch::Contains("t.kir:1:11: error[backend]: view extent differs from the declared "
                                                        "extent in `parameter %x`") &&
                                            Catch::Contains("(kir explain binding)"));
  CHECK(y[0] == 0.0f);  // nothing ran
  // A view of a declared constant extent: the same kind.
  auto c = btest::load(R"(kernel @c(%x: In<f32[4]>, %y: Out<f32[4]>) {
  %zero = const() {value = 0} : index
  %four = const() {value = 4} : index
  %d = domain(%zero, %four) : domain<4>
  %i = indices(%d) : index[4]
  %r = relation(%i) : relation<1 -> [4]>
  %v = view.load(%x, %r) : f32[4]
  view.store(%y, %r, %v)
}
)");
  same_fault(*c, "c", {{"x", btest::view(DType::F32, {5})}, {"y", btest::view(DType::F32, {4})}}, "1:11", "binding");
}

TEST_CASE("helper chains: 999 calls run on both, 1000 are the same located limit error on both", "[C4][L1.3][limits]") {
  // Reproducer: the backend refused chains deeper than 64 calls; the interpreter runs up to its
  // default depth of 1000 regions (the kernel body plus 999 helper bodies).
  CHECK(cpu::kMaxRegionDepth == interp::Options{}.max_depth);
  auto ok = btest::load(call_chain(999));
  auto out = btest::differential(*ok, "k", {{"y", btest::view(DType::Index, {1})}});
  CHECK(btest::values(btest::out_view(out, "y")) == std::vector<double>{1});
  auto deep = btest::load(call_chain(1000));
  auto d = oracle::run_differential(*deep, "k", {{"y", btest::view(DType::Index, {1})}}, nullptr, btest::options());
  INFO("interpreter: " << d.interp_error << "\nbackend: " << d.backend_error);
  const std::string msg = "nesting depth limit of 1000 exceeded (helper calls and nested regions executing at once";
  const std::string chain = "calls: @k -> @f999 -> @f998 -> ... (995 more) -> @f2 -> @f1 -> @f0";
  CHECK_THAT(d.interp_error, Catch::Contains("t.kir:7:3: runtime error[limit]: op 'call': " + msg) && Catch::Contains(chain));
  CHECK_THAT(d.backend_error, Catch::Contains("t.kir:7:3: error[limit]: " + msg) && Catch::Contains(chain) &&
                                  Catch::Contains("(kir explain limit)"));
}

TEST_CASE("a view parameter of rank 9 is refused when the kernel is compiled, at the parameter", "[C8][C2]") {
  auto m = btest::load(R"(kernel @r(%x: In<f32[1, 1, 1, 1, 1, 1, 1, 1, 2]>, %y: Out<f32[1, 1, 1, 1, 1, 1, 1, 1, 2]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %d = domain(%zero, %two) : domain<2>
  %i = indices(%d) : index[2]
  %r = relation(%zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %i) : relation<9 -> [2]>
  %v = view.load(%x, %r) : f32[2]
  view.store(%y, %r, %v)
}
)");
  CHECK_THROWS_WITH(cpu::compile_to_source(*m, "r", btest::options()),
                    Catch::Contains("t.kir:1:11: error[backend]: view parameter %x has rank 9; the native call passes "
                                    "views of rank at most 8"));
}
