#include "message_bar.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace ctwin::app {

MessageBar::MessageBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    m_icon = new QLabel(this);
    layout->addWidget(m_icon);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_text, 1);
    m_buttons = new QHBoxLayout;
    layout->addLayout(m_buttons);
    auto* close = new QToolButton(this);
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    connect(close, &QToolButton::clicked, this, &MessageBar::dismiss);
    layout->addWidget(close);
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &MessageBar::dismiss);
    hide();
}

void MessageBar::applyLevelStyle() {
    // A tint of the palette's window colour towards blue (info) or amber (warning): readable in the light
    // and the dark theme alike, since the text keeps the palette's own colour.
    const QPalette app = QApplication::palette();
    const QColor window = app.color(QPalette::Window);
    const QColor tint = m_level == Level::Warning ? QColor(230, 160, 20) : QColor(60, 130, 220);
    const double mix = 0.22;
    const QColor bg = QColor::fromRgbF(window.redF() * (1 - mix) + tint.redF() * mix,
                                       window.greenF() * (1 - mix) + tint.greenF() * mix,
                                       window.blueF() * (1 - mix) + tint.blueF() * mix);
    QPalette p = app;
    p.setColor(QPalette::Window, bg);
    setPalette(p);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()
                          ->standardIcon(m_level == Level::Warning ? QStyle::SP_MessageBoxWarning
                                                                   : QStyle::SP_MessageBoxInformation)
                          .pixmap(size, size));
}

void MessageBar::showMessage(const QString& text, Level level, std::vector<Button> buttons, int timeoutMs) {
    for (QPushButton* b : m_buttonWidgets)
        b->deleteLater();
    m_buttonWidgets.clear();
    m_level = level;
    m_text->setText(text);
    for (auto& b : buttons) {
        auto* w = new QPushButton(b.text, this);
        connect(w, &QPushButton::clicked, this, [this, action = std::move(b.action)] {
            dismiss();
            if (action) action();
        });
        m_buttons->addWidget(w);
        m_buttonWidgets.push_back(w);
    }
    applyLevelStyle();
    show();
    if (timeoutMs > 0)
        m_timer->start(timeoutMs);
    else
        m_timer->stop();
}

void MessageBar::dismiss() {
    m_timer->stop();
    hide();
    m_text->clear();
}

QString MessageBar::text() const {
    return isHidden() ? QString() : m_text->text();
}

QStringList MessageBar::buttonTexts() const {
    QStringList out;
    for (const QPushButton* b : m_buttonWidgets)
        out << b->text();
    return out;
}

bool MessageBar::trigger(const QString& buttonText) {
    for (QPushButton* b : m_buttonWidgets)
        if (b->text() == buttonText) {
            b->click();
            return true;
        }
    return false;
}

} // namespace ctwin::app
