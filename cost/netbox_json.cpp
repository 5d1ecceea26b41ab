#include "netbox_json.h"

#include "input_error.h"
#include "input_file.h"
#include "netbox.h"
#include "netbox_detail.h"

#include <algorithm>
#include <cmath>

// Reading saved NetBox REST API responses (cost/netbox_json.h).
namespace ctwin::cost::netbox::detail {

using namespace ctwin::model;
namespace fs = std::filesystem;

InputLocation at(const std::string& file, const char* kind, const nlohmann::json& obj,
                 const std::string& field) {
    std::string id, name;
    if (obj.is_object()) {
        if (const auto it = obj.find("id"); it != obj.end() && it->is_number_integer())
            id = std::to_string(it->get<long long>());
        if (const auto it = obj.find("name"); it != obj.end() && it->is_string())
            name = it->get<std::string>();
    }
    return InputLocation{file, kind, id, name, field};
}

Objects readType(const fs::path& folder, const std::string& type, bool required) {
    Objects out;
    std::vector<fs::path> pages;
    const fs::path single = folder / "dcim" / (type + ".json"), dir = folder / "dcim" / type;
    std::error_code ec;
    if (fs::is_regular_file(single, ec)) {
        pages.push_back(single);
    } else if (fs::is_directory(dir, ec)) {
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            if (it->path().extension() == ".json") pages.push_back(it->path());
            if (pages.size() > kMaxPagesPerType)
                throw InputError(InputLocation{dir.string(), "", "", "", ""},
                                 "more than " + std::to_string(kMaxPagesPerType) + " page files");
        }
        std::sort(pages.begin(), pages.end());
    }
    if (pages.empty()) {
        if (required)
            throw InputError(InputLocation{single.string(), "", "", "", ""},
                             "missing: save the dcim/" + type + "/ API response as dcim/" + type + ".json");
        return out;
    }
    long long declared = -1;
    for (const auto& page : pages) {
        const std::string file = page.string();
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(readInputFile(file, kMaxPageFileBytes, "NetBox API response"));
        } catch (const nlohmann::json::exception& e) {
            throw InputError(InputLocation{file, "", "", "", ""}, std::string("not valid JSON: ") + e.what());
        }
        if (!j.is_object() || !j.contains("results") || !j["results"].is_array())
            throw InputError(InputLocation{file, "", "", "", "results"},
                             "not a NetBox list response (an object with a \"results\" array)");
        if (declared < 0 && j.contains("count") && j["count"].is_number_integer())
            declared = j["count"].get<long long>();
        for (auto& o : j["results"]) {
            if (!o.is_object())
                throw InputError(InputLocation{file, "", "", "", "results"}, "a result is not an object");
            out.items.push_back(std::move(o));
            out.files.push_back(file);
            if (out.items.size() > kMaxObjectsPerType)
                throw InputError(InputLocation{file, "", "", "", ""},
                                 "more than " + std::to_string(kMaxObjectsPerType) + " " + type);
        }
    }
    if (declared >= 0 && declared != static_cast<long long>(out.items.size()))
        throw InputError(InputLocation{pages.front().string(), "", "", "", "count"},
                         "the response says " + std::to_string(declared) + " " + type +
                             " but the files hold " + std::to_string(out.items.size()) +
                             " (a page is missing)");
    return out;
}

long long idOf(const nlohmann::json& o, const std::string& file, const char* kind) {
    const auto it = o.find("id");
    if (it == o.end() || !it->is_number_integer())
        throw InputError(at(file, kind, o, "id"), "missing or not a whole number");
    return it->get<long long>();
}

long long refOf(const nlohmann::json& o, const char* field, const std::string& file, const char* kind) {
    const auto it = o.find(field);
    if (it == o.end() || it->is_null()) return -1;
    if (!it->is_object() || !it->contains("id") || !(*it)["id"].is_number_integer())
        throw InputError(at(file, kind, o, field), "not a related object with an id");
    return (*it)["id"].get<long long>();
}

std::string text(const nlohmann::json& o, const char* field) {
    const auto it = o.find(field);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double numberOf(const nlohmann::json& o, const char* field, double fallback) {
    const auto it = o.find(field);
    if (it == o.end()) return fallback;
    if (it->is_number()) return it->get<double>();
    // NetBox serialises decimals (latitude, longitude) as strings.
    if (it->is_string()) {
        try {
            return std::stod(it->get<std::string>());
        } catch (const std::exception&) {
        }
    }
    return fallback;
}

nlohmann::json tagOf(const nlohmann::json& o, const std::string& file, const char* kind) {
    const std::string comments = text(o, "comments");
    const size_t pos = comments.find(kTagPrefix);
    if (pos == std::string::npos) return nlohmann::json::object();
    const size_t end = comments.find('\n', pos);
    const std::string line = comments.substr(
        pos + std::string(kTagPrefix).size(),
        end == std::string::npos ? std::string::npos : end - pos - std::string(kTagPrefix).size());
    if (line.size() > kMaxTagBytes)
        throw InputError(at(file, kind, o, "comments"), "the clustertwin line is too long");
    try {
        auto j = nlohmann::json::parse(line);
        if (j.is_object()) return j;
    } catch (const nlohmann::json::exception&) {
    }
    throw InputError(at(file, kind, o, "comments"), "the clustertwin line is not a JSON object");
}

double tagNum(const nlohmann::json& tag, const char* key, double fallback) {
    const auto it = tag.find(key);
    return it != tag.end() && it->is_number() && std::isfinite(it->get<double>()) ? it->get<double>()
                                                                                  : fallback;
}
std::string tagText(const nlohmann::json& tag, const char* key, const std::string& fallback) {
    const auto it = tag.find(key);
    return it != tag.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::string plainName(const std::string& name, const std::string& slug) {
    const std::string suffix = " [" + slug + "]";
    return name.size() > suffix.size() &&
                   name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0
               ? name.substr(0, name.size() - suffix.size())
               : name;
}

std::string choiceOf(const nlohmann::json& o, const char* field) {
    const auto it = o.find(field);
    if (it == o.end()) return {};
    return it->is_object() ? text(*it, "value") : text(o, field);
}

} // namespace ctwin::cost::netbox::detail
