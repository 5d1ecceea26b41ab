#include "assumptions_dock.h"

#include "assumptions_panel.h"
#include "document.h"
#include "evaluate.h"
#include "field_names.h"
#include "gui/document_editor.h"
#include "inspector_panel.h"
#include "json_fast_parse.h"

#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QMainWindow>
#include <limits>

namespace ctwin::app {

AssumptionsDock::AssumptionsDock(QMainWindow* window, model::Document& document, DocumentEditor& editor,
                                 const model::AssumptionSet& defaults, views::InspectorPanel* inspector)
    : QObject(nullptr), m_document(document), m_editor(editor), m_defaults(defaults), m_inspector(inspector) {
    m_panel = new views::AssumptionsPanel;
    m_dock = new QDockWidget(tr("Assumptions"), window);
    m_dock->setObjectName(QStringLiteral("assumptionsDock"));
    m_dock->setWidget(m_panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    // A tab beside the dashboard: the table needs the width of the window, not a corner of it.
    if (auto* dashboard = window->findChild<QDockWidget*>(QStringLiteral("dashboardDock"))) {
        window->tabifyDockWidget(dashboard, m_dock);
        dashboard->raise();
    }
    connect(m_panel, &views::AssumptionsPanel::editRequested, this,
            [this](const QString& key, const model::Assumption& value) {
                // What the user saw: the design's override, else the shipped default.
                std::optional<model::Assumption> shown;
                const std::string k = key.toStdString();
                if (const auto it = m_document.project().assumptions.find(k);
                    it != m_document.project().assumptions.end())
                    shown = it->second;
                else if (const auto d = m_defaults.find(k); d != m_defaults.end())
                    shown = d->second;
                // A new base that no part of the design reads (every entity that would fall back to it sets
                // its own value, e.g. every site its tariff) changes nothing: refused, naming what shadows
                // it, as the CLI's --set refuses it (exit 3). Low and high still shape those entities'
                // ranges, so they stay editable.
                // (The panel has checked the value against its valid range and low <= base <= high.)
                if (shown && value.base != shown->base) {
                    const QStringList shadows = shadowingInputs(k, kMaxShadowsNamed);
                    if (!shadows.isEmpty()) {
                        const QStringList all = shadowingInputs(k, std::numeric_limits<qsizetype>::max());
                        // The offer: those entities follow the assumption from now on
                        // (their own values cleared) and it takes the new value, as one undo step; their
                        // ranges then follow the value they use (the resolver's relative range).
                        m_offer = PendingOffer{key, value, shown, all};
                        m_panel->showError(
                            tr("Not applied: %1 is used by none of this design's entities, each of which "
                               "sets its own value (%2). Apply the new value to them (their own values are "
                               "cleared so that they follow this assumption; one undo step), edit those "
                               "values in the inspector, or clear one of them so that it falls back to this "
                               "assumption. The design is unchanged.")
                                .arg(key, shadows.join(QStringLiteral(", ")) +
                                              (all.size() > shadows.size()
                                                   ? tr(" and %n more", nullptr,
                                                        static_cast<int>(all.size() - shadows.size()))
                                                   : QString())),
                            tr("Apply to those %n entities", nullptr, static_cast<int>(all.size())));
                        refresh();
                        return;
                    }
                }
                const QString error = m_editor.setAssumption(key, value, shown);
                if (!error.isEmpty()) {
                    m_panel->showError(tr("Rejected: %1. The design is unchanged.").arg(error));
                    refresh();
                }
            });
    connect(m_panel, &views::AssumptionsPanel::offerAccepted, this, [this] {
        if (!m_offer) return;
        const PendingOffer offer = std::move(*m_offer);
        m_offer.reset();
        const QString error = applyToShadowingEntities(offer);
        if (!error.isEmpty()) m_panel->showError(tr("Rejected: %1. The design is unchanged.").arg(error));
    });
    connect(m_panel, &views::AssumptionsPanel::resetRequested, this, [this](const QString& key) {
        const QString error = m_editor.setAssumption(key, std::nullopt);
        if (!error.isEmpty()) m_panel->showError(tr("Cannot reset: %1").arg(error));
    });
    connect(m_inspector, &views::InspectorPanel::projectInfoEditRequested, this, [this](const QString& json) {
        QString error;
        try {
            error = m_editor.setProjectInfo(model::parseJson(json.toStdString()));
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_inspector->showEditResult(m_document, error);
    });
    m_document.addListener(this);
    refresh();
    // A line edit takes Ctrl+Z for its own text undo before any window shortcut; the key press is caught
    // here instead (one type check per event).
    qApp->installEventFilter(this);
}

AssumptionsDock::~AssumptionsDock() {
    qApp->removeEventFilter(this);
    m_document.removeListener(this);
}

bool AssumptionsDock::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::KeyPress || !m_undoHandler || !watched->isWidgetType()) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const bool undo = key->matches(QKeySequence::Undo), redo = key->matches(QKeySequence::Redo);
    if (!undo && !redo) return false;
    auto* w = static_cast<QWidget*>(watched);
    if (!m_inspector->isAncestorOf(w) && !m_panel->isAncestorOf(w)) return false;
    m_undoHandler(redo); // commits the field first
    return true;
}

QString AssumptionsDock::applyToShadowingEntities(const PendingOffer& offer) {
    const std::string key = offer.key.toStdString();
    const std::string label = tr("Set %1 and apply it to %n entities that set their own value", nullptr,
                                 static_cast<int>(offer.paths.size()))
                                  .arg(views::fieldName(key))
                                  .toStdString();
    return m_editor.run(label, [&](model::Transaction& t) {
        for (const QString& path : offer.paths) {
            // COLLECTION.ID.FIELD (cost/input_resolver.h); an id may hold dots, the field does not.
            const qsizetype first = path.indexOf(QLatin1Char('.')), last = path.lastIndexOf(QLatin1Char('.'));
            if (first < 0 || last <= first) continue;
            t.setProperty(path.mid(first + 1, last - first - 1).toStdString(),
                          path.mid(last + 1).toStdString(), nullptr);
        }
        t.setAssumption(key, offer.value);
    });
}

QStringList AssumptionsDock::shadowingInputs(const std::string& key, qsizetype limit) const {
    QStringList out;
    const model::Catalog* catalog = m_document.catalog();
    if (!catalog) return out;
    cost::Results r;
    try {
        r = cost::evaluate(m_document.project(), *catalog, m_defaults);
    } catch (const std::exception&) {
        return out; // the edit path reports what is wrong with the design
    }
    const std::string path = "assumptions." + key;
    bool used = true;
    for (const auto& in : r.inputs)
        if (in.path == path) used = in.used;
    if (used) return out;
    // The entity values that kept the assumption from being read: their own values, falling back to it.
    for (const auto& in : r.inputs)
        if (in.fallback == path && out.size() < limit &&
            (in.level == cost::InputLevel::Entity || in.level == cost::InputLevel::Override))
            out << QString::fromStdString(in.path);
    return out;
}

void AssumptionsDock::commitPending() {
    m_panel->commitPending();
    m_inspector->commitPending();
}

void AssumptionsDock::documentChanged(const model::ChangeSet& changes) {
    if (!changes.assumptions.empty()) refresh();
}

void AssumptionsDock::documentReset() {
    m_offer.reset();
    m_panel->clearError();
    refresh();
}

void AssumptionsDock::refresh() {
    m_panel->showAssumptions(m_defaults, m_document.project().assumptions);
}

} // namespace ctwin::app
