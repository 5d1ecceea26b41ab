#pragma once
// Reading saved NetBox REST API responses, for the import's steps (netbox_import.cpp,
// netbox_import_cooling.cpp): list responses read with their bounds, nested related objects, choice and
// decimal fields in the shapes NetBox serialises them, and the `clustertwin:` comment line. Every error
// names the file, the object (NetBox id and name) and the field.
#include "input_error.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ctwin::cost::netbox::detail {

/// One object type's saved responses: its objects and the file each came from.
struct Objects {
    std::vector<nlohmann::json> items;
    std::vector<std::string> files;
};

/// Where an error is: the file, the object kind, its NetBox id and name, and the field.
model::InputLocation at(const std::string& file, const char* kind, const nlohmann::json& obj,
                        const std::string& field);

/// Reads dcim/<type>.json or the pages in dcim/<type>/ (name order), bounded by kMaxPageFileBytes,
/// kMaxPagesPerType and kMaxObjectsPerType (cost/netbox.h). Each page must be a list response; the first
/// page's count must equal the objects read. A missing type is an error when `required`, else empty.
Objects readType(const std::filesystem::path& folder, const std::string& type, bool required);

/// The object's NetBox id (InputError when missing).
long long idOf(const nlohmann::json& o, const std::string& file, const char* kind);

/// The id of a nested related object (`{"id": 3, ...}`), or -1 when the field is null or absent.
long long refOf(const nlohmann::json& o, const char* field, const std::string& file, const char* kind);

/// A text field, or empty when absent or not text.
std::string text(const nlohmann::json& o, const char* field);

/// A number field; NetBox serialises decimals (latitude, cooling capacity) as strings. `fallback` when
/// absent or not a number.
double numberOf(const nlohmann::json& o, const char* field, double fallback);

/// A choice field: {"value", "label"} in API responses, a plain string in hand-made files.
std::string choiceOf(const nlohmann::json& o, const char* field);

/// The `clustertwin:` line of an object's comments, parsed; empty when there is none (InputError when it is
/// longer than kMaxTagBytes or not a JSON object).
nlohmann::json tagOf(const nlohmann::json& o, const std::string& file, const char* kind);

/// A finite number or a text of the comment line, else `fallback`.
double tagNum(const nlohmann::json& tag, const char* key, double fallback);
std::string tagText(const nlohmann::json& tag, const char* key, const std::string& fallback = {});

/// The name the export wrote, without the " [slug]" it appended to tell equal names apart.
std::string plainName(const std::string& name, const std::string& slug);

} // namespace ctwin::cost::netbox::detail
