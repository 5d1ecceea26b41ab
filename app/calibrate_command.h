#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace ctwin::app {

/// Synopsis and help of `clustertwin-cli calibrate` (cli.cpp lists them with the other commands).
extern const char* const kCalibrateSynopsis;
extern const char* const kCalibrateHelp;

/// `clustertwin-cli calibrate POINTS --accelerator ID --model PRESET`: fits the accelerator's efficiency
/// factors to measured serving points (cost/calibration.h), prints the factors and residuals (or --json) and
/// with --out writes a catalog overlay (data/FORMAT.md §8.4). Returns kExitOk or kExitUsage (message on
/// `err`); bad points, an unknown accelerator or model throw model::InputError (exit 3 in runCli).
int runCalibrateCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
