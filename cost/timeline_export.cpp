#include "timeline_export.h"

#include "csv_cell.h"
#include "fixed_format.h"
#include "input_error.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ctwin::cost {

namespace {

// The columns of a month, in file order: name, unit, value.
struct Column {
    const char* name;
    double (*value)(const TimelineMonth&);
};

const Column kColumns[] = {
    {"energised_it_mw", [](const TimelineMonth& m) { return m.energisedItMw; }},
    {"energised_facility_mw", [](const TimelineMonth& m) { return m.energisedFacilityMw; }},
    {"gpus_installed", [](const TimelineMonth& m) { return m.gpusInstalled; }},
    {"gpus_earning", [](const TimelineMonth& m) { return m.gpusEarning; }},
    {"gpu_hours", [](const TimelineMonth& m) { return m.gpuHours; }},
    {"mean_gpu_hour_price_usd", [](const TimelineMonth& m) { return m.meanGpuHourPrice; }},
    {"output_tokens_per_s", [](const TimelineMonth& m) { return m.outputTokensPerS; }},
    {"facility_capex_usd", [](const TimelineMonth& m) { return m.facilityCapex.value(); }},
    {"it_capex_usd", [](const TimelineMonth& m) { return m.itCapex.value(); }},
    {"replacement_capex_usd", [](const TimelineMonth& m) { return m.replacementCapex.value(); }},
    {"salvage_usd", [](const TimelineMonth& m) { return m.salvage.value(); }},
    {"opex_usd", [](const TimelineMonth& m) { return m.opex.value(); }},
    {"revenue_usd", [](const TimelineMonth& m) { return m.revenue.value(); }},
    {"depreciation_usd", [](const TimelineMonth& m) { return m.depreciation.value(); }},
    {"tax_usd", [](const TimelineMonth& m) { return m.tax.value(); }},
    {"terminal_value_usd", [](const TimelineMonth& m) { return m.terminalValue.value(); }},
    {"cash_flow_usd", [](const TimelineMonth& m) { return m.cashFlow.value(); }},
    {"cumulative_cash_usd", [](const TimelineMonth& m) { return m.cumulative.value(); }},
};

using detail::fmt; // cost/fixed_format.h

std::string dateText(const Timeline& t, int month) {
    const auto d = t.dateOf(month);
    return d ? d->iso().substr(0, 7) : "month " + std::to_string(month);
}

} // namespace

nlohmann::ordered_json timelineToJson(const Timeline& t) {
    nlohmann::ordered_json j;
    j["build_start"] = t.buildStart ? nlohmann::ordered_json(t.buildStart->iso()) : nlohmann::ordered_json();
    j["reference_month"] = t.referenceMonth;
    j["basis"] = "monthly timeline: months after the build start; NPV valued at the reference month "
                 "(build start + construction_months) at the WACC";
    auto& s = j["summary"];
    s["npv_usd"] = t.npv.value();
    s["irr"] = t.irr ? nlohmann::ordered_json(*t.irr) : nlohmann::ordered_json();
    s["peak_funding_usd"] = t.peakFunding.value();
    s["peak_funding_month"] = t.peakFundingMonth;
    s["payback_month"] = t.paybackMonth ? nlohmann::ordered_json(*t.paybackMonth) : nlohmann::ordered_json();
    s["interest_during_construction_usd"] = t.interestDuringConstruction.value();
    s["first_energisation_month"] = t.firstEnergisationMonth;
    s["full_energisation_month"] = t.fullEnergisationMonth;
    s["economic_refresh_age_years"] = t.economicRefreshAgeYears
                                          ? nlohmann::ordered_json(*t.economicRefreshAgeYears)
                                          : nlohmann::ordered_json();
    auto& phases = j["phases"] = nlohmann::ordered_json::array();
    for (const auto& p : t.phases) {
        nlohmann::ordered_json o;
        o["hall"] = p.input.hall;
        o["building"] = p.input.building;
        o["energisation_month"] = p.input.energisationMonth;
        if (const auto d = t.dateOf(p.input.energisationMonth)) o["energisation_date"] = d->iso();
        o["gpu_share"] = p.input.gpuShare;
        o["power_share"] = p.input.powerShare;
        o["refresh_policy"] = p.input.economicRefresh ? "economic" : "fixed_life";
        // Its GPU generation's prices; null: the design-wide assumption holds.
        o["rental_price_factor"] = p.input.rentalPriceFactor;
        const auto orNull = [](const std::optional<double>& v) {
            return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
        };
        o["rental_price_decay_per_year"] = orNull(p.input.rentalDecayPerYear);
        o["gpu_price_decline_per_year"] = orNull(p.input.gpuPriceDeclinePerYear);
        o["gpu_capex_share"] = p.input.gpuCapexShare;
        o["it_refresh_months"] = p.itRefreshMonths;
        o["interest_during_construction_usd"] = p.interestDuringConstruction.value();
        phases.push_back(std::move(o));
    }
    auto& months = j["months"] = nlohmann::ordered_json::array();
    for (const auto& m : t.months)
        months.push_back(timelineMonthToJson(t, m.month));
    return j;
}

nlohmann::ordered_json timelineMonthToJson(const Timeline& t, int month) {
    if (month < 0 || month >= static_cast<int>(t.months.size())) return nullptr;
    const auto& m = t.months[static_cast<std::size_t>(month)];
    nlohmann::ordered_json o;
    o["month"] = m.month;
    if (const auto d = t.dateOf(m.month)) o["date"] = d->iso();
    for (const auto& c : kColumns)
        o[c.name] = c.value(m);
    return o;
}

const Timeline& requireTimeline(const Results& results, const std::string& file) {
    if (results.timeline) return *results.timeline;
    std::string why;
    for (const auto& rule : results.rules)
        if (rule.severity == Severity::Error) why += "\n  " + rule.message;
    throw model::InputError(model::InputLocation{file, "", "", "", "timeline"},
                            "the timeline is not computed:" +
                                (why.empty() ? std::string(" no cash flows") : why));
}

int timelineMonthAt(const Timeline& t, const std::string& text, const std::string& file) {
    const auto date = model::parseCalendarDate(text);
    if (!date)
        throw model::InputError(model::InputLocation{"command line", "", "", "", "--at"},
                                model::calendarDateProblem(text));
    const auto month = t.monthOf(*date);
    if (!month)
        throw model::InputError(model::InputLocation{file, "", "", "", "project.build_start"},
                                "--at needs a dated timeline: the design sets no project.build_start");
    return *month;
}

std::string timelineToCsv(const Timeline& t) {
    std::vector<CsvCell> header = {"month", "date"};
    for (const auto& c : kColumns)
        header.emplace_back(c.name);
    std::string out = csvLine(header);
    for (const auto& m : t.months) {
        std::vector<CsvCell> row = {CsvCell::wholeNumber(static_cast<std::uint64_t>(m.month)),
                                    t.dateOf(m.month) ? t.dateOf(m.month)->iso() : std::string()};
        for (const auto& c : kColumns)
            row.push_back(CsvCell::number(c.value(m)));
        out += csvLine(row);
    }
    return out;
}

std::string timelineToText(const Timeline& t) {
    std::ostringstream s;
    s << "Time axis (monthly; months after the build start"
      << (t.buildStart ? ", " + t.buildStart->iso()
                       : std::string(", undated: set project.build_start for dates"))
      << "); reference delivery month " << t.referenceMonth << " (" << dateText(t, t.referenceMonth) << ")\n";
    s << "Phases (" << t.phases.size() << "):\n";
    const std::size_t shown = std::min<std::size_t>(t.phases.size(), 40);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& p = t.phases[i];
        s << "  " << p.input.hall << " (" << p.input.building << ")  energised "
          << dateText(t, p.input.energisationMonth) << ", " << fmt(100 * p.input.gpuShare, 1) << "% of GPUs, "
          << fmt(100 * p.input.powerShare, 1) << "% of IT power, refresh "
          << (p.input.economicRefresh ? "economic" : "fixed life");
        if (p.input.rentalDecayPerYear)
            s << ", rental price -" << fmt(100 * *p.input.rentalDecayPerYear, 0) << "%/yr";
        if (p.input.gpuPriceDeclinePerYear)
            s << ", GPU price -" << fmt(100 * *p.input.gpuPriceDeclinePerYear, 0) << "%/yr";
        if (!p.itRefreshMonths.empty()) s << ", first replaced " << dateText(t, p.itRefreshMonths.front());
        s << "\n";
    }
    if (shown < t.phases.size()) s << "  ... " << t.phases.size() - shown << " more (--json lists all)\n";
    s << "NPV (timeline, at the reference delivery)   $" << fmt(t.npv.value() / 1e6, 1) << "M\n";
    s << "IRR (XIRR of the monthly flows)             "
      << (t.irr ? fmt(100 * *t.irr, 2) + "%" : std::string("none (the flows do not change sign)")) << "\n";
    s << "Peak funding need                           $" << fmt(t.peakFunding.value() / 1e6, 1) << "M at "
      << dateText(t, t.peakFundingMonth) << "\n";
    s << "Payback (cumulative cash back to 0)         "
      << (t.paybackMonth ? dateText(t, *t.paybackMonth) : std::string("not within the horizon")) << "\n";
    s << "Interest during construction (phased)       $" << fmt(t.interestDuringConstruction.value() / 1e6, 1)
      << "M\n";
    s << "Energisation                                " << dateText(t, t.firstEnergisationMonth) << " to "
      << dateText(t, t.fullEnergisationMonth) << "\n";
    s << "Economic refresh age (at reference prices)  "
      << (t.economicRefreshAgeYears ? fmt(*t.economicRefreshAgeYears, 2) + " years"
                                    : std::string("never pays"))
      << "\n";
    s << "\n  year  to        IT MW   GPUs earning   revenue $M   opex $M   capex $M   cash $M   cumulative "
         "$M\n";
    for (std::size_t y0 = 0; y0 < t.months.size(); y0 += 12) {
        const std::size_t y1 = std::min(t.months.size(), y0 + 12);
        double revenue = 0, opex = 0, capex = 0, cash = 0;
        for (std::size_t m = y0; m < y1; ++m) {
            const auto& row = t.months[m];
            revenue += row.revenue.value(), opex += row.opex.value();
            capex += (row.facilityCapex + row.itCapex + row.replacementCapex).value();
            cash += (row.cashFlow - row.terminalValue).value();
        }
        const auto& last = t.months[y1 - 1];
        char line[200];
        std::snprintf(line, sizeof line, "  %4zu  %-8s %7.1f %14.0f %12.1f %9.1f %10.1f %9.1f %15.1f\n",
                      y0 / 12 + 1, dateText(t, last.month).c_str(), last.energisedItMw, last.gpusEarning,
                      revenue / 1e6, opex / 1e6, capex / 1e6, cash / 1e6, last.cumulative.value() / 1e6);
        s << line;
    }
    s << "  (cash excludes the terminal value, $"
      << fmt(t.months.empty() ? 0.0 : t.months.back().terminalValue.value() / 1e6, 1)
      << "M at the horizon)\n";
    return s.str();
}

std::string timelineMonthText(const Timeline& t, int month) {
    std::ostringstream s;
    if (month < 0 || month >= static_cast<int>(t.months.size())) {
        s << "at " << dateText(t, month) << " (timeline): outside the timeline (months 0.."
          << t.months.size() - 1 << ")\n";
        return s.str();
    }
    const auto& m = t.months[static_cast<std::size_t>(month)];
    const std::string at = "at " + dateText(t, month) + " (timeline, month " + std::to_string(month) + ")";
    s << at << "\n";
    s << "  Energised IT power (provisioned)   " << fmt(m.energisedItMw, 1) << " MW\n";
    s << "  Energised facility power (peak)    " << fmt(m.energisedFacilityMw, 1) << " MW\n";
    s << "  GPUs installed / earning           " << fmt(m.gpusInstalled, 0) << " / " << fmt(m.gpusEarning, 0)
      << "\n";
    s << "  Mean GPU-hour price sold           $" << fmt(m.meanGpuHourPrice, 2) << "\n";
    if (m.outputTokensPerS > 0)
        s << "  Output tokens/s (GPUs earning)     " << fmt(m.outputTokensPerS, 0) << "\n";
    s << "  Revenue / opex in the month        $" << fmt(m.revenue.value() / 1e6, 2) << "M / $"
      << fmt(m.opex.value() / 1e6, 2) << "M\n";
    s << "  Capex in the month                 $"
      << fmt((m.facilityCapex + m.itCapex + m.replacementCapex).value() / 1e6, 2) << "M\n";
    s << "  Cumulative cash (no terminal)      $" << fmt(m.cumulative.value() / 1e6, 1) << "M\n";
    return s.str();
}

} // namespace ctwin::cost
