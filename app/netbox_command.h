#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace ctwin::app {

/// Synopses and help of `clustertwin-cli export-netbox` and `import-netbox` (cli.cpp lists them).
extern const char* const kExportNetBoxSynopsis;
extern const char* const kExportNetBoxHelp;
extern const char* const kImportNetBoxSynopsis;
extern const char* const kImportNetBoxHelp;

/// `export-netbox DESIGN --out FOLDER`: the design as NetBox bulk-import CSV files and REST request bodies
/// (cost/netbox.h). Exit 0, 2 for bad options (UsageError, printed by runCli), 3 for a bad design or a folder
/// that cannot be written.
int runExportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `import-netbox FOLDER --out DESIGN [--mapping FILE]`: a design from saved NetBox REST API responses, the
/// import log on standard output. Exit 0, 2 for bad options, 3 for bad responses (nothing is written).
int runImportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
