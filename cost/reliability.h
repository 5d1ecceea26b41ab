#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bill_of_materials.h"
#include "catalog.h"
#include "project.h"
#include "units.h"

namespace ctwin::cost {

/// Restart scope after a failure (SPEC.md §4.6).
enum class RestartScope { WholeJob, ParallelGroup, HotSpare };

/// One failure class as it affects one job: how often, and what it takes down.
struct FailureClass {
    std::string id;           // catalog failure id ("fail-gpu")
    std::string name;
    double units = 0;         // components of this class in the job's footprint
    double ratePerHour = 0;   // per unit
    double gpusAffected = 0;  // blast radius from the physical layout (server, NVL domain, loop, feed, ...)
    bool interruptsJob = true;
    double eventsPerHour() const { return units * ratePerHour; }
};

/// Reliability inputs of one training job.
struct ReliabilityInput {
    double jobGpus = 0;
    std::vector<FailureClass> classes;
    double plannedPerHour = 0;          // planned maintenance interruptions
    units::Bytes checkpointBytes{};     // whole job state
    units::DataRate storageWriteBandwidth{}; // aggregate, to the checkpoint tier
    units::DataRate perGpuWriteBandwidth{};  // per GPU link to storage (caps the aggregate)
    bool asyncCheckpoint = false;       // in-memory snapshot then background write
    units::Time restartTime{};          // detection + rescheduling + restore
    RestartScope scope = RestartScope::WholeJob;
    double groupGpus = 0;               // size of the restarted group for ParallelGroup
    double stragglerLoss = 0;           // fraction of time lost to stragglers
    double sdcLoss = 0;                 // fraction lost to silent data corruption re-runs
};

struct ClassImpact {
    std::string id, name;
    double eventsPerDay = 0;
    double gpusAffected = 0;
    double lostGpuHoursPerDay = 0;
};

struct ReliabilityResult {
    double interruptionsPerDay = 0;
    units::Time jobMtbf{};
    units::Time checkpointWrite{};
    units::Time checkpointIntervalYoung{};
    units::Time checkpointIntervalDaly{};
    double goodput = 0;           // effective training time ratio
    double lostGpuHoursPerDay = 0;
    std::vector<ClassImpact> classes;
    std::vector<std::string> problems; // bad inputs found (zero bandwidth, ...)
};

/// Young (1974), "A first order approximation to the optimum checkpoint interval", CACM 17(9):
/// T = sqrt(2·δ·M) with δ the checkpoint write time and M the mean time between failures.
units::Time checkpointIntervalYoung(units::Time delta, units::Time mtbf);
/// Daly (2006), "A higher order estimate of the optimum checkpoint interval for restart dumps", FGCS 22(3):
/// T = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + (1/9)·(δ/(2M))] - δ for δ < 2M, else T = M.
units::Time checkpointIntervalDaly(units::Time delta, units::Time mtbf);
/// Expected fraction of useful time with checkpoint interval T, write δ, restart R and MTBF M (first-order
/// model consistent with Daly 2006: waste = δ/T + (T/2 + R)/M, clamped to [0, 1]).
double checkpointEfficiency(units::Time interval, units::Time delta, units::Time restart, units::Time mtbf);

/// Builds the job's failure classes from the catalog's failure rates and the BOM / layout counts.
ReliabilityInput reliabilityInputFor(const model::Project& project, const model::Catalog& catalog,
                                     const BillOfMaterials& bom, const model::TrainingJob& job);
/// The analytic model: interruption rate, checkpointing (Daly interval), restart scope, goodput.
ReliabilityResult analyzeReliability(const ReliabilityInput& in);


} // namespace ctwin::cost
