// Repeating a finding whose failure depends on timing (`kir repro --repeat N`): a worker pool that
// returns before a claimed task finished crashes one run in many, so one re-run that passes says
// nothing. Each attempt runs in a child process (a crash or a hang is an outcome, not the end of
// the command) under the recorded thread count, with the pool's schedule perturbation
// (rt::set_schedule_jitter) seeded by the attempt number from the second attempt on, until an
// attempt fails as recorded or the attempts are used up.
#pragma once
#include <functional>
#include <string>

#include "oracle/verdict.h"

namespace kir::fuzz {

struct RepeatResult {
  int attempts = 0;        // attempts run
  bool reproduced = false; // the last attempt failed as recorded
  std::string last;        // what the last attempt gave: "pass", "crash (signal N)", "timeout", a signature
};

// Runs `attempt` (in a child each time) up to `max_attempts` times. An attempt reproduces when
// its verdict fails with `signature`, or — for a recorded outcome of "crash" or "timeout" — when
// the child dies of a signal or runs past `timeout_seconds`. `on_reproduced` is called in the
// child with the reproducing verdict (to print it).
RepeatResult repeat_until_failing(const std::function<oracle::Verdict()>& attempt, const std::string& signature,
                                  const std::string& outcome, int max_attempts, double timeout_seconds,
                                  const std::function<void(const oracle::Verdict&)>& on_reproduced);

}  // namespace kir::fuzz
