// Each site's load against its supply: the site's facility power summed over
// its buildings, its grid interconnect (sites.<id>.grid_interconnect_mw) with its share of the on-site
// generation, and its load duration curves.
//
// Load duration curve (the utility planner's view of a load: ordered hourly demand against hours of the
// year; e.g. IEA, "Electricity Market Report", and any transmission planning manual): the buildings'
// facility power in each hour class of each month (cost/cooling_plant.h kHourClasses, evaluate_power.cpp)
// summed over the site (the buildings of a site share its weather), the 144 samples sorted from the highest,
// each spanning its month's hours / kHourClasses. A sample is plotted at the middle of its span; the curve
// starts at the design day (0 h, the ASHRAE 0.4 % condition) and ends at 8,760 h. Two bases: the operating
// point (IT at the utilization, the energy the site buys) and full load as provisioned (every rack at its
// provisioned draw: what the interconnect must carry). IT is steady hour to hour; only the weather moves
// the plant. The area under the operating curve is the site's annual facility energy (to within the hour
// classes' discretisation).
#include "climate.h"
#include "cooling_plant.h"
#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost::detail {

using namespace ctwin::units;

namespace {

/// The load duration curve of summed hour-class samples (W, index month x kHourClasses + class) with the
/// design-day point `designW` at 0 h.
std::vector<LoadDurationPoint> loadDuration(const std::vector<double>& samplesW, double designW) {
    struct Sample {
        double mw, hours;
    };
    std::vector<Sample> s;
    s.reserve(samplesW.size());
    for (size_t i = 0; i < samplesW.size(); ++i) {
        const size_t month = i / static_cast<size_t>(kHourClasses);
        s.push_back({samplesW[i] / 1e6, kDaysPerMonth[month % 12] * 24.0 / kHourClasses});
    }
    std::stable_sort(s.begin(), s.end(), [](const Sample& a, const Sample& b) { return a.mw > b.mw; });
    std::vector<LoadDurationPoint> out;
    out.reserve(s.size() + 2);
    out.push_back({0.0, std::max(designW / 1e6, s.empty() ? 0.0 : s.front().mw)});
    double hours = 0.0;
    for (const auto& x : s) {
        out.push_back({hours + x.hours / 2, x.mw});
        hours += x.hours;
    }
    if (!s.empty()) out.push_back({hours, s.back().mw});
    return out;
}

} // namespace

void evaluateSitePower(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    const double facilityPeakMw = toMw(r.power.facilityPeak);
    for (const auto& site : p.sites) {
        SitePower sp;
        sp.siteId = site.id;
        sp.name = site.name.empty() ? site.id : site.name;
        sp.interconnectMw = site.gridInterconnectMw;
        std::vector<double> operating, fullLoad;
        Power operatingDesignDay{};
        for (const auto& bp : r.power.buildings) {
            if (bp.siteId != site.id) continue;
            sp.facilityPeak += bp.facilityPeak;
            sp.facilityOperating += bp.facilityOperating;
            operatingDesignDay += bp.facilityOperatingDesignDay;
            operating.resize(bp.hourFacilityOperatingW.size(), 0.0);
            fullLoad.resize(bp.hourFacilityFullLoadW.size(), 0.0);
            for (size_t i = 0; i < bp.hourFacilityOperatingW.size(); ++i)
                operating[i] += bp.hourFacilityOperatingW[i];
            for (size_t i = 0; i < bp.hourFacilityFullLoadW.size(); ++i)
                fullLoad[i] += bp.hourFacilityFullLoadW[i];
        }
        if (!(sp.facilityPeak.value() > 0) && !sp.interconnectMw) continue;
        // On-site generation and the battery are the design's (assumptions); each site carries them in
        // proportion to its share of the facility peak.
        const double share = safeDiv(toMw(sp.facilityPeak), facilityPeakMw);
        sp.onsiteMw = std::max(0.0, c.onsiteMw) * share;
        sp.bessMw = c.bessPowerMw * share;
        sp.operating = loadDuration(operating, operatingDesignDay.value());
        sp.fullLoad = loadDuration(fullLoad, sp.facilityPeak.value());
        if (sp.interconnectMw && sp.facilityPeak.value() > 0) {
            const double supply = *sp.interconnectMw + sp.onsiteMw, peak = toMw(sp.facilityPeak);
            if (peak > supply * (1 + 1e-9)) {
                // Hours a year the operating point alone is above the supply (the curve, linearly between
                // its points).
                double above = 0.0;
                for (size_t i = 1; i < sp.operating.size(); ++i) {
                    const auto &a = sp.operating[i - 1], &b = sp.operating[i];
                    if (b.mw >= supply)
                        above = b.hours;
                    else if (a.mw > supply)
                        above =
                            a.hours + (b.hours - a.hours) * (a.mw - supply) / std::max(a.mw - b.mw, 1e-12);
                }
                r.rules.push_back(
                    {Severity::Error, "site_interconnect_exceeded", site.id,
                     "Site " + sp.name +
                         " (grid_interconnect_mw): its facility peak on the design day, every "
                         "rack at its provisioned draw, is " +
                         fmt(peak, 1) + " MW, above its grid interconnect of " + fmt(*sp.interconnectMw, 1) +
                         " MW" +
                         (sp.onsiteMw > 0 ? " plus " + fmt(sp.onsiteMw, 1) + " MW of on-site generation"
                                          : "") +
                         (above > 0
                              ? "; even at the operating point it is above it " + fmt(above, 0) + " h a year"
                              : "") +
                         ". Raise the site's or the design's power_oversubscription_ratio (the racks are "
                         "then capped), add "
                         "on-site generation (onsite_generation_mw), or move halls to another site"});
            }
        }
        r.power.sites.push_back(std::move(sp));
    }
}

void addSitePowerFigures(EvalContext& c) {
    const Results& r = c.r;
    addFigure(c, "power.load_factor_annual", safeDiv(toMw(r.power.facility), toMw(r.power.facilityPeak)), "",
              "Load factor (annual-average over design-day peak facility MW)",
              "facility power, annual average at the utilization / facility power at peak (design day, racks "
              "at their provisioned full load): the share of the provisioned megawatts the site uses",
              {{"facility_mw", toMw(r.power.facility)}, {"facility_peak_mw", toMw(r.power.facilityPeak)}},
              {c.source("utilization")});
    const SitePower* tightest = nullptr;
    for (const auto& sp : r.power.sites)
        if (sp.interconnectMw && (!tightest || sp.headroomMw() < tightest->headroomMw())) tightest = &sp;
    if (!tightest) return;
    addFigure(c, "power.interconnect_headroom_mw_design_day", tightest->headroomMw(), "MW",
              "Grid interconnect headroom (design-day peak, tightest site)",
              "min over sites with grid_interconnect_mw of (interconnect + the site's share of on-site "
              "generation - the site's facility peak on the design day, racks at their provisioned draw); "
              "below 0 the site does not fit (rule site_interconnect_exceeded)",
              {{"interconnect_mw", *tightest->interconnectMw},
               {"onsite_mw", tightest->onsiteMw},
               {"site_facility_peak_mw", toMw(tightest->facilityPeak)}},
              {c.source("onsite_generation_mw"), c.source("power_oversubscription_ratio")});
}

} // namespace ctwin::cost::detail
