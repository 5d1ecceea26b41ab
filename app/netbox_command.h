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

/// Synopses and help of `import-devicetype` and `export-devicetype` (NetBox devicetype-library YAML).
extern const char* const kImportDeviceTypeSynopsis;
extern const char* const kImportDeviceTypeHelp;
extern const char* const kExportDeviceTypeSynopsis;
extern const char* const kExportDeviceTypeHelp;

/// `import-devicetype FILE|FOLDER... --out OVERLAY.json [--mapping FILE]`: device-type YAML files (a folder:
/// its .yaml and .yml files in name order) as a catalog overlay (cost/netbox_device_type.h); the log on
/// standard output. Exit 0, 2 for bad options, 3 for a bad file (nothing is written).
int runImportDeviceTypeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `export-devicetype ITEM --out FILE.yaml`: a catalog switch as a device-type YAML file. Exit 0, 2 for bad
/// options, 3 for an unknown item or one that is not a switch, or a file that cannot be written.
int runExportDeviceTypeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
