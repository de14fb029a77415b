// Text rules shared by both renderings: how numbers of ulps and ratios are printed, how a string is
// made safe for HTML/SVG or for a Markdown table cell, and the CSS class of a verdict. One place, so
// the Markdown and the HTML say the same thing about the same value.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kir::report {

// &, <, >, " and ' as entities: safe in element content and in quoted attributes.
std::string html_escape(std::string_view s);

// A Markdown table cell: '|' becomes "\|", line breaks become spaces, '<' becomes "&lt;" (so no
// text from the report is read as HTML by a Markdown viewer).
std::string md_cell(std::string_view s);

// A number as people read it: integers in full (below 1e15), otherwise four significant digits.
std::string format_number(double v);

// A JSON number or null: null prints `when_null`.
std::string format_number(const nlohmann::json& v, std::string_view when_null);

// A number from JSON, if it is one.
std::optional<double> number_of(const nlohmann::json& v);

// The value of an optional field of `obj` (null if missing).
const nlohmann::json& field(const nlohmann::json& obj, std::string_view key);
std::string string_field(const nlohmann::json& obj, std::string_view key);

// "PASS" -> "pass", "FAIL" -> "fail", ...: the CSS class of a verdict (unknown -> "skip").
std::string verdict_class(std::string_view verdict);

// Coordinates as "[1, 2, 3]".
std::string format_coord(const nlohmann::json& coord);

}  // namespace kir::report
