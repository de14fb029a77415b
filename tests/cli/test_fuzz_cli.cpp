// `kir fuzz` and `kir repro` from the command line (issue 12 items 4 and 5): a campaign killed
// with SIGKILL (the campaign process and its workers) and restarted on its directory ends with
// exactly the journal of an uninterrupted campaign of the same seed — every case once, the same
// outcome and signature — so no finding is lost or counted twice; usage errors exit 2.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

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

const char* kCampaign = "fuzz --cases 10 --time 0 --seed 7 --jobs 2 --batch 2 --no-shrink --quiet --out ";

}  // namespace

TEST_CASE("a campaign killed with SIGKILL resumes from its journal with nothing lost", "[fuzz][campaign]") {
  const char* bin = std::getenv("KIR_BIN");
  REQUIRE(bin);
  const fs::path reference = fresh_dir("ref"), killed = fresh_dir("killed");
  auto ref = kir::test::run_kir(kCampaign + reference.string());
  INFO(ref.out);
  REQUIRE((ref.code == 0 || ref.code == 1));
  const auto want = journal(reference);
  REQUIRE(want.size() == 10);

  // The same campaign, killed (process group: the campaign and its workers) after two cases.
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
    execv(bin, argv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (journal_lines(killed) < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  const size_t before = journal_lines(killed);
  CHECK(before >= 2);
  CHECK(before < 10);

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
