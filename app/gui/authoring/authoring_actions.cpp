#include "authoring_actions.h"

#include "authoring_form.h"
#include "design_json.h"
#include "entity_references.h"
#include "gui/document_editor.h"
#include "gui/user_prompts.h"

#include <QAction>
#include <QMenu>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;
using model::EntityKind;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// "data hall" / "data halls" for messages.
QString noun(EntityKind kind, qsizetype n) {
    QString one = kind == EntityKind::RackPlacement ? QObject::tr("rack")
                  : authoringFor(kind)              ? authoringFor(kind)->title().toLower()
                                                    : qs(std::string(model::entityKindName(kind)));
    return n == 1 ? one : one + QStringLiteral("s");
}

/// Order of "what goes with it": containers down to racks, then what serves them, then the rest.
int mentionOrder(EntityKind k) {
    static const EntityKind order[] = {EntityKind::Site,          EntityKind::Building,
                                       EntityKind::DataHall,      EntityKind::Row,
                                       EntityKind::RackPlacement, EntityKind::PowerFeed,
                                       EntityKind::CoolingLoop,   EntityKind::Fabric,
                                       EntityKind::StorageTier,   EntityKind::ScaleAcrossLink,
                                       EntityKind::TrainingJob,   EntityKind::InferenceService};
    static_assert(std::size(order) == model::kAllEntityKinds.size(), "every entity kind has a mention order");
    return static_cast<int>(std::find(std::begin(order), std::end(order), k) - std::begin(order));
}

QString joinCounts(const QStringList& parts) {
    if (parts.size() <= 1) return parts.join(QString());
    return parts.mid(0, parts.size() - 1).join(QStringLiteral(", ")) + QObject::tr(" and ") + parts.back();
}

} // namespace

AuthoringActions::AuthoringActions(QWidget* window, const model::Document& document, DocumentEditor& editor,
                                   QUndoStack& undo, const model::Catalog& catalog,
                                   const model::AssumptionSet& defaults, Hooks hooks)
    : QObject(window), m_window(window), m_doc(document), m_editor(editor), m_undo(undo), m_catalog(catalog),
      m_defaults(defaults), m_hooks(std::move(hooks)) {
    for (const auto& m : authoringRegistry()) {
        auto* a = new QAction(tr("%1...").arg(m->title()), this);
        a->setObjectName(
            QStringLiteral("insert_%1").arg(qs(std::string(model::entityCollectionKey(m->kind())))));
        a->setStatusTip(tr("Add a %1 to the design").arg(m->title().toLower()));
        const EntityKind kind = m->kind();
        connect(a, &QAction::triggered, this, [this, kind] { insert(kind); });
        m_actions.insert(static_cast<int>(kind), a);
    }
}

AuthoringActions::~AuthoringActions() = default;

AuthoringContext AuthoringActions::context() const {
    return AuthoringContext{m_doc,
                            m_editor,
                            m_undo,
                            m_catalog,
                            m_defaults,
                            m_hooks.selection ? m_hooks.selection() : QStringList(),
                            m_hooks.current ? m_hooks.current() : QString()};
}

void AuthoringActions::populateInsertMenu(QMenu* menu) const {
    EntityKind previous = EntityKind::Site;
    for (const auto& m : authoringRegistry()) {
        // Separators between containers, infrastructure and workloads.
        if ((m->kind() == EntityKind::PowerFeed && previous == EntityKind::Row) ||
            (m->kind() == EntityKind::TrainingJob && previous == EntityKind::ScaleAcrossLink))
            menu->addSeparator();
        menu->addAction(m_actions.value(static_cast<int>(m->kind())));
        previous = m->kind();
    }
}

void AuthoringActions::populateToolBar(QToolBar* bar) const {
    for (const auto& m : authoringRegistry())
        bar->addAction(m_actions.value(static_cast<int>(m->kind())));
}

void AuthoringActions::updateActions() {
    const AuthoringContext ctx = context();
    for (const auto& m : authoringRegistry()) {
        QAction* a = m_actions.value(static_cast<int>(m->kind()));
        const QString why = m->unavailableReason(ctx);
        a->setEnabled(why.isEmpty());
        a->setToolTip(why.isEmpty() ? tr("Add a %1").arg(m->title().toLower()) : why);
    }
}

std::unique_ptr<AuthoringForm> AuthoringActions::makeForm(EntityKind kind, QWidget* parent) const {
    const EntityAuthoring* module = authoringFor(kind);
    if (!module) return nullptr;
    return std::make_unique<AuthoringForm>(*module, context(), parent ? parent : m_window);
}

QString AuthoringActions::insert(EntityKind kind, const QHash<QString, QString>& preset) {
    const EntityAuthoring* module = authoringFor(kind);
    if (!module) return {};
    if (const QString why = module->unavailableReason(context()); !why.isEmpty()) {
        if (m_hooks.report) m_hooks.report(why);
        return {};
    }
    auto form = makeForm(kind);
    for (auto it = preset.cbegin(); it != preset.cend(); ++it)
        if (!form->setText(it.key(), it.value())) form->setChoice(it.key(), it.value());
    if (form->exec() != QDialog::Accepted) return {};
    const QString id = form->createdId();
    if (!id.isEmpty() && m_hooks.select) m_hooks.select({id});
    return id;
}

void AuthoringActions::addContextActions(QMenu* menu, const QStringList& ids) {
    std::optional<EntityKind> kind;
    if (!ids.isEmpty())
        if (const auto slot = m_doc.index().find(ids.front().toStdString())) kind = slot->kind;
    bool added = false;
    for (const auto& m : authoringRegistry()) {
        if (!kind || m->parentKind() != kind) continue;
        const EntityKind k = m->kind();
        menu->addAction(tr("Add %1...").arg(m->title().toLower()), this, [this, k] { insert(k); });
        added = true;
    }
    if (kind == EntityKind::RackPlacement) {
        const auto n = static_cast<int>(ids.size());
        menu->addAction(tr("New cooling loop for the %n selected racks...", nullptr, n), this,
                        [this] { insert(EntityKind::CoolingLoop); });
        menu->addAction(tr("New power feed for the %n selected racks...", nullptr, n), this,
                        [this] { insert(EntityKind::PowerFeed); });
        added = true;
    }
    auto* insertMenu = menu->addMenu(tr("Insert"));
    populateInsertMenu(insertMenu);
    if (added) menu->addSeparator();
    if (ids.size() == 1 && kind && m_hooks.startRename) {
        auto* rename =
            menu->addAction(tr("Rename"), this, [this, id = ids.front()] { m_hooks.startRename(id); });
        rename->setShortcut(QKeySequence(Qt::Key_F2));
    }
}

QStringList AuthoringActions::deletionClosure(const QStringList& ids) const {
    const auto& p = m_doc.project();
    // Who refers to whom, one pass over the design: a required reference (a row's hall) makes the referrer
    // go with its target, as DocumentEditor::remove does; a link goes with either of its ends. The
    // references come from visitFields (no JSON per entity); the views point into the project.
    std::unordered_map<std::string_view, std::vector<const std::string*>> goesWith;
    p.forEachCollection([&](const auto& c) {
        for (const auto& e : c)
            model::forEachReference(
                e, [&](const char*, const std::string& target, model::ReferenceType type) {
                    if (type == model::ReferenceType::Required || type == model::ReferenceType::Endpoint)
                        goesWith[target].push_back(&e.id);
                });
    });
    QStringList out;
    std::set<std::string> seen;
    std::vector<std::string> work;
    for (const QString& id : ids) {
        if (!m_doc.index().find(id.toStdString())) {
            out << id; // CDU items ("<loop>#<n>") and the like pass through
            continue;
        }
        work.push_back(id.toStdString());
    }
    while (!work.empty()) {
        const std::string id = work.back();
        work.pop_back();
        if (!seen.insert(id).second) continue;
        out << qs(id);
        if (const auto it = goesWith.find(id); it != goesWith.end())
            for (const std::string* child : it->second)
                work.push_back(*child);
    }
    return out;
}

QString AuthoringActions::deletionQuestion(const QStringList& ids) const {
    return deletionQuestion(ids, deletionClosure(ids));
}

QString AuthoringActions::deletionQuestion(const QStringList& ids, const QStringList& all) const {
    const auto& p = m_doc.project();
    std::map<EntityKind, int> selected;
    std::map<int, std::pair<EntityKind, int>> extra; // by mentionOrder
    QString firstName;
    int buildingsGoing = 0;
    QStringList links;
    for (const QString& id : all) {
        const auto slot = m_doc.index().find(id.toStdString());
        if (!slot) continue;
        const bool chosen = ids.contains(id);
        if (chosen)
            ++selected[slot->kind];
        else
            extra.try_emplace(mentionOrder(slot->kind), slot->kind, 0).first->second.second++;
        p.withCollection(slot->kind, [&](const auto& c) {
            const auto& e = c[slot->index];
            if (chosen && firstName.isEmpty()) firstName = qs(e.name.empty() ? e.id : e.name);
            if (slot->kind == EntityKind::ScaleAcrossLink && !chosen)
                links << qs(e.name.empty() ? e.id : e.name);
        });
        buildingsGoing += slot->kind == EntityKind::Building;
    }
    const bool onlyRacks = extra.empty() && std::all_of(selected.begin(), selected.end(), [](const auto& kv) {
                               return kv.first == EntityKind::RackPlacement;
                           });
    const bool lastBuilding = buildingsGoing > 0 && buildingsGoing == static_cast<int>(p.buildings.size());
    if (onlyRacks && !lastBuilding) return {};
    int chosenCount = 0;
    for (const auto& [k, n] : selected)
        chosenCount += n;
    QString what;
    if (chosenCount == 1)
        what = firstName;
    else if (selected.size() == 1)
        what = QStringLiteral("%1 %2").arg(chosenCount).arg(noun(selected.begin()->first, chosenCount));
    else
        what = tr("%1 items").arg(chosenCount);
    QStringList parts;
    for (const auto& [order, kn] : extra)
        parts << QStringLiteral("%1 %2").arg(kn.second).arg(noun(kn.first, kn.second));
    QString question = parts.isEmpty()
                           ? tr("Delete %1?").arg(what)
                           : tr("Delete %1 and %2 %3?")
                                 .arg(what, chosenCount == 1 ? tr("its") : tr("their"), joinCounts(parts));
    if (lastBuilding)
        question +=
            QStringLiteral("\n\n") + tr("This leaves the design without a building: nothing is left to "
                                        "place racks in.");
    if (!links.isEmpty())
        question +=
            QStringLiteral("\n\n") + tr("The scale-across links %1 join what is deleted; they go too.")
                                         .arg(links.join(QStringLiteral(", ")));
    return question;
}

bool AuthoringActions::deleteWithConfirmation(const QStringList& ids) {
    if (ids.isEmpty()) return false;
    const QStringList all = deletionClosure(ids); // one walk over the design for the question and the delete
    const QString question = deletionQuestion(ids, all);
    if (!question.isEmpty() && m_hooks.prompts &&
        !m_hooks.prompts().confirm(m_window, tr("Delete"), question))
        return false;
    const QString error = m_editor.remove(all);
    if (!error.isEmpty()) {
        if (m_hooks.report) m_hooks.report(tr("Cannot delete: %1").arg(error));
        return false;
    }
    return true;
}

QString AuthoringActions::rename(const QString& id, const QString& name) {
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty()) return tr("A name cannot be empty.");
    return m_editor.setProperty({id}, QStringLiteral("name"), trimmed.toStdString(), false);
}

} // namespace ctwin::app
