// The contract_epilogue family reaches the packed contract's paths with a fused epilogue within a
// bounded number of programs: the few-rows (gemv) branch, K above the default KC, the bf16 and
// the i8 forms. Each program is compiled to source only (no shared objects): the CPU IR after the
// epilogue pass says which implementation a contract is bound to and whether it took an
// epilogue; the contract's extents come from the generated KIR line the op points at. Campaign
// config rows: a case drawing a small row is built from one, a row the program rejects gives way
// to the next, the row is recorded with a finding, and a short campaign of the family passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "fuzz/campaign/campaign.h"
#include "fuzz/campaign/case_args.h"
#include "fuzz/campaign/case_pipeline.h"
#include "fuzz/campaign/case_rows.h"
#include "fuzz/campaign/reproducer.h"
#include "fuzz_common.h"
#include "oracle/backend_run.h"

using namespace kir;
using namespace kir::fuzz;

namespace {

// The value of a generated extent ("517", "M", "2*M*N") under the case's dims; -1 otherwise.
int64_t extent_value(const std::string& e, const std::map<std::string, int64_t>& dims) {
  int64_t v = 1;
  std::stringstream s(e);
  for (std::string f; std::getline(s, f, '*');) {
    f = std::regex_replace(f, std::regex("^ +| +$"), "");
    if (auto it = dims.find(f); it != dims.end()) v *= it->second;
    else if (std::regex_match(f, std::regex("[0-9]+"))) v *= std::stoll(f);
    else return -1;
  }
  return v;
}

// "f32[M, 5]" -> dtype and extent texts.
std::pair<std::string, std::vector<std::string>> parse_type(const std::string& t) {
  std::smatch m;
  if (!std::regex_match(t, m, std::regex(R"(([a-z0-9]+)\[(.*)\])"))) return {t, {}};
  std::vector<std::string> ext;
  std::stringstream s(m[2].str());
  for (std::string e; std::getline(s, e, ',');) ext.push_back(std::regex_replace(e, std::regex("^ +| +$"), ""));
  return {m[1].str(), ext};
}

// A contract of a compiled program as the CPU IR binds it and the KIR line declares it.
struct Contract {
  std::string impl;
  bool epilogue = false;
  std::string operand_dtype, acc;
  int64_t rows = -1, k = 1;  // the result's rows; the product of the reduced extents
  size_t reduce_pairs = 0;
};

std::vector<Contract> contracts_of(const GeneratedCase& c, const Module& m, const std::string& row = "") {
  std::ostringstream dump;
  cpu::CompileOptions co;
  co.print_after_all = &dump;
  co.config_row = row;
  oracle::compile_for_args(m, c.kernel, case_args(m, c), co);
  const std::string d = dump.str();
  const size_t from = d.find("// ----- CPU IR after epilogue\n");
  REQUIRE(from != std::string::npos);
  const std::string after = d.substr(from, d.find("// ----- CPU IR after", from + 1) - from);
  std::vector<std::string> lines;
  std::stringstream ks(c.kir);
  for (std::string l; std::getline(ks, l);) lines.push_back(l);
  // value name -> type text, from "%x = ... : T" lines
  std::map<std::string, std::string> types;
  for (const auto& l : lines) {
    std::smatch mm;
    if (std::regex_search(l, mm, std::regex(R"(^\s*(%[A-Za-z0-9_]+) = .* : ([^:]+)$)"))) types[mm[1]] = mm[2];
  }
  std::vector<Contract> out;
  const std::regex op(R"re(structured contract\(.*impl "([^"]*)"(.*)// op [0-9]+ \(contract at [^:]+:([0-9]+):[0-9]+\))re");
  std::stringstream as(after);
  for (std::string l; std::getline(as, l);) {
    std::smatch mm;
    if (!std::regex_search(l, mm, op)) continue;
    Contract k;
    k.impl = mm[1];
    k.epilogue = mm[2].str().find(" epilogue ") != std::string::npos;
    const std::string& src = lines.at(std::stoul(mm[3]) - 1);
    std::smatch cm;
    REQUIRE(std::regex_search(src, cm, std::regex(R"(contract\((%[A-Za-z0-9_]+), .*reduce = \[(.*)\]\} : (.*)$)")));
    const auto [acc, res] = parse_type(cm[3]);
    const auto [ldt, lshape] = parse_type(types.at(cm[1]));
    k.acc = acc;
    k.operand_dtype = ldt;
    REQUIRE(res.size() >= 2);
    k.rows = extent_value(res[res.size() - 2], c.dims);
    const std::string pairs = cm[2];
    const std::regex pair(R"(\[([0-9]+), [0-9]+\])");
    for (std::sregex_iterator it(pairs.begin(), pairs.end(), pair), end; it != end; ++it) {
      ++k.reduce_pairs;
      k.k *= extent_value(lshape.at(std::stoul((*it)[1])), c.dims);
    }
    out.push_back(k);
  }
  return out;
}

bool packed_float(const Contract& k) { return k.impl.rfind("contract.packed.", 0) == 0; }

}  // namespace

TEST_CASE("contract_epilogue programs reach the packed contract's paths with an epilogue", "[fuzz]") {
  const GenOptions o = test::only_family("contract_epilogue");
  // Measured: every path within 9 programs from seed 20000, within at most 27 from 16 other
  // starting seeds.
  const int bound = 120;
  std::map<std::string, int> first;  // path -> programs compiled when first reached
  int n = 0;
  for (uint64_t seed = 20000; n < bound && first.size() < 4; ++seed, ++n) {
    const GeneratedCase c = sample_case(seed, test::size_for(seed), o).value();
    std::string why;
    auto m = test::load_case(c, why);
    INFO("seed " << seed << "\n" << c.kir << why);
    REQUIRE(m);
    for (const Contract& k : contracts_of(c, *m)) {
      auto reach = [&](const char* path, bool cond) {
        if (cond && !first.count(path)) first[path] = n + 1;
      };
      // The gemv branch: the float form, operands already of the accumulator dtype, one pair.
      reach("gemv+epilogue", packed_float(k) && k.epilogue && k.rows >= 1 && k.rows <= 4 && k.operand_dtype == k.acc &&
                                 k.reduce_pairs == 1);
      // K above KC 512, not a multiple of it, with A packed (not the gemv branch).
      reach("K>512 packed", k.impl.rfind("contract.packed", 0) == 0 && k.k > 512 && k.k % 512 != 0 &&
                                (k.rows > 4 || k.operand_dtype != k.acc));
      reach("bf16+epilogue", k.impl.rfind("contract.packed_bf16.", 0) == 0 && k.epilogue);
      reach("i8+epilogue", k.impl.rfind("contract.packed_i8.", 0) == 0 && k.epilogue);
    }
  }
  std::cout << "contract_epilogue: " << n << " programs;";
  for (const auto& [p, i] : first) std::cout << " " << p << " at " << i;
  std::cout << "\n";
  for (const char* p : {"gemv+epilogue", "K>512 packed", "bf16+epilogue", "i8+epilogue"}) {
    INFO("path " << p << " not reached within " << bound << " programs");
    CHECK(first.count(p));
  }
}

TEST_CASE("about a third of the cases draw a small config row, in a seeded order of all of them", "[fuzz]") {
  int drawn = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) drawn += draws_small_row(case_seed(7, static_cast<int64_t>(seed)));
  CHECK(drawn > 850);
  CHECK(drawn < 1150);
  const auto order = small_row_order(case_seed(7, 3));
  CHECK(order.size() == small_rows().rows.size());
  for (const auto& r : small_rows().rows) CHECK(std::count(order.begin(), order.end(), r.name) == 1);
}

TEST_CASE("a case drawing a small row is compiled from it; the default rows stay first", "[fuzz]") {
  CampaignOptions o;
  o.seed = 11;
  o.gen = test::only_family("contract_epilogue");
  int small = 0, plain = 0;
  for (int64_t i = 0; i < 40 && (small < 3 || plain < 3); ++i) {
    PreparedCase p = prepare_indexed(o, i);
    INFO("case " << i << "\n" << p.c.kir);
    REQUIRE_FALSE(p.early);
    REQUIRE(p.source.size() == 1);
    const std::string built = p.source.front().program.config_row;
    if (draws_small_row(case_seed(o.seed, i))) {
      ++small;
      CHECK(small_rows().find(p.row));
      CHECK(built == p.row);
    } else if (draws_default_row(case_seed(o.seed, i))) {  // another built-in row
      CHECK_FALSE(small_rows().find(built));
      CHECK(built == (p.row.empty() ? built : p.row));
    } else {
      ++plain;
      CHECK(p.row.empty());
      CHECK_FALSE(small_rows().find(built));  // the selection policy's row: a default one
    }
  }
  CHECK(small >= 3);
  CHECK(plain >= 3);
}

TEST_CASE("a small row the program rejects gives way to the next, all rejected to the default rows", "[fuzz]") {
  install_small_rows();
  // A bf16 product: the row of odd kc (7) is rejected (bf16 takes k in pairs).
  const std::string kir = R"(kernel @k(%a: In<bf16[2, 9]>, %b: In<bf16[9, 3]>, %o: Out<f32[2, 3]>) {
  %c0 = const() {value = 0} : index
  %c1 = const() {value = 1} : index
  %c2 = const() {value = 2} : index
  %c3 = const() {value = 3} : index
  %c9 = const() {value = 9} : index
  %d2 = domain(%c0, %c2) : domain<2>
  %d3 = domain(%c0, %c3) : domain<3>
  %d9 = domain(%c0, %c9) : domain<9>
  %i2 = indices(%d2) : index[2]
  %i3 = indices(%d3) : index[3]
  %i9 = indices(%d9) : index[9]
  %r29a = broadcast(%i2) {dims = [0]} : index[2, 9]
  %r29b = broadcast(%i9) {dims = [1]} : index[2, 9]
  %ra = relation(%r29a, %r29b) : relation<2 -> [2, 9]>
  %r93a = broadcast(%i9) {dims = [0]} : index[9, 3]
  %r93b = broadcast(%i3) {dims = [1]} : index[9, 3]
  %rb = relation(%r93a, %r93b) : relation<2 -> [9, 3]>
  %r23a = broadcast(%i2) {dims = [0]} : index[2, 3]
  %r23b = broadcast(%i3) {dims = [1]} : index[2, 3]
  %ro = relation(%r23a, %r23b) : relation<2 -> [2, 3]>
  %a1 = view.load(%a, %ra) : bf16[2, 9]
  %b1 = view.load(%b, %rb) : bf16[9, 3]
  %p = contract(%a1, %b1) {batch = [], reduce = [[1, 0]]} : f32[2, 3]
  %t = tanh(%p) : f32[2, 3]
  view.store(%o, %ro, %t)
}
)";
  Diagnostics d;
  auto m = parse_module(kir, "bf16.kir", d);
  INFO(d.render(kir));
  REQUIRE(m);
  REQUIRE(verify_module(*m, d));
  GeneratedCase gc;
  gc.kir = kir;
  gc.kernel = "k";
  for (const auto& [name, shape] : std::map<std::string, std::vector<int64_t>>{{"a", {2, 9}}, {"b", {9, 3}}}) {
    GeneratedCase::Input in;
    in.name = name;
    in.dtype = DType::BF16;
    in.shape = shape;
    in.bits.assign(static_cast<size_t>(shape[0] * shape[1]), 0x3f80);  // 1.0
    gc.inputs.push_back(in);
  }
  const auto args = case_args(*m, gc);
  std::string chosen;
  auto src = compile_first_accepted(*m, "k", args, {"small-avx512-k7", "small-avx512-k6"}, chosen);
  CHECK(chosen == "small-avx512-k6");
  CHECK(src.program.config_row == "small-avx512-k6");
  src = compile_first_accepted(*m, "k", args, {"small-avx512-k7"}, chosen);
  CHECK(chosen.empty());
  CHECK_FALSE(small_rows().find(src.program.config_row));
  // Forced, the rejected row is a "not implemented" compile error (an unsupported verdict).
  CHECK_THROWS_WITH(compile_with_row(*m, "k", args, "small-avx512-k7"), Catch::Contains("not implemented"));
}

TEST_CASE("a finding records its config row with the row's definition", "[fuzz]") {
  install_small_rows();
  const cpu::ConfigRow& want = small_rows().rows.at(1);
  const auto dir = std::filesystem::temp_directory_path() / ("kir-case-row-" + std::to_string(getpid()));
  FindingMeta meta;
  meta.config_row = want.name;
  oracle::Verdict v;
  v.outcome = oracle::Outcome::Wrong;
  write_reproducer(dir, "kernel @k() {\n}\n", "k", {}, {}, v, meta);
  const Reproducer r = read_reproducer_meta(dir);
  CHECK(r.config_row == want.name);
  REQUIRE(r.row);
  CHECK(r.row->shared == want.shared);
  using Params = std::map<std::string, int64_t>;  // case.json keeps them by name
  CHECK(Params(r.row->local.begin(), r.row->local.end()) == Params(want.local.begin(), want.local.end()));
  CHECK(r.row->implementations == want.implementations);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a short campaign of contract_epilogue programs has no findings", "[fuzz]") {
  CampaignOptions o;
  o.gen = test::only_family("contract_epilogue");
  o.seed = 3;
  o.max_cases = 30;
  o.time_limit = 0;
  o.jobs = 1;
  o.batch = 30;
  o.progress = false;
  o.out = (std::filesystem::temp_directory_path() / ("kir-ce-campaign-" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(o.out);
  std::ostringstream log;
  const CampaignSummary s = run_campaign(o, log);
  INFO(log.str() << s.table());
  CHECK(s.cases == 30);
  CHECK(s.findings == 0);
  CHECK(s.families.count("contract_epilogue"));
  std::filesystem::remove_all(o.out);
}
