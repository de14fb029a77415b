// Casts in generated code keep the language's values where the C++ compiler folds a chain of
// them (C9): a float truncated to an integer and converted back is an integer, never -0, but
// GCC folds (double)(int64_t)x into trunc(x) when trapping math is off, which is -0 for x in
// (-1, -0]. Expected values by hand: every input below truncates to the integer 0, whose float
// is +0 (bits 0).
#include <bit>

#include "backend_test.h"

using namespace kir;

namespace {

// %y[i] = cast<F>(cast<I>(%x[i])) over N elements.
std::string round_trip(const std::string& f, const std::string& i) {
  return "kernel @k(%x: In<" + f + "[N]>, %y: Out<" + f + R"([N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %ix = indices(%d) : index[N]
  %r = relation(%ix) : relation<1 -> [N]>
  %xv = view.load(%x, %r) : )" + f + R"([N]
  %t = cast(%xv) : )" + i + R"([N]
  %b = cast(%t) : )" + f + R"([N]
  view.store(%y, %r, %b)
}
)";
}

const std::vector<double> kTowardZero = {-0.0, -0.25, -0.5, -0.999, 0.0, 0.75};

}  // namespace

TEST_CASE("a float truncated to an integer and back is +0 for inputs in (-1, 1), never -0", "[C9][L4.14]") {
  for (const char* f : {"f64", "f32"})
    for (const char* i : {"index", "i64", "i32", "i16"}) {
      INFO(f << " -> " << i << " -> " << f);
      auto m = btest::load(round_trip(f, i));
      const DType fd = std::string(f) == "f64" ? DType::F64 : DType::F32;
      auto out = btest::differential(*m, "k", {{"x", btest::view(fd, {6}, kTowardZero)}, {"y", btest::view(fd, {6})}});
      for (uint64_t bits : btest::out_view(out, "y").storage->bits) CHECK(bits == 0);
    }
}
