#pragma once
// The time axis: a campus is energised in phases, each hall's GPUs arrive as a cohort that ages,
// and the owner refreshes cohorts on a policy. computeTimeline turns the steady-state evaluation into
// monthly series: capex drawn per phase, interest during construction, opex, revenue at a rental price that
// falls as a cohort ages, tax, refresh and terminal value, and what follows from them: NPV, XIRR, payback
// month and peak funding. The steady-state figures of evaluate() stay as they are ("steady state" basis);
// every figure of this file says "timeline" in its key.
#include "calendar_date.h"
#include "design_rule.h"
#include "units.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost {

/// An asset class of the timeline: its useful life and its residual value at the end of it (the steady-state
/// asset classes of cost/evaluate_finance.cpp).
struct TimelineAssetLife {
    double lifeYears = 0;
    double residualFraction = 0;
};

/// One phase: the racks of one data hall, energised in one month.
struct TimelinePhaseInput {
    std::string hall;             ///< data hall id
    std::string building;         ///< its building
    int energisationMonth = 0;    ///< months after the build start (month 0)
    double gpuShare = 0;          ///< of the design's GPUs (IT, network and GPU-hours follow it)
    double powerShare = 0;        ///< of the design's IT power (facility capex, energy and MW follow it)
    bool economicRefresh = false; ///< data hall refresh_policy "economic" (else "fixed_life")
    /// Its GPU generation (the accelerators of its rack types, GPU-weighted; cost/evaluate_timeline.cpp):
    /// its catalog rental price over the design's GPU-hour price (the shares x factors sum to 1, so the
    /// steady state's revenue is kept), its rental price decay and the decline of its purchase price per
    /// year (absent: TimelineInputs::rentalDecayPerYear and gpuPriceDeclinePerYear), and the GPUs' part of
    /// its IT capex (the part that follows the generation's purchase price curve).
    double rentalPriceFactor = 1.0;
    std::optional<double> rentalDecayPerYear, gpuPriceDeclinePerYear;
    double gpuCapexShare = 0.0;
    /// Its site and, when the site dates its own grid interconnect (sites.<id>.grid_interconnect_date),
    /// that month; absent: TimelineInputs::gridMonth.
    std::string site;
    std::optional<int> gridMonth;
};

/// Everything computeTimeline reads: the steady-state totals of the evaluation, split over the phases by
/// their shares (shares of each kind sum to 1 over the phases).
struct TimelineInputs {
    std::optional<model::CalendarDate> buildStart; ///< absent: an undated timeline (month numbers only)
    int constructionMonths = 0; ///< assumptions.construction_months: the reference delivery month
    int horizonYears = 0;       ///< assumptions.horizon_years after the reference delivery
    double wacc = 0, taxRate = 0;
    double deliveryToRevenueDays = 0;
    double rentalDecayPerYear = 0;     ///< assumptions.gpu_rental_price_decay_per_year
    double itPriceChangePerYear = 0;   ///< assumptions.it_cohort_price_change_per_year (the successor's IT)
    double gpuPriceDeclinePerYear = 0; ///< assumptions.gpu_price_decline_per_year (one generation's GPUs)
    /// assumptions.gpu_rental_contract_years: a cohort's hours are sold on contracts of this term, each at
    /// the price of the cohort's age when it is signed; 0: repriced every month (on demand).
    double rentalContractYears = 0;
    /// Bridge power: before gridMonth (assumptions.grid_interconnect_month) the site has
    /// no grid; its energised halls run on onsiteMw of on-site generation at fuelUsdPerMwh, and the load
    /// beyond it waits (its GPUs earn nothing). energyAnnual (part of opexPowerDriven) and
    /// facilityEnergyMwhPerYear are the steady state's, to swap grid energy for fuel in those months.
    int gridMonth = 0;
    double onsiteMw = 0, fuelUsdPerMwh = 0, facilityEnergyMwhPerYear = 0;
    /// On-site generation per site (each site's share of onsiteMw, cost::SitePower): a site's halls share
    /// its own plant before its interconnect. Empty: every hall shares onsiteMw (one pool).
    std::map<std::string, double> siteOnsiteMw;
    units::Money energyAnnual{};
    units::Money facilityCapex{}, land{}, itCapex{}, networkCapex{}; ///< facility excludes land and IDC
    TimelineAssetLife it, network, facility;
    /// Yearly opex split by what drives it: power-driven (energy, staff, facility maintenance, insurance and
    /// property tax on the facility), GPU-driven (software, IT and network maintenance, insurance and
    /// property tax on them) and site-driven (WAN leases, property tax on land), paid from the first
    /// energisation.
    units::Money opexPowerDriven{}, opexGpuDriven{}, opexSiteDriven{};
    double gpuHoursPerYear = 0;                        ///< sold, steady state, all phases
    double gpuHourPrice = 0;                           ///< of a new cohort (USD per GPU-hour)
    double gpus = 0, itPeakMw = 0, facilityPeakMw = 0; ///< steady state, all phases
    std::vector<TimelinePhaseInput> phases;
    bool computeIrr = true; ///< the XIRR's root search (TOMS 748, ~16 NPV passes) only when someone reads it
};

/// One month of the timeline (month m covers [m, m+1) months after the build start). Money in USD, positive
/// as named (capex is spent, revenue earned); cashFlow is the signed sum.
struct TimelineMonth {
    int month = 0;
    double energisedItMw = 0, energisedFacilityMw = 0; ///< provisioned MW of the energised phases
    double gpusInstalled = 0, gpusEarning = 0;         ///< GPUs of delivered cohorts; of those selling hours
    double gpuHours = 0;                               ///< sold in the month
    /// Output tokens/s of the inference services with the month's GPUs: their steady-state rate x GPUs
    /// earning / the design's GPUs (services grow with the GPUs energised; cost/evaluate_timeline.cpp).
    double outputTokensPerS = 0;
    /// Share of the energised load powered this month: 1 with the grid; before the interconnect, on-site
    /// MW / energised facility MW (at most 1).
    double powered = 1.0;
    double meanGpuHourPrice = 0; ///< revenue / GPU-hours (0 when none sold)
    units::Money facilityCapex{}, itCapex{}, replacementCapex{}, salvage{};
    /// The part of facilityCapex drawn at mid-month (construction draws); the rest of the capex (land, IT,
    /// replacements, a facility built at once) is paid at the month's start. Operating flows, salvage and the
    /// terminal value fall at its end. The NPV discounts each at its time.
    units::Money drawsMidMonth{};
    /// depreciation: straight line by vintage, plus the loss when a cohort is sold below its book value.
    units::Money opex{}, revenue{}, depreciation{}, tax{}, terminalValue{};
    units::Money cashFlow{};
    units::Money cumulative{}; ///< running sum of cashFlow less terminal value (what funding must cover)
};

/// A phase as the timeline ran it.
struct TimelinePhase {
    TimelinePhaseInput input;
    units::Money interestDuringConstruction{}; ///< on its facility draws until its energisation
    std::vector<int> itRefreshMonths;          ///< months its GPUs were replaced in
};

struct Timeline {
    std::optional<model::CalendarDate> buildStart;
    int referenceMonth = 0; ///< the reference delivery (construction_months): NPV is valued there
    std::vector<TimelinePhase> phases;
    std::vector<TimelineMonth> months; ///< build start to the end of the horizon
    units::Money npv{};                ///< at the reference delivery, at the WACC, monthly flows
    std::optional<double> irr;         ///< XIRR of the monthly flows on year fractions (months / 12)
    units::Money interestDuringConstruction{};
    units::Money peakFunding{}; ///< the deepest cumulative cash position (positive number)
    int peakFundingMonth = 0;
    std::optional<int> paybackMonth; ///< first month the cumulative cash (no terminal value) is >= 0
    /// Bridge power: months with energised halls before the grid interconnect, the GPU-hours that waited
    /// for it (unpowered), and the fuel the on-site generation burnt in those months.
    int bridgeMonths = 0;
    double gpuHoursWaitingForGrid = 0;
    units::Money bridgeFuel{};
    int firstEnergisationMonth = 0, fullEnergisationMonth = 0;
    /// The cohort age at which an economic refresh pays (years; refreshAge), at the reference delivery's
    /// prices; nullopt when a new cohort's margin never covers its capital charge.
    std::optional<double> economicRefreshAgeYears;
    std::vector<DesignRule> rules; ///< bad dates and phases (Error), compressed construction (Warning)

    /// The month a date falls in (months after the build start); nullopt without a build start.
    std::optional<int> monthOf(const model::CalendarDate& date) const;
    /// The first day of month m, when the timeline is dated.
    std::optional<model::CalendarDate> dateOf(int month) const;
};

/// The documented bound on a timeline's length: the horizon and construction are whole numbers the loaders
/// bound (horizon_years <= 1000 in the engine), and a month loop runs at most this many months.
inline constexpr int kMaxTimelineMonths = 12 * 200;

/// The monthly timeline of `in` (cost/timeline.cpp states every convention at its formula).
Timeline computeTimeline(const TimelineInputs& in);

/// The cohort age a (years) from which replacing a cohort pays in the economic policy: a new cohort sells
/// the same GPU-hours at the new-cohort price, the running one at the price decayed with its age, so the
/// margin gained is R0·(1 - (1-d)^a) a year, and replacing pays when it covers the new cohort's capital
/// charge C·CRF(wacc, life): a = ln(1 - C·CRF/R0) / ln(1 - d). R0: a year's revenue at the new-cohort
/// price; C: the new cohort's IT capex. nullopt when C·CRF >= R0 or d <= 0 (never pays).
std::optional<double> refreshAge(double yearlyRevenueNew, double cohortCapex, double wacc, double lifeYears,
                                 double decayPerYear);

} // namespace ctwin::cost
