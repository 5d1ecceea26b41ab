#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog_item.h"

namespace ctwin::model {

/// The component price book. Loaded from data/catalog/*.json (model) or from the SQLite catalog
/// database (store); the engine only reads it.
class Catalog {
public:
    Catalog() = default;
    explicit Catalog(std::vector<CatalogItem> items);

    const std::vector<CatalogItem>& items() const { return m_items; }
    const CatalogItem* find(std::string_view id) const;
    /// The item with this id; throws InputError when it does not exist.
    const CatalogItem& at(std::string_view id) const;
    std::vector<const CatalogItem*> byCategory(std::string_view category) const;
    bool empty() const { return m_items.empty(); }

private:
    std::vector<CatalogItem> m_items;
    std::unordered_map<std::string, size_t> m_index;
};

/// Parses one catalog file (`{"category":..., "items":[...]}`) and checks every item against the field
/// schema of its category and kind. Errors name the file, the item and the field.
std::vector<CatalogItem> catalogItemsFromJson(const nlohmann::json& doc, const std::string& file);
/// Checks an item against the schema of data/FORMAT.md §1 (required fields, low <= base <= high, sources).
void checkCatalogItem(const CatalogItem& item, const std::string& file);
/// Reads every *.json file of a directory into a Catalog, checking duplicates and cross-references.
Catalog loadCatalogDirectory(const std::string& directory);
/// Checks ids are unique and every attribute reference (rack -> accelerator) resolves.
void checkCatalogReferences(const Catalog& catalog, const std::string& file);

} // namespace ctwin::model
