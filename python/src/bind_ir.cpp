// See bind_ir.h.
#include "bind_ir.h"

#include <pybind11/stl.h>

#include "kir/load.h"
#include "kir/text/printer.h"

namespace kir::py_kir {

namespace {

py::object attribute_value(const Attribute& a) {
  switch (a.kind) {
    case Attribute::Kind::Bool: return py::bool_(a.b);
    case Attribute::Kind::Int: return py::int_(py::str(int128_str(a.i)));
    case Attribute::Kind::Float: return py::float_(a.f);
    case Attribute::Kind::EnumMember: return py::str(a.member);
    case Attribute::Kind::String:
    case Attribute::Kind::Keyword:
    case Attribute::Kind::Symbol: return py::str(a.s);
    case Attribute::Kind::List: {
      py::list l;
      for (const auto& x : a.list) l.append(attribute_value(x));
      return l;
    }
  }
  return py::none();
}

py::list kernel_names(const PyModule& pm) {
  py::list out;
  for (const auto& f : pm.module->functions)
    if (f->is_kernel()) out.append(f->name);
  return out;
}

py::list params_of(const PyModule& pm, const std::string& kernel) {
  const Function& k = pm.kernel(kernel);
  py::list out;
  for (const kir::Value* p : k.params()) {
    py::dict d;
    d["name"] = p->name;
    const Type& t = p->type;
    py::list shape;
    if (t.is(TypeKind::View)) {
      d["kind"] = std::string(access_name(t.access()));
      d["dtype"] = std::string(name(t.dtype()));
      for (const auto& e : t.shape()) shape.append(e.str());
      if (t.strides()) {
        py::list s;
        for (const auto& e : *t.strides()) s.append(e.str());
        d["strides"] = s;
      }
      if (t.offset()) d["offset"] = t.offset()->str();
    } else if (t.is(TypeKind::Enum)) {
      d["kind"] = "constexpr";
      d["dtype"] = t.str();
      d["enum"] = t.enum_name();
      py::list members;
      if (const EnumDecl* e = pm.module->find_enum(t.enum_name()))
        for (const auto& [mname, value] : e->members) members.append(mname);
      d["members"] = members;
    } else {
      d["kind"] = p->is_constexpr ? "constexpr" : "scalar";
      d["dtype"] = t.is_scalar() ? std::string(name(t.dtype())) : t.str();
    }
    d["shape"] = shape;
    d["type"] = t.str();
    if (p->default_value) d["default"] = attribute_value(*p->default_value);
    out.append(d);
  }
  return out;
}

py::dict invocation_of(const PyModule& pm, const std::string& kernel) {
  const Function& k = pm.kernel(kernel);
  py::dict d;
  for (const auto& [sym, v] : k.invocation) d[py::str(sym)] = attribute_value(v);
  return d;
}

}  // namespace

const Function& PyModule::kernel(const std::string& n) const {
  const Function* f = module->find_function(n.size() && n[0] == '@' ? n.substr(1) : n);
  if (!f || !f->is_kernel()) {
    std::string list;
    for (const auto& g : module->functions)
      if (g->is_kernel()) list += " @" + g->name;
    throw KirFailure("no kernel @" + n + " in " + file + " (kernels:" + (list.empty() ? " none" : list) + ")");
  }
  return *f;
}

const Function& PyModule::choose(const std::string& n) const {
  if (!n.empty()) return kernel(n);
  const Function* only = nullptr;
  int count = 0;
  for (const auto& f : module->functions)
    if (f->is_kernel()) {
      only = f.get();
      ++count;
    }
  if (count == 1) return *only;
  if (count == 0) throw KirFailure(file + " has no kernel");
  std::string list;
  for (const auto& f : module->functions)
    if (f->is_kernel()) list += " @" + f->name;
  throw KirFailure("several kernels (" + list + " ); choose one with kernel=");
}

std::shared_ptr<PyModule> module_arg(py::handle m) {
  if (!py::isinstance<PyModule>(m))
    throw KirFailure("expected an intent Module (from load()), got " + py::repr(m).cast<std::string>());
  return m.cast<std::shared_ptr<PyModule>>();
}

std::shared_ptr<PyModule> load_module(const std::string& text, const std::string& file) {
  Diagnostics diags;
  bool normalized = false;
  std::unique_ptr<Module> m;
  {
    py::gil_scoped_release release;
    m = load_canonical_text(text, file, diags, &normalized);
  }
  if (!m) throw failure_from(diags);
  auto pm = std::make_shared<PyModule>();
  pm->module = std::shared_ptr<const Module>(std::move(m));
  pm->file = file;
  pm->source = text;
  pm->normalized = normalized;
  return pm;
}

void bind_ir(py::module_& m) {
  py::class_<PyModule, std::shared_ptr<PyModule>>(m, "Module", R"doc(
A canonical, verified KIR module (from load()).

Attributes: text (canonical printed form, what `kir normalize` prints), kernels (names), source
(the text it was loaded from), file, normalized (surface forms were rewritten).
Methods: params(kernel), invocation(kernel).
)doc")
      .def_property_readonly(
          "text", [](const PyModule& pm) { return guarded([&] { return print_module(*pm.module); }); },
          "Canonical KIR text (the bytes `kir fmt` / `kir normalize` print).")
      .def_property_readonly("kernels", &kernel_names, "Names of the kernels, in file order.")
      .def_readonly("source", &PyModule::source, "The text the module was loaded from.")
      .def_readonly("file", &PyModule::file, "The file name its locations use.")
      .def_readonly("normalized", &PyModule::normalized, "Whether surface forms were rewritten to canonical KIR.")
      .def(
          "params", [](const PyModule& pm, const std::string& k) { return guarded([&] { return params_of(pm, k); }); },
          py::arg("kernel"),
          R"doc(The kernel's parameters in order: dicts {"name", "kind": "In"|"Out"|"InOut"|"scalar"|"constexpr",
"dtype", "shape": [extent strings], "type"} (+ "default" for constexpr defaults, "enum" and "members"
for enum constexprs, "strides"/"offset" for views that declare them).)doc")
      .def(
          "invocation",
          [](const PyModule& pm, const std::string& k) { return guarded([&] { return invocation_of(pm, k); }); },
          py::arg("kernel"), "The kernel's default invocation: extent symbol -> N (empty when it has none).")
      .def("__repr__", [](const PyModule& pm) {
        std::string ks;
        for (const auto& f : pm.module->functions)
          if (f->is_kernel()) ks += (ks.empty() ? "@" : ", @") + f->name;
        return "<intent._kir.Module " + pm.file + ": " + ks + ">";
      });

  m.def(
      "load", [](const std::string& text, const std::string& file) { return guarded([&] { return load_module(text, file); }); },
      py::arg("text"), py::arg("file") = "<string>",
      R"doc(Parse KIR text, normalize it when it has surface forms, and verify it (the steps of `kir run`).

Returns a Module. Raises KirError with every diagnostic (file:line:col, rule) on failure; ops with
loc("file.py":line:col) are reported at that location.)doc");
}

}  // namespace kir::py_kir
