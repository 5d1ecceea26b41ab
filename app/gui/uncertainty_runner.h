#pragma once
#include "assumption.h"
#include "catalog.h"
#include "project.h"
#include "scenarios.h"
#include "uncertainty_skew.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ctwin::app {

/// Runs cost::uncertainty for the dashboard on a worker thread, so the UI never waits for the few hundred
/// evaluations it takes (about 0.4 s on the 100K-GPU reference). The newest request wins: a request made
/// while a run is going cancels that run. Results arrive on the UI thread through `finished`, tagged with
/// the generation of the request they answer; stale ones are dropped.
class UncertaintyRunner : public QObject {
    Q_OBJECT
public:
    /// The report and the dashboard use the same draws, so the P10/P50/P90 a user sees on screen are the
    /// ones the PDF prints (app/cli.cpp `report` uses 300 samples and seed 1 as well).
    static constexpr int kSamples = 300;
    static constexpr std::uint64_t kSeed = 1;

    /// Copies the catalog: the worker must not depend on the lifetime of the window's members.
    explicit UncertaintyRunner(model::Catalog catalog, QObject* parent = nullptr);
    ~UncertaintyRunner() override;

    /// Queues a run on a copy of `project` (headline outputs of `results`), cancelling any run in progress.
    /// Returns its generation.
    std::uint64_t request(const model::Project& project, const model::AssumptionSet& defaults,
                          std::vector<std::string> outputs);
    /// Cancels the queued and running work (e.g. the document is about to be replaced).
    void cancel();
    bool busy() const;
    /// The generation of the newest request.
    std::uint64_t generation() const { return m_generation; }
    /// The last completed result and the generation it belongs to (empty map before the first).
    const std::map<std::string, cost::Percentiles>& last() const { return m_last; }
    /// What pulls the cost per GPU-hour's distribution away from its base value (views::skewDrivers over
    /// the tornado of finance.cost_per_gpu_hour_usd), largest first; empty when it has no tornado.
    const std::vector<views::SkewDriver>& lastSkew() const { return m_lastSkew; }
    /// The figure the skew drivers are computed for.
    static constexpr const char* kSkewFigure = "finance.cost_per_gpu_hour_usd";
    std::uint64_t lastGeneration() const { return m_lastGeneration; }

signals:
    /// The run for the newest request finished (UI thread).
    void finished();
    /// It failed with an InputError or another exception (UI thread); the text names the reason.
    void failed(const QString& reason);

private:
    struct Job {
        std::uint64_t generation = 0;
        model::Project project;
        model::AssumptionSet defaults;
        std::vector<std::string> outputs;
    };
    void work();
    void deliver(std::uint64_t generation, std::map<std::string, cost::Percentiles> result,
                 std::vector<views::SkewDriver> skew, QString error);

    const model::Catalog m_catalog;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<Job> m_pending; // guarded by m_mutex
    bool m_running = false;       // guarded by m_mutex
    bool m_stop = false;          // guarded by m_mutex
    std::atomic<bool> m_cancel{false};
    std::uint64_t m_generation = 0; // UI thread only
    std::map<std::string, cost::Percentiles> m_last;
    std::vector<views::SkewDriver> m_lastSkew;
    std::uint64_t m_lastGeneration = 0;
    std::thread m_worker; // last: starts after every member it uses exists
};

} // namespace ctwin::app
