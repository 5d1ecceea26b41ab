#include "main_window.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>

#include "data_paths.h"
#include "design_file.h"
#include "evaluate.h"
#include "project_tree.h"
#include "results_panel.h"

namespace ctwin::app {

MainWindow::MainWindow(model::Catalog catalog, model::AssumptionSet defaults, QWidget* parent)
    : QMainWindow(parent), m_catalog(std::move(catalog)), m_defaults(std::move(defaults)), m_document({}, &m_catalog) {
    auto* split = new QSplitter(this);
    m_tree = new views::ProjectTree(split);
    m_results = new views::ResultsPanel(split);
    split->setStretchFactor(1, 1);
    setCentralWidget(split);
    buildMenus();
    m_document.addListener(this);
    resize(1280, 800);
    setWindowTitle(tr("ClusterTwin"));
}

MainWindow::~MainWindow() { m_document.removeListener(this); }

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open design"), QString(),
                                                          tr("ClusterTwin designs (*.ctwin *.json)"));
        if (!path.isEmpty()) openFile(path);
    });
    auto* fromReference = file->addMenu(tr("New from &reference"));
    const QDir refs(QString::fromStdString(referenceDirectory()));
    for (const QFileInfo& fi : refs.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        if (fi.fileName() == QLatin1String("index.json")) continue;
        fromReference->addAction(fi.completeBaseName(), this, [this, p = fi.absoluteFilePath()] { openFile(p); });
    }
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

bool MainWindow::openFile(const QString& path) {
    try {
        m_document.reset(store::loadDesign(path.toStdString(), &m_catalog));
        m_path = path;
        setWindowTitle(tr("%1 - ClusterTwin").arg(QFileInfo(path).fileName()));
        return true;
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot open design"), QString::fromStdString(e.what()));
        return false;
    }
}

void MainWindow::documentChanged(const model::ChangeSet&) { refresh(); }
void MainWindow::documentReset() { refresh(); }

void MainWindow::refresh() {
    m_tree->showProject(m_document.project());
    const auto results = cost::evaluate(m_document.project(), m_catalog, m_defaults);
    m_results->showResults(results);
    statusBar()->showMessage(tr("%1 racks, %2 rules").arg(m_document.project().racks.size()).arg(results.rules.size()));
}

} // namespace ctwin::app
