// The lean CLI's side of `report`: the writers (app/report/*: Qt Gui, QtSvg, libxlsxwriter) live in
// libclustertwin-report.so, loaded only when a report is written. Declarations in report/finance_report.h;
// the plugin's side is report_plugin.cpp. Errors thrown by a writer (model::InputError naming the path)
// reach runCli as they did when the writers were linked in.
#include "lean/plugin_loader.h"
#include "report/finance_report.h"

namespace ctwin::app {

void writeReport(const ReportInput& input, ReportFormat format, const std::string& path) {
    using Fn = void (*)(const ReportInput&, ReportFormat, const std::string&);
    pluginFunction<Fn>("report", "ctwin_write_report")(input, format, path);
}

void writeComparisonReport(const ComparisonInput& input, ReportFormat format, const std::string& path) {
    using Fn = void (*)(const ComparisonInput&, ReportFormat, const std::string&);
    pluginFunction<Fn>("report", "ctwin_write_comparison_report")(input, format, path);
}

const char* reportFormatName(ReportFormat format) {
    using Fn = const char* (*)(ReportFormat);
    return pluginFunction<Fn>("report", "ctwin_report_format_name")(format);
}

ReportFormat reportFormatForPath(const std::string& path) {
    using Fn = ReportFormat (*)(const std::string&);
    return pluginFunction<Fn>("report", "ctwin_report_format_for_path")(path);
}

} // namespace ctwin::app
