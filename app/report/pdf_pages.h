#pragma once
// Pieces every PDF report shares (app/report/pdf_report.cpp, pdf_comparison.cpp): the palette, the title
// page, the figure tiles and the atomic write of a laid-out document.
#include "report/atomic_file.h"
#include "report/pdf_layout.h"
#include "report/report_input.h"

#include <QColor>
#include <QPdfWriter>
#include <QString>
#include <string>
#include <utility>
#include <vector>

namespace ctwin::app::pdf {

inline const QColor kAccent(0x1d, 0x4e, 0x89);
inline const QColor kInk(0x1f, 0x29, 0x37);
inline const QColor kMuted(0x6b, 0x72, 0x80);
inline const QColor kErrorFill(0xfd, 0xe2, 0xe2);
inline const QColor kWarningFill(0xfe, 0xf3, 0xc7);
inline const QColor kBestFill(0xdc, 0xfc, 0xe7);
inline const QColor kWorstFill(0xfd, 0xe2, 0xe2);
inline const QColor kTileFill(0xee, 0xf2, 0xf8);

inline QString q(const std::string& s) {
    return QString::fromStdString(s);
}

/// Throws std::logic_error unless a QGuiApplication exists (fonts need one).
void requireGuiApplication();
/// The coloured title band, the document's name and its description.
void titlePage(PdfLayout& doc, const QString& kind, const QString& name, const QString& description);
/// Label/value tiles, four to a row.
void tiles(PdfLayout& doc, const std::vector<std::pair<QString, QString>>& items);

/// Lays out with `build` and writes the PDF atomically to `path`.
template <class Build>
void writePdf(const std::string& path, const QString& title, const QString& footer, PaperSize paper,
              Build build) {
    AtomicFile file(path);
    {
        QPdfWriter writer(q(file.tempPath()));
        writer.setCreator(QStringLiteral("ClusterTwin"));
        writer.setTitle(title);
        PdfLayout doc(writer, paper == PaperSize::Letter);
        build(doc);
        if (!doc.render(footer)) file.fail("cannot write the PDF");
    }
    file.commit();
}

} // namespace ctwin::app::pdf
