// The campaign journal (DIR/journal.tsv): one line per finished case, appended (and flushed to
// the kernel) only after the case's finding directory is complete, so a campaign killed at any
// moment resumes from it with nothing lost and nothing counted twice. A torn last line (the
// process died inside the write) is ignored, so that case simply runs again.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace kir::fuzz {

struct JournalEntry {
  int64_t index = 0;
  std::string outcome, signature, finding_dir, families;
  int64_t compared = 0;
};

class Journal {
 public:
  explicit Journal(std::string path);  // reads the existing entries
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  const std::map<int64_t, JournalEntry>& entries() const { return entries_; }
  bool done(int64_t index) const { return entries_.count(index) != 0; }
  void append(const JournalEntry& e);  // throws std::runtime_error when it cannot write

 private:
  std::string path_;
  int fd_ = -1;
  std::map<int64_t, JournalEntry> entries_;
};

}  // namespace kir::fuzz
