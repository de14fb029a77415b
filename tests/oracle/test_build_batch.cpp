// oracle::build_batch: many programs into one shared object, and a program that fails alone
// carries its own error while the others still build and run.
#include <catch2/catch.hpp>

#include "kir/text/parser.h"
#include "kir/verify/verifier.h"
#include "oracle/backend_run.h"

using namespace kir;

TEST_CASE("build_batch builds every program and isolates the one that fails", "[oracle]") {
  const std::string text = R"(
kernel @k(%x: In<f32[N]>, %y: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %v = view.load(%x, %rel) : f32[N]
  %s = add(%v, %v) : f32[N]
  view.store(%y, %rel, %s)
}
)";
  Diagnostics diags;
  auto m = parse_module(text, "b.kir", diags);
  REQUIRE(m);
  REQUIRE(verify_module(*m, diags));
  std::map<std::string, interp::KernelArg> args = {{"x", interp::make_host_view(DType::F32, {3}, {0x3f800000, 0, 0})},
                                                   {"y", interp::make_host_view(DType::F32, {3})}};
  auto programs = oracle::build_batch(3, [&](size_t i) -> cpu::CompiledSource {
    if (i == 1) throw std::runtime_error("not implemented: program 1");
    return oracle::compile_for_args(*m, "k", args);
  });
  REQUIRE(programs.size() == 3);
  CHECK(programs[1].native == nullptr);
  CHECK(programs[1].error == "not implemented: program 1");
  for (size_t i : {0u, 2u}) {
    REQUIRE(programs[i].native != nullptr);
    CHECK(programs[i].error.empty());
    auto run = args;
    oracle::call_on_backend(*programs[i].native, *m, "k", run);
    CHECK(std::get<interp::HostView>(run.at("y")).storage->bits[0] == 0x40000000u);  // 1 + 1 = 2
  }
}
