// See repeat.h.
#include "fuzz/campaign/repeat.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "backends/cpu/runtime/worker_pool.h"

namespace kir::fuzz {

namespace {

// Child exit codes.
constexpr int kPass = 0, kSame = 1, kOther = 2, kError = 3;

}  // namespace

RepeatResult repeat_until_failing(const std::function<oracle::Verdict()>& attempt, const std::string& signature,
                                  const std::string& outcome, int max_attempts, double timeout_seconds,
                                  const std::function<void(const oracle::Verdict&)>& on_reproduced) {
  const bool abnormal = outcome == "crash" || outcome == "timeout";
  RepeatResult r;
  for (int k = 1; k <= max_attempts; ++k) {
    r.attempts = k;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
      int code = kError;
      try {
        cpu::rt::set_schedule_jitter(k == 1 ? 0 : static_cast<uint64_t>(k));
        const oracle::Verdict v = attempt();
        code = !v.failed() ? kPass : v.signature() == signature ? kSame : kOther;
        if (code == kSame) on_reproduced(v);
        if (code == kOther) std::printf("attempt %d: %s\n", k, v.signature().c_str());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "attempt %d: %s\n", k, e.what());
      }
      std::fflush(nullptr);
      _exit(code);
    }
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    bool timed_out = false;
    for (;;) {
      const pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) break;
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_seconds) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        timed_out = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (timed_out) {
      r.last = "timeout";
      r.reproduced = outcome == "timeout";
    } else if (WIFSIGNALED(status)) {
      r.last = "crash (signal " + std::to_string(WTERMSIG(status)) + ")";
      r.reproduced = abnormal;
    } else {
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kError;
      r.last = code == kPass ? "pass" : code == kSame ? signature : code == kOther ? "another failure" : "error";
      r.reproduced = code == kSame;
    }
    if (r.reproduced) return r;
  }
  return r;
}

}  // namespace kir::fuzz
