#include "uncertainty_runner.h"

#include "evaluate.h"

#include <QMetaObject>
#include <exception>

namespace ctwin::app {

UncertaintyRunner::UncertaintyRunner(model::Catalog catalog, QObject* parent)
    : QObject(parent), m_catalog(std::move(catalog)), m_worker([this] { work(); }) {}

UncertaintyRunner::~UncertaintyRunner() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_pending.reset();
    }
    m_cancel = true;
    m_wake.notify_all();
    m_worker.join();
}

std::uint64_t UncertaintyRunner::request(const model::Project& project, const model::AssumptionSet& defaults,
                                         std::vector<std::string> outputs) {
    const std::uint64_t generation = ++m_generation;
    {
        std::lock_guard lock(m_mutex);
        m_pending = Job{generation, project, defaults, std::move(outputs)};
        // A run in progress answers an older state of the design: stop it; the worker takes this job next.
        if (m_running) m_cancel = true;
    }
    m_wake.notify_all();
    return generation;
}

void UncertaintyRunner::cancel() {
    ++m_generation; // anything still on its way is stale now
    std::lock_guard lock(m_mutex);
    m_pending.reset();
    if (m_running) m_cancel = true;
}

bool UncertaintyRunner::busy() const {
    std::lock_guard lock(m_mutex);
    return m_running || m_pending.has_value();
}

void UncertaintyRunner::work() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_pending.has_value(); });
            if (m_stop) return;
            job = std::move(*m_pending);
            m_pending.reset();
            m_running = true;
            m_cancel = false;
        }
        std::map<std::string, cost::Percentiles> result;
        std::vector<views::SkewDriver> skew;
        QString error;
        const cost::ScenarioInput in{&job.project, &m_catalog, job.defaults};
        try {
            result = cost::uncertainty(in, job.outputs, kSamples, kSeed, &m_cancel);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        // Which ranges skew it: the tornado's ends and the base values (a few milliseconds next to the
        // samples). A design without a cost per GPU-hour has no tornado and no skew to explain.
        if (error.isEmpty() && !m_cancel.load()) try {
                const cost::Tornado t = cost::tornado(in, kSkewFigure);
                skew = views::skewDrivers(t, cost::evaluate(job.project, m_catalog, job.defaults).inputs);
            } catch (const std::exception&) {
            }
        const bool cancelled = m_cancel.load();
        {
            std::lock_guard lock(m_mutex);
            m_running = false;
        }
        if (cancelled) continue;
        QMetaObject::invokeMethod(
            this,
            [this, generation = job.generation, r = std::move(result), k = std::move(skew), error]() mutable {
                deliver(generation, std::move(r), std::move(k), error);
            },
            Qt::QueuedConnection);
    }
}

void UncertaintyRunner::deliver(std::uint64_t generation, std::map<std::string, cost::Percentiles> result,
                                std::vector<views::SkewDriver> skew, QString error) {
    if (generation != m_generation) return; // the design changed since this run started
    if (!error.isEmpty()) {
        emit failed(error);
        return;
    }
    m_last = std::move(result);
    m_lastSkew = std::move(skew);
    m_lastGeneration = generation;
    emit finished();
}

} // namespace ctwin::app
