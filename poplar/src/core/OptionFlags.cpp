#include <poplar/OptionFlags.hpp>
#include <poplar/exceptions.hpp>

#include <nlohmann/json.hpp>

#include <istream>
#include <ostream>
#include <sstream>

namespace poplar {

OptionFlags::OptionFlags(initializer_list list) { set(list); }

void OptionFlags::set(StringRef option, StringRef value) {
  flags[option.str()] = value.str();
}

void OptionFlags::set(initializer_list list) {
  for (const auto &[key, value] : list)
    flags[key] = value;
}

StringRef OptionFlags::at(StringRef option) const {
  auto it = flags.find(option.str());
  if (it == flags.end())
    throw invalid_option("Option '" + option.str() + "' is not set");
  return it->second;
}

OptionFlags::const_iterator OptionFlags::find(StringRef option) const {
  return flags.find(option.str());
}

void OptionFlags::remove(StringRef option) {
  auto it = flags.find(option.str());
  if (it != flags.end())
    flags.erase(it);
}

std::ostream &operator<<(std::ostream &os, const OptionFlags &flags) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto &[key, value] : flags)
    json[key] = value;
  return os << json.dump();
}

void readJSON(std::istream &is, OptionFlags &flags) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(is);
  } catch (const nlohmann::json::exception &e) {
    throw parse_error(std::string("Options are not valid JSON: ") + e.what());
  }
  if (!json.is_object())
    throw parse_error("Options must be a JSON object of option names to "
                      "values, got: " + json.dump());
  for (const auto &[key, value] : json.items()) {
    if (value.is_string())
      flags.set(key, value.get<std::string>());
    else if (value.is_boolean() || value.is_number())
      flags.set(key, value.dump());
    else
      throw parse_error("Option '" + key +
                        "' must be a string, number or boolean, got: " +
                        value.dump());
  }
}

void readJSON(StringRef json, OptionFlags &flags) {
  std::istringstream is(json.str());
  readJSON(is, flags);
}

} // namespace poplar
