#include "theme.h"

#include <QApplication>
#include <QIcon>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>
#include <QStyle>
#include <QStyleFactory>

namespace ctwin::app {

namespace {
QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6),
        disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xa0, 0xa0, 0xa0));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x5a, 0xa9, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}
} // namespace

bool applyTheme(AppSettings::Theme theme) {
    static const QString systemStyle = QApplication::style()->name();
    if (theme == AppSettings::Theme::System) {
        QApplication::setStyle(QStyleFactory::create(systemStyle));
        QApplication::setPalette(QApplication::style()->standardPalette());
    } else {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(
            theme == AppSettings::Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
    }
    return QApplication::palette().color(QPalette::Window).lightnessF() < 0.5;
}

QIcon appIcon() {
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(size / 64.0, size / 64.0);
        QPainterPath bg;
        bg.addRoundedRect(QRectF(2, 2, 60, 60), 12, 12);
        p.fillPath(bg, QColor(0x1f, 0x3b, 0x57));
        // Three racks, the middle one a "twin" outline, with status lights.
        const QColor rack(0xdd, 0xe6, 0xee);
        p.fillRect(QRectF(11, 14, 11, 36), rack);
        p.fillRect(QRectF(42, 14, 11, 36), rack);
        p.setPen(QPen(QColor(0x76, 0xb7, 0xb2), 2.5));
        p.drawRect(QRectF(26.5, 14, 11, 36));
        for (double y : {19.0, 27.0, 35.0, 43.0}) {
            p.fillRect(QRectF(13, y, 7, 3), QColor(0x4e, 0x79, 0xa7));
            p.fillRect(QRectF(44, y, 7, 3), QColor(0x4e, 0x79, 0xa7));
            p.fillRect(QRectF(29, y, 6, 3), QColor(0xf2, 0x8e, 0x2b));
        }
        p.end();
        icon.addPixmap(pm);
    }
    return icon;
}

} // namespace ctwin::app
