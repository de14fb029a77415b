// The measuring and reporting half of kir_bench_backend (issue 13): command-line options,
// best-of-N wall-clock timing with a warm-up (steady_clock; process CPU time alongside so the
// table shows how many cores a measurement really used), aligned buffers, and the result row
// with its table printer (plain text or Markdown). Ratios are always against an anchor measured
// in the same run, never against stored numbers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace kbench {

struct Options {
  bool markdown = false;        // --markdown: print the table as Markdown
  std::string markdown_file;    // --markdown-file PATH: also write the Markdown table there
  bool large = false;           // --large: also the 4096 square contracts
  std::string filter;           // --filter SUBSTR: only cases whose name contains it
  int threads = 0;              // --threads 1|2: only that thread count (0: both)
  int reps = 5;                 // --reps N: timed repetitions after the warm-up
};
// Exits with a usage message on an unknown or malformed argument.
Options parse_options(int argc, char** argv);
std::vector<int> thread_counts(const Options& o);
bool wanted(const Options& o, const std::string& case_name);

// One measurement: the best wall time of the timed runs, and process CPU time / wall time of
// that run (about the number of busy threads).
struct Timing {
  double seconds = 0;
  double cpu_per_wall = 0;
  int runs = 0;
};
// Runs fn once as a warm-up, then up to `reps` timed runs, and keeps the fastest. A warm-up
// slower than `slow_s` is itself the measurement (one run only: the naive kernels take seconds);
// timed runs stop early once they have used `budget_s` in total.
Timing time_best(const std::function<void()>& fn, int reps, double budget_s = 2.0, double slow_s = 1.0);
double process_cpu_seconds();
double wall_seconds();

// Other load on the machine during the run: busy CPU time of the whole system (/proc/stat)
// minus this process's own, as a fraction of the run's wall time x cores. Anything well above 0
// means other processes competed for the cores and the 2-thread rows are not trustworthy.
class ForeignLoad {
 public:
  ForeignLoad();  // starts the window
  std::string report() const;  // "other processes used 0.03 of 2 cores during the run ..."

 private:
  double sys_busy0_, own0_, wall0_;
};

// A 64-byte aligned, uninitialized array (large arrays of the bandwidth cases).
template <class T>
struct Buffer {
  struct Free {
    void operator()(T* q) const { std::free(q); }
  };
  std::unique_ptr<T[], Free> p;
  size_t n = 0;
  Buffer() = default;
  explicit Buffer(size_t count) : n(count) {
    size_t bytes = (count * sizeof(T) + 63) / 64 * 64 + 64;
    p.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    if (!p) throw std::bad_alloc();
  }
  T* data() const { return p.get(); }
  T& operator[](size_t i) const { return p[i]; }
  size_t size() const { return n; }
};

// How a row is judged.
enum class Goal {
  RatioAtLeast,  // kir rate / anchor rate >= target
  ValueAtMost,   // the measured kir value (value_unit) <= target
  Info,          // printed for reference, no target
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Row {
  std::string name;        // "f32 contract 1024^3"
  int threads = 1;
  // kir side: seconds per run, or a note instead ("not implemented: ...").
  double kir_s = kNaN;
  double kir_par = kNaN;   // CPU/wall of the kir run
  std::string kir_note;
  // The anchor: name and seconds per run (for bandwidth anchors the time the triad rate would
  // need for the same bytes).
  std::string anchor;
  double anchor_s = kNaN;
  double anchor_par = kNaN;
  // Work per run (flops, bytes or elements) and its rate unit ("GFLOP/s", "GB/s", "Gelem/s").
  double work = 0;
  std::string unit;
  Goal goal = Goal::Info;
  double target = kNaN;
  // Value rows (dispatch, compile, load): the measured value in value_unit, shown instead of
  // times and rates; ValueAtMost judges it against target.
  double value = kNaN;
  std::string value_unit;  // "us", "ms"; empty for rate rows
  std::string check;       // the correctness comparison, e.g. "max|d|/sum|ab| 3e-07 <= 1e-04"
  bool check_failed = false;
};

double kir_rate(const Row& r);     // work / kir_s / 1e9 (NaN without a kir time)
double anchor_rate(const Row& r);  // work / anchor_s / 1e9
double ratio(const Row& r);        // kir rate / anchor rate
// "met", "UNMET", "n/a" (no kir result) or "" (Info rows).
std::string verdict(const Row& r);

// The table (plain text aligned columns, or Markdown).
void print_table(std::FILE* out, const std::vector<Row>& rows, bool markdown);

std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));
// "12.3 ms", "45.6 us", "1.23 s"
std::string fmt_time(double seconds);

}  // namespace kbench
