// The campaign journal (journal.h).
#include "fuzz/campaign/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace kir::fuzz {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == '\t') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string clean(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n') c = ' ';
  return s;
}

}  // namespace

Journal::Journal(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    auto f = split_tabs(text.substr(start, nl - start));
    if (f.size() != 6) continue;
    try {
      JournalEntry e{std::stoll(f[0]), f[1], f[2], f[4], f[5], std::stoll(f[3])};
      entries_[e.index] = e;
    } catch (const std::exception&) {
      continue;  // a damaged line: that case runs again
    }
  }
  // A torn last line is cut off so the next append starts on a line of its own.
  if (start < text.size()) {
    if (truncate(path_.c_str(), static_cast<off_t>(start)) != 0) throw std::runtime_error("cannot repair " + path_);
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open the campaign journal " + path_);
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const JournalEntry& e) {
  const std::string line = std::to_string(e.index) + "\t" + clean(e.outcome) + "\t" + clean(e.signature) + "\t" +
                           std::to_string(e.compared) + "\t" + clean(e.finding_dir) + "\t" + clean(e.families) + "\n";
  if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw std::runtime_error("cannot append to the campaign journal " + path_);
  entries_[e.index] = e;
}

}  // namespace kir::fuzz
