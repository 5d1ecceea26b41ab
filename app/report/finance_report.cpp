#include "report/finance_report.h"

#include "report/report_charts.h"

#include <algorithm>
#include <cctype>

namespace ctwin::app {

namespace {
std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}
bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

std::optional<ReportFormat> reportFormatFromName(std::string_view name) {
    const std::string n = lower(name);
    if (n == "pdf") return ReportFormat::Pdf;
    if (n == "xlsx") return ReportFormat::Xlsx;
    if (n == "csv") return ReportFormat::Csv;
    if (n == "json") return ReportFormat::Json;
    if (n == "charts") return ReportFormat::Charts;
    return std::nullopt;
}

ReportFormat reportFormatForPath(const std::string& path) {
    const std::string p = lower(path);
    if (endsWith(p, ".pdf")) return ReportFormat::Pdf;
    if (endsWith(p, ".xlsx")) return ReportFormat::Xlsx;
    if (endsWith(p, ".json")) return ReportFormat::Json;
    return ReportFormat::Csv;
}

const char* reportFormatName(ReportFormat format) {
    switch (format) {
    case ReportFormat::Pdf:
        return "pdf";
    case ReportFormat::Xlsx:
        return "xlsx";
    case ReportFormat::Json:
        return "json";
    case ReportFormat::Charts:
        return "charts";
    case ReportFormat::Csv:
        break;
    }
    return "csv";
}

void writeReport(const ReportInput& input, ReportFormat format, const std::string& path) {
    switch (format) {
    case ReportFormat::Pdf:
        return writePdfReport(input, path);
    case ReportFormat::Xlsx:
        return writeXlsxReport(input, path);
    case ReportFormat::Json:
        return writeJsonReport(input, path);
    case ReportFormat::Charts:
        return writeCharts(reportCharts(input), path);
    case ReportFormat::Csv:
        break;
    }
    writeCsvReport(input, path);
}

void writeComparisonReport(const ComparisonInput& input, ReportFormat format, const std::string& path) {
    switch (format) {
    case ReportFormat::Pdf:
        return writeComparisonPdf(input, path);
    case ReportFormat::Xlsx:
        return writeComparisonXlsx(input, path);
    case ReportFormat::Json:
        return writeComparisonJson(input, path);
    case ReportFormat::Charts:
        return writeCharts(comparisonCharts(input), path);
    case ReportFormat::Csv:
        break;
    }
    writeComparisonCsv(input, path);
}

} // namespace ctwin::app
