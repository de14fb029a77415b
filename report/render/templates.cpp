// Renders the embedded Mustache templates with kainjow/mustache (see templates.h).
#include "report/render/templates.h"

#include <stdexcept>

#include <kainjow/mustache.hpp>

#include "report/render/format.h"
#include "report/render/templates_embedded.h"

namespace kir::report {
namespace {

namespace km = kainjow::mustache;

km::data to_data(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      km::data d{km::data::type::object};
      for (auto it = j.begin(); it != j.end(); ++it) d.set(it.key(), to_data(it.value()));
      return d;
    }
    case nlohmann::json::value_t::array: {
      km::data d{km::data::type::list};
      for (const auto& v : j) d.push_back(to_data(v));
      return d;
    }
    case nlohmann::json::value_t::string: return km::data{j.get<std::string>()};
    case nlohmann::json::value_t::boolean: return km::data{j.get<bool>()};
    case nlohmann::json::value_t::null: return km::data{false};
    default: return km::data{j.dump()};
  }
}

std::string_view source_of(Template which) {
  return which == Template::markdown ? templates::kTemplate_report_md_mustache
                                     : templates::kTemplate_report_html_mustache;
}

}  // namespace

std::string render_template(Template which, const nlohmann::json& view, Escape escape) {
  km::mustache tmpl{std::string(source_of(which))};
  if (!tmpl.is_valid()) throw std::runtime_error("report template: " + tmpl.error_message());
  if (escape == Escape::markdown) {
    tmpl.set_custom_escape([](const std::string& s) { return md_cell(s); });
  } else {
    tmpl.set_custom_escape([](const std::string& s) { return html_escape(s); });
  }
  km::data data = to_data(view);
  data.set("style", km::partial([] { return std::string(templates::kTemplate_report_css); }));
  data.set("script", km::partial([] { return std::string(templates::kTemplate_report_js); }));
  std::string out = tmpl.render(data);
  if (!tmpl.is_valid()) throw std::runtime_error("report template: " + tmpl.error_message());
  return out;
}

}  // namespace kir::report
