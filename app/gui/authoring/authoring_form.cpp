#include "authoring_form.h"

#include "gui/document_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;
using Type = views::FieldSpec::Type;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

bool endsWith(const std::string& s, const char* suffix) {
    const std::string x(suffix);
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

/// Display unit and scale (SI = shown x scale) of a field in the creation forms: the magnitudes an
/// architect types (MW, Gb/s, TB, km, billions of parameters).
void unitOf(const std::string& key, QString* unit, double* scale) {
    *scale = 1.0;
    if (key == "model_params" || key == "active_params")
        *unit = QObject::tr("B params"), *scale = 1e9;
    else if (key == "tokens")
        *unit = QObject::tr("T tokens"), *scale = 1e12;
    else if (key == "global_batch_tokens")
        *unit = QObject::tr("M tokens"), *scale = 1e6;
    else if (key == "sequence_length")
        *unit = QObject::tr("tokens");
    else if (key == "node_failure_rate_per_day")
        *unit = QObject::tr("/node/day");
    else if (key == "node_failure_rate_gpus")
        *unit = QObject::tr("GPUs/node");
    else if (key.rfind("price_usd_per_m_", 0) == 0)
        *unit = QObject::tr("$/M tokens");
    else if (key == "route_length_m")
        *unit = QStringLiteral("km"), *scale = 1e3;
    else if (endsWith(key, "_usd_per_kwh"))
        *unit = QStringLiteral("$/kWh");
    else if (endsWith(key, "_mw"))
        *unit = QStringLiteral("MW");
    else if (endsWith(key, "_usd_per_m_year"))
        *unit = QStringLiteral("$/m/yr");
    else if (endsWith(key, "_usd"))
        *unit = QStringLiteral("$");
    else if (endsWith(key, "_bit_per_s"))
        *unit = QStringLiteral("Gb/s"), *scale = 1e9;
    else if (endsWith(key, "_bytes"))
        *unit = QStringLiteral("TB"), *scale = 1e12;
    else if (endsWith(key, "_w"))
        *unit = QStringLiteral("MW"), *scale = 1e6;
    else if (endsWith(key, "_m"))
        *unit = QStringLiteral("m");
    else if (endsWith(key, "_deg"))
        *unit = QStringLiteral("°");
    else if (endsWith(key, "_c"))
        *unit = QStringLiteral("°C");
    else if (endsWith(key, "_k"))
        *unit = QStringLiteral("K");
    else if (endsWith(key, "_s"))
        *unit = QStringLiteral("ms"), *scale = 1e-3;
    else if (endsWith(key, "_per_year"))
        *unit = QObject::tr("h/yr");
}

/// What an empty optional field means, shown in the empty editor.
QString optionalPlaceholder(const std::string& key) {
    if (key == "electricity_usd_per_kwh")
        return QObject::tr("empty: the design's electricity price assumption");
    if (key == "pue_pinned") return QObject::tr("empty: PUE computed from the design");
    if (key == "grid_interconnect_mw") return QObject::tr("empty: no limit stated");
    if (key == "power_oversubscription_ratio")
        return QObject::tr("empty: the ratio of the domain above");
    if (key == "shell_cost_usd") return QObject::tr("empty: building shell $/W assumption x capacity");
    if (key == "route_length_m") return QObject::tr("empty: geodesic distance x route factor");
    if (key == "route_factor") return QObject::tr("empty: the route factor assumption");
    if (key == "mfu") return QObject::tr("empty: the MFU assumption");
    if (key == "active_params") return QObject::tr("empty: dense model (all parameters active)");
    if (key == "latency_budget_s") return QObject::tr("empty: no latency budget");
    if (key == "global_batch_tokens") return QObject::tr("empty: the global batch assumption");
    if (key == "sequence_length") return QObject::tr("empty: the sequence length assumption");
    if (key == "layers") return QObject::tr("empty: unknown (pipeline stages not checked against it)");
    if (key == "node_failure_rate_per_day") return QObject::tr("empty: the preset or the catalog's classes");
    if (key == "experts" || key == "active_experts")
        return QObject::tr("empty: dense (no expert all-to-all)");
    if (key == "node_failure_rate_gpus")
        return QObject::tr("GPUs per node the rate counts (8: HGX); needed with a node rate");
    if (key.rfind("price_usd_per_m_", 0) == 0)
        return QObject::tr("empty: the model preset's market API price");
    if (key == "licence_revenue_share") return QObject::tr("empty: the licence share assumption (0)");
    return QObject::tr("empty: default");
}

QString shownNumber(double v) {
    QString s = QLocale::c().toString(v, 'g', 10);
    return s;
}

} // namespace

QString authoringLabel(const std::string& key) {
    static const std::pair<const char*, const char*> special[] = {
        {"lat_deg", "Latitude"},
        {"lon_deg", "Longitude"},
        {"cdu_type", "CDU type"},
        {"cdu_count", "CDU count"},
        {"delta_t_k", "ΔT"},
        {"tp", "Tensor parallel (TP)"},
        {"pp", "Pipeline parallel (PP)"},
        {"dp", "Data parallel (DP)"},
        {"ep", "Expert parallel (EP)"},
        {"mfu", "MFU"},
        {"kv_heads", "KV heads"},
        {"kv_offload", "KV offload"},
        {"price_usd_per_m_input_tokens", "Input token price"},
        {"price_usd_per_m_cached_input_tokens", "Cached input token price"},
        {"price_usd_per_m_output_tokens", "Output token price"},
        {"licence_revenue_share", "Licence share of revenue"},
        {"pue_pinned", "Pinned PUE"},
        {"grid_interconnect_mw", "Grid interconnect"},
        {"power_oversubscription_ratio", "Oversubscription ratio"},
        {"x_m", "X"},
        {"y_m", "Y"},
        {"switch", "Switch"},
        {"port_bit_per_s", "Endpoint port speed"}};
    for (const auto& [k, label] : special)
        if (key == k) return QObject::tr(label);
    std::string s = key;
    for (const char* suffix : {"_usd_per_kwh", "_usd_per_m_year", "_usd", "_bit_per_s", "_bytes", "_w", "_m",
                               "_deg", "_c", "_k", "_s", "_per_year"})
        if (endsWith(s, suffix) && s.size() > std::string(suffix).size()) {
            s.resize(s.size() - std::string(suffix).size());
            break;
        }
    QString out = qs(s).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!out.isEmpty()) out[0] = out[0].toUpper();
    return out;
}

AuthoringForm::AuthoringForm(const EntityAuthoring& module, AuthoringContext context, QWidget* parent)
    : QDialog(parent), m_module(module), m_context(std::move(context)),
      m_specs(views::FieldSpec::forKind(module.kind())) {
    setWindowTitle(tr("New %1").arg(module.title().toLower()));
    setObjectName(QStringLiteral("authoringForm"));
    auto* outer = new QVBoxLayout(this);
    auto* body = new QWidget;
    m_layout = new QFormLayout(body);
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* scroll = new QScrollArea;
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Fields grow with the dialog; long catalog names are elided in the lists rather than scrolled to.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll, 1);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("authoringError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_error->hide();
    outer->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add %1").arg(module.title().toLower()));
    connect(buttons, &QDialogButtonBox::accepted, this, &AuthoringForm::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    outer->addWidget(buttons);
    m_module.buildForm(*this, m_context);
    resize(560, std::min(760, 160 + 34 * m_layout->rowCount()));
}

AuthoringForm::~AuthoringForm() = default;

const views::FieldSpec& AuthoringForm::specOf(const std::string& key) const {
    for (const auto& s : m_specs)
        if (s.key == key) return s;
    throw std::logic_error("authoring form: " + std::string(model::entityKindName(m_module.kind())) +
                           " has no field '" + key + "'");
}

void AuthoringForm::addRow(const QString& label, QWidget* editor, const QString& unit, const QString& tip) {
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(editor, 1);
    if (!unit.isEmpty()) h->addWidget(new QLabel(unit, row));
    editor->setToolTip(tip);
    m_layout->addRow(label, row);
}

void AuthoringForm::addField(const std::string& key, const ojson& initial) {
    Field f;
    f.key = key;
    f.spec = specOf(key);
    unitOf(key, &f.unit, &f.scale);
    QString tip = qs(key);
    switch (f.spec.type) {
    case Type::Flag: {
        auto* box = new QCheckBox;
        box->setChecked(initial.is_boolean() && initial.get<bool>());
        connect(box, &QCheckBox::toggled, this, &AuthoringForm::edited);
        f.widget = box;
        break;
    }
    case Type::Choice:
    case Type::Ref:
    case Type::CatalogRef: {
        Options options;
        if (f.spec.type == Type::Choice) {
            for (const auto& c : f.spec.choices)
                options.emplace_back(qs(c), qs(c));
        } else if (f.spec.type == Type::CatalogRef) {
            for (const auto* item : m_context.catalog.byCategory(f.spec.catalogCategory))
                options.emplace_back(QStringLiteral("%1 (%2)").arg(qs(item->name), qs(item->id)),
                                     qs(item->id));
        } else {
            m_context.document.project().withCollection(f.spec.refKind, [&](const auto& c) {
                for (const auto& x : c)
                    options.emplace_back(x.name.empty() ? qs(x.id)
                                                        : QStringLiteral("%1 (%2)").arg(qs(x.name), qs(x.id)),
                                         qs(x.id));
            });
        }
        addChoice(key, options, initial.is_string() ? qs(initial.get<std::string>()) : QString(),
                  f.spec.optional);
        return;
    }
    case Type::Number:
    case Type::Integer:
    case Type::Text:
    case Type::Json: {
        auto* line = new QLineEdit;
        // An optional field left empty is absent: the engine resolves it (schema 2, no sentinel zeros).
        if (f.spec.optional && f.spec.type == Type::Number)
            line->setPlaceholderText(optionalPlaceholder(key));
        if (initial.is_number())
            line->setText(shownNumber(initial.get<double>() / f.scale));
        else if (initial.is_string())
            line->setText(qs(initial.get<std::string>()));
        else if (!initial.is_null())
            line->setText(qs(initial.dump()));
        connect(line, &QLineEdit::textChanged, this, &AuthoringForm::edited);
        f.widget = line;
        if ((f.spec.type == Type::Number || f.spec.type == Type::Integer) &&
            f.spec.bounds.max > f.spec.bounds.min)
            tip += tr("\naccepted: %1 to %2 %3")
                       .arg(f.spec.bounds.min / f.scale, 0, 'g', 6)
                       .arg(f.spec.bounds.max / f.scale, 0, 'g', 6)
                       .arg(f.unit) +
                   (*f.spec.bounds.reason ? "\n" + QString::fromUtf8(f.spec.bounds.reason) : QString());
        break;
    }
    }
    f.widget->setObjectName(qs(key));
    addRow(authoringLabel(key), f.widget, f.unit, tip);
    m_fields.push_back(std::move(f));
}

void AuthoringForm::addChoice(const std::string& key, const Options& options, const QString& current,
                              bool optional) {
    Field f;
    f.key = key;
    f.spec = specOf(key);
    f.spec.optional = optional || f.spec.optional;
    auto* combo = new QComboBox;
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(24);
    if (f.spec.optional) combo->addItem(tr("(none)"), QString());
    for (const auto& [text, value] : options)
        combo->addItem(text, value);
    const int i = combo->findData(current);
    combo->setCurrentIndex(i >= 0 ? i : (combo->count() > 0 ? 0 : -1));
    connect(combo, &QComboBox::currentIndexChanged, this, &AuthoringForm::edited);
    combo->setObjectName(qs(key));
    f.widget = combo;
    addRow(authoringLabel(key), combo, {}, qs(key));
    m_fields.push_back(std::move(f));
}

void AuthoringForm::addPicks(const std::string& key, const Options& options, const QStringList& checked) {
    Field f;
    f.key = key;
    f.spec = specOf(key);
    f.spec.type = Type::Json;
    auto* list = new QListWidget;
    list->setObjectName(qs(key));
    for (const auto& [text, value] : options) {
        auto* item = new QListWidgetItem(text, list);
        item->setData(Qt::UserRole, value);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(value) ? Qt::Checked : Qt::Unchecked);
    }
    list->setMaximumHeight(std::min(140, 24 * static_cast<int>(options.size()) + 8));
    connect(list, &QListWidget::itemChanged, this, &AuthoringForm::edited);
    f.widget = list;
    list->setToolTip(qs(key));
    // The label at the top of its list, level with the first box (centred, it floated between the boxes;
    // issue 36).
    auto* label = new QLabel(authoringLabel(key));
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setContentsMargins(0, list->frameWidth() + 3, 0, 0);
    m_layout->addRow(label, list);
    m_fields.push_back(std::move(f));
}

void AuthoringForm::setFixed(const std::string& key, const ojson& value) {
    m_fixed[key] = value;
}

void AuthoringForm::addExtra(const QString& key, const QString& label, QWidget* widget) {
    widget->setObjectName(key);
    m_extras.insert(key, widget);
    // A drop-down of long catalog names keeps to the dialog's width, as addChoice's do (the Row form's
    // rack types ran past the dialog's edge).
    if (auto* combo = qobject_cast<QComboBox*>(widget)) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(24);
    }
    if (auto* box = qobject_cast<QCheckBox*>(widget); box && label.isEmpty())
        m_layout->addRow(QString(), box);
    else
        m_layout->addRow(label, widget);
}

void AuthoringForm::addNote(const QString& text) {
    auto* note = new QLabel(text);
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_layout->addRow(note);
}

QLabel* AuthoringForm::addPreview() {
    auto* preview = new QLabel;
    preview->setObjectName(QStringLiteral("preview"));
    preview->setWordWrap(true);
    preview->setTextFormat(Qt::RichText);
    preview->setFrameShape(QFrame::StyledPanel);
    preview->setMargin(6);
    m_layout->addRow(preview);
    return preview;
}

QWidget* AuthoringForm::editor(const QString& key) const {
    for (const auto& f : m_fields)
        if (qs(f.key) == key) return f.widget;
    return m_extras.value(key);
}

QString AuthoringForm::text(const QString& key) const {
    QWidget* w = editor(key);
    if (auto* line = qobject_cast<QLineEdit*>(w)) return line->text();
    if (auto* combo = qobject_cast<QComboBox*>(w)) return combo->currentData().toString();
    return {};
}

bool AuthoringForm::setText(const QString& key, const QString& text) {
    auto* line = qobject_cast<QLineEdit*>(editor(key));
    if (!line) return false;
    line->setText(text);
    return true;
}

bool AuthoringForm::setChoice(const QString& key, const QString& value) {
    auto* combo = qobject_cast<QComboBox*>(editor(key));
    if (!combo) return false;
    const int i = combo->findData(value);
    if (i < 0) return false;
    combo->setCurrentIndex(i);
    return true;
}

bool AuthoringForm::setPicked(const QString& key, const QStringList& values) {
    auto* list = qobject_cast<QListWidget*>(editor(key));
    if (!list) return false;
    int found = 0;
    for (int i = 0; i < list->count(); ++i) {
        const bool on = values.contains(list->item(i)->data(Qt::UserRole).toString());
        found += on;
        list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    return found == values.size();
}

bool AuthoringForm::setChecked(const QString& key, bool on) {
    auto* box = qobject_cast<QCheckBox*>(editor(key));
    if (!box) return false;
    box->setChecked(on);
    return true;
}

bool AuthoringForm::isChecked(const QString& key) const {
    auto* box = qobject_cast<QCheckBox*>(editor(key));
    return box && box->isChecked();
}

std::optional<ojson> AuthoringForm::collect(QString* error, QWidget** bad) const {
    ojson out = ojson::object();
    for (const auto& [k, v] : m_fixed.items())
        out[k] = v;
    const auto fail = [&](const Field& f, const QString& why) -> std::optional<ojson> {
        if (error) *error = QStringLiteral("%1: %2").arg(authoringLabel(f.key), why);
        if (bad) *bad = f.widget;
        return std::nullopt;
    };
    for (const Field& f : m_fields) {
        if (auto* box = qobject_cast<QCheckBox*>(f.widget)) {
            out[f.key] = box->isChecked();
        } else if (auto* combo = qobject_cast<QComboBox*>(f.widget)) {
            const QString v = combo->currentData().toString();
            if (v.isEmpty() && !f.spec.optional) return fail(f, tr("pick one"));
            out[f.key] = v.toStdString();
        } else if (auto* list = qobject_cast<QListWidget*>(f.widget)) {
            ojson picked = ojson::array();
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->checkState() == Qt::Checked)
                    picked.push_back(list->item(i)->data(Qt::UserRole).toString().toStdString());
            out[f.key] = picked;
        } else if (auto* line = qobject_cast<QLineEdit*>(f.widget)) {
            const QString text = line->text().trimmed();
            if (f.spec.type == Type::Number || f.spec.type == Type::Integer) {
                QString t = text;
                t.remove(QLatin1Char(',')).remove(QLatin1Char(' '));
                bool ok = false;
                const double shown = QLocale::c().toDouble(t, &ok);
                if (text.isEmpty()) {
                    if (!f.spec.optional) return fail(f, tr("enter a number"));
                    out[f.key] = nullptr; // absent: resolved from the assumptions or computed
                    continue;
                }
                if (!ok || !std::isfinite(shown)) return fail(f, tr("'%1' is not a number").arg(text));
                const double si = shown * f.scale;
                const auto& b = f.spec.bounds;
                // Same closed range the loader accepts (model::Bounds of the entity's visitFields, from
                // data/field_ranges.json), with its reason.
                if (si < b.min || si > b.max)
                    return fail(f, tr("%1 is outside the accepted range %2 to %3 %4")
                                           .arg(text)
                                           .arg(b.min / f.scale, 0, 'g', 6)
                                           .arg(b.max / f.scale, 0, 'g', 6)
                                           .arg(f.unit) +
                                       (*b.reason ? " (" + QString::fromUtf8(b.reason) + ")" : QString()));
                if (f.spec.type == Type::Integer) {
                    if (std::abs(si - std::round(si)) > 1e-9)
                        return fail(f, tr("'%1' is not a whole number").arg(text));
                    out[f.key] = static_cast<long long>(std::llround(si));
                } else {
                    out[f.key] = si;
                }
            } else if (f.spec.type == Type::Json) {
                // Lists typed as comma-separated numbers ("1, 2" for per-tier oversubscription).
                ojson list = ojson::array();
                for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    bool ok = false;
                    const double v = QLocale::c().toDouble(part.trimmed(), &ok);
                    if (!ok || !std::isfinite(v))
                        return fail(f, tr("'%1' is not a number").arg(part.trimmed()));
                    if (v < f.spec.bounds.min || v > f.spec.bounds.max)
                        if (f.spec.bounds.max > f.spec.bounds.min)
                            return fail(f, tr("%1 is outside %2 to %3")
                                               .arg(v)
                                               .arg(f.spec.bounds.min)
                                               .arg(f.spec.bounds.max));
                    list.push_back(v);
                }
                out[f.key] = list;
            } else {
                if (f.key == "name" && text.isEmpty()) return fail(f, tr("give it a name"));
                out[f.key] = text.toStdString();
            }
        }
    }
    return out;
}

std::optional<ojson> AuthoringForm::entity(QString* error) {
    if (m_marked) {
        m_marked->setStyleSheet(QString());
        m_marked = nullptr;
    }
    QString why;
    QWidget* bad = nullptr;
    auto e = collect(&why, &bad);
    if (!e && bad) {
        bad->setStyleSheet(QStringLiteral("border: 2px solid #c0392b;"));
        bad->setFocus();
        m_marked = bad;
    }
    if (error) *error = why;
    return e;
}

std::optional<ojson> AuthoringForm::candidate() const {
    return collect(nullptr, nullptr);
}

void AuthoringForm::showError(const QString& message) {
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

QString AuthoringForm::errorText() const {
    return m_error->text();
}

bool AuthoringForm::errorVisible() const {
    return !m_error->isHidden();
}

void AuthoringForm::accept() {
    QString why;
    const auto e = entity(&why);
    if (!e) {
        showError(tr("%1. Nothing was added.").arg(why));
        return;
    }
    why = m_module.validate(*e, *this, m_context);
    if (why.isEmpty()) {
        QString id;
        why = m_module.create(*e, *this, m_context, &id);
        if (why.isEmpty()) {
            m_createdId = id;
            showError({});
            QDialog::accept();
            return;
        }
    }
    showError(tr("%1. Nothing was added.").arg(why));
}

// --- EntityAuthoring defaults and helpers ------------------------------------------------------------------

QString EntityAuthoring::create(const ojson& entity, const AuthoringForm&, AuthoringContext& ctx,
                                QString* newId) const {
    std::string id;
    const QString error =
        ctx.editor.run("Add " + title().toLower().toStdString() + " " + entity.value("name", std::string()),
                       [&](model::Transaction& t) { id = t.add(kind(), entity); });
    if (error.isEmpty() && newId) *newId = qs(id);
    return error;
}

} // namespace ctwin::app
