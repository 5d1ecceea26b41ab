#pragma once
#include <QFrame>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTimer;

namespace ctwin::app {

/// A message across the top of the window's centre (QGIS's message bar, KiCad's infobar): what the user
/// must see but need not answer at once, e.g. a refused paste, a shipped reference opened as a copy,
/// unsaved work an earlier session left behind. One message at a time; a new one replaces it. Buttons run
/// their action and close the bar; the close button dismisses it.
class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning };
    struct Button {
        QString text;
        std::function<void()> action;
    };
    explicit MessageBar(QWidget* parent = nullptr);
    /// Shows `text` (rich text allowed) with `buttons`; `timeoutMs` > 0 hides it after that long.
    void showMessage(const QString& text, Level level, std::vector<Button> buttons = {}, int timeoutMs = 0);
    void dismiss();
    QString text() const;
    Level level() const { return m_level; }
    /// The button texts of the message shown (tests).
    QStringList buttonTexts() const;
    /// Clicks the button with this text (tests); false when there is none.
    bool trigger(const QString& buttonText);

private:
    void applyLevelStyle();

    QLabel* m_icon = nullptr;
    QLabel* m_text = nullptr;
    QHBoxLayout* m_buttons = nullptr;
    QPushButton* m_close = nullptr;
    QTimer* m_timer = nullptr;
    Level m_level = Level::Info;
    std::vector<QPushButton*> m_buttonWidgets;
};

} // namespace ctwin::app
