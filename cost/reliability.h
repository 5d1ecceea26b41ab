#pragma once
// Reliability and goodput of a training job (SPEC.md §4.6): component failure rates from the catalog times
// the counts of the job's physical footprint give the interruption rate; the blast radius of each failure
// follows the layout; checkpointing (Young 1974, Daly 2006) and the restart scope turn interruptions into
// lost work; the result is the effective training time ratio ("goodput") that feeds training time and cost.
//
// Two stages, so that tests and the GUI can build or edit the middle value:
//   reliabilityInputFor(project, catalog, bom, job)  -> ReliabilityInput   (layout + catalog -> classes)
//   analyzeReliability(input)                        -> ReliabilityResult  (the analytic model)
// The result carries the FailureProcess that the Monte Carlo simulator (monte_carlo.h) replays event by
// event.
#include "bill_of_materials.h"
#include "catalog.h"
#include "design_rule.h"
#include "project.h"
#include "units.h"

#include <string>
#include <vector>

namespace ctwin::cost {

/// What restarts after a failure (SPEC.md §4.6 "restart scope"). With N job GPUs, checkpoint interval T,
/// write time δ and restart time R (detection + rescheduling + restore):
/// - WholeJob: every GPU rolls back to the last checkpoint: N·((T+δ)/2 + R) GPU-seconds lost per failure.
/// - ParallelGroup: only the restart groups the failure touches (one group = one data-parallel replica,
///   tp·pp·ep GPUs; a blast radius larger than a group takes ceil(radius/group) groups) lose their work since
///   the last checkpoint; every other GPU keeps its state and waits R for the group to rejoin:
///   A·(T+δ)/2 + N·R GPU-seconds per failure, A the GPUs of the touched groups. Job-wide failure classes
///   (software, NCCL, dependency, WAN, silent data corruption, which spreads through the gradient all-reduce)
///   still roll back every group. After Oobleck (Jang et al., SOSP 2023) and Bamboo (Thorpe et al., NSDI
///   2023), which keep healthy pipelines running and re-form the failed one.
/// - HotSpare: whole-job rollback, but a hardware failure whose blast radius fits in the hot-spare racks of
///   the job's sites swaps a spare in: R = detection + swap + restore instead of detection + rescheduling +
///   restore. Software classes still relaunch in full. Spares are assumed replenished (repaired) faster than
///   they are consumed.
enum class RestartScope { WholeJob, ParallelGroup, HotSpare };
const char* restartScopeName(RestartScope scope);

/// Modelling choices with no field in the design yet. Defaults are estimates unless a source is given.
struct ReliabilityOptions {
    RestartScope scope = RestartScope::WholeJob;
    /// Asynchronous, in-memory checkpointing: training blocks only for the device-to-host snapshot; the copy
    /// is replicated in peer hosts' memory (GEMINI, Wang et al., SOSP 2023) and written to storage in the
    /// background (CheckFreq, Mohan et al., FAST 2021), which bounds how often snapshots can be taken.
    bool asyncCheckpoint = false;
    /// In-memory peer replication (GEMINI, Wang et al., SOSP 2023, §3-4): each asynchronous snapshot is also
    /// copied into peer hosts' memory, and a restart restores from there at the peer path's bandwidth
    /// (min(device-to-host copy, back-end NIC) per GPU). Storage is read only when the event takes the peers
    /// too (a hardware event wider than one scale-up domain). Requires asyncCheckpoint.
    bool inMemoryRestore = false;
    /// Failure detection: health checks and the collective watchdog. Estimate; PyTorch's NCCL process group
    /// times out after 10 minutes by default, fast health checks detect most hardware faults sooner.
    units::Time detectionTime = units::seconds(300);
    /// Drain the failed nodes, allocate replacements, relaunch and re-initialize the job (NCCL setup at
    /// 10^4-10^5 ranks). Estimate: ~5 minutes at Llama 3 scale after Meta's start-up optimizations.
    units::Time reschedulingTime = units::seconds(300);
    /// Swap a powered, cabled hot-spare rack in for the failed one (rank remap, no node provisioning).
    /// Estimate.
    units::Time spareSwapTime = units::seconds(60);
    /// Device-to-host copy per GPU for the asynchronous snapshot: PCIe Gen5 x16 = 32 GT/s × 16 lanes ×
    /// 128/130 ≈ 63 GB/s per direction (PCI-SIG), ~50 GB/s achieved (estimate). Grace-Blackwell's
    /// NVLink-C2C is faster; this conservative figure is used for every rack type.
    units::DataRate hostCopyBandwidthPerGpu = units::bytesPerSecond(50e9);
    /// Throughput lost to stragglers (slow GPUs, hosts or links holding back synchronous steps). Estimate:
    /// no public fleet-wide figure; MegaScale (Jiang et al., NSDI 2024) and the Llama 3 paper's reliability
    /// section both report stragglers as a recurring cause of slowdowns. 1%.
    double stragglerLoss = 0.01;
    /// A detected silent data corruption is often found late: the run rolls back this many checkpoint
    /// intervals beyond the last checkpoint. Estimate (He et al., "Understanding and Mitigating Hardware
    /// Failures in Deep Learning Training Systems", ISCA 2023: SDCs can go unnoticed for many iterations).
    double sdcExtraRollbackIntervals = 1.0;
    /// Fixed checkpoint interval; zero uses Daly's optimum.
    units::Time checkpointInterval{};
    /// Time to restore a failed CDU (assumptions.cdu_repair_hours). A loop stops only when more of its CDUs
    /// are down at once than its redundancy covers; the repair time sets how likely that is.
    units::Time cduRepairTime = units::hours(24.0);
    /// Adds the fail-optic class (per back-end transceiver). Off by default: the calibrated fail-switch-cable
    /// class (Llama 3, "network switch/cable") already contains optics and cable failures, so adding optics
    /// on top would count them twice. Turn on only with a switch-only rate.
    bool includeOpticFailures = false;
    /// Every field: EvaluationMemo (cost/evaluation_memo.h) reuses a reliability result only for equal
    /// options.
    bool operator==(const ReliabilityOptions&) const = default;
};

/// One failure class as it affects one job: how often, what it takes down, and how it restarts.
struct FailureClass {
    std::string id; // catalog failure id ("fail-gpu")
    std::string name;
    std::string unit; // catalog unit: gpu, server, nic, switch, optic, cdu, power_feed, wan_km, job_per_gpu
    double units = 0; // components of this class in the job's footprint
    /// GPUs per node of the calibration fleet for a per-server rate (failures.json node_gpus, issue 29
    /// item 6): units are then job GPUs / calibrationGpus node-equivalents. 0: the design's servers.
    double calibrationGpus = 0;
    units::Frequency ratePerUnit{};
    /// Blast radius: GPUs the event takes down (server, scale-up domain, leaf, loop, feed, whole job).
    double gpusAffected = 0;
    bool interruptsJob = true;
    bool planned = false;
    /// Rolls back every restart group regardless of the restart scope (software, WAN, SDC).
    bool jobWide = false;
    /// Needs a hardware replacement (a hot spare can stand in).
    bool hardware = true;
    bool silentDataCorruption = false;
    units::Frequency eventRate() const { return units * ratePerUnit; }
};

/// Reliability inputs of one training job.
struct ReliabilityInput {
    std::string jobId, jobName;
    double jobGpus = 0;
    /// Unexpected and planned (planned = true) classes.
    std::vector<FailureClass> classes;
    units::Bytes checkpointBytes{};            // whole job state
    units::DataRate storageWriteBandwidth{};   // aggregate of the checkpoint tier
    units::DataRate storageReadBandwidth{};    // aggregate, for the restore
    units::DataRate perGpuStorageBandwidth{};  // per GPU path to storage; <= 0: no cap
    units::DataRate hostCopyBandwidthPerGpu{}; // async snapshot
    bool asyncCheckpoint = false;
    bool inMemoryRestore = false;             // ReliabilityOptions::inMemoryRestore
    units::DataRate backendBandwidthPerGpu{}; // peer restore path over the scale-out NICs; <= 0: none
    /// Hardware events at most this wide (GPUs) leave the peer replicas intact: the job's largest
    /// scale-up domain or server (replicas sit on other nodes, GEMINI's group placement).
    double peerSurvivesGpus = 0;
    units::Time checkpointInterval{}; // zero: Daly's optimum
    units::Time detectionTime{}, reschedulingTime{}, spareSwapTime{};
    RestartScope scope = RestartScope::WholeJob;
    double groupGpus = 0;     // ParallelGroup: GPUs of one restart group
    double spareGpus = 0;     // HotSpare: GPUs of hot-spare racks in the job's sites
    double stragglerLoss = 0; // fraction of throughput
    double sdcExtraRollbackIntervals = 0;
    /// Findings while building the input (job larger than its sites, missing storage, bad rates).
    std::vector<DesignRule> rules;
    /// Which failure rates the classes use: the catalog's Llama 3 calibration, a preset,
    /// a per-node rate and/or per-class overrides of the job, in words.
    std::string rateSet;
};

/// One class as the event process sees it: a Poisson stream that takes the job down for `downtime`
/// and rolls back with probability `rollbackFraction` (see expectedGoodput).
struct ProcessClass {
    std::string id;
    units::Frequency rate{};       // events of this class per second for the job
    units::Time downtime{};        // restart time R_c
    double rollbackFraction = 1.0; // f_c: share of the job's GPUs that lose their work since the checkpoint
    /// k_c: committed intervals lost on top: a late-detected SDC, or an asynchronous snapshot not yet
    /// durable on storage when a restart must read storage (persist / τ).
    double extraRollbackIntervals = 0;
    bool silentDataCorruption = false; // its extra rollback counts as SDC loss, else as failure loss
    bool planned = false;
};

/// The stochastic model shared by the analytic formula and the Monte Carlo simulator.
struct FailureProcess {
    std::string jobId, jobName;
    double jobGpus = 0;
    std::vector<ProcessClass> classes;
    units::Time checkpointInterval{}; // τ: compute time between checkpoints
    units::Time checkpointWrite{};    // δ: time training blocks per checkpoint
    double stragglerLoss = 0;
    /// False when the job cannot make progress (no GPUs, checkpoints cannot be written or restored).
    bool feasible = true;
};

struct ClassImpact {
    std::string id, name, unit;
    double units = 0;
    double eventsPerDay = 0;
    double gpusAffected = 0;         // blast radius
    double rollbackGpus = 0;         // GPUs whose work since the checkpoint is lost (restart scope)
    units::Time downtime{};          // restart time of this class
    double lostGpuHoursPerEvent = 0; // first order: N·R + rollbackGpus·(T+δ)/2 (+ SDC extra)
    double lostGpuHoursPerDay = 0;   // share of the exact model's loss
    bool interruptsJob = true;
    bool planned = false;
};

struct ReliabilityResult {
    std::string jobId;
    double jobGpus = 0;
    double interruptionsPerDay = 0; // unexpected
    double plannedPerDay = 0;
    units::Time jobMtbf{}; // 1 / unexpected rate; +inf when nothing interrupts the job
    /// 1 / rate of events that roll the job back (Young and Daly use this one); may be +inf.
    units::Time rollbackMtbf{};
    units::Time checkpointWrite{};   // δ: blocking time per checkpoint
    units::Time checkpointPersist{}; // full write to storage (= δ when synchronous)
    units::Time restoreTime{};       // from storage
    units::Time peerRestoreTime{};   // from peers' memory (in-memory restore), each GPU its own shard
    units::Time restartTime{};       // detection + rescheduling + restore (from storage)
    units::Time checkpointIntervalYoung{};
    units::Time checkpointIntervalDaly{};
    units::Time checkpointInterval{}; // used: pinned, else Daly, clamped (see analyzeReliability)
    /// Effective training time ratio; 0 when the process is infeasible (all time then counts as lost).
    double goodput = 0;
    /// Shares of wall-clock time lost, summing to 1 - goodput.
    double checkpointOverhead = 0, failureLoss = 0, sdcLoss = 0, stragglerLoss = 0;
    /// Share lost to site-caused facility downtime (applyFacilityAvailability; 0 from analyzeReliability).
    double facilityLoss = 0;
    double facilityAvailability = 1;
    double lostGpuHoursPerDay = 0; // N × 24 h × (1 - goodput)
    std::vector<ClassImpact> classes;
    FailureProcess process;
    std::vector<DesignRule> rules;
    std::string rateSet; // see ReliabilityInput::rateSet
};

/// Young (1974), "A first order approximation to the optimum checkpoint interval", CACM 17(9):530-531:
/// T = sqrt(2·δ·M), δ the checkpoint write time, M the mean time between failures.
/// Returns zero for δ < 0, M <= 0 or non-finite δ; +inf for M = +inf.
units::Time checkpointIntervalYoung(units::Time delta, units::Time mtbf);
/// Daly (2006), "A higher order estimate of the optimum checkpoint interval for restart dumps", Future
/// Generation Computer Systems 22(3):303-312: T = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + (1/9)·(δ/(2M))] - δ for
/// δ < 2M, else T = M. Same conventions as checkpointIntervalYoung.
units::Time checkpointIntervalDaly(units::Time delta, units::Time mtbf);
/// Daly's (2006) complete model for exponential failures that may also strike during checkpoints and
/// restarts: wall time per unit of work = M·e^(R/M)·(e^((T+δ)/M) - 1)/T, so the useful fraction is
/// T / (M·e^(R/M)·(e^((T+δ)/M) - 1)). Returns 0 for impossible inputs (T <= 0, M <= 0, NaN).
double checkpointEfficiency(units::Time interval, units::Time delta, units::Time restart, units::Time mtbf);

/// Expected goodput of a FailureProcess: Daly's complete model generalized to classes with their own
/// restart time R_c and rollback probability f_c. With λ = Σλ_c, p_c = λ_c/λ, L = T + δ:
///   P_up = Σ p_c·e^(-λR_c)                       (a restart may itself be hit; Daly's e^(R/M) factor)
///   ρ    = 1 - A/(1-B),  A = Σ p_c(1-f_c)e^(-λR_c),  B = Σ p_c(1-f_c)(1-e^(-λR_c))
///        (probability that a failure and the failures during its restart roll the segment back)
///   G    = (1-s)·[ P_up·T·λρ/(e^(λρL) - 1)  -  Σ λ_c·k_c·T ]
/// s the straggler loss, k_c the extra intervals lost per event. With one class, f = 1, k = 0, s = 0 this is
/// exactly checkpointEfficiency. Derivation: up-time per segment under Poisson(λρ) rollbacks is
/// (e^(λρL) - 1)/(λρ); each of the λ·(up-time) failures adds an expected down period (1 - P_up)/(λ·P_up)
/// (Wald's identity). Returns 0 for an infeasible process.
double expectedGoodput(const FailureProcess& process);

/// Rate of outages of a group of n identical repairable units that stops only when more than r are down
/// at once (k-out-of-n with k = n - r), each failing at `unitRate` and repaired in `repair`:
///   λ_group ≈ n! / (r! (n-r-1)!) · λ^(r+1) · R^r      (λR << 1)
/// the rate of entering the state with r+1 units down from the state with r down, whose probability is
/// C(n, r)(λR)^r (Billinton & Allan, "Reliability Evaluation of Engineering Systems", 2nd ed., 1992,
/// ch. 9, approximate equations for repairable parallel and k-out-of-n systems). r = 0: n·λ (series);
/// r = 1 (N+1): n(n-1)λ²R. Returns 0 for n <= r or non-positive inputs.
units::Frequency redundantGroupOutageRate(double n, double r, units::Frequency unitRate, units::Time repair);

/// Builds the job's failure classes from the catalog's failure rates and the layout (see reliability.cpp
/// for the footprint and blast-radius rules). The job may replace the catalog rates:
/// `failure_rate_preset` (a catalog failures item of kind node_rate) or `node_failure_rate_per_day` give
/// one rate per node (server) replacing every node-level and job-level unexpected class (GPU, server, NIC,
/// switch, optic, software; facility classes CDU, power feed and WAN keep their rates), so that
/// job MTBF = 24 h / (nodes x rate per node-day) without facility failures. A per-node rate names its
/// calibration node's GPU count (preset attribute node_gpus, job field node_failure_rate_gpus) and counts
/// job GPUs / that count node-equivalents whatever the design's server (issue 29 item 6: an NVL72 tray
/// of 4 GPUs is half an 8-GPU node); catalog classes with unit server do the same; `failure_rate_classes`
/// with `failure_rates_per_hour` override single classes. Never throws for a design that loaded; problems go
/// to `rules` as design-rule findings.
ReliabilityInput reliabilityInputFor(const model::Project& project, const model::Catalog& catalog,
                                     const BillOfMaterials& bom, const model::TrainingJob& job,
                                     const ReliabilityOptions& options = {});
/// The analytic model: interruption rate, checkpoint write and interval (Young, Daly), restart scope,
/// goodput, lost GPU-hours and the per-class table. Never throws; bad inputs give design-rule errors and
/// finite numbers (goodput 0 when the job cannot progress).
ReliabilityResult analyzeReliability(const ReliabilityInput& in);

/// The job's goodput with the facility's availability A (the IT-weighted share of the year its buildings'
/// power and cooling are up, Uptime Tier figures; evaluate_power.cpp): goodput x A, the difference booked
/// as facilityLoss so the losses still sum to 1 - goodput, and lostGpuHoursPerDay recomputed. A facility
/// outage is counted as lost wall-clock time only; the rollback it also causes is not modelled (an
/// optimistic bound). A outside [0, 1] or not finite is clamped (NaN counts as 1).
void applyFacilityAvailability(ReliabilityResult& r, double availability);

/// Bounds of the checkpoint interval used: at least one second (numerical floor, well under one optimizer
/// step) and at least the background write of an asynchronous checkpoint; at most one day (policy:
/// a fresh checkpoint at least daily, and the Monte Carlo's end effects stay small).
inline constexpr double kMinCheckpointIntervalSeconds = 1.0;
inline constexpr double kMaxCheckpointIntervalSeconds = 86400.0;

} // namespace ctwin::cost
