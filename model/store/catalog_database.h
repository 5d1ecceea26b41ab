#pragma once
#include <string>

#include "catalog.h"

namespace ctwin::store {

/// Writes the price book into a SQLite catalog database (tables item, attribute, value), atomically.
void writeCatalogDatabase(const model::Catalog& catalog, const std::string& path);
/// Reads a catalog database and checks every item as the JSON loader does.
model::Catalog loadCatalogDatabase(const std::string& path);

} // namespace ctwin::store
