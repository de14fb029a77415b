// `kir compile --const NAME=VALUE` parses values as `kir run --input` does (one parser,
// tools/kernel_inputs.h): enum members by name, literals of the parameter's dtype; an unknown
// NAME, a bad value or an enum value that is no member is a usage error (exit 2) naming the valid
// ones. `kir compile` also reports the native ABI's limits with a located message.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/run_tool.h"

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("kir_compile_const_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// An enum constexpr (default @Mode::full) and an index constexpr selecting what is stored.
const char* kModes = R"(enum @Mode { causal = 0, full = 1 }
kernel @k(%y: Out<index[1]>, constexpr %mode: enum<@Mode> = @Mode::full, constexpr %chunk: index = 4) {
  %z = const() {value = 0} : index
  %r0 = relation(%z) : relation<1 -> []>
  %causal = const() {value = @Mode::causal} : enum<@Mode>
  %c = cmp(%mode, %causal) {pred = eq} : bool
  %v = select(%c, %z, %chunk) : index
  view.store(%y, %r0, %v)
}
)";

}  // namespace

TEST_CASE("kir compile --const takes enum members by name, as --input does", "[cli][backend][L2.6]") {
  const std::string f = temp_file("modes.kir", kModes);
  for (const std::string value : {"causal", "@Mode::causal", "full"}) {
    INFO(value);
    auto r = kir::test::run_kir("compile " + f + " --const mode=" + value + " --const chunk=3");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("@k: ") != std::string::npos);
  }
  // The same values run: mode=causal stores 0, the default (full) stores chunk.
  auto causal = kir::test::run_kir("run " + f + " --input mode=causal --input chunk=3 --backend cpu");
  INFO(causal.out);
  CHECK(causal.code == 0);
  CHECK(causal.out.find("%y: index[1] {0}") != std::string::npos);
  auto full = kir::test::run_kir("run " + f + " --input chunk=3 --backend cpu");
  INFO(full.out);
  CHECK(full.code == 0);
  CHECK(full.out.find("%y: index[1] {3}") != std::string::npos);
}

TEST_CASE("kir compile --const with an unknown name, a bad value or no such member exits 2 naming the valid ones", "[cli][backend]") {
  const std::string f = temp_file("modes_bad.kir", kModes);
  auto unknown = kir::test::run_kir("compile " + f + " --const chunks=3");
  INFO(unknown.out);
  CHECK(unknown.code == 2);
  CHECK(unknown.out.find("--const chunks: kernel @k has no constexpr or enum parameter %chunks (did you mean chunk?); "
                         "they are %mode, %chunk") != std::string::npos);
  auto member = kir::test::run_kir("compile " + f + " --const mode=casual");
  INFO(member.out);
  CHECK(member.code == 2);
  CHECK(member.out.find("--const mode: 'casual' is not a member of @Mode (did you mean causal?); its members are causal, full") !=
        std::string::npos);
  auto bad = kir::test::run_kir("compile " + f + " --const chunk=four");
  INFO(bad.out);
  CHECK(bad.code == 2);
  CHECK(bad.out.find("--const chunk: ") != std::string::npos);
  auto no_eq = kir::test::run_kir("compile " + f + " --const chunk");
  INFO(no_eq.out);
  CHECK(no_eq.code == 2);
  CHECK(no_eq.out.find("--const needs NAME=VALUE, got 'chunk'") != std::string::npos);
}

TEST_CASE("kir compile reports a view rank beyond the ABI's at the parameter", "[cli][backend][C8]") {
  const std::string f = temp_file("rank9.kir", R"(kernel @r(%x: In<f32[1, 1, 1, 1, 1, 1, 1, 1, 2]>, %y: Out<f32[1, 1, 1, 1, 1, 1, 1, 1, 2]>) {
  %zero = const() {value = 0} : index
  %two = const() {value = 2} : index
  %d = domain(%zero, %two) : domain<2>
  %i = indices(%d) : index[2]
  %r = relation(%zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %i) : relation<9 -> [2]>
  %v = view.load(%x, %r) : f32[2]
  view.store(%y, %r, %v)
}
)");
  auto r = kir::test::run_kir("compile " + f);
  INFO(r.out);
  CHECK(r.code == 1);
  CHECK(r.out.find(f + ":1:11: error[backend]: view parameter %x has rank 9; the native call passes views of rank at most 8") !=
        std::string::npos);
  // The interpreter runs it.
  auto run = kir::test::run_kir("run " + f);
  INFO(run.out);
  CHECK(run.code == 0);
}
