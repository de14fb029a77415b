// The campaign process (campaign.h): schedules batches of case indices onto forked workers,
// reads their event lines, turns a worker's death or a case over its time into a finding,
// journals every finished case and prints progress and the summary.
//
// Worker protocol, one line per event on the worker's pipe:
//   W <index>\t<config row>                       the case is compiled with this row (small rows)
//   S <index>                                     the worker starts the case
//   C <index>\t<cell>=<count>;...                the coverage cells of its judged run
//   R <index>\t<outcome>\t<signature>\t<compared>\t<finding dir>\t<families>   it finished it
#include "fuzz/campaign/campaign.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/driver/compiler.h"
#include "fuzz/campaign/case_pipeline.h"
#include "fuzz/campaign/case_rows.h"
#include "fuzz/campaign/coverage_table.h"
#include "fuzz/campaign/fault_cells.h"
#include "fuzz/campaign/journal.h"
#include "fuzz/campaign/manifest_cases.h"

namespace kir::fuzz {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string join(const std::vector<std::string>& v, char sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : std::string(1, sep)) + x;
  return s;
}

void write_all(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n <= 0) _exit(3);  // the campaign is gone
    off += static_cast<size_t>(n);
  }
}

// The worker: runs its batch and exits. Never returns.
[[noreturn]] void worker_main(const CampaignOptions& o, const std::vector<int64_t>& batch, int fd,
                              const std::string& findings) {
  try {
    std::deque<PreparedCase> cases;
    std::vector<PreparedCase*> ptrs;
    for (int64_t i : batch) {
      cases.push_back(prepare_indexed(o, i));
      ptrs.push_back(&cases.back());
      if (!cases.back().row.empty()) write_all(fd, "W " + std::to_string(i) + "\t" + cases.back().row + "\n");
    }
    // One compiled object per C++ optimization level of the batch.
    std::map<int, std::vector<PreparedCase*>> by_level;
    for (PreparedCase* p : ptrs) by_level[case_cxx_opt(o, p->index)].push_back(p);
    for (auto& [level, group] : by_level) {
      cpu::set_cxx_opt_level(level);
      build_batch(group);
    }
    for (PreparedCase& p : cases) {
      write_all(fd, "S " + std::to_string(p.index) + "\n");
      cpu::set_cxx_opt_level(case_cxx_opt(o, p.index));  // shrinking and reduction build again
      std::map<std::string, interp::KernelArg> got, expected;
      cpu::CoverageMap cov;  // the judged run only: shrinking and reduction are not counted
      oracle::Verdict v;
      {
        cpu::CoverageScope scope(cov);
        v = judge_case(p, &got, &expected);
      }
      if (p.module && !v.interp_fault.empty()) ++cov.cells[fault_cell(*p.module, v.interp_fault)];
      // One line on the pipe: serialize()'s lines joined by ';'.
      std::string cells = cov.serialize();
      if (!cells.empty()) cells.pop_back();
      std::replace(cells.begin(), cells.end(), '\n', ';');
      if (!cells.empty()) write_all(fd, "C " + std::to_string(p.index) + "\t" + cells + "\n");
      auto line = [&](const char* tag, const CaseResult& r) {
        write_all(fd, tag + std::to_string(p.index) + "\t" + oracle::outcome_name(r.verdict.outcome) + "\t" +
                          (r.verdict.failed() ? r.signature() : "") + "\t" + std::to_string(r.verdict.compared) +
                          "\t" + r.finding_dir + "\t" + join(r.families, ',') + "\n");
      };
      CaseResult r = finish_case(o, p, v, std::move(got), std::move(expected), findings,
                                 [&](const CaseResult& first) { line("P ", first); });
      line("R ", r);
    }
  } catch (const std::exception& e) {
    write_all(fd, std::string("E ") + e.what() + "\n");
    _exit(2);
  }
  _exit(0);
}

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  std::vector<int64_t> batch;
  std::set<int64_t> finished;
  int64_t current = -1;
  Clock::time_point started;
  std::string buffer, error;
  std::vector<std::string> provisional;  // the current case's unshrunk finding (a "P" line)
  std::map<int64_t, std::string> rows;   // config rows of its cases ("W" lines; none: the policy's)
  bool timed_out = false;
};

std::string seconds_text(double s) {
  std::ostringstream t;
  t << s;
  return t.str();
}

std::string signal_name(int sig) {
  const char* n = strsignal(sig);
  return n ? n : "signal " + std::to_string(sig);
}

}  // namespace

std::string CampaignSummary::table() const {
  std::ostringstream s;
  s << "cases " << cases << ": " << passed << " passed, " << unsupported << " unsupported, " << findings
    << " findings (" << signatures.size() << " unique); " << comparisons << " element comparisons in " << std::fixed
    << std::setprecision(1) << seconds << " s (" << (seconds > 0 ? (cases - resumed) / seconds : 0.0) << " programs/s"
    << (resumed ? ", " + std::to_string(resumed) + " cases resumed from the journal" : std::string()) << ")\n";
  if (auto m = families.find("manifest"); m != families.end()) s << "  manifest workload cases: " << m->second << "\n";
  if (!signatures.empty()) {
    s << "  count  signature (outcome|rule|op|dtype|pass)  first reproducer\n";
    for (const auto& [sig, st] : signatures) s << "  " << std::setw(5) << st.count << "  " << sig << "  " << st.first_dir << "\n";
  }
  return s.str();
}

CampaignSummary run_campaign(const CampaignOptions& o, std::ostream& log) {
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards) throw std::runtime_error("--shard must be i/n with 0 <= i < n");
  if (o.time_limit <= 0 && o.max_cases < 0) throw std::runtime_error("a campaign needs --time or --cases");
  if (!o.manifests.empty()) {  // loaded once here, before the workers fork; errors end the campaign now
    const size_t n = manifest_cases(o.manifests).size();
    log << "manifests: " << n << " workload cases on the odd case indices\n";
  }
  const fs::path out = fs::absolute(o.out);
  fs::create_directories(out / "findings");
  {  // The options a journal belongs to: resuming with another seed, shard, manifests or family weights
     // would mix campaigns.
    std::string weights;
    for (const auto& [f, w] : o.gen.family_weights) weights += (weights.empty() ? " weights " : ",") + f + "=" + std::to_string(w);
    const std::string id = "seed " + std::to_string(o.seed) + " shard " + std::to_string(o.shard) + "/" +
                           std::to_string(o.shards) + (o.manifests.empty() ? "" : " manifests " + join(o.manifests, ',')) +
                           weights + (o.small_rows ? "" : " no-small-rows") + (o.target.empty() ? "" : " target " + o.target) + "\n";
    const fs::path idf = out / "campaign.txt";
    if (fs::exists(idf)) {
      std::ifstream in(idf);
      std::string have((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (have != id) throw std::runtime_error(out.string() + " holds another campaign (" + have.substr(0, have.size() - 1) +
                                               "); use another --out");
    } else {
      std::ofstream(idf) << id;
    }
  }
  if (o.small_rows) install_small_rows();  // before the workers fork: they inherit the rows
  Journal journal((out / "journal.tsv").string());
  CampaignSummary sum;
  auto account = [&](const JournalEntry& e) {
    ++sum.cases;
    sum.comparisons += e.compared;
    for (size_t a = 0, b; a <= e.families.size(); a = b + 1) {
      b = e.families.find(',', a);
      if (b == std::string::npos) b = e.families.size();
      if (b > a) ++sum.families[e.families.substr(a, b - a)];
    }
    if (e.outcome == "pass") {
      ++sum.passed;
    } else if (e.outcome == "unsupported") {
      ++sum.unsupported;
    } else {
      ++sum.findings;
      auto& st = sum.signatures[e.signature];
      if (st.count++ == 0) st.first_dir = e.finding_dir;
    }
  };
  int64_t resumed = 0;
  for (const auto& [i, e] : journal.entries()) {
    (void)i;
    account(e);
    ++resumed;
  }
  sum.resumed = resumed;
  if (resumed) log << "resuming " << out.string() << ": " << resumed << " cases already in the journal\n";

  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  std::deque<int64_t> retry;  // indices handed back by a dead worker
  int64_t next_n = 0;         // next index of this shard is shard + next_n * shards
  int64_t issued = 0;         // cases of this run handed out (resumed ones excluded)
  const int64_t budget = o.max_cases < 0 ? -1 : std::max<int64_t>(0, o.max_cases - resumed);
  auto stopping = [&] {
    return (o.time_limit > 0 && elapsed() >= o.time_limit) || (o.stop_on_finding && sum.first_finding_seconds >= 0);
  };
  auto take_batch = [&] {
    std::vector<int64_t> b;
    while (static_cast<int>(b.size()) < o.batch && !retry.empty()) {
      b.push_back(retry.front());
      retry.pop_front();
    }
    while (static_cast<int>(b.size()) < o.batch && (budget < 0 || issued < budget)) {
      int64_t idx = o.shard + next_n++ * o.shards;
      if (journal.done(idx)) continue;
      b.push_back(idx);
      ++issued;
    }
    return b;
  };
  const std::string findings = (out / "findings").string();
  auto finish = [&](int64_t idx, const std::string& outcome, const std::string& sig, int64_t compared,
                    const std::string& dir, const std::string& fams) {
    JournalEntry e{idx, outcome, sig, dir, fams, compared};
    if (sum.first_finding_seconds < 0 && outcome != "pass" && outcome != "unsupported") sum.first_finding_seconds = elapsed();
    journal.append(e);
    account(e);
    if (outcome != "pass" && outcome != "unsupported" && sum.signatures[sig].count == 1) sum.signatures[sig].first_seconds = elapsed();
  };
  auto abnormal = [&](int64_t idx, oracle::Outcome oc, const std::string& detail, const std::string& row) {
    CaseResult r = record_abnormal(o, idx, oc, detail, findings, row);
    finish(idx, oracle::outcome_name(oc), r.signature(), 0, r.finding_dir, join(r.families, ','));
  };

  std::vector<Worker> workers;
  double last_progress = 0;
  for (;;) {
    while (static_cast<int>(workers.size()) < std::max(1, o.jobs) && !stopping()) {
      std::vector<int64_t> b = take_batch();
      if (b.empty()) break;
      int fds[2];
      if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
      log.flush();
      pid_t pid = fork();
      if (pid < 0) throw std::runtime_error("fork failed");
      if (pid == 0) {
        ::close(fds[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        worker_main(o, b, fds[1], findings);
      }
      ::close(fds[1]);
      Worker w;
      w.pid = pid;
      w.fd = fds[0];
      w.batch = std::move(b);
      w.started = Clock::now();
      workers.push_back(std::move(w));
    }
    if (workers.empty()) break;
    if (stopping()) {  // time is up: unfinished cases stay out of the journal and run on resume
      for (auto& w : workers) {
        ::kill(w.pid, SIGKILL);
        ::waitpid(w.pid, nullptr, 0);
        ::close(w.fd);
      }
      workers.clear();
      break;
    }
    std::vector<pollfd> pfds;
    for (const auto& w : workers) pfds.push_back({w.fd, POLLIN, 0});
    ::poll(pfds.data(), pfds.size(), 200);
    for (size_t wi = 0; wi < workers.size();) {
      Worker& w = workers[wi];
      bool eof = false;
      if (pfds[wi].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[4096];
        ssize_t n = ::read(w.fd, buf, sizeof buf);
        if (n <= 0) eof = true;
        else w.buffer.append(buf, static_cast<size_t>(n));
      }
      for (size_t nl; (nl = w.buffer.find('\n')) != std::string::npos;) {
        std::string line = w.buffer.substr(0, nl);
        w.buffer.erase(0, nl + 1);
        if (line.rfind("W ", 0) == 0) {
          const size_t tab = line.find('\t');
          if (tab != std::string::npos) w.rows[std::stoll(line.substr(2, tab - 2))] = line.substr(tab + 1);
        } else if (line.rfind("C ", 0) == 0) {
          const size_t tab = line.find('\t');
          std::string cells = tab == std::string::npos ? "" : line.substr(tab + 1);
          std::replace(cells.begin(), cells.end(), ';', '\n');
          sum.coverage.parse(cells);
        } else if (line.rfind("S ", 0) == 0) {
          w.current = std::stoll(line.substr(2));
          w.started = Clock::now();
        } else if (line.rfind("R ", 0) == 0 || line.rfind("P ", 0) == 0) {
          std::vector<std::string> f;
          std::stringstream ls(line.substr(2));
          for (std::string x; std::getline(ls, x, '\t');) f.push_back(x);
          while (f.size() < 6) f.emplace_back();
          if (line[0] == 'P') {
            w.provisional = f;
            continue;
          }
          const int64_t idx = std::stoll(f[0]);
          finish(idx, f[1], f[2], f[3].empty() ? 0 : std::stoll(f[3]), f[4], f[5]);
          w.finished.insert(idx);
          w.current = -1;
          w.provisional.clear();
        } else if (line.rfind("E ", 0) == 0) {
          w.error = line.substr(2);
        }
      }
      // A case over its time: the worker is killed; the case is a Timeout finding.
      if (!eof && w.current >= 0 && !w.timed_out &&
          std::chrono::duration<double>(Clock::now() - w.started).count() > o.case_timeout) {
        ::kill(w.pid, SIGKILL);
        w.timed_out = true;
      }
      if (!eof) {
        ++wi;
        continue;
      }
      int status = 0;
      ::waitpid(w.pid, &status, 0);
      ::close(w.fd);
      const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      if (!clean) {
        std::string why = w.timed_out ? "case ran longer than " + seconds_text(o.case_timeout) + " s"
                          : WIFSIGNALED(status) ? "worker killed by " + signal_name(WTERMSIG(status))
                                                : "worker exited with status " + std::to_string(WEXITSTATUS(status));
        if (!w.error.empty()) why += ": " + w.error;
        if (w.current >= 0 && !w.finished.count(w.current) && !w.provisional.empty() &&
            std::stoll(w.provisional[0]) == w.current) {
          // The case had failed; shrinking, reducing or pass attribution used up its time.
          const auto& f = w.provisional;
          log << "note: case " << w.current << ": " << why << " after its finding was made; the finding is kept unshrunk\n";
          finish(w.current, f[1], f[2], f[3].empty() ? 0 : std::stoll(f[3]), f[4], f[5]);
          w.finished.insert(w.current);
        } else if (w.current >= 0 && !w.finished.count(w.current)) {
          abnormal(w.current, w.timed_out ? oracle::Outcome::Timeout : oracle::Outcome::Crash, why, w.rows[w.current]);
          w.finished.insert(w.current);
        } else if (w.finished.empty() && w.batch.size() > 1) {
          // Died before any case ran (while building the batch): run the cases one per worker.
          for (int64_t idx : w.batch) retry.push_back(idx);
          w.batch.clear();
          log << "note: a batch worker died while building (" << why << "); retrying its cases one by one\n";
        } else if (w.finished.empty() && w.batch.size() == 1) {
          abnormal(w.batch[0], oracle::Outcome::Crash, why + " (while compiling)", w.rows[w.batch[0]]);
          w.finished.insert(w.batch[0]);
        }
        for (int64_t idx : w.batch)
          if (!w.finished.count(idx)) retry.push_back(idx);
      }
      workers.erase(workers.begin() + static_cast<std::ptrdiff_t>(wi));
      pfds.erase(pfds.begin() + static_cast<std::ptrdiff_t>(wi));
    }
    if (o.progress && elapsed() - last_progress >= 1.0) {
      last_progress = elapsed();
      log << "[" << std::fixed << std::setprecision(0) << elapsed() << " s] programs " << sum.cases << " ("
          << std::setprecision(1) << (sum.cases - resumed) / std::max(elapsed(), 1e-9) << "/s), comparisons "
          << sum.comparisons << ", findings " << sum.findings << " (" << sum.signatures.size() << " unique), unsupported "
          << sum.unsupported << "\n";
    }
    if (stopping() && workers.empty()) break;
    if (budget >= 0 && issued >= budget && retry.empty() && workers.empty()) break;
  }
  sum.seconds = elapsed();
  for (auto& [sig, st] : sum.signatures) {
    std::ifstream vin(fs::path(st.first_dir) / "verdict.txt");
    std::getline(vin, st.example);
  }
  nlohmann::json j;
  j["seed"] = o.seed;
  j["shard"] = std::to_string(o.shard) + "/" + std::to_string(o.shards);
  j["cases"] = sum.cases;
  j["passed"] = sum.passed;
  j["unsupported"] = sum.unsupported;
  j["findings"] = sum.findings;
  j["comparisons"] = sum.comparisons;
  j["seconds"] = sum.seconds;  // of this run
  j["resumed"] = sum.resumed;
  // Time to the first finding of this run (mutation score); null when the run found nothing.
  j["first_finding_seconds"] = sum.first_finding_seconds < 0 ? nlohmann::json() : nlohmann::json(sum.first_finding_seconds);
  j["families"] = sum.families;
  add_row_cells(sum.coverage);
  add_fault_cells(sum.coverage);
  j["coverage"] = coverage_json(sum.coverage);
  j["signatures"] = nlohmann::json::array();
  for (const auto& [sig, st] : sum.signatures)
    j["signatures"].push_back({{"signature", sig},
                               {"count", st.count},
                               {"first", st.first_dir},
                               {"first_seconds", st.first_seconds < 0 ? nlohmann::json() : nlohmann::json(st.first_seconds)},
                               {"verdict", st.example}});
  std::ofstream(out / "summary.json") << j.dump(2) << "\n";
  return sum;
}

CampaignSummary merge_summaries(const std::vector<std::string>& dirs) {
  CampaignSummary sum;
  std::set<std::string> shards;
  std::string seed, count;  // of the first shard: every other must agree
  auto case_number = [](const std::string& dir) -> int64_t {  // .../findings/case-N
    const size_t p = dir.rfind("case-");
    try {
      return p == std::string::npos ? INT64_MAX : static_cast<int64_t>(std::stoll(dir.substr(p + 5)));
    } catch (const std::exception&) {
      return INT64_MAX;
    }
  };
  for (const std::string& d : dirs) {
    const fs::path f = fs::path(d) / "summary.json";
    std::ifstream in(f);
    if (!in) throw std::runtime_error(f.string() + ": cannot read (not a campaign directory, or the campaign has not ended)");
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw std::runtime_error(f.string() + ": " + e.what());
    }
    const std::string shard = j.value("shard", std::string("0/1"));
    const std::string s = std::to_string(j.value("seed", uint64_t{0})), n = shard.substr(shard.find('/') + 1);
    if (seed.empty()) {
      seed = s;
      count = n;
    } else if (s != seed || n != count) {
      throw std::runtime_error(d + ": seed " + s + " shard " + shard + " is not a shard of seed " + seed + " with " + count +
                               " shards");
    }
    if (!shards.insert(shard).second) throw std::runtime_error(d + ": shard " + shard + " is given twice");
    sum.cases += j.value("cases", int64_t{0});
    sum.passed += j.value("passed", int64_t{0});
    sum.unsupported += j.value("unsupported", int64_t{0});
    sum.findings += j.value("findings", int64_t{0});
    sum.comparisons += j.value("comparisons", int64_t{0});
    sum.seconds = std::max(sum.seconds, j.value("seconds", 0.0));
    if (j.contains("first_finding_seconds") && j["first_finding_seconds"].is_number()) {
      const double t = j["first_finding_seconds"].get<double>();
      if (sum.first_finding_seconds < 0 || t < sum.first_finding_seconds) sum.first_finding_seconds = t;
    }
    if (j.contains("families"))
      for (const auto& [fam, c] : j["families"].items()) sum.families[fam] += c.get<int64_t>();
    if (j.contains("signatures"))
      for (const auto& e : j["signatures"]) {
        SignatureStats& st = sum.signatures[e.value("signature", std::string())];
        const std::string first = e.value("first", std::string());
        if (st.count == 0 || case_number(first) < case_number(st.first_dir)) {
          st.first_dir = first;
          st.example = e.value("verdict", std::string());
        }
        if (e.contains("first_seconds") && e["first_seconds"].is_number()) {
          const double t = e["first_seconds"].get<double>();
          if (st.first_seconds < 0 || t < st.first_seconds) st.first_seconds = t;
        }
        st.count += e.value("count", int64_t{0});
      }
  }
  return sum;
}

}  // namespace kir::fuzz
