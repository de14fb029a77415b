// End-to-end programs through the whole backend pipeline (C2, C4, C14): small kernels with
// hand-computed results, each also checked bit for bit against the interpreter.
#include "backend_test.h"

using namespace kir;

TEST_CASE("pointwise add of two views runs natively", "[C2][C14]") {
  auto m = btest::load(R"(
kernel @add(%a: In<f32[N]>, %b: In<f32[N]>, %c: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%a) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %x = view.load(%a, %rel) : f32[N]
  %y = view.load(%b, %rel) : f32[N]
  %s = add(%x, %y) : f32[N]
  view.store(%c, %rel, %s)
}
)");
  std::map<std::string, interp::KernelArg> args = {{"a", btest::view(DType::F32, {4}, {1, 2, 3, 4})},
                                                  {"b", btest::view(DType::F32, {4}, {10, 20, 30, 0.5})},
                                                  {"c", btest::view(DType::F32, {4})}};
  auto out = btest::differential(*m, "add", args);
  CHECK(btest::values(btest::out_view(out, "c")) == std::vector<double>{11, 22, 33, 4.5});
}
