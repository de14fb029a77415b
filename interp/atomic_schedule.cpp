// Atomics interleaved at atomic-op granularity under a seeded scheduler (issue 4 item 3,
// checklist L5.1, L16.1). With Options::atomic_schedule = Interleaved, a `parallel` whose body
// may execute an atomic op (found statically: its ops, nested regions and every helper they
// name) runs its points as cooperatively scheduled tasks:
//  * each live point runs on its own std::thread, but a baton (one mutex, one condition
//    variable per task and one for the scheduler) lets exactly one thread run engine code at a
//    time, so there is no data race and the outcome depends only on the seed;
//  * a point runs until it is about to execute an atomic op (Engine::before_atomic) or ends; the
//    scheduler then draws from the seed which live point performs its next step;
//  * at most Options::atomic_window points are live; when one ends, the next point to enter is
//    drawn from the seed among those not yet run (lazy Fisher-Yates), so a parallel of 100k
//    points never has more than the window's threads. The ParallelOrder is not used here;
//  * each point has its own Frame (the values of the body) and its own stack of conflict
//    trackers (Engine::parallels, swapped at every switch, with the point's coordinate in this
//    parallel's tracker), so conflict detection between points works as in sequential order;
//  * nested parallels inside a point run sequentially (their atomics still switch points);
//  * an error in a point ends the run: the other live points are resumed with an abort flag and
//    unwind (AbortPoint), their threads are joined, and the first error is rethrown to the
//    caller with its original op, location and coordinates.
// Same seed, same interleaving, always.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "interp/engine.h"

namespace kir::interp {
namespace {

// Whether running `r` may execute an atomic op.
bool may_run_atomics(const Module& m, const Region& r, std::unordered_set<const Function*>& seen) {
  bool found = false;
  walk(r, [&](const Operation& o) {
    if (found) return;
    if (o.name.rfind("atomic.", 0) == 0) {
      found = true;
      return;
    }
    for (const auto& entry : o.attrs) {
      if (entry.second.kind != Attribute::Kind::Symbol) continue;
      const Function* fn = m.find_function(entry.second.s);
      if (fn && seen.insert(fn).second && may_run_atomics(m, fn->body, seen)) found = true;
    }
  });
  return found;
}

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct AbortPoint {};  // unwinds a suspended point after another point failed (not an std::exception)

}  // namespace

class AtomicScheduler {
 public:
  AtomicScheduler(Engine& e, Frame& f, const Operation& op, ParallelTracker& tracker, const DomainV& d, uint64_t run)
      : E_(e), frame_(f), body_(*op.regions.at(0)), tracker_(tracker), domain_(d),
        rng_(e.opts.atomic_seed ^ (run * 0xD1B54A32D192ED03ull)), base_(e.parallels) {}
  ~AtomicScheduler() {
    shutdown();
    E_.scheduler = nullptr;
    E_.parallels = base_;
  }
  AtomicScheduler(const AtomicScheduler&) = delete;
  AtomicScheduler& operator=(const AtomicScheduler&) = delete;

  void run() {
    E_.scheduler = this;
    const size_t window = static_cast<size_t>(std::max(1, E_.opts.atomic_window));
    std::exception_ptr error;
    for (;;) {
      while (!abort_ && live_.size() < window && drawn_ < domain_.count) admit(draw_point());
      if (live_.empty()) break;
      const size_t i = abort_ ? 0 : static_cast<size_t>(splitmix64(rng_) % live_.size());
      Task& t = *live_[i];
      resume(t);
      if (!t.done) continue;
      t.thread.join();
      if (t.error && !error) {
        error = t.error;
        abort_ = true;
      }
      live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (error) std::rethrow_exception(error);
  }

  // Called by the running point before an atomic op: hands the baton back and waits for it.
  void yield() {
    Task& t = *running_;
    t.parallels = E_.parallels;
    std::unique_lock<std::mutex> lk(mu_);
    running_ = nullptr;
    back_.notify_one();
    t.cv.wait(lk, [&] { return running_ == &t; });
    lk.unlock();
    if (abort_) throw AbortPoint{};
  }

 private:
  struct Task {
    int64_t point = 0;
    std::vector<ParallelTracker*> parallels;  // the point's tracker stack while it is suspended
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr error;
    std::thread thread;
  };

  // The next point (index into the domain) to enter the window: a lazy seeded Fisher-Yates.
  int64_t draw_point() {
    auto at = [&](int64_t k) {
      auto it = swapped_.find(k);
      return it == swapped_.end() ? k : it->second;
    };
    const int64_t j = drawn_ + static_cast<int64_t>(splitmix64(rng_) % static_cast<uint64_t>(domain_.count - drawn_));
    const int64_t pick = at(j);
    swapped_[j] = at(drawn_);
    swapped_.erase(drawn_++);
    return pick;
  }

  void admit(int64_t k) {
    auto t = std::make_unique<Task>();
    t->point = domain_.member(k);
    t->parallels = base_;
    Task& ref = *t;
    ref.thread = std::thread([this, &ref] { task_main(ref); });  // started before it is live: no thread, no task
    live_.push_back(std::move(t));
  }

  void task_main(Task& t) {
    {
      std::unique_lock<std::mutex> lk(mu_);
      t.cv.wait(lk, [&] { return running_ == &t; });
    }
    if (!abort_) {
      try {
        Frame point_frame = frame_;  // the body's values are per point
        E_.run_region(point_frame, body_, {Scalar{DType::Index, static_cast<uint64_t>(t.point)}});
      } catch (const AbortPoint&) {
      } catch (RuntimeError& e) {  // named like a sequentially run point (ops_control.cpp)
        e.add_loop("parallel %" + (body_.args.empty() ? std::string("?") : body_.args[0]->name) + " = " +
                   std::to_string(t.point));
        t.error = std::current_exception();
      } catch (...) {
        t.error = std::current_exception();
      }
    }
    std::lock_guard<std::mutex> lk(mu_);
    t.done = true;
    running_ = nullptr;
    back_.notify_one();
  }

  // Gives the baton to `t` (with its tracker stack and coordinate) and waits until it is back.
  void resume(Task& t) {
    E_.parallels = t.parallels;
    tracker_.point = t.point;
    std::unique_lock<std::mutex> lk(mu_);
    running_ = &t;
    t.cv.notify_one();
    back_.wait(lk, [&] { return running_ == nullptr; });
  }

  // Ends every live point (after an error of the scheduler itself, e.g. no thread could start).
  void shutdown() noexcept {
    abort_ = true;
    for (auto& t : live_) {
      while (!t->done) resume(*t);
      t->thread.join();
    }
    live_.clear();
  }

  Engine& E_;
  Frame& frame_;
  const Region& body_;
  ParallelTracker& tracker_;
  const DomainV domain_;
  uint64_t rng_;
  const std::vector<ParallelTracker*> base_;  // Engine::parallels when the parallel started
  std::mutex mu_;
  std::condition_variable back_;  // the scheduler waits here for the baton
  Task* running_ = nullptr;       // the point holding the baton (null: the scheduler)
  bool abort_ = false;            // written by the scheduler only while it holds the baton
  std::vector<std::unique_ptr<Task>> live_;
  int64_t drawn_ = 0;                            // points that entered the window so far
  std::unordered_map<int64_t, int64_t> swapped_;  // the lazy permutation's moved entries
};

void Engine::before_atomic() {
  if (scheduler) scheduler->yield();
}

bool run_interleaved(Engine& E, Frame& f, const Operation& op, ParallelTracker& tracker, const DomainV& d, uint64_t run) {
  if (E.opts.atomic_schedule != AtomicSchedule::Interleaved || E.scheduler || d.count < 2) return false;
  auto [it, fresh] = E.atomic_bodies.try_emplace(&op, false);
  if (fresh) {
    std::unordered_set<const Function*> seen;
    it->second = may_run_atomics(E.module, *op.regions.at(0), seen);
  }
  if (!it->second) return false;
  AtomicScheduler s(E, f, op, tracker, d, run);
  s.run();
  return true;
}

}  // namespace kir::interp
