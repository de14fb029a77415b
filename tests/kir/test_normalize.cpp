// Surface -> canonical normalization (seed 000 §19; docs/normalization.md). Every
// tests/kir/normalize/<name>.kir is normalized and printed, compared byte-for-byte with the
// hand-written <name>.expected.kir, and the result must verify as canonical KIR. Every
// tests/kir/normalize/errors/*.kir must be rejected by the normalizer with its `// expect:` rules.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "kir/load.h"
#include "kir/normalize/normalize.h"
#include "kir/normalize/widening.h"
#include "kir/text/parser.h"
#include "kir/text/printer.h"
#include "kir/verify/verifier.h"
#include "tests/kir/file_suite.h"

using namespace kir;
namespace fs = std::filesystem;

namespace {

bool is_expected(const fs::path& p) { return p.filename().string().find(".expected.kir") != std::string::npos; }
bool in_errors(const fs::path& p) { return p.parent_path().filename() == "errors"; }

std::vector<fs::path> pair_inputs() {
  std::vector<fs::path> out;
  for (const auto& p : test::kir_files("normalize"))
    if (!is_expected(p) && !in_errors(p)) out.push_back(p);
  return out;
}

// Normalizes one pair; returns the printed result (empty on failure, with diagnostics rendered).
std::string normalized(const fs::path& path, std::string& log) {
  std::string src = test::read_text(path);
  Diagnostics d;
  auto m = parse_module(src, path.filename().string(), d);
  if (!m) {
    log = d.render(src);
    return "";
  }
  if (!normalize_module(*m, d)) {
    log = d.render(src);
    return "";
  }
  return print_module(*m);
}

}  // namespace

TEST_CASE("normalization pairs match their expected canonical form",
          "[normalize][L4.1][L4.9][L7.5][L7.6][L7.7][L8.2][L9.6][L10.1][L10.3][L11.1][L12.1][L19.1]") {
  auto inputs = pair_inputs();
  REQUIRE(inputs.size() >= 20);
  for (const auto& in : inputs) {
    fs::path expected = in;
    expected.replace_extension(".expected.kir");
    INFO(in.string());
    REQUIRE(fs::exists(expected));
    std::string log;
    std::string out = normalized(in, log);
    INFO(log);
    REQUIRE(!out.empty());
    CHECK(out == test::read_text(expected));
  }
}

TEST_CASE("normalized pairs verify as canonical KIR and print idempotently", "[normalize][L19.1]") {
  for (const auto& in : pair_inputs()) {
    INFO(in.string());
    std::string log;
    std::string out = normalized(in, log);
    INFO(log);
    REQUIRE(!out.empty());
    Diagnostics d;
    auto m = parse_module(out, in.filename().string() + ".normalized", d);
    INFO(d.render(out));
    REQUIRE(m);
    bool ok = verify_module(*m, d);
    INFO(d.render(out));
    CHECK(ok);
    CHECK(print_module(*m) == out);
    // Normalization is idempotent: canonical KIR is left untouched.
    Diagnostics d2;
    CHECK(normalize_module(*m, d2));
    CHECK(print_module(*m) == out);
  }
}

TEST_CASE("ill-formed shorthands are rejected by the normalizer with their rule",
          "[normalize][L4.1][L4.2][L4.9][L7.5][L7.6][L7.7][L8.2][L10.1][L10.2][L10.3][L11.1][L12.1]") {
  size_t n = 0;
  for (const auto& path : test::kir_files("normalize/errors")) {
    ++n;
    INFO(path.string());
    std::string src = test::read_text(path);
    auto expects = test::expectations(src);
    REQUIRE(!expects.empty());
    Diagnostics d;
    auto m = parse_module(src, path.string(), d);
    INFO(d.render(src));
    REQUIRE(m);
    CHECK_FALSE(normalize_module(*m, d));
    INFO(d.render(src));
    test::check_expectations(d, expects);
  }
  CHECK(n >= 10);
}

TEST_CASE("default accumulator widening of reduce.sum and cumsum", "[normalize][L7.5][L7.6][L8.2]") {
  using normalize::default_sum_accumulator;
  const std::map<DType, std::optional<DType>> table = {
      {DType::F16, DType::F32},   {DType::BF16, DType::F32},  {DType::F32, DType::F32},
      {DType::F64, DType::F64},   {DType::I8, DType::I32},    {DType::I16, DType::I32},
      {DType::U8, DType::U32},    {DType::U16, DType::U32},   {DType::I32, DType::I32},
      {DType::I64, DType::I64},   {DType::U32, DType::U32},   {DType::U64, DType::U64},
      {DType::Index, DType::Index}, {DType::Bool, std::nullopt}, {DType::E4M3, DType::F32},
      {DType::E5M2, DType::F32},  {DType::E2M1, DType::F32},  {DType::E8M0, std::nullopt},
  };
  REQUIRE(table.size() == static_cast<size_t>(kNumDTypes));
  for (const auto& [src, acc] : table) {
    INFO(name(src));
    CHECK(default_sum_accumulator(src) == acc);
  }
}

TEST_CASE("builtin identities: zero and lowest value per dtype", "[normalize][L7.6][L8.2]") {
  using normalize::lowest_value;
  using normalize::zero_value;
  CHECK(lowest_value(DType::I8).i == -128);
  CHECK(lowest_value(DType::I16).i == -32768);
  CHECK(lowest_value(DType::I32).i == -2147483648LL);
  CHECK(lowest_value(DType::I64).i == -static_cast<int128>(9223372036854775807LL) - 1);
  CHECK(lowest_value(DType::Index).i == -static_cast<int128>(9223372036854775807LL) - 1);
  CHECK(lowest_value(DType::U8).i == 0);
  CHECK(lowest_value(DType::U64).i == 0);
  CHECK(lowest_value(DType::F16).str() == "-inf");
  CHECK(lowest_value(DType::F64).str() == "-inf");
  CHECK(zero_value(DType::F32).str() == "0.0");
  CHECK(zero_value(DType::I32).str() == "0");
  CHECK(zero_value(DType::Bool).str() == "false");
}

TEST_CASE("the normalizer never crashes on malformed shorthands", "[normalize][L19.1]") {
  // Wrong operand/result counts, non-tensor operands and missing attributes on every shorthand.
  const char* ops[] = {"matmul", "dot", "matvec", "vecmat", "outer", "reduce.sum", "reduce.max", "reduce.any",
                       "reduce.all", "arg_reduce.max", "cumsum", "cummax", "zeros", "scaled_matmul",
                       "sparse_matmul", "sparse_contract_2to4"};
  const char* shapes[] = {"()", "(%s)", "(%s, %s)", "(%t, %s)", "(%t, %t, %t)", "(%t, %t, %t, %t)", "(%t)",
                          "(%d)", "(%t, %d)"};
  const char* attrs[] = {"", " {axis = 5}", " {axis = []}", " {axis = [0, 0]}", " {acc_dtype = bool}",
                         " {acc_dtype = 3}", " {axis = -1, acc_dtype = f32, transpose = 1}",
                         " {reduce = [[9, 9]], batch = [], acc_dtype = f32}", " {group_size = 0}"};
  const char* results[] = {"", " : f32", " : f32[M]", " : (f32, index)", " : f32[M, M]"};
  for (const char* op : ops)
    for (const char* sh : shapes)
      for (const char* at : attrs)
        for (const char* res : results) {
          std::string has_results = std::string(res).empty() ? "" : "%r = ";
          if (std::string(res) == " : (f32, index)") has_results = "%r, %q = ";
          std::string src = std::string("kernel @k(%s: f32, %t: f32[M, M], %d: domain<M>) {\n  ") + has_results + op +
                            sh + at + res + "\n}\n";
          Diagnostics d;
          auto m = parse_module(src, "fuzz.kir", d);
          if (!m) continue;
          INFO(src);
          normalize_module(*m, d);
          CHECK_NOTHROW(print_module(*m));
        }
}

TEST_CASE("a region_fold that is not degenerate only gets its implied segments", "[normalize][L9.6][L9.1]") {
  // The combine `sub` is neither commutative nor the op of a recognized degenerate form: the
  // region op stays, with the segments of one source and no operands written out.
  const char* src = R"(fn @c(%a: f32, %b: f32) -> f32 {
  %r = sub(%a, %b) : f32
  return(%r)
}

fn @s(%x: f32[L]) -> f32 {
  %z = const() {value = 0.0} : f32
  %r = reduce(%x, %z) {axes = [0], combine = @c} : f32
  return(%r)
}

fn @f(%x: f32[N]) -> f32 {
  %id = const() {value = 0.0} : f32
  %t = region_fold(%x, %id) {axis = 0, combine = @c, summarize = @s} : f32
  return(%t)
}
)";
  Diagnostics d;
  auto m = parse_module(src, "nondegenerate.kir", d);
  REQUIRE(m);
  CHECK(normalize_module(*m, d));
  std::string expected = src;
  const std::string at = "combine = @c, ";
  expected.insert(expected.rfind(at) + at.size(), "segments = [1, 1, 0], ");
  CHECK(print_module(*m) == expected);
  CHECK_FALSE(needs_normalization(*m));
  CHECK(verify_module(*m, d));
}

TEST_CASE("every surface op of the registry has a normalization", "[normalize][L19.1]") {
  // A shorthand without a family would be reported as "not implemented".
  for (const char* op : {"matmul", "dot", "matvec", "vecmat", "outer", "reduce.sum", "reduce.max", "reduce.any",
                         "reduce.all", "arg_reduce.max", "cumsum", "cummax", "zeros", "scaled_matmul",
                         "sparse_matmul", "sparse_contract_2to4"}) {
    std::string src = std::string("fn @f(%x: f32[M, N]) -> f32 {\n  %r = ") + op + "(%x) : f32\n  return(%r)\n}\n";
    Diagnostics d;
    auto m = parse_module(src, "any.kir", d);
    REQUIRE(m);
    normalize_module(*m, d);
    INFO(op << "\n" << d.render(src));
    for (const auto& diag : d.all()) CHECK(diag.message.find("not implemented") == std::string::npos);
    CHECK(d.has_errors());
  }
}

// ---- one predicate for "canonical" (surface_form / is_canonical / needs_normalization) --------

namespace {

bool all_canonical(const Module& m) {
  bool ok = true;
  for (const auto& f : m.functions)
    walk(static_cast<const Region&>(f->body), [&](const Operation& op) { ok = ok && is_canonical(op); });
  return ok;
}

}  // namespace

TEST_CASE("the canonical predicate is false on each surface input and true on every normalized output",
          "[normalize][L19.1][L4.1][L9.6]") {
  int surface_inputs = 0;
  for (const auto& in : pair_inputs()) {
    INFO(in.string());
    fs::path expected = in;
    expected.replace_extension(".expected.kir");
    const std::string src = test::read_text(in);
    Diagnostics d;
    auto m = parse_module(src, in.filename().string(), d);
    REQUIRE(m);
    // A surface input is one whose hand-written canonical form differs from its own printing.
    const bool surface = print_module(*m) != test::read_text(expected);
    surface_inputs += surface;
    CHECK(needs_normalization(*m) == surface);
    CHECK(all_canonical(*m) == !surface);
    REQUIRE(normalize_module(*m, d));
    CHECK_FALSE(needs_normalization(*m));
    CHECK(all_canonical(*m));
  }
  CHECK(surface_inputs >= 20);
}

TEST_CASE("every normalize fixture loads through load_canonical as its expected canonical form",
          "[normalize][L19.1][L4.1][L9.6]") {
  for (const auto& p : test::kir_files("normalize")) {
    if (in_errors(p)) continue;
    INFO(p.string());
    Diagnostics d;
    std::string source;
    bool normalized = false;
    auto m = load_canonical(p.string(), d, source, &normalized);
    INFO(d.render(source));
    REQUIRE(m);
    CHECK_FALSE(needs_normalization(*m));
    if (is_expected(p)) CHECK_FALSE(normalized);
    fs::path expected = p;
    if (!is_expected(p)) expected.replace_extension(".expected.kir");
    CHECK(print_module(*m) == test::read_text(expected));
  }
}

TEST_CASE("implicit broadcast alone makes a module surface: the loader normalizes it", "[normalize][L4.1]") {
  // No surface-named op: only a scalar operand of add.
  const fs::path p = fs::temp_directory_path() / "kir_implicit_broadcast.kir";
  {
    std::ofstream out(p);
    out << "fn @f(%x: f32[N], %s: f32) -> f32[N] {\n  %y = add(%x, %s) : f32[N]\n  return(%y)\n}\n";
  }
  Diagnostics d;
  std::string source;
  bool normalized = false;
  auto m = load_canonical(p.string(), d, source, &normalized);
  INFO(d.render(source));
  REQUIRE(m);
  CHECK(normalized);
  CHECK(print_module(*m) ==
        "fn @f(%x: f32[N], %s: f32) -> f32[N] {\n  %y.b1 = broadcast(%s) {dims = []} : f32[N]\n"
        "  %y = add(%x, %y.b1) : f32[N]\n  return(%y)\n}\n");
  fs::remove(p);
}

TEST_CASE("a region op with explicit segments is canonical, degenerate or not", "[normalize][L9.6][L9.1]") {
  // The same degenerate fold as region_state_offset.kir, with its segments written: it stays.
  const char* src = R"(fn @add(%a: f32, %b: f32) -> f32 {
  %r = add(%a, %b) : f32
  return(%r)
}

fn @s(%x: f32[L]) -> f32 {
  %z = const() {value = 0.0} : f32
  %r = reduce(%x, %z) {axes = [0], combine = @add} : f32
  return(%r)
}

fn @f(%x: f32[N]) -> f32 {
  %id = const() {value = 0.0} : f32
  %t = region_fold(%x, %id) {axis = 0, combine = @add, segments = [1, 1, 0], summarize = @s} : f32
  return(%t)
}
)";
  Diagnostics d;
  auto m = parse_module(src, "explicit.kir", d);
  REQUIRE(m);
  CHECK_FALSE(needs_normalization(*m));
  CHECK(normalize_module(*m, d));
  CHECK(print_module(*m) == src);
  CHECK(verify_module(*m, d));
}

TEST_CASE("the verifier names a surface form, its rule and its place, and points to kir normalize",
          "[normalize][L19.1][L4.1][L9.6][L9.5]") {
  auto first = [](const std::string& src) {
    Diagnostics d;
    auto m = parse_module(src, "s.kir", d);
    REQUIRE(m);
    CHECK_FALSE(verify_module(*m, d));
    REQUIRE(d.has_errors());
    return d.all().front();
  };
  {
    auto e = first("fn @f(%x: f32[N], %s: f32) -> f32[N] {\n  %y = add(%x, %s) : f32[N]\n  return(%y)\n}\n");
    CHECK(e.rule == "L4.1");
    CHECK(e.loc.line == 2);
    CHECK(e.loc.col == 3);
    CHECK(e.message == "op 'add': surface form: implicit broadcast of f32[N], f32 to shape [N]; run `kir normalize` "
                       "to obtain its canonical form (or broadcast explicitly with broadcast(x) {dims = [...]})");
  }
  {
    auto e = first(
        "fn @c(%a: f32, %b: f32) -> f32 {\n  %r = add(%a, %b) : f32\n  return(%r)\n}\n"
        "fn @f(%x: f32[N], %z: f32) -> f32 {\n"
        "  %t = region_fold(%x, %z) {axis = 0, combine = @c, summarize = @c} : f32\n  return(%t)\n}\n");
    CHECK(e.rule == "L9.1");
    CHECK(e.loc.line == 6);
    CHECK(e.message.find("surface form: region_fold without 'segments'") != std::string::npos);
    CHECK(e.message.find("run `kir normalize`") != std::string::npos);
  }
  {
    // Extents that cannot broadcast are not a surface form the normalizer fixes: the op's own rule.
    auto e = first("fn @f(%x: f32[M], %y: f32[N]) -> f32[M] {\n  %s = add(%x, %y) : f32[M]\n  return(%s)\n}\n");
    CHECK(e.rule == "L4.2");
    CHECK(e.message.find("kir normalize") == std::string::npos);
  }
}

TEST_CASE("generated combine helpers carry the location of the surface op that needed them", "[normalize][L19.1]") {
  const std::string src = R"(kernel @k(%x: In<f32[M, N]>, %y: Out<f32[M]>) {
  %c0 = const() {value = 0} : index loc("author.py":3:5)
  %m = dim(%x) {axis = 0} : index loc("author.py":3:5)
  %n = dim(%x) {axis = 1} : index loc("author.py":3:5)
  %dm = domain(%c0, %m) : domain<M> loc("author.py":3:5)
  %dn = domain(%c0, %n) : domain<N> loc("author.py":3:5)
  %im = indices(%dm) : index[M] loc("author.py":4:9)
  %in = indices(%dn) : index[N] loc("author.py":4:9)
  %a = broadcast(%im) {dims = [0]} : index[M, N] loc("author.py":4:9)
  %b = broadcast(%in) {dims = [1]} : index[M, N] loc("author.py":4:9)
  %rel = relation(%a, %b) : relation<2 -> [M, N]> loc("author.py":4:9)
  %v = view.load(%x, %rel) : f32[M, N] loc("author.py":4:9)
  %s = reduce.sum(%v) {axis = 1} : f32[M] loc("author.py":7:12)
  %orel = relation(%im) : relation<1 -> [M]> loc("author.py":8:5)
  view.store(%y, %orel, %s) loc("author.py":8:5)
}
)";
  Diagnostics d;
  auto m = parse_module(src, "t.kir", d);
  REQUIRE(m);
  REQUIRE(normalize_module(*m, d));
  const Function* f = m->find_function("__kir_sum_f32_r1");
  REQUIRE(f != nullptr);
  CHECK(f->loc.str() == "author.py:7:12");
  for (const auto& op : f->body.ops) CHECK(op->loc.str() == "author.py:7:12");
  CHECK(print_module(*m).find("return(%r) loc(\"author.py\":7:12)") != std::string::npos);
}
