#include "design_properties_form.h"

#include "design_json.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <algorithm>

namespace ctwin::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString joinLines(const std::vector<std::string>& lines) {
    QStringList out;
    for (const auto& l : lines)
        out << qs(l);
    return out.join(QLatin1Char('\n'));
}

} // namespace

DesignPropertiesForm::DesignPropertiesForm(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("designName"));
    m_name->setToolTip(tr("The design's name, shown in the title bar, reports and comparisons"));
    m_id = new QLabel(this);
    m_id->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_id->setToolTip(tr("The design's id (file names, comparisons); fixed"));
    m_description = new QPlainTextEdit(this);
    m_description->setObjectName(QStringLiteral("designDescription"));
    m_description->setTabChangesFocus(true);
    m_description->setPlaceholderText(tr("What this design models and why"));
    m_description->setMaximumHeight(120);
    m_sources = new QPlainTextEdit(this);
    m_sources->setObjectName(QStringLiteral("designSources"));
    m_sources->setTabChangesFocus(true);
    m_sources->setPlaceholderText(tr("One source per line (papers, datasheets, quotes)"));
    m_sources->setMaximumHeight(120);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Id"), m_id);
    form->addRow(tr("Description"), m_description);
    form->addRow(tr("Sources"), m_sources);
    // The headline convention of the TCO and every cost per unit derived from it (manual, Finance).
    m_tcoConvention = new QComboBox(this);
    m_tcoConvention->setObjectName(QStringLiteral("tcoConvention"));
    m_tcoConvention->addItem(tr("Economic (capital recovery at WACC)"), QStringLiteral("economic"));
    m_tcoConvention->addItem(tr("Accounting (straight-line depreciation)"), QStringLiteral("accounting"));
    m_tcoConvention->setToolTip(
        tr("Which annual-cost convention the headline TCO, cost per GPU-hour and cost "
           "per token use; reports show both"));
    form->addRow(tr("TCO convention"), m_tcoConvention);
    m_buildStart = new QLineEdit(this);
    m_buildStart->setObjectName(QStringLiteral("buildStart"));
    m_buildStart->setPlaceholderText(tr("YYYY-MM-DD (empty: an undated timeline)"));
    m_buildStart->setToolTip(tr("The day construction starts: the origin of the Timeline tab. Halls and "
                                "buildings energise at their energisation_date (empty: build start + "
                                "construction months)"));
    form->addRow(tr("Build start"), m_buildStart);
    connect(m_buildStart, &QLineEdit::editingFinished, this, [this] {
        if (m_buildStart->isModified()) m_dirty = true;
        commit();
    });
    connect(m_tcoConvention, &QComboBox::currentIndexChanged, this, [this] {
        if (m_filling) return;
        m_dirty = true;
        commit();
    });
    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        if (m_name->isModified()) m_dirty = true;
        commit();
    });
    for (QPlainTextEdit* e : {m_description, m_sources}) {
        e->installEventFilter(this);
        connect(e, &QPlainTextEdit::textChanged, this, [this] {
            if (!m_filling) m_dirty = true;
        });
    }
}

bool DesignPropertiesForm::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::FocusOut && (watched == m_description || watched == m_sources)) commit();
    return QWidget::eventFilter(watched, event);
}

void DesignPropertiesForm::showInfo(const model::ProjectInfo& info) {
    m_info = info;
    m_filling = true;
    if (!(m_name->hasFocus() && m_name->isModified())) {
        m_name->setText(qs(info.name));
        m_name->setModified(false);
    }
    m_id->setText(qs(info.id));
    if (!(m_dirty && m_description->hasFocus()) && m_description->toPlainText() != qs(info.description))
        m_description->setPlainText(qs(info.description));
    if (!(m_dirty && m_sources->hasFocus()) && m_sources->toPlainText() != joinLines(info.sources))
        m_sources->setPlainText(joinLines(info.sources));
    m_tcoConvention->setCurrentIndex(std::max(0, m_tcoConvention->findData(qs(info.tcoConvention))));
    if (!(m_buildStart->hasFocus() && m_buildStart->isModified())) {
        m_buildStart->setText(qs(info.buildStart));
        m_buildStart->setModified(false);
    }
    if (!m_description->hasFocus() && !m_sources->hasFocus()) m_dirty = false;
    m_filling = false;
}

void DesignPropertiesForm::commitPending() {
    if (m_name->isModified() || m_buildStart->isModified()) m_dirty = true;
    commit();
}

void DesignPropertiesForm::commit() {
    if (!m_dirty || m_filling) return;
    m_dirty = false;
    m_name->setModified(false);
    model::ProjectInfo next = m_info;
    next.name = m_name->text().trimmed().toStdString();
    next.description = m_description->toPlainText().trimmed().toStdString();
    next.sources.clear();
    for (const QString& line : m_sources->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty()) next.sources.push_back(line.trimmed().toStdString());
    next.tcoConvention = m_tcoConvention->currentData().toString().toStdString();
    m_buildStart->setModified(false);
    next.buildStart = m_buildStart->text().trimmed().toStdString();
    if (next.name == m_info.name && next.description == m_info.description &&
        next.sources == m_info.sources && next.tcoConvention == m_info.tcoConvention &&
        next.buildStart == m_info.buildStart)
        return;
    emit editRequested(qs(model::projectInfoToJson(next).dump()));
}

} // namespace ctwin::views
