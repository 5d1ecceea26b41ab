#pragma once
#include "design_spec.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace ctwin::app {

/// Synopsis and help of `clustertwin-cli new` (cli.cpp lists them with the other commands).
extern const char* const kNewSynopsis;
extern const char* const kNewHelp;

/// The spec the desktop wizard and `new` both hand to cost::generateDesign for simple targets.
cost::DesignSpec designSpecForTarget(const cost::TargetSpec& target);

/// `clustertwin-cli new`: builds a design from targets (or a generator spec file) with the C++ design
/// generator and writes it atomically (.json or .ctwin by extension). Returns kExitOk, kExitUsage (bad
/// options, with a message on `err`); impossible targets throw model::InputError (exit 3 in runCli).
int runNewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
