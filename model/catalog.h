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
    /// Prices every rack type that lists its parts from them (rackParts); called by the constructor, so a
    /// loaded catalog, a stored one and an overlaid one all price racks the same way.
    void derivePartsPrices();
    std::vector<CatalogItem> m_items;
    std::unordered_map<std::string, size_t> m_index;
};

/// One priced part of a rack type whose price is the sum of its parts: `count` units of the
/// catalog component `componentId` at `unitPrice` each (USD; memory per GB).
struct RackPart {
    std::string key;         ///< figure key: gpus, cpus, memory, backend_nics, frontend_nics, power_supplies,
                             ///< liquid_cooling
    std::string label;       ///< for reports
    std::string countField;  ///< the rack's value holding the count (gpus, cpus, memory_gb, ...)
    std::string componentId; ///< the rack attribute's value: the component's catalog id
    double count = 0.0;
    CatalogValue unitPrice;
};

/// The parts of a rack type priced from its components: empty when the rack does not list them (it has no
/// `system_integration_usd`; its `price_usd` is then a quote for the whole rack). A part whose attribute is
/// absent or empty is not in the rack (e.g. no liquid-cooling kit on an air-cooled server). Throws InputError
/// naming the rack and the attribute when a listed component is not in the catalog or lacks its price.
std::vector<RackPart> rackParts(const Catalog& catalog, const CatalogItem& rack);

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
