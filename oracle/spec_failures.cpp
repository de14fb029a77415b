// Reproducer commands and --keep-failures folders of `kir spec run` (spec_failures.h).
#include "oracle/spec_failures.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "interp/npy.h"

namespace kir::oracle {
namespace {

namespace fs = std::filesystem;

bool shell_safe(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./=:,+-@%").find(c) != std::string_view::npos;
}

// `w` as one shell word: as is when every character is safe, else in single quotes.
std::string shell_word(const std::string& w) {
  bool safe = !w.empty();
  for (char c : w) safe = safe && shell_safe(c);
  if (safe) return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string file_name(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

void write_tensors(const fs::path& dir, const std::vector<SavedTensor>& ts) {
  if (ts.empty()) return;
  fs::create_directories(dir);
  for (const auto& t : ts) interp::write_npy((dir / (file_name(t.name) + ".npy")).string(), t.dtype, t.shape, t.bits);
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// command.sh: the command run from the folder the failing run was started in, with the kir
// program taken from $KIR when set.
std::string command_script(const std::string& command, const std::string& cwd) {
  const std::string prog = "kir ";
  const std::string rest = command.rfind(prog, 0) == 0 ? command.substr(prog.size()) : command;
  return "#!/bin/sh\n# Reruns just this failing case of `kir spec run` (KIR: the kir program, default kir):\n# " + command +
         "\ncd " + shell_word(cwd) + " || exit 1\nexec \"${KIR:-kir}\" " + rest + "\n";
}

}  // namespace

std::string repro_command(const std::string& manifest, const std::string& op, const std::string& label,
                          const std::string& case_id, const ReproFlags& flags) {
  std::string cmd = "kir spec run " + shell_word(manifest) + " --op " + shell_word(op);
  if (!label.empty()) cmd += " --row " + shell_word(label);
  if (!case_id.empty() && case_id != label) cmd += " --case " + shell_word(case_id);
  if (flags.special) cmd += " --special";
  if (flags.backend_cpu) cmd += " --backend cpu";
  if (flags.no_reference) cmd += " --no-reference";
  return cmd;
}

SavedTensor save_view(const std::string& name, const interp::HostView& h) {
  return {name, h.storage->dtype, h.shape, h.storage->bits};
}

std::string prepare_keep_dir(const std::string& dir) {
  std::error_code ec;
  if (dir.empty()) return "--keep-failures needs a folder";
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) return "--keep-failures: '" + dir + "' exists and is not a folder";
  fs::create_directories(dir, ec);
  if (ec) return "--keep-failures: cannot create folder '" + dir + "': " + ec.message();
  return "";
}

std::string case_folder(const std::string& dir, const std::string& op, const std::string& case_id) {
  return (fs::path(dir) / file_name(op) / (case_id.empty() ? std::string("op") : file_name(case_id))).string();
}

std::string keep_failure(const std::string& dir, const std::string& op, const std::string& case_id, const CaseRecord& rec,
                         const std::string& command, const std::string& cwd, const std::string& message) {
  const fs::path folder = case_folder(dir, op, case_id);
  try {
    fs::remove_all(folder);
    fs::create_directories(folder);
    write_tensors(folder / "inputs", rec.inputs);
    write_tensors(folder / "kernel", rec.kernel);
    write_tensors(folder / "reference", rec.reference);
    write_text(folder / "command.sh", command_script(command, cwd));
    fs::permissions(folder / "command.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    write_text(folder / "message.txt", message + (message.empty() || message.back() == '\n' ? "" : "\n"));
  } catch (const fs::filesystem_error& e) {
    throw std::runtime_error(std::string("cannot keep the failure: ") + e.what());
  }
  return folder.string();
}

}  // namespace kir::oracle
