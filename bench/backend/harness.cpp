// Options, timing and the result table of kir_bench_backend (harness.h).
#include "bench/backend/harness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstring>
#include <ctime>
#include <thread>
#include <unistd.h>

namespace kbench {

namespace {

[[noreturn]] void usage(const char* argv0, const std::string& why) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--markdown] [--markdown-file PATH] [--large] [--filter SUBSTR] "
               "[--threads 1|2] [--reps N]\n",
               argv0, why.c_str(), argv0);
  std::exit(2);
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(argv[0], a + " needs a value");
      return argv[++i];
    };
    if (a == "--markdown") o.markdown = true;
    else if (a == "--markdown-file") o.markdown_file = value();
    else if (a == "--large") o.large = true;
    else if (a == "--filter") o.filter = value();
    else if (a == "--threads") {
      std::string v = value();
      if (v != "1" && v != "2") usage(argv[0], "--threads takes 1 or 2");
      o.threads = std::atoi(v.c_str());
    } else if (a == "--reps") {
      o.reps = std::atoi(value().c_str());
      if (o.reps < 1) usage(argv[0], "--reps takes a positive integer");
    } else if (a == "-h" || a == "--help") usage(argv[0], "help");
    else usage(argv[0], "unknown argument " + a);
  }
  return o;
}

std::vector<int> thread_counts(const Options& o) {
  if (o.threads) return {o.threads};
  return {1, 2};
}

bool wanted(const Options& o, const std::string& case_name) {
  return o.filter.empty() || case_name.find(o.filter) != std::string::npos;
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double wall_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

Timing time_best(const std::function<void()>& fn, int reps, double budget_s, double slow_s) {
  Timing best;
  best.seconds = 1e300;
  auto one = [&] {
    const double c0 = process_cpu_seconds(), w0 = wall_seconds();
    fn();
    const double w = wall_seconds() - w0, c = process_cpu_seconds() - c0;
    ++best.runs;
    if (w < best.seconds) {
      best.seconds = w;
      best.cpu_per_wall = w > 0 ? c / w : 0;
    }
    return w;
  };
  const double warm = one();  // warm-up (page faults, caches, lazy init)
  if (warm > slow_s) return best;  // slow case: the one run is the measurement
  best.seconds = 1e300;
  best.runs = 0;
  double used = 0;
  for (int r = 0; r < reps && used < budget_s; ++r) used += one();
  return best;
}

namespace {

// Busy seconds of all CPUs since boot (user, nice, system, irq, softirq, steal of /proc/stat).
double system_busy_seconds() {
  std::FILE* f = std::fopen("/proc/stat", "r");
  if (!f) return kNaN;
  unsigned long long v[8] = {};
  int got = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  std::fclose(f);
  if (got < 8) return kNaN;
  const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
  return static_cast<double>(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
}

}  // namespace

ForeignLoad::ForeignLoad() : sys_busy0_(system_busy_seconds()), own0_(process_cpu_seconds()), wall0_(wall_seconds()) {}

std::string ForeignLoad::report() const {
  const double wall = wall_seconds() - wall0_;
  const double foreign = (system_busy_seconds() - sys_busy0_) - (process_cpu_seconds() - own0_);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return fmt("other processes used %.2f of %u cores on average during the %.0f s run (%s)", std::max(0.0, foreign) / wall, cores, wall,
             foreign / wall < 0.1 ? "quiet machine" : "NOT quiet: 2-thread rows and anchors are disturbed");
}

double kir_rate(const Row& r) { return r.kir_s > 0 ? r.work / r.kir_s / 1e9 : kNaN; }
double anchor_rate(const Row& r) { return r.anchor_s > 0 ? r.work / r.anchor_s / 1e9 : kNaN; }
double ratio(const Row& r) { return kir_rate(r) / anchor_rate(r); }

std::string verdict(const Row& r) {
  if (r.check_failed) return "CHECK FAILED";
  switch (r.goal) {
    case Goal::Info: return "";
    case Goal::RatioAtLeast: {
      double q = ratio(r);
      if (std::isnan(q)) return "n/a";
      return q >= r.target ? "met" : "UNMET";
    }
    case Goal::ValueAtMost:
      if (std::isnan(r.value)) return "n/a";
      return r.value <= r.target ? "met" : "UNMET";
  }
  return "";
}

std::string fmt(const char* format, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(buf, sizeof buf, format, ap);
  va_end(ap);
  return buf;
}

std::string fmt_time(double s) {
  if (std::isnan(s)) return "-";
  if (s >= 1) return fmt("%.2f s", s);
  if (s >= 1e-3) return fmt("%.2f ms", s * 1e3);
  if (s >= 1e-6) return fmt("%.2f us", s * 1e6);
  return fmt("%.0f ns", s * 1e9);
}

namespace {

std::string rate_text(double rate, const std::string& unit) {
  if (std::isnan(rate)) return "-";
  return fmt(rate >= 100 ? "%.0f %s" : rate >= 10 ? "%.1f %s" : "%.2f %s", rate, unit.c_str());
}

std::vector<std::string> cells(const Row& r) {
  std::string kir_time, kir_r = "-", anch = r.anchor.empty() ? "-" : r.anchor, anch_time = "-", anch_r = "-", q = "-",
                        target = "-", par = "-";
  if (!r.kir_note.empty()) kir_time = "kir: " + r.kir_note.substr(0, r.kir_note.find(':'));
  else if (!r.value_unit.empty()) kir_time = std::isnan(r.value) ? "-" : fmt("%.3g %s", r.value, r.value_unit.c_str());
  else kir_time = fmt_time(r.kir_s);
  if (r.value_unit.empty()) {
    kir_r = rate_text(kir_rate(r), r.unit);
    anch_time = fmt_time(r.anchor_s);
    anch_r = rate_text(anchor_rate(r), r.unit);
    double x = ratio(r);
    if (!std::isnan(x)) q = fmt(x >= 10 ? "%.1fx" : x >= 0.01 ? "%.3fx" : "%.2ex", x);
  }
  if (r.goal == Goal::RatioAtLeast) target = fmt(">= %.1fx", r.target);
  if (r.goal == Goal::ValueAtMost) target = fmt("<= %g %s", r.target, r.value_unit.c_str());
  auto p = [](double v) { return std::isnan(v) ? std::string("-") : fmt("%.2f", v); };
  if (!std::isnan(r.kir_par) || !std::isnan(r.anchor_par)) par = p(r.kir_par) + "/" + p(r.anchor_par);
  std::string check = r.check;
  if (!r.kir_note.empty()) check = "kir: " + r.kir_note + (check.empty() ? "" : "; " + check);
  return {r.name, std::to_string(r.threads), kir_time, kir_r, anch, anch_time, anch_r, q, target, verdict(r), par, check};
}

}  // namespace

void print_table(std::FILE* out, const std::vector<Row>& rows, bool markdown) {
  const std::vector<std::string> head = {"case", "thr", "kir time", "kir rate", "anchor", "anchor time", "anchor rate",
                                         "kir/anchor", "target", "verdict", "cpu/wall k/a", "check"};
  std::vector<std::vector<std::string>> t;
  t.push_back(head);
  for (const Row& r : rows) t.push_back(cells(r));
  if (markdown) {
    for (size_t i = 0; i < t.size(); ++i) {
      std::fprintf(out, "|");
      for (const auto& c : t[i]) {
        std::string e;
        for (char ch : c) e += ch == '|' ? std::string("\\|") : std::string(1, ch);
        std::fprintf(out, " %s |", e.c_str());
      }
      std::fprintf(out, "\n");
      if (i == 0) {
        std::fprintf(out, "|");
        for (size_t c = 0; c < head.size(); ++c) std::fprintf(out, "%s", (c >= 1 && c <= 7 && c != 4) ? " ---: |" : " --- |");
        std::fprintf(out, "\n");
      }
    }
    return;
  }
  std::vector<size_t> w(head.size(), 0);
  for (const auto& row : t)
    for (size_t c = 0; c + 1 < row.size(); ++c) w[c] = std::max(w[c], row[c].size());  // last column unpadded
  for (size_t i = 0; i < t.size(); ++i) {
    std::string line;
    for (size_t c = 0; c < t[i].size(); ++c) {
      const std::string& s = t[i][c];
      if (c + 1 == t[i].size()) line += s;
      else if (c == 0 || c == 4 || c == 9) line += s + std::string(w[c] - s.size(), ' ') + "  ";
      else line += std::string(w[c] - s.size(), ' ') + s + "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::fprintf(out, "%s\n", line.c_str());
    if (i == 0) std::fprintf(out, "%s\n", std::string(line.size(), '-').c_str());
  }
}

}  // namespace kbench
