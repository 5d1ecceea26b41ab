// libclustertwin-report.so: the report writers behind `clustertwin-cli report` (app/lean/plugin_loader.h).
#include "lean/plugin_abi.h"
#include "report/finance_report.h"

#include <QGuiApplication>
#include <QtGlobal>
#include <cstdlib>

namespace {

/// The PDF and chart writers paint with Qt: they need a QGuiApplication; without a display it runs
/// offscreen. The CLI has none (it links no Qt), so the plugin makes one on first use.
void ensureGuiApplication(ctwin::app::ReportFormat format) {
    using ctwin::app::ReportFormat;
    if (format != ReportFormat::Pdf && format != ReportFormat::Charts) return;
    if (QGuiApplication::instance()) return;
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Without a login session (a batch job, a container) XDG_RUNTIME_DIR is unset; Qt then uses
    // /tmp/runtime-USER and says so on every report. The PDF writer needs no runtime directory: that one
    // notice is dropped, every other Qt message passes to the default handler.
    static const QtMessageHandler previous = qInstallMessageHandler(
        [](QtMsgType type, const QMessageLogContext& context, const QString& message) {
            const QLatin1String notice("QStandardPaths: XDG_RUNTIME_DIR not set");
            if (type == QtWarningMsg && message.startsWith(notice)) return;
            if (previous) previous(type, context, message);
        });
    static int argc = 1;
    static char name[] = "clustertwin-cli";
    static char* argv[] = {name, nullptr};
    static QGuiApplication app(argc, argv);
}

} // namespace

CTWIN_PLUGIN_EXPORT const char* ctwin_plugin_version() {
    return ctwin::app::kCtwinPluginInterface;
}

CTWIN_PLUGIN_EXPORT void ctwin_write_report(const ctwin::app::ReportInput& input,
                                            ctwin::app::ReportFormat format, const std::string& path) {
    ensureGuiApplication(format);
    ctwin::app::writeReport(input, format, path);
}

CTWIN_PLUGIN_EXPORT void ctwin_write_comparison_report(const ctwin::app::ComparisonInput& input,
                                                       ctwin::app::ReportFormat format,
                                                       const std::string& path) {
    ensureGuiApplication(format);
    ctwin::app::writeComparisonReport(input, format, path);
}

CTWIN_PLUGIN_EXPORT const char* ctwin_report_format_name(ctwin::app::ReportFormat format) {
    return ctwin::app::reportFormatName(format);
}

CTWIN_PLUGIN_EXPORT ctwin::app::ReportFormat ctwin_report_format_for_path(const std::string& path) {
    return ctwin::app::reportFormatForPath(path);
}
