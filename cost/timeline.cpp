#include "timeline.h"

#include "finance.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

namespace ctwin::cost {

using units::Money;
using units::usd;

std::optional<int> Timeline::monthOf(const model::CalendarDate& date) const {
    if (!buildStart) return std::nullopt;
    return date.monthIndex() - buildStart->monthIndex();
}

std::optional<model::CalendarDate> Timeline::dateOf(int month) const {
    if (!buildStart) return std::nullopt;
    return buildStart->plusMonths(month);
}

std::optional<double> refreshAge(double yearlyRevenueNew, double cohortCapex, double wacc, double lifeYears,
                                 double decayPerYear) {
    // Replace at age a when the margin a new cohort adds, R0·(1 - (1-d)^a) a year (it sells the same hours at
    // the new-cohort price, the running cohort at its aged price; energy, staff and maintenance are the same
    // slot's, so they cancel), covers the new cohort's capital charge C·CRF(wacc, life) (the economic
    // convention's capital recovery, finance.h): (1-d)^a = 1 - C·CRF/R0.
    if (!(decayPerYear > 0.0) || !(decayPerYear < 1.0) || !(yearlyRevenueNew > 0.0)) return std::nullopt;
    const double x = cohortCapex * capitalRecoveryFactor(wacc, lifeYears) / yearlyRevenueNew;
    if (!(x < 1.0) || !std::isfinite(x)) return std::nullopt;
    if (x <= 0.0) return 0.0;
    return std::log1p(-x) / std::log1p(-decayPerYear);
}

namespace {

/// One depreciable vintage: bought in `start`, straight line to its residual over `lifeMonths` (IRS
/// Publication 946 straight line, by month).
struct Vintage {
    int start = 0;
    double cost = 0; // USD
    double residualFraction = 0;
    int lifeMonths = 1;
    double monthly() const { return cost * (1.0 - residualFraction) / lifeMonths; }
    /// Book value at the start of month m (after the depreciation of months start..m-1).
    double bookAt(int m) const {
        const int used = std::clamp(m - start, 0, lifeMonths);
        return cost - monthly() * used;
    }
};

int lifeInMonths(double years) {
    // Whole months, at least one; a life longer than any timeline is capped (the loop bound).
    if (!(years > 0.0)) return 1;
    return static_cast<int>(std::clamp(std::round(years * 12.0), 1.0, double(kMaxTimelineMonths + 1)));
}

/// The flows of the timeline at half-month resolution (capex mid-month or at a month start, operating flows
/// at month ends), for the NPV and the XIRR.
class DatedFlows {
public:
    explicit DatedFlows(int months) : m_amount(static_cast<std::size_t>(2 * months + 1), 0.0) {}
    /// `amount` at `months` after the build start (a multiple of 0.5, clamped to the timeline).
    void add(double months, double amount) {
        const auto i = static_cast<std::size_t>(
            std::clamp(std::lround(months * 2.0), 0L, static_cast<long>(m_amount.size()) - 1));
        m_amount[i] += amount;
    }
    /// Present value at month `valuation`: sum a·(1+r)^(-(t - valuation)/12) (monthly flows on year
    /// fractions, as Excel's XNPV with months of 1/12 year; finance.h datedNetPresentValue).
    double npv(double rate, double valuation) const {
        std::vector<DatedFlow> f = flows(valuation);
        return datedNetPresentValue(rate, f).value();
    }
    std::vector<DatedFlow> flows(double origin) const {
        std::vector<DatedFlow> f;
        for (std::size_t i = 0; i < m_amount.size(); ++i)
            if (m_amount[i] != 0.0) f.push_back({(0.5 * double(i) - origin) / 12.0, m_amount[i] * usd});
        return f;
    }

private:
    std::vector<double> m_amount;
};

/// The grid interconnect month of a phase: its site's own date, else the design's.
int gridMonthOf(const TimelineInputs& in, const TimelinePhaseInput& ph) {
    return ph.gridMonth.value_or(in.gridMonth);
}

/// The pool of on-site generation a phase draws on before its interconnect: its site's plant, or one pool
/// for the design when TimelineInputs::siteOnsiteMw is empty.
const std::string& bridgePoolOf(const TimelineInputs& in, const TimelinePhaseInput& ph) {
    static const std::string kOnePool;
    return in.siteOnsiteMw.empty() ? kOnePool : ph.site;
}

/// Bridge power: before its grid interconnect a site's energised halls share the site's
/// on-site generation, so each month's powered share of a pool is min(1, its on-site MW / its energised
/// facility peak MW), every hall of the pool alike (a pre-pass: it depends on every phase energised by then);
/// 1 with the grid. `bridgeMonths` counts the months with an energised hall before its interconnect.
std::map<std::string, std::vector<double>> poweredShares(const TimelineInputs& in, int months,
                                                         int& bridgeMonths) {
    std::map<std::string, std::vector<double>> load;
    for (const auto& ph : in.phases) {
        auto& l = load[bridgePoolOf(in, ph)];
        l.resize(static_cast<std::size_t>(months), 0.0);
        const int end = std::min(gridMonthOf(in, ph), months);
        for (int m = std::max(0, ph.energisationMonth); m < end; ++m)
            l[static_cast<std::size_t>(m)] += in.facilityPeakMw * ph.powerShare;
    }
    std::map<std::string, std::vector<double>> powered;
    std::vector<bool> bridging(static_cast<std::size_t>(months), false);
    for (const auto& [pool, l] : load) {
        const auto own = in.siteOnsiteMw.find(pool);
        const double onsite = in.siteOnsiteMw.empty()            ? in.onsiteMw
                              : own != in.siteOnsiteMw.end() ? own->second
                                                             : 0.0;
        auto& share = powered[pool];
        share.assign(static_cast<std::size_t>(months), 1.0);
        for (int m = 0; m < months; ++m) {
            const double mw = l[static_cast<std::size_t>(m)];
            if (mw <= 0.0) continue;
            share[static_cast<std::size_t>(m)] = std::clamp(onsite / mw, 0.0, 1.0);
            bridging[static_cast<std::size_t>(m)] = true;
        }
    }
    bridgeMonths += static_cast<int>(std::count(bridging.begin(), bridging.end(), true));
    return powered;
}

/// Phases energised in the same month under the same refresh policy and GPU generation run as one cohort
/// (every figure is linear in the shares): a campus of 20 halls in 5 buildings is 5 cohorts. Each hall then
/// gets its share of the group's interest during construction (by power) and the group's refresh months.
struct Group {
    TimelinePhaseInput ph;
    std::vector<std::size_t> members;
};

/// The groups of `in`'s phases; every phase is also listed in t.phases (members index it).
std::vector<Group> cohortGroups(const TimelineInputs& in, Timeline& t) {
    std::vector<Group> groups;
    // Key: month, policy, generation (price factor, decay, decline, GPU share of IT), and the bridge pool
    // with its interconnect month: O(log) per hall.
    using GroupKey = std::tuple<int, bool, double, double, double, double, std::string, int>;
    std::map<GroupKey, std::size_t> groupOf;
    for (std::size_t i = 0; i < in.phases.size(); ++i) {
        const auto& ph = in.phases[i];
        t.phases.push_back(TimelinePhase{ph, {}, {}});
        if (ph.gpuShare <= 0.0 && ph.powerShare <= 0.0) continue;
        const GroupKey key{ph.energisationMonth,
                           ph.economicRefresh,
                           ph.rentalPriceFactor,
                           ph.rentalDecayPerYear.value_or(-1.0),
                           ph.gpuPriceDeclinePerYear.value_or(-1.0),
                           ph.gpuCapexShare,
                           bridgePoolOf(in, ph),
                           gridMonthOf(in, ph)};
        const auto [it, added] = groupOf.try_emplace(key, groups.size());
        if (added) {
            groups.push_back(Group{ph, {}});
            groups.back().ph.gpuShare = groups.back().ph.powerShare = 0.0;
        }
        Group& g = groups[it->second];
        g.ph.gpuShare += ph.gpuShare, g.ph.powerShare += ph.powerShare;
        g.members.push_back(i);
    }
    return groups;
}

/// The monthly schedule built one cohort group at a time (computeTimeline): its months and flows, the
/// vintages still in service for the terminal value, and the conventions every group shares.
class TimelineBuilder {
public:
    TimelineBuilder(const TimelineInputs& in, Timeline& t, int months)
        : m_in(in), m_t(t), m_flows(months), m_months(months), m_r(in.wacc),
          m_delayMonths(std::max(0.0, in.deliveryToRevenueDays) / (365.25 / 12.0)),
          m_contractMonths(static_cast<int>(
              std::clamp(std::round(in.rentalContractYears * 12.0), 0.0, double(kMaxTimelineMonths)))) {}

    /// Land is bought when construction starts; it carries interest until the first phase is energised
    /// (capitalised with that phase's facility, as the steady-state schedule does).
    void buyLand(int first) {
        m_t.months[0].facilityCapex += m_in.land;
        m_flows.add(0.0, -m_in.land.value());
        m_first = first;
        m_landIdc = m_in.land.value() * (growth(first) - 1.0);
    }

    void addGroup(const Group& group, const std::vector<double>& powered) {
        const TimelinePhaseInput& ph = group.ph;
        TimelinePhase out{ph, {}, {}};
        const int e = ph.energisationMonth;
        const double facility = m_in.facilityCapex.value() * ph.powerShare;
        const double idc = drawFacility(e, facility);
        out.interestDuringConstruction = idc * usd;
        m_t.interestDuringConstruction += idc * usd;
        Vintage fac{e, facility + idc, m_in.facility.residualFraction, lifeInMonths(m_in.facility.lifeYears)};
        Vintage net{e, m_in.networkCapex.value() * ph.gpuShare, m_in.network.residualFraction,
                    lifeInMonths(m_in.network.lifeYears)};
        const Vintage it = deliverIt(ph, net);
        // Facility and network are replaced like for like at the end of their lives, at the same price.
        replaceLikeForLike(fac, facility);
        replaceLikeForLike(net, net.cost);
        runCohorts(ph, powered, out, it);
        for (std::size_t i : group.members) {
            auto& member = m_t.phases[i];
            const double share = ph.powerShare > 0 ? member.input.powerShare / ph.powerShare
                                                   : member.input.gpuShare / ph.gpuShare;
            member.interestDuringConstruction = share * out.interestDuringConstruction;
            member.itRefreshMonths = out.itRefreshMonths;
        }
    }

    void finish(int first, int last);

private:
    // (1+r)^(months/12): compounding over a span in months, on year fractions as the NPV.
    double growth(double spanMonths) const { return std::pow(1.0 + m_r, spanMonths / 12.0); }
    // The price factor of IT bought in month m: the catalog price holds at the reference delivery and moves
    // at it_cohort_price_change_per_year from there ("the catalog of the year it is bought").
    double itPriceFactor(int m) const {
        return std::pow(1.0 + m_in.itPriceChangePerYear, (m - m_in.constructionMonths) / 12.0);
    }
    static double monthlyFactor(double perYear) { return std::pow(1.0 - std::clamp(perYear, 0.0, 0.99), 1.0 / 12.0); }

    /// Straight-line depreciation by month until the vintage is retired (or the horizon ends).
    void depreciate(const Vintage& v, int retireMonth) {
        const int end = std::min({retireMonth, v.start + v.lifeMonths, m_months});
        for (int m = std::max(0, v.start); m < end; ++m)
            m_t.months[static_cast<std::size_t>(m)].depreciation += v.monthly() * usd;
    }
    /// Retired assets change hands at book value (the steady-state convention, evaluate_finance.cpp), or at
    /// their market value when that is lower; the shortfall is a loss on disposal, deducted from taxable
    /// income in the month (IAS 16.68: gain or loss = proceeds - carrying amount, in profit or loss). Paid
    /// at the end of the month.
    void retire(const Vintage& v, int m, double marketValue = std::numeric_limits<double>::infinity()) {
        const double book = v.bookAt(m);
        const double proceeds = std::min(book, std::max(0.0, marketValue));
        auto& row = m_t.months[static_cast<std::size_t>(m)];
        row.salvage += proceeds * usd;
        row.depreciation += (book - proceeds) * usd;
        m_flows.add(m + 1.0, proceeds);
    }
    double drawFacility(int e, double facility);
    void replaceLikeForLike(Vintage v, double price);
    Vintage deliverIt(const TimelinePhaseInput& ph, const Vintage& net);
    void runCohorts(const TimelinePhaseInput& ph, const std::vector<double>& powered, TimelinePhase& out,
                    Vintage it);
    void chargeMonth(const TimelinePhaseInput& ph, int m, double share, double earning, double hoursPerMonth,
                     double price, int gridMonth);

    const TimelineInputs& m_in;
    Timeline& m_t;
    DatedFlows m_flows;
    const int m_months;
    const double m_r, m_delayMonths;
    const int m_contractMonths;
    std::vector<Vintage> m_live; // every vintage bought, for the terminal value
    int m_first = 0;
    double m_landIdc = 0;
    bool m_landIdcAssigned = false;
};

/// Facility: drawn in equal monthly amounts over the construction_months before its energisation, each at
/// the middle of its month (cost/finance.h constructionDraws); a phase energised sooner after the build
/// start is built in the months there are. Returns its interest during construction (with the land's
/// carry for the first phase energised).
double TimelineBuilder::drawFacility(int e, double facility) {
    const int start = std::max(0, e - m_in.constructionMonths);
    const int drawMonths = e - start;
    double idc = 0.0;
    if (drawMonths == 0) {
        m_t.months[static_cast<std::size_t>(e)].facilityCapex += facility * usd;
        m_flows.add(e, -facility);
    } else {
        const double perMonth = facility / drawMonths;
        for (int k = start; k < e; ++k) {
            m_t.months[static_cast<std::size_t>(k)].facilityCapex += perMonth * usd;
            m_t.months[static_cast<std::size_t>(k)].drawsMidMonth += perMonth * usd;
            m_flows.add(k + 0.5, -perMonth);
            // Interest during construction at the WACC until the phase is energised (IAS 23), the draw
            // compounded forward less the draw: D·((1+r)^((e - t)/12) - 1).
            idc += perMonth * (growth(e - (k + 0.5)) - 1.0);
        }
    }
    if (e == m_first && !m_landIdcAssigned) {
        idc += m_landIdc; // the land's carry goes with the first phase energised
        m_landIdcAssigned = true;
    }
    return idc;
}

void TimelineBuilder::replaceLikeForLike(Vintage v, double price) {
    while (true) {
        const int end = v.start + v.lifeMonths;
        depreciate(v, end);
        if (end >= m_months) break;
        retire(v, end);
        m_t.months[static_cast<std::size_t>(end)].replacementCapex += price * usd;
        m_flows.add(end, -price);
        v = Vintage{end, price, v.residualFraction, v.lifeMonths};
    }
    m_live.push_back(v);
}

/// The first cohort: its GPUs at the generation's purchase price of its delivery month, the rest of the IT
/// (CPUs, memory, NICs, trays) at the IT price of that month. IT and network are paid on delivery, at the
/// start of the energisation month.
Vintage TimelineBuilder::deliverIt(const TimelinePhaseInput& ph, const Vintage& net) {
    const int e = ph.energisationMonth;
    const double itBase = m_in.itCapex.value() * ph.gpuShare;
    const double gpuShareOfIt = std::clamp(ph.gpuCapexShare, 0.0, 1.0);
    const double firstItFactor =
        (1.0 - gpuShareOfIt) * itPriceFactor(e) +
        gpuShareOfIt * std::pow(monthlyFactor(ph.gpuPriceDeclinePerYear.value_or(m_in.gpuPriceDeclinePerYear)),
                                e - m_in.constructionMonths);
    Vintage it{e, itBase * firstItFactor, m_in.it.residualFraction, lifeInMonths(m_in.it.lifeYears)};
    m_t.months[static_cast<std::size_t>(e)].itCapex += (it.cost + net.cost) * usd;
    m_flows.add(e, -(it.cost + net.cost));
    return it;
}

/// GPUs: one cohort at a time. Revenue starts delivery_to_revenue_days after its delivery (pro rata in that
/// month); the cohort's price falls with its age; the policy decides when it is replaced. A GPU
/// generation's prices are market prices at a date: its catalog rental price and
/// purchase price hold at the reference delivery (the catalog's date) and move from there, the rental price
/// by (1 - d)^years and the GPUs' purchase price by (1 - g)^years, with d and g the generation's own
/// (data/catalog/accelerators.json rental_price_decay_per_year and price_decline_per_year; the assumptions
/// of the same names when a design or an override sets them). A hall delivered after the reference so buys
/// its GPUs for less and rents them for less from its first day; one delivered before pays and earns more.
/// A refresh installs the successor generation, bought at the catalog IT price x (1 +
/// it_cohort_price_change_per_year)^years and new on its day: it sells at the generation's reference price
/// and decays from there (stationary generations: each new one takes the place and the price its
/// predecessor had at the reference).
void TimelineBuilder::runCohorts(const TimelinePhaseInput& ph, const std::vector<double>& powered,
                                 TimelinePhase& out, Vintage it) {
    const int e = ph.energisationMonth;
    const double itBase = m_in.itCapex.value() * ph.gpuShare;
    const double monthlyDecay = monthlyFactor(ph.rentalDecayPerYear.value_or(m_in.rentalDecayPerYear));
    const int gridMonth = gridMonthOf(m_in, ph);
    const double hoursPerMonth = m_in.gpuHoursPerYear * ph.gpuShare / 12.0;
    const double newPrice = m_in.gpuHourPrice * ph.rentalPriceFactor; // the generation's, at the reference
    const double yearlyRevenueNew = m_in.gpuHoursPerYear * ph.gpuShare * newPrice;
    // The month from which the running cohort's price has decayed: the reference for the first cohort (a
    // market price at a date), its installation for a successor.
    int priceOrigin = m_in.constructionMonths;
    const double crf = capitalRecoveryFactor(m_in.wacc, m_in.it.lifeYears);
    double earnFrom = e + m_delayMonths;
    for (int m = e; m < m_months; ++m) {
        // Refresh at the start of the month: at the end of the IT life, or (economic) as soon as a new
        // cohort's extra margin covers its capital charge (refreshAge).
        const int age = m - it.start;
        bool replace = false;
        if (age > 0 && itBase > 0.0) {
            if (!ph.economicRefresh) {
                replace = age >= it.lifeMonths;
            } else if (yearlyRevenueNew > 0.0) {
                const double gain = yearlyRevenueNew * (1.0 - std::pow(monthlyDecay, m - priceOrigin));
                replace = gain >= itBase * itPriceFactor(m) * crf;
            }
        }
        if (replace) {
            depreciate(it, m);
            // A used cohort sells for what its aged rental price supports: its cost x (1 - d)^age (the
            // used-GPU price tracks the rental price), at most its book value.
            retire(it, m, it.cost * std::pow(monthlyDecay, m - it.start));
            it = Vintage{m, itBase * itPriceFactor(m), it.residualFraction, it.lifeMonths};
            m_t.months[static_cast<std::size_t>(m)].replacementCapex += it.cost * usd;
            m_flows.add(m, -it.cost);
            out.itRefreshMonths.push_back(m);
            earnFrom = m + m_delayMonths; // installing and burning in the new cohort
            priceOrigin = m;
        }
        const double share = powered[static_cast<std::size_t>(m)];
        const double earning = std::clamp(m + 1.0 - earnFrom, 0.0, 1.0);
        // Sold on contracts of a fixed term, each at the generation's price of the month it is signed (the
        // first at delivery); without a term, at the price of mid-month.
        const double signedAt = m_contractMonths > 0
                                    ? double(it.start + (m - it.start) / m_contractMonths * m_contractMonths)
                                    : m + 0.5;
        chargeMonth(ph, m, share, earning, hoursPerMonth, newPrice * std::pow(monthlyDecay, signedAt - priceOrigin),
                    gridMonth);
    }
    depreciate(it, m_months);
    m_live.push_back(it);
}

/// One month of a group: GPU-hours and revenue of the earning share, opex, and in a bridge month the
/// on-site fuel that replaces the grid energy.
void TimelineBuilder::chargeMonth(const TimelinePhaseInput& ph, int m, double share, double earnedShare,
                                  double hoursPerMonth, double price, int gridMonth) {
    auto& row = m_t.months[static_cast<std::size_t>(m)];
    const double earning = earnedShare * share;
    const double hours = hoursPerMonth * earning;
    row.gpuHours += hours;
    row.revenue += hours * price * usd;
    row.opex += (m_in.opexPowerDriven.value() * ph.powerShare / 12.0 + m_in.opexGpuDriven.value() * ph.gpuShare / 12.0) * usd;
    if (m < gridMonth) {
        // Bridge month: the phase's grid energy is replaced by on-site fuel for the powered share of its
        // load; the unpowered share draws nothing.
        const double grid = m_in.energyAnnual.value() * ph.powerShare / 12.0;
        const double fuel = m_in.facilityEnergyMwhPerYear * ph.powerShare / 12.0 * share * m_in.fuelUsdPerMwh;
        row.opex += (fuel - grid) * usd;
        m_t.bridgeFuel += fuel * usd;
        m_t.gpuHoursWaitingForGrid += hoursPerMonth * earnedShare * (1.0 - share);
    }
    row.powered = share;
    row.energisedItMw += m_in.itPeakMw * ph.powerShare;
    row.energisedFacilityMw += m_in.facilityPeakMw * ph.powerShare;
    row.gpusInstalled += m_in.gpus * ph.gpuShare;
    row.gpusEarning += m_in.gpus * ph.gpuShare * earning;
}

/// Site-driven opex, tax, the terminal value and the cash flows with their NPV, IRR and payback.
void TimelineBuilder::finish(int first, int last) {
    Timeline& t = m_t;
    const int months = m_months;
    // Site-driven opex (WAN leases, property tax on land) from the first energisation.
    for (int m = first; m < months && last >= 0; ++m)
        t.months[static_cast<std::size_t>(m)].opex += m_in.opexSiteDriven.value() / 12.0 * usd;
    // Tax: on each year's positive taxable income (revenue - opex - depreciation), years counted from the
    // build start, paid in the year's last month (the steady state's yearly convention: no loss carried
    // forward, cost/evaluate_finance.cpp); a last partial year is taxed at the horizon.
    for (int y0 = 0; y0 < months; y0 += 12) {
        const int y1 = std::min(months, y0 + 12);
        double taxable = 0.0;
        for (int m = y0; m < y1; ++m) {
            const auto& row = t.months[static_cast<std::size_t>(m)];
            taxable += (row.revenue - row.opex - row.depreciation).value();
        }
        t.months[static_cast<std::size_t>(y1 - 1)].tax = std::max(0.0, m_in.taxRate * taxable) * usd;
    }
    // Terminal value at the horizon: the book value of every vintage still in service, and the land at cost.
    double terminal = m_in.land.value();
    for (const auto& v : m_live)
        terminal += v.bookAt(months);
    t.months.back().terminalValue = terminal * usd;
    m_flows.add(months, terminal);

    double cumulative = 0.0;
    for (auto& row : t.months) {
        row.meanGpuHourPrice = row.gpuHours > 0 ? row.revenue.value() / row.gpuHours : 0.0;
        m_flows.add(row.month + 1.0, (row.revenue - row.opex - row.tax).value());
        row.cashFlow = row.revenue + row.salvage + row.terminalValue - row.opex - row.tax -
                       row.facilityCapex - row.itCapex - row.replacementCapex;
        cumulative += (row.cashFlow - row.terminalValue).value();
        row.cumulative = cumulative * usd;
        // Peak funding: the deepest the cumulative cash goes (the equity and debt the build needs).
        if (-cumulative > t.peakFunding.value()) {
            t.peakFunding = -cumulative * usd;
            t.peakFundingMonth = row.month;
        }
        if (!t.paybackMonth && cumulative >= 0.0 && t.peakFunding.value() > 0.0) t.paybackMonth = row.month;
    }
    t.npv = m_flows.npv(m_r, t.referenceMonth) * usd;
    if (m_in.computeIrr) t.irr = internalRateOfReturnDated(m_flows.flows(0.0));
    // The economic refresh age at the reference delivery's prices (the first cohort of the whole design).
    t.economicRefreshAgeYears = refreshAge(m_in.gpuHoursPerYear * m_in.gpuHourPrice, m_in.itCapex.value(), m_in.wacc,
                                           m_in.it.lifeYears, m_in.rentalDecayPerYear);
}

} // namespace

Timeline computeTimeline(const TimelineInputs& in) {
    Timeline t;
    t.buildStart = in.buildStart;
    t.referenceMonth = in.constructionMonths;
    const int months = in.constructionMonths + 12 * in.horizonYears;
    if (in.constructionMonths < 0 || in.horizonYears < 1 || months > kMaxTimelineMonths) {
        t.rules.push_back({Severity::Error, "timeline_length", "",
                           "The timeline (construction_months + 12 x horizon_years = " +
                               std::to_string(months) + " months) must lie in 12.." +
                               std::to_string(kMaxTimelineMonths) + " months: the timeline is not computed"});
        return t;
    }
    t.months.resize(static_cast<std::size_t>(months));
    for (int m = 0; m < months; ++m)
        t.months[static_cast<std::size_t>(m)].month = m;
    int first = std::numeric_limits<int>::max(), last = -1;
    for (const auto& ph : in.phases) {
        if (ph.energisationMonth < 0 || ph.energisationMonth >= months) {
            t.rules.push_back({Severity::Error, "phase_outside_timeline", ph.hall,
                               "Hall " + ph.hall + " energises in month " +
                                   std::to_string(ph.energisationMonth) +
                                   ", outside the timeline's months 0.." + std::to_string(months - 1) +
                                   ": the timeline is not computed"});
            continue;
        }
        if (ph.gpuShare <= 0.0 && ph.powerShare <= 0.0) continue;
        first = std::min(first, ph.energisationMonth);
        last = std::max(last, ph.energisationMonth);
    }
    if (!t.rules.empty()) {
        t.months.clear();
        return t;
    }
    if (last < 0) first = last = in.constructionMonths; // no phase carries anything: an empty timeline
    t.firstEnergisationMonth = first;
    t.fullEnergisationMonth = last;

    const auto powered = poweredShares(in, months, t.bridgeMonths);
    TimelineBuilder builder(in, t, months);
    builder.buyLand(first);
    for (const Group& group : cohortGroups(in, t))
        builder.addGroup(group, powered.at(bridgePoolOf(in, group.ph)));
    builder.finish(first, last);
    return t;
}

} // namespace ctwin::cost
