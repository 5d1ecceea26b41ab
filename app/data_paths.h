#pragma once
#include <string>
#include <vector>

#include "assumption.h"
#include "catalog.h"

namespace ctwin::app {

/// Where the shared data (catalog, assumptions, reference designs) is: $CTWIN_DATA_DIR, else
/// <executable>/../share/clustertwin (build tree and installed package alike), else the source tree.
std::string dataDirectory();
std::string referenceDirectory();
/// The catalog: catalog.db when present (built from data/catalog at build time), else the JSON files, with
/// the catalog overlays (data/FORMAT.md §8.4) applied in order.
model::Catalog loadDefaultCatalog();
/// Overlays loadDefaultCatalog() applies: the files set here (the CLI's --catalog-overlay), else the
/// colon-separated list in $CTWIN_CATALOG_OVERLAY, else none.
void setCatalogOverlays(std::vector<std::string> files);
std::vector<std::string> catalogOverlays();
model::AssumptionSet loadDefaultAssumptions();
/// The design `./dev run` opens: the 100K-GPU GB200 neocloud reference.
std::string defaultReferenceDesign();

} // namespace ctwin::app
