// Manifest workloads in campaigns (`kir fuzz --manifests`, fuzz/campaign/manifest_cases.h): the
// bundled manifests' cases, their variants built as `kir spec run` builds them, shape scaling
// only within a row's rules, and campaigns that run them (clean, and finding a seeded mutant).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/cpu/mutants/mutants.h"
#include "fuzz/campaign/campaign.h"
#include "fuzz/campaign/manifest_cases.h"
#include "fuzz/campaign/reproducer.h"
#include "oracle/spec_cases.h"
#include "oracle/spec_scale.h"

namespace fs = std::filesystem;
using namespace kir;

namespace {

const std::string kSpecs = std::string(KIR_SOURCE_DIR) + "/specs";

size_t find_case(const oracle::SpecCases& cs, const std::string& op, const std::string& id) {
  for (size_t k = 0; k < cs.size(); ++k)
    if (cs.at(k).op == op && cs.at(k).case_id == id) return k;
  FAIL("no case " << op << " " << id);
  return 0;
}

const interp::HostView& view(const oracle::SpecInstance& in, const std::string& name) {
  return std::get<interp::HostView>(in.args.at(name));
}

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("kir-manifest-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(d);
  return d;
}

}  // namespace

TEST_CASE("the bundled manifests' cases, variant 0 as kir spec run builds them", "[fuzz][manifest]") {
  const oracle::SpecCases& cs = fuzz::manifest_cases({kSpecs});
  REQUIRE(cs.size() > 0);
  // specs/ops/attention.yaml, row decode-4: HQ 4, HKV 2, D 16, P 32, PS 4, W 4,
  // kv_lens [13, 5, 16, 1] (so B = 4), q [B, HQ, D], k/v pages [P, PS, HKV, D], block_table [B, W].
  const size_t k = find_case(cs, "GroupedQueryAttentionPagedFwdOp", "decode-4-float16-float16");
  CHECK(cs.at(k).label == "decode-4");
  CHECK(cs.at(k).file.find("attention.yaml") != std::string::npos);
  const oracle::SpecInstance v0 = cs.instantiate(k, {});
  CHECK(v0.kernel == "GroupedQueryAttentionPagedFwdOp__f16__f16");
  CHECK(v0.scaled.empty());
  CHECK(view(v0, "q").shape == interp::Shape{4, 4, 16});
  CHECK(view(v0, "k_pages").shape == interp::Shape{32, 4, 2, 16});
  CHECK(view(v0, "v_pages").shape == interp::Shape{32, 4, 2, 16});
  CHECK(view(v0, "block_table").shape == interp::Shape{4, 4});
  CHECK(view(v0, "output").shape == interp::Shape{4, 4, 16});
  CHECK(view(v0, "cache_seqlens").storage->bits == std::vector<uint64_t>{13, 5, 16, 1});
  CHECK(v0.dims.at("B") == 4);
  CHECK(v0.dims.at("HKV") == 2);
  // The same data as spec run's (specs::generate_inputs with the default seed, no specials):
  // rebuilding gives the same bits; special values and another seed give other bits.
  CHECK(cs.instantiate(k, {}).args.size() == v0.args.size());
  CHECK(view(cs.instantiate(k, {}), "q").storage->bits == view(v0, "q").storage->bits);
  oracle::SpecVariant special;
  special.special = true;
  CHECK(view(cs.instantiate(k, special), "q").storage->bits != view(v0, "q").storage->bits);
  oracle::SpecVariant reseeded;
  reseeded.seed = 99;
  const oracle::SpecInstance v2 = cs.instantiate(k, reseeded);
  CHECK(view(v2, "q").storage->bits != view(v0, "q").storage->bits);
  CHECK(view(v2, "cache_seqlens").storage->bits == view(v0, "cache_seqlens").storage->bits);  // metadata: the row's
}

TEST_CASE("shape scaling keeps to the row's rules", "[fuzz][manifest]") {
  auto suite = oracle::load_spec_suite({kSpecs}, {});
  REQUIRE_FALSE(suite->manifest_errors);
  const specs::OpSpec* op = suite->manifest.op("GroupedQueryAttentionPagedFwdOp");
  REQUIRE(op);
  const specs::Call* call = nullptr;
  for (const auto& w : suite->ops)
    if (w.op == op)
      for (const auto& c : w.calls)
        if (c.case_id == "decode-4-float16-float16") call = &c;
  REQUIRE(call);
  auto any = [](const specs::Call&) { return true; };
  // Row sizes in order HQ, HKV, D, P, PS, W. Choice 15: to 1, starting at W. W = 1 breaks
  // `requires: in_range(0, W * PS + 1)` on cache_seqlens (kv_lens up to 16), HQ = 1 breaks the
  // shape rule HQ % HKV == 0; HKV = 1 keeps both.
  auto s = oracle::scale_call(*op, suite->manifest, *call, 15, any);
  REQUIRE(s);
  CHECK(s->change == "HKV=2->1");
  CHECK(s->call.tensor("k_pages")->shape == std::vector<mpz_class>{32, 4, 1, 16});
  // Choice 4: next prime, starting at HKV: HKV = 3 breaks HQ % HKV == 0; D = 17 is fine.
  s = oracle::scale_call(*op, suite->manifest, *call, 4, any);
  REQUIRE(s);
  CHECK(s->change == "D=16->17");
  // Nothing passes when `accept` takes nothing (e.g. no kernel for the scaled shapes).
  CHECK_FALSE(oracle::scale_call(*op, suite->manifest, *call, 4, [](const specs::Call&) { return false; }));
  // Across the bundled cases, some variants scale and each scaled instance builds.
  const oracle::SpecCases& cs = fuzz::manifest_cases({kSpecs});
  size_t scaled = 0;
  for (size_t k = 0; k < cs.size(); ++k) {
    oracle::SpecVariant v;
    v.scale = 3 * k + 2;  // doubling, one size per case
    scaled += !cs.instantiate(k, v).scaled.empty();
  }
  CHECK(scaled > cs.size() / 4);
}

TEST_CASE("a small campaign with manifests runs manifest cases and finds nothing", "[fuzz][manifest]") {
  fuzz::CampaignOptions o;
  o.manifests = {kSpecs};
  o.max_cases = 16;
  o.time_limit = 0;
  o.jobs = 1;
  o.progress = false;
  o.out = fresh_dir("clean").string();
  std::ostringstream log;
  const fuzz::CampaignSummary s = fuzz::run_campaign(o, log);
  INFO(log.str() << s.table());
  CHECK(s.cases == 16);
  CHECK(s.findings == 0);
  CHECK(s.families.count("manifest"));
  CHECK(s.families.at("manifest") == 8);
  std::ifstream journal(fs::path(o.out) / "journal.tsv");
  std::string line;
  int manifest_lines = 0;
  while (std::getline(journal, line)) manifest_lines += line.find("\tmanifest,manifest.") != std::string::npos;
  CHECK(manifest_lines == 8);
  fs::remove_all(o.out);
}

TEST_CASE("bad manifest paths end a campaign before it starts, with the located message", "[fuzz][manifest]") {
  fuzz::CampaignOptions o;
  o.manifests = {"/nonexistent/specs"};
  o.max_cases = 4;
  o.time_limit = 0;
  o.out = fresh_dir("bad").string();
  std::ostringstream log;
  try {
    fuzz::run_campaign(o, log);
    FAIL("the campaign ran");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("/nonexistent/specs: [loader] -: no such file or directory [L1]") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(o.out));
}

TEST_CASE("manifest cases find the seeded mutant scan_inclusive_flipped", "[fuzz][manifest]") {
  if (!cpu::mutants_compiled_in()) {
    WARN("kir was built with -DKIR_MUTANTS=OFF");
    return;
  }
  fuzz::CampaignOptions o;
  o.manifests = {kSpecs};
  o.case_timeout = 32;  // the KIR reducer gets a quarter of it
  const oracle::SpecCases& cs = fuzz::manifest_cases(o.manifests);
  const size_t k = find_case(cs, "CumsumFwdOp", "rows-float32");
  const int64_t index = 2 * static_cast<int64_t>(k) + 1;  // its variant 0
  const fs::path dir = fresh_dir("mutant");
  setenv("KIR_MUTANT", "scan_inclusive_flipped", 1);
  const fuzz::CaseResult r = fuzz::run_case(o, index, dir.string());
  unsetenv("KIR_MUTANT");
  INFO(r.verdict.str());
  CHECK(r.verdict.outcome == oracle::Outcome::Wrong);
  CHECK(r.families == std::vector<std::string>{"manifest", "manifest.CumsumFwdOp"});
  REQUIRE_FALSE(r.finding_dir.empty());
  std::ifstream cj(fs::path(r.finding_dir) / "case.json");
  std::stringstream text;
  text << cj.rdbuf();
  CHECK(text.str().find("\"origin\": \"manifest:" + cs.at(k).file + "#rows/rows-float32/v0\"") != std::string::npos);
  CHECK(fuzz::read_reproducer_meta(r.finding_dir).signature == r.verdict.signature());
  fs::remove_all(dir);
}
