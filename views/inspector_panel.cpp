#include "inspector_panel.h"

#include "design_json.h"
#include "design_properties_form.h"
#include "design_root.h"
#include "json_fast_parse.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace ctwin::views {

using ojson = nlohmann::ordered_json;
using Type = FieldSpec::Type;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

bool endsWith(const std::string& s, const char* suffix) {
    const std::string_view x(suffix);
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

/// "power_capacity_w" -> "Power capacity" (the unit is shown beside the editor).
QString labelFor(const std::string& key) {
    std::string k = key;
    for (const char* suffix : {"_usd_per_kwh", "_usd_per_m_year", "_hours_per_year", "_bit_per_s", "_bytes",
                               "_usd", "_deg", "_w", "_m", "_c", "_k", "_s"})
        if (endsWith(k, suffix) && k.size() > std::string_view(suffix).size()) {
            k.resize(k.size() - std::string_view(suffix).size());
            break;
        }
    QString out = qs(k).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!out.isEmpty()) out[0] = out[0].toUpper();
    return out;
}

ojson entityJson(const model::Document& doc, const QString& id) {
    const auto slot = doc.index().find(id.toStdString());
    if (!slot) return nullptr;
    return doc.project().withCollection(slot->kind,
                                        [&](const auto& c) { return model::entityToJson(c[slot->index]); });
}

} // namespace

InspectorPanel::InspectorPanel(const model::Catalog& catalog, QWidget* parent)
    : QWidget(parent), m_catalog(catalog) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    m_title = new QLabel(tr("Nothing selected"), this);
    m_title->setWordWrap(true);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("inspectorError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { background: #fde2e1; color: #8a1c17; border: 1px solid "
                                          "#e0908c; border-radius: 3px; padding: 4px; }"));
    m_error->hide();
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->hide();
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_form = new QWidget(scroll);
    m_layout = new QFormLayout(m_form);
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // At the dock's default width a long label goes above its field instead of squeezing it (a tariff of
    // 0.045 read "045" and the Use default button was cut).
    m_layout->setRowWrapPolicy(QFormLayout::WrapLongRows);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(m_form);
    m_scroll = scroll;
    m_design = new DesignPropertiesForm(this);
    m_design->hide();
    connect(m_design, &DesignPropertiesForm::editRequested, this, &InspectorPanel::projectInfoEditRequested);
    outer->addWidget(m_title);
    outer->addWidget(m_error);
    outer->addWidget(m_summary);
    outer->addWidget(scroll, 1);
    outer->addWidget(m_design);
    outer->addStretch(0);
}

bool InspectorPanel::showDesign(const model::Document& doc, const QStringList& ids) {
    const bool design = ids.size() == 1 && ids.front() == kDesignRootId;
    m_design->setVisible(design);
    m_scroll->setVisible(!design);
    if (!design) return false;
    m_ids = ids;
    m_editors.clear();
    m_byKey.clear();
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_summary->hide();
    const auto& info = doc.project().info;
    m_title->setText(tr("Design %1").arg(qs(info.name.empty() ? info.id : info.name)));
    m_design->showInfo(info);
    return true;
}

void InspectorPanel::commitPending() {
    if (!m_design->isHidden()) m_design->commitPending();
    for (const Editor& e : m_editors)
        if (auto* line = qobject_cast<QLineEdit*>(e.widget); line && line->hasFocus() && line->isModified())
            commitText(qs(e.spec.key));
}

void InspectorPanel::setUnits(const DisplayUnits& units) {
    m_units = units;
}

QWidget* InspectorPanel::editor(const QString& key) const {
    const auto it = m_byKey.constFind(key);
    return it == m_byKey.constEnd() ? nullptr : m_editors[static_cast<size_t>(*it)].widget;
}

QString InspectorPanel::errorText() const {
    return m_error->text();
}
bool InspectorPanel::errorVisible() const {
    return !m_error->isHidden();
}

void InspectorPanel::showError(const QString& message) {
    m_error->setText(message);
    m_error->show();
}

void InspectorPanel::clearError() {
    m_error->clear();
    m_error->hide();
}

void InspectorPanel::showEditResult(const model::Document& document, const QString& error) {
    if (error.isEmpty()) {
        clearError();
        return;
    }
    showError(tr("Rejected: %1. The design is unchanged.").arg(error));
    refresh(document);
}

void InspectorPanel::showSelection(const model::Document& doc, const QStringList& ids) {
    clearError();
    if (showDesign(doc, ids)) return;
    m_ids.clear();
    std::optional<model::EntityKind> kind;
    for (const QString& id : ids) {
        const auto slot = doc.index().find(id.toStdString());
        if (!slot) continue;
        if (kind && *kind != slot->kind) continue; // a mixed selection edits the first kind only
        kind = slot->kind;
        m_ids << id;
    }
    if (kind) m_kind = *kind;
    build(doc);
}

void InspectorPanel::refresh(const model::Document& doc) {
    if (m_ids.size() == 1 && m_ids.front() == kDesignRootId) {
        showDesign(doc, m_ids);
        return;
    }
    QStringList still;
    for (const QString& id : std::as_const(m_ids))
        if (doc.index().find(id.toStdString())) still << id;
    if (still.size() != m_ids.size()) {
        m_ids = still;
        build(doc);
        return;
    }
    fill(doc);
}

void InspectorPanel::unitFor(const std::string& key, double typical, QString* unit, double* scale) const {
    *scale = 1.0;
    *unit = QString();
    const QString& cur = m_units.currency;
    // The magnitudes the creation forms use (app/gui/authoring/authoring_form.cpp), so that a value reads
    // the same in the form that made it and in the inspector (issue 36: no raw 405000000000).
    if (key == "model_params" || key == "active_params")
        *unit = tr("B params"), *scale = 1e9;
    else if (key == "tokens")
        *unit = tr("T tokens"), *scale = 1e12;
    else if (key == "global_batch_tokens")
        *unit = tr("M tokens"), *scale = 1e6;
    else if (key == "sequence_length")
        *unit = tr("tokens");
    else if (key == "node_failure_rate_per_day")
        *unit = tr("/node/day");
    else if (key == "node_failure_rate_gpus")
        *unit = tr("GPUs/node");
    else if (key == "route_length_m")
        *unit = QStringLiteral("km"), *scale = 1e3;
    else if (endsWith(key, "_usd_per_kwh"))
        *unit = cur + QStringLiteral("/kWh");
    else if (endsWith(key, "_usd_per_m_year"))
        *unit = cur + QStringLiteral("/m/yr");
    else if (endsWith(key, "_usd"))
        *unit = cur;
    else if (endsWith(key, "_hours_per_year"))
        *unit = QStringLiteral("h/yr");
    else if (endsWith(key, "_bit_per_s"))
        *unit = QStringLiteral("Gb/s"), *scale = 1e9;
    else if (endsWith(key, "_bytes"))
        *unit = QStringLiteral("TB"), *scale = 1e12;
    else if (endsWith(key, "_w")) {
        *unit = m_units.powerUnitFor(typical);
        *scale = m_units.powerFromDisplay(1.0, *unit);
    } else if (endsWith(key, "_m")) {
        *unit = m_units.lengthUnit();
        *scale = m_units.lengthFromDisplay(1.0);
    } else if (endsWith(key, "_deg"))
        *unit = QStringLiteral("°");
    else if (endsWith(key, "_c"))
        *unit = QStringLiteral("°C");
    else if (endsWith(key, "_k"))
        *unit = QStringLiteral("K");
    else if (endsWith(key, "_s"))
        *unit = QStringLiteral("ms"), *scale = 1e-3;
}

QString InspectorPanel::shown(const Editor& e, const ojson& v) const {
    if (e.spec.type == Type::Number || e.spec.type == Type::Integer) {
        if (!v.is_number()) return {};
        const double x = v.get<double>() / e.scale;
        // Enough digits to round-trip what users type; no exponent for ordinary magnitudes.
        QString s = QLocale::c().toString(x, 'f', 6);
        if (s.contains(QLatin1Char('.'))) {
            while (s.endsWith(QLatin1Char('0')))
                s.chop(1);
            if (s.endsWith(QLatin1Char('.'))) s.chop(1);
        }
        return s;
    }
    if (v.is_string()) return qs(v.get<std::string>());
    if (e.spec.textList && v.is_array()) {
        QStringList items;
        for (const auto& x : v)
            items << (x.is_string() ? qs(x.get<std::string>()) : qs(x.dump()));
        return items.join(QStringLiteral(", "));
    }
    return qs(v.dump());
}

void InspectorPanel::updateHeader(const model::Document& doc) {
    if (m_ids.isEmpty()) return;
    const ojson first = entityJson(doc, m_ids.front());
    m_summary->hide();
    const QString kindName = qs(std::string(model::entityKindName(m_kind)));
    if (m_ids.size() == 1)
        m_title->setText(
            QStringLiteral("%1 %2").arg(kindName, qs(first.value("name", first.value("id", "")))));
    else
        m_title->setText(tr("%1 %2s (edits apply to all)").arg(m_ids.size()).arg(kindName));
    if (m_kind == model::EntityKind::RackPlacement) {
        // What the rack type brings, from the catalog (read only).
        if (const auto* item = m_catalog.find(first.value("rack_type", ""))) {
            const auto v = [&](const char* f) { return item->find(f) ? item->find(f)->base : 0.0; };
            if (item->kind == "network") // holds leaves: its room and PDU, not GPUs
                m_summary->setText(tr("%1: network rack, %2 U for leaf switches, %3 PDU, %4 per rack")
                                       .arg(qs(item->name))
                                       .arg(v("rack_units"))
                                       .arg(m_units.formatPower(v("power_capacity_w")),
                                            m_units.formatMoney(v("price_usd"))));
            else
                m_summary->setText(
                    tr("%1: %2 GPUs, %3 at load, %4 per rack")
                        .arg(qs(item->name))
                        .arg(v("gpus"))
                        .arg(m_units.formatPower(v("power_load_w")), m_units.formatMoney(v("price_usd"))));
            m_summary->show();
        }
    }
}

void InspectorPanel::build(const model::Document& doc) {
    m_editors.clear();
    m_byKey.clear();
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_summary->hide();
    if (m_ids.isEmpty()) {
        m_title->setText(tr("Nothing selected"));
        return;
    }
    const ojson first = entityJson(doc, m_ids.front());
    updateHeader(doc);
    for (const FieldSpec& spec : FieldSpec::forKind(m_kind)) {
        if (m_ids.size() > 1 && (spec.key == "id" || spec.key == "name")) continue;
        Editor e;
        e.spec = spec;
        const ojson& v = first.contains(spec.key) ? first[spec.key] : ojson();
        unitFor(spec.key, v.is_number() ? v.get<double>() : 0.0, &e.unit, &e.scale);
        e.widget = makeEditor(e, doc);
        m_byKey.insert(qs(spec.key), static_cast<int>(m_editors.size()));
        QString label = labelFor(spec.key);
        auto* row = new QWidget(m_form);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(e.widget, 1);
        if (!e.unit.isEmpty()) h->addWidget(new QLabel(e.unit, row));
        if (e.spec.optional && e.spec.type == Type::Number) addOptionalButtons(e, row);
        QString tip = qs(spec.key);
        if ((spec.type == Type::Number || spec.type == Type::Integer) && spec.bounds.max > spec.bounds.min)
            tip += tr("\naccepted: %1 to %2 %3")
                       .arg(spec.bounds.min / e.scale, 0, 'g', 6)
                       .arg(spec.bounds.max / e.scale, 0, 'g', 6)
                       .arg(e.unit) +
                   (*spec.bounds.reason ? "\n" + QString::fromUtf8(spec.bounds.reason) : QString());
        e.widget->setToolTip(tip);
        m_layout->addRow(label, row);
        m_editors.push_back(e);
    }
    fill(doc);
}

QWidget* InspectorPanel::makeEditor(Editor& e, const model::Document& doc) {
    const QString key = qs(e.spec.key);
    switch (e.spec.type) {
    case Type::Flag: {
        auto* box = new QCheckBox(m_form);
        connect(box, &QCheckBox::toggled, this, [this, key](bool on) {
            if (!m_filling)
                emit editRequested(m_ids, key, on ? QStringLiteral("true") : QStringLiteral("false"));
        });
        return box;
    }
    case Type::Choice:
    case Type::Ref:
    case Type::CatalogRef: {
        auto* combo = new QComboBox(m_form);
        if (e.spec.optional) combo->addItem(tr("(none)"), QString());
        if (e.spec.type == Type::Choice) {
            for (const auto& c : e.spec.choices)
                combo->addItem(qs(c), qs(c));
        } else if (e.spec.type == Type::CatalogRef) {
            for (const auto* item : m_catalog.byCategory(e.spec.catalogCategory))
                combo->addItem(QStringLiteral("%1 (%2)").arg(qs(item->name), qs(item->id)), qs(item->id));
        } else {
            doc.project().withCollection(e.spec.refKind, [&](const auto& c) {
                for (const auto& x : c)
                    combo->addItem(x.name.empty() ? qs(x.id)
                                                  : QStringLiteral("%1 (%2)").arg(qs(x.name), qs(x.id)),
                                   qs(x.id));
            });
        }
        connect(combo, &QComboBox::activated, this, [this, key, combo](int index) {
            if (m_filling || index < 0) return;
            emit editRequested(m_ids, key, qs(ojson(combo->itemData(index).toString().toStdString()).dump()));
        });
        return combo;
    }
    case Type::Text:
    case Type::Number:
    case Type::Integer:
    case Type::Json: {
        if (e.spec.endpoint) {
            // A link's end is a site or a building: picked by name (issue 36: no ids to type).
            auto* combo = new QComboBox(m_form);
            const auto add = [&](const auto& c, const QString& kindName) {
                for (const auto& x : c)
                    combo->addItem(
                        QStringLiteral("%1 (%2)").arg(x.name.empty() ? qs(x.id) : qs(x.name), kindName),
                        qs(x.id));
            };
            add(doc.project().sites, tr("site"));
            add(doc.project().buildings, tr("building"));
            connect(combo, &QComboBox::activated, this, [this, key, combo](int index) {
                if (m_filling || index < 0) return;
                emit editRequested(m_ids, key,
                                   qs(ojson(combo->itemData(index).toString().toStdString()).dump()));
            });
            return combo;
        }
        auto* line = new QLineEdit(m_form);
        // Room for a typical value at the dock's default width.
        line->setMinimumWidth(line->fontMetrics().horizontalAdvance(QStringLiteral("0000000.000")));
        line->setReadOnly(e.spec.key == "id");
        connect(line, &QLineEdit::editingFinished, this, [this, key] { commitText(key); });
        return line;
    }
    }
    return new QWidget(m_form);
}

void InspectorPanel::fill(const model::Document& doc) {
    updateHeader(doc); // a renamed entity or a changed rack type shows at once
    m_filling = true;
    m_absent.clear();
    std::vector<ojson> entities;
    for (const QString& id : std::as_const(m_ids))
        entities.push_back(entityJson(doc, id));
    for (Editor& e : m_editors) {
        const ojson v = entities.front().contains(e.spec.key) ? entities.front()[e.spec.key] : ojson();
        e.mixed = false;
        for (const auto& other : entities)
            if (!other.contains(e.spec.key) || other[e.spec.key] != v) e.mixed = true;
        if (auto* line = qobject_cast<QLineEdit*>(e.widget)) {
            if (!line->hasFocus() || !line->isModified()) {
                line->setText(e.mixed ? QString() : shown(e, v));
                line->setPlaceholderText(e.mixed ? tr("(mixed)") : QString());
                line->setModified(false);
            }
            if (e.spec.optional && !e.mixed && v.is_null()) m_absent << qs(e.spec.key);
        } else if (auto* box = qobject_cast<QCheckBox*>(e.widget)) {
            box->setTristate(e.mixed);
            box->setCheckState(e.mixed ? Qt::PartiallyChecked
                                       : (v.is_boolean() && v.get<bool>() ? Qt::Checked : Qt::Unchecked));
        } else if (auto* combo = qobject_cast<QComboBox*>(e.widget)) {
            const int i = e.mixed || !v.is_string() ? -1 : combo->findData(qs(v.get<std::string>()));
            combo->setCurrentIndex(i);
        }
    }
    m_filling = false;
    showOptionalDefaults();
}

// ---- Optional fields ----

void InspectorPanel::setResolvedInputs(const std::vector<cost::ResolvedInput>& inputs) {
    m_inputs.clear();
    for (const auto& in : inputs)
        m_inputs[in.path] = in;
    showOptionalDefaults();
}

QString InspectorPanel::optionalDefaultText(const Editor& e) const {
    if (m_ids.size() != 1) return tr("default");
    const std::string path = std::string(model::entityCollectionKey(m_kind)) + "." +
                             m_ids.front().toStdString() + "." + e.spec.key;
    const auto it = m_inputs.find(path);
    if (it == m_inputs.end() || it->second.fallback.empty())
        return tr("default (none: the engine computes it)");
    const auto& in = it->second;
    const QString from = in.level == cost::InputLevel::Override ? tr("an override")
                         : in.level == cost::InputLevel::Design ? tr("the design's assumptions")
                                                                : tr("assumptions");
    return tr("default (%1 %2 from %3)")
        .arg(shown(e, nlohmann::ordered_json(in.value)), e.unit.isEmpty() ? qs(in.unit) : e.unit, from);
}

void InspectorPanel::showOptionalDefaults() {
    for (const QString& key : std::as_const(m_absent)) {
        const auto it = m_byKey.constFind(key);
        if (it == m_byKey.constEnd()) continue;
        const Editor& e = m_editors[static_cast<size_t>(*it)];
        if (auto* line = qobject_cast<QLineEdit*>(e.widget)) line->setPlaceholderText(optionalDefaultText(e));
    }
}

void InspectorPanel::addOptionalButtons(const Editor& e, QWidget* row) {
    const QString key = qs(e.spec.key);
    auto* layout = qobject_cast<QHBoxLayout*>(row->layout());
    auto* overrideButton = new QToolButton(row);
    overrideButton->setText(tr("Override"));
    overrideButton->setToolTip(tr("Give this entity its own value, starting from the default it uses now"));
    auto* clear = new QToolButton(row);
    clear->setText(tr("Reset"));
    clear->setToolTip(tr("Clear this entity's own value: the engine falls back to its default"));
    layout->addWidget(overrideButton);
    layout->addWidget(clear);
    connect(overrideButton, &QToolButton::clicked, this, [this, key] {
        const auto it = m_byKey.constFind(key);
        if (it == m_byKey.constEnd()) return;
        const Editor& ed = m_editors[static_cast<size_t>(*it)];
        auto* line = qobject_cast<QLineEdit*>(ed.widget);
        if (!line || !line->text().isEmpty() || m_ids.size() != 1) return;
        const std::string path = std::string(model::entityCollectionKey(m_kind)) + "." +
                                 m_ids.front().toStdString() + "." + ed.spec.key;
        const auto in = m_inputs.find(path);
        if (in == m_inputs.end()) return;
        line->setText(shown(ed, nlohmann::ordered_json(in->second.value)));
        line->setModified(true);
        commitText(key);
    });
    connect(clear, &QToolButton::clicked, this, [this, key] {
        if (!m_ids.isEmpty()) emit editRequested(m_ids, key, QStringLiteral("null"));
    });
}

void InspectorPanel::commitText(const QString& key) {
    const auto it = m_byKey.constFind(key);
    if (it == m_byKey.constEnd() || m_filling) return;
    const Editor& e = m_editors[static_cast<size_t>(*it)];
    auto* line = qobject_cast<QLineEdit*>(e.widget);
    if (!line || line->isReadOnly() || !line->isModified()) return;
    line->setModified(false);
    const QString text = line->text().trimmed();
    if (text.isEmpty() && e.mixed) return;
    // An emptied optional field goes back to the engine's default (JSON null, schema 2).
    if (text.isEmpty() && e.spec.optional && e.spec.type == Type::Number) {
        emit editRequested(m_ids, key, QStringLiteral("null"));
        return;
    }
    const QString label = labelFor(e.spec.key);
    ojson value;
    switch (e.spec.type) {
    case Type::Number:
    case Type::Integer: {
        QString t = text;
        t.remove(QLatin1Char(',')).remove(QLatin1Char(' '));
        bool ok = false;
        const double shownValue = QLocale::c().toDouble(t, &ok);
        if (!ok || !std::isfinite(shownValue)) {
            showError(tr("%1: '%2' is not a number; the design is unchanged.").arg(label, text));
            return;
        }
        const double si = shownValue * e.scale;
        if (e.spec.type == Type::Integer) {
            if (std::abs(si - std::round(si)) > 1e-9 || std::abs(si) > 2e9) {
                showError(tr("%1: '%2' is not a whole number; the design is unchanged.").arg(label, text));
                return;
            }
            value = static_cast<int>(std::lround(si));
        } else {
            value = si;
        }
        break;
    }
    case Type::Json:
        if (e.spec.textList && !text.startsWith(QLatin1Char('['))) {
            // "a, b, c" as shown.
            value = ojson::array();
            for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
                if (!item.trimmed().isEmpty()) value.push_back(item.trimmed().toStdString());
            break;
        }
        try {
            value = model::parseJson(text.toStdString());
        } catch (const std::exception&) {
            showError(tr("%1: '%2' is not a valid list (JSON); the design is unchanged.").arg(label, text));
            return;
        }
        break;
    default:
        value = text.toStdString();
        break;
    }
    emit editRequested(m_ids, key, qs(value.dump()));
}

} // namespace ctwin::views
