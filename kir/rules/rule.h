// The rule table: every rule ID a kir diagnostic can print, with the rule in full, a minimal
// invalid example and its fix. One table, read by `kir explain`, by docs/rules.md (generated from
// it) and by the renderers of the verifier's, validator's and interpreter's messages, which end
// with "(kir explain ID)" — so no ID can be printed that has no explanation (tests/rules checks
// every ID the sources can print).
//
// IDs: language rules L<chapter>.<n>; manifest rules M<n>; the manifest validator's own checks
// (C<n> construction, S<n> schema/signature, W<n> workloads, E<n> effects, P<n> kernel parity,
// L<n> without a dot: manifest loader); run-time error kinds (out-of-bounds, ...); and the
// tool's own (syntax, io, invocation).
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace kir::rules {

enum class Family {
  Language,       // L<chapter>.<n>: the Intent language and canonical KIR
  Manifest,       // M<n>: op-spec manifest features
  ManifestCheck,  // C/S/W/E/P<n>, loader L<n>: the manifest validator's checks
  Runtime,        // run-time error kinds of the interpreter
  Tool,           // syntax, io, invocation
};

// The language an example is written in; tests/rules runs every example through the component
// that must reject it (KIR: load_canonical_text; YAML: the manifest validator; Run: kir run).
enum class Lang { None, Kir, Yaml, Run };

struct Rule {
  std::string_view id;
  Family family;
  std::string_view title = {};     // one line, lower case, no final period
  std::string_view text = {};      // the rule in full, in plain words
  Lang lang = Lang::None;
  std::string_view example = {};   // a minimal invalid example (or a kernel that faults at run time)
  std::string_view args = {};      // Lang::Run: the `kir run` arguments after the file; Lang::Yaml
                                   // parity checks (P<n>): the paired kernel (KIR text) the example
                                   // and its fixed form are checked against, as kernels/<Op>.kir
  std::string_view fix = {};       // what to change, in words
  std::string_view fixed = {};     // the example with the fix applied (same language); may be empty
  std::string_view parent = {};    // ManifestCheck: the manifest rule (M<n>) the check enforces
};

// Every rule, sorted by family then by ID (numeric parts compared as numbers).
std::span<const Rule> all();
// The rule with this ID (exact, case-sensitive), or null.
const Rule* find(std::string_view id);
// " (kir explain ID)" when the table explains `id`, else "" — what every diagnostic line ends with.
std::string explain_hint(std::string_view id);

// `kir explain ID`: title, text, example, fix.
std::string render_text(const Rule& r);
// docs/rules.md: the whole catalogue.
std::string render_markdown();

// The family tables (one file each; language and validator checks in two parts).
std::span<const Rule> language_rules_core();        // L1-L9: definitions, values, control, reduce, scan, fold
std::span<const Rule> language_rules_structured();  // L10-L19: contracts, histogram, ragged, memory, atomics, RNG
std::span<const Rule> manifest_rules();             // M1-M19
std::span<const Rule> manifest_checks_construction();  // validator C<n>
std::span<const Rule> manifest_checks_workload();      // validator S<n>, W<n>, E<n>, P<n>, loader L<n>
std::span<const Rule> runtime_rules();
std::span<const Rule> tool_rules();

}  // namespace kir::rules
