// `kir fuzz` and `kir repro` from the command line (issue 12 items 4 and 5): a campaign killed
// with SIGKILL (the campaign process and its workers) and restarted on its directory ends with
// exactly the journal of an uninterrupted campaign of the same seed — every case once, the same
// outcome and signature — so no finding is lost or counted twice. The campaign runs under a
// seeded mutant of the backend (KIR_MUTANT, backends/cpu/mutants/mutants.h) that fails cases
// early on, so there are findings to lose; usage errors exit 2.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "tests/mutant_env.h"
#include "tests/run_tool.h"

namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> journal(const fs::path& dir) {
  std::map<std::string, std::string> out;  // index -> outcome + signature
  std::ifstream in(dir / "journal.tsv");
  for (std::string line; std::getline(in, line);) {
    std::stringstream s(line);
    std::string idx, outcome, sig;
    std::getline(s, idx, '\t');
    std::getline(s, outcome, '\t');
    std::getline(s, sig, '\t');
    REQUIRE(out.count(idx) == 0);  // a case is journaled once
    out[idx] = outcome + "|" + sig;
  }
  return out;
}

size_t journal_lines(const fs::path& dir) {
  std::ifstream in(dir / "journal.tsv");
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("kir-fuzz-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(d);
  return d;
}

const char* kCampaign = "fuzz --cases 10 --time 0 --seed 12 --jobs 2 --batch 2 --no-shrink --no-reduce --quiet --out ";
// select operands swapped: cases 5 and 8 of seed 12 fail under it (so a kill after the first
// finding leaves one to find on resume).
const char* kMutant = "select_swapped";

size_t journal_findings(const fs::path& dir) {
  std::ifstream in(dir / "journal.tsv");
  size_t n = 0;
  for (std::string line; std::getline(in, line);)
    n += line.find("\tpass\t") == std::string::npos && line.find("\tunsupported\t") == std::string::npos;
  return n;
}

// KIR_MUTANT for a scope: run_kir's popen and the forked campaign inherit it.
struct MutantEnv : kir::test::WithMutant {
  MutantEnv() : WithMutant(kMutant) {}
};

}  // namespace

TEST_CASE("a campaign killed with SIGKILL resumes from its journal with nothing lost", "[fuzz][campaign]") {
  const char* bin = std::getenv("KIR_BIN");
  REQUIRE(bin);
  if (kir::test::run_kir("backend mutants").out.find("none compiled in") != std::string::npos) {
    WARN("kir was built with -DKIR_MUTANTS=OFF: the resume test needs a mutant");
    return;
  }
  const fs::path reference = fresh_dir("ref"), killed = fresh_dir("killed");
  MutantEnv mutant;
  auto ref = kir::test::run_kir(kCampaign + reference.string());
  INFO(ref.out);
  REQUIRE(ref.code == 1);  // the mutant is found
  const auto want = journal(reference);
  REQUIRE(want.size() == 10);
  REQUIRE(journal_findings(reference) >= 2);

  // The same campaign, killed (process group: the campaign and its workers) once a finding and
  // at least two cases are journaled.
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setpgid(0, 0);
    std::string args = std::string(kCampaign) + killed.string();
    std::vector<std::string> words;
    std::stringstream ws(args);
    for (std::string w; ws >> w;) words.push_back(w);
    std::vector<char*> argv{const_cast<char*>(bin)};
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
    setenv("KIR_MUTANT", kMutant, 1);
    // A cache of its own: every batch compiles, so the kill lands mid-campaign (with the shared
    // cache warm from the reference run, the whole campaign takes a few milliseconds).
    setenv("KIR_CACHE_DIR", (killed / "cache").c_str(), 1);
    execv(bin, argv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while ((journal_lines(killed) < 2 || journal_findings(killed) < 1) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  const size_t before = journal_lines(killed);
  CHECK(before >= 2);
  CHECK(before < 10);
  CHECK(journal_findings(killed) < journal_findings(reference));  // some findings come after the kill

  auto resumed = kir::test::run_kir(kCampaign + killed.string());
  INFO(resumed.out);
  CHECK(resumed.code == ref.code);
  CHECK(resumed.out.find("resuming") != std::string::npos);
  CHECK(journal(killed) == want);
  // Every journaled finding has its reproducer directory.
  std::ifstream in(killed / "journal.tsv");
  for (std::string line; std::getline(in, line);) {
    std::stringstream s(line);
    std::string f[5];
    for (auto& x : f) std::getline(s, x, '\t');
    if (!f[4].empty()) CHECK(fs::exists(fs::path(f[4]) / "program.kir"));
  }
  fs::remove_all(reference);
  fs::remove_all(killed);
}

TEST_CASE("a campaign directory of another seed is refused, bad shards are usage errors", "[fuzz][campaign]") {
  const fs::path d = fresh_dir("seed");
  auto first = kir::test::run_kir("fuzz --cases 1 --time 0 --seed 1 --quiet --out " + d.string());
  CHECK((first.code == 0 || first.code == 1));
  auto other = kir::test::run_kir("fuzz --cases 1 --time 0 --seed 2 --quiet --out " + d.string());
  CHECK(other.code == 2);
  CHECK(other.out.find("holds another campaign (seed 1 shard 0/1)") != std::string::npos);
  auto shard = kir::test::run_kir("fuzz --shard 3/2 --cases 1 --out " + d.string());
  CHECK(shard.code == 2);
  CHECK(shard.out.find("--shard") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("kir repro on a directory that is not a finding names the missing file", "[fuzz][repro]") {
  auto r = kir::test::run_kir("repro /nonexistent-kir-finding");
  CHECK(r.code == 2);
  CHECK(r.out.find("/nonexistent-kir-finding/program.kir: cannot read") != std::string::npos);
}

TEST_CASE("kir fuzz-merge sums the shards of one campaign and refuses others", "[fuzz][campaign]") {
  const fs::path s0 = fresh_dir("shard0"), s1 = fresh_dir("shard1"), other = fresh_dir("other");
  for (const auto& [dir, shard] : {std::pair{s0, "0/2"}, std::pair{s1, "1/2"}}) {
    auto r = kir::test::run_kir(std::string("fuzz --seed 3 --cases 1 --time 0 --jobs 1 --no-shrink --no-reduce --quiet --shard ") +
                                shard + " --out " + dir.string());
    INFO(r.out);
    REQUIRE((r.code == 0 || r.code == 1));
  }
  auto merged = kir::test::run_kir("fuzz-merge " + s0.string() + " " + s1.string());
  INFO(merged.out);
  CHECK((merged.code == 0 || merged.code == 1));
  CHECK(merged.out.find("2 shards; cases 2:") != std::string::npos);
  auto twice = kir::test::run_kir("fuzz-merge " + s0.string() + " " + s0.string());
  CHECK(twice.code == 2);
  CHECK(twice.out.find("shard 0/2 is given twice") != std::string::npos);
  auto missing = kir::test::run_kir("fuzz-merge " + other.string());
  CHECK(missing.code == 2);
  CHECK(missing.out.find("summary.json: cannot read") != std::string::npos);
  fs::remove_all(s0);
  fs::remove_all(s1);
}

TEST_CASE("kir backend mutants lists the seeded mutants; an unknown KIR_MUTANT is a usage error", "[fuzz][mutant]") {
  auto list = kir::test::run_kir("backend mutants");
  CHECK(list.code == 0);
  CHECK(list.out.find("seeded mutants (select one with KIR_MUTANT=<name>)") != std::string::npos);
  CHECK(list.out.find("  task_tail_dropped\n") != std::string::npos);
  if (list.out.find("none compiled in") != std::string::npos) return;
  setenv("KIR_MUTANT", "no_such_mutant", 1);
  auto r = kir::test::run_kir("fuzz --cases 1 --time 0 --quiet --out " + fresh_dir("bad-mutant").string());
  unsetenv("KIR_MUTANT");
  CHECK(r.code == 2);
  CHECK(r.out.find("KIR_MUTANT=no_such_mutant is not a mutant; the mutants are: transpose_inverse_perm,") != std::string::npos);
  CHECK(!fs::exists(fresh_dir("bad-mutant")));
}

TEST_CASE("every finding of a campaign reproduces from its directory alone", "[fuzz][repro]") {
  if (kir::test::run_kir("backend mutants").out.find("none compiled in") != std::string::npos) {
    WARN("kir was built with -DKIR_MUTANTS=OFF: the test needs a mutant");
    return;
  }
  const fs::path dir = fresh_dir("repro-all");
  {
    MutantEnv mutant;
    auto run = kir::test::run_kir(std::string("fuzz --cases 10 --time 0 --seed 12 --jobs 2 --batch 4 --quiet --out ") + dir.string());
    INFO(run.out);
    REQUIRE(run.code == 1);
  }
  // The mutant is no longer in the environment: the finding's case.json names it (and the C++
  // level it was compiled at), and repro.sh alone brings both back.
  REQUIRE(std::getenv("KIR_MUTANT") == nullptr);
  int findings = 0;
  for (const auto& e : fs::directory_iterator(dir / "findings")) {
    ++findings;
    const std::string cmd = "KIR=" + std::string(std::getenv("KIR_BIN")) + " sh " + (e.path() / "repro.sh").string() + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = pclose(p);
    INFO(e.path().string() << "\n" << out);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(out.find("reproduces the recorded finding") != std::string::npos);
    CHECK(out.find("select_swapped") != std::string::npos);  // the mutant's warning line
  }
  CHECK(findings >= 2);
  fs::remove_all(dir);
}

TEST_CASE("a case whose shrinking outruns --case-timeout keeps its finding, unshrunk, not a timeout", "[fuzz][repro]") {
  if (kir::test::run_kir("backend mutants").out.find("none compiled in") != std::string::npos) {
    WARN("kir was built with -DKIR_MUTANTS=OFF: the test needs a mutant");
    return;
  }
  // A cold artifact cache: every shrink candidate is a C++ build, longer than the case's second.
  const fs::path dir = fresh_dir("outrun"), cache = fresh_dir("outrun-cache");
  const char* old_cache = std::getenv("KIR_CACHE_DIR");
  const std::string saved = old_cache ? old_cache : "";
  setenv("KIR_CACHE_DIR", cache.c_str(), 1);
  kir::test::ToolRun run{};
  {
    MutantEnv mutant;
    run = kir::test::run_kir("fuzz --cases 6 --time 0 --seed 12 --jobs 1 --batch 1 --case-timeout 1 --out " + dir.string());
  }
  if (old_cache) setenv("KIR_CACHE_DIR", saved.c_str(), 1);
  else unsetenv("KIR_CACHE_DIR");
  INFO(run.out);
  REQUIRE(run.code == 1);
  std::ifstream in(dir / "journal.tsv");
  const std::string journal((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(journal.find("\twrong\t") != std::string::npos);
  CHECK(journal.find("\ttimeout\t") == std::string::npos);
  if (run.out.find("the finding is kept unshrunk") == std::string::npos)
    WARN("no case outran its second on this machine: the unshrunk path was not taken");
  for (const auto& e : fs::directory_iterator(dir / "findings")) {
    const std::string cmd = "KIR=" + std::string(std::getenv("KIR_BIN")) + " sh " + (e.path() / "repro.sh").string() + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = pclose(p);
    INFO(e.path().string() << "\n" << out);
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(out.find("reproduces the recorded finding") != std::string::npos);
  }
  fs::remove_all(dir);
  fs::remove_all(cache);
}

TEST_CASE("--stop-on-finding ends a campaign at its first finding", "[fuzz][campaign]") {
  if (kir::test::run_kir("backend mutants").out.find("none compiled in") != std::string::npos) {
    WARN("kir was built with -DKIR_MUTANTS=OFF: the test needs a mutant");
    return;
  }
  const fs::path dir = fresh_dir("stop");
  MutantEnv mutant;
  auto run = kir::test::run_kir(std::string("fuzz --cases 40 --time 0 --seed 12 --jobs 1 --batch 2 --no-shrink --no-reduce --quiet "
                                            "--stop-on-finding --out ") + dir.string());
  INFO(run.out);
  CHECK(run.code == 1);
  CHECK(journal_findings(dir) >= 1);  // (a finding that arrives with the first in one read is kept)
  CHECK(journal_lines(dir) < 40);
  fs::remove_all(dir);
}
