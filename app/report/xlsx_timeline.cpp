#include "report/xlsx_timeline.h"

#include "timeline.h"

namespace ctwin::app::xlsx {

void writeTimelineSheet(Book& b, lxw_worksheet* ws, const cost::Timeline& t, const std::string& waccRef,
                        double wacc) {
    text(ws, 0, 0,
         "Time axis: monthly from the build start" +
             (t.buildStart ? " (" + t.buildStart->iso() + ")" : std::string(" (undated)")) +
             "; construction draws at mid-month, other capex at the month's start, operating flows, salvage "
             "and "
             "the terminal value at its end; present values at the reference month (cost/timeline.h)",
         b.bold);
    text(ws, 1, 0, "WACC");
    if (waccRef.empty())
        number(ws, 1, 1, wacc, b.percent);
    else
        formula(ws, 1, 1, "=" + waccRef, wacc, b.percent);
    text(ws, 2, 0, "Reference month (the steady state's delivery; NPV valued here)");
    number(ws, 2, 1, t.referenceMonth, b.input);
    const std::string w = cell(1, 1, true), ref = cell(2, 1, true);
    constexpr int kHeader = 6, kFirst = 7;
    const int last = kFirst + static_cast<int>(t.months.size()) - 1;
    headerRow(b, ws, kHeader,
              {"Month", "Date", "Energised IT MW (provisioned)", "GPUs earning", "GPU-hours sold",
               "Construction draws (mid-month)", "Other capex (month start)", "Salvage", "Revenue", "Opex",
               "Tax", "Terminal value", "Cash flow", "Cumulative (no terminal)", "Present value"});
    double cumulative = 0, npv = 0, minimum = 0;
    for (std::size_t i = 0; i < t.months.size(); ++i) {
        const auto& m = t.months[i];
        const int row = kFirst + static_cast<int>(i);
        const std::string r = std::to_string(row + 1);
        number(ws, row, 0, m.month, b.general);
        if (const auto d = t.dateOf(m.month)) text(ws, row, 1, d->iso());
        number(ws, row, 2, m.energisedItMw, b.decimal);
        number(ws, row, 3, m.gpusEarning, b.usd);
        number(ws, row, 4, m.gpuHours, b.usd);
        const double mid = m.drawsMidMonth.value();
        const double start = (m.facilityCapex + m.itCapex + m.replacementCapex).value() - mid;
        number(ws, row, 5, mid, b.usd);
        number(ws, row, 6, start, b.usd);
        number(ws, row, 7, m.salvage.value(), b.usd);
        number(ws, row, 8, m.revenue.value(), b.usd);
        number(ws, row, 9, m.opex.value(), b.usd);
        number(ws, row, 10, m.tax.value(), b.usd);
        number(ws, row, 11, m.terminalValue.value(), b.usd);
        const double end = (m.revenue + m.salvage + m.terminalValue - m.opex - m.tax).value();
        const double cash = end - mid - start;
        formula(ws, row, 12, "=I" + r + "+H" + r + "+L" + r + "-F" + r + "-G" + r + "-J" + r + "-K" + r, cash,
                b.usd);
        cumulative += cash - m.terminalValue.value();
        minimum = std::min(minimum, cumulative);
        formula(ws, row, 13, (i == 0 ? "=M" + r : "=N" + std::to_string(row) + "+M" + r) + "-L" + r,
                cumulative, b.usd);
        // (1 + WACC)^(-(t - reference)/12) at each flow's time: mid-month, start, end of month m.
        const auto df = [&](double months) {
            return std::pow(1.0 + wacc, -(months - t.referenceMonth) / 12.0);
        };
        const double pv = -mid * df(m.month + 0.5) - start * df(m.month) + end * df(m.month + 1.0);
        npv += pv;
        const std::string at = "(1+" + w + ")^(-(A" + r + "+%s-" + ref + ")/12)";
        auto factor = [&](const char* offset) {
            std::string f = at;
            f.replace(f.find("%s"), 2, offset);
            return f;
        };
        formula(ws, row, 14,
                "=-F" + r + "*" + factor("0.5") + "-G" + r + "*" + factor("0") + "+(I" + r + "+H" + r + "+L" +
                    r + "-J" + r + "-K" + r + ")*" + factor("1"),
                pv, b.usd);
    }
    text(ws, 3, 0, "NPV at the reference month (sum of the present values)");
    live(ws, 3, 1, "=SUM(O" + std::to_string(kFirst + 1) + ":O" + std::to_string(last + 1) + ")", npv,
         t.npv.value(), b.usdTotal);
    text(ws, 4, 0, "Peak funding need (deepest cumulative cash)");
    live(ws, 4, 1, "=-MIN(0,MIN(N" + std::to_string(kFirst + 1) + ":N" + std::to_string(last + 1) + "))",
         -minimum, t.peakFunding.value(), b.usdTotal);
    columnWidth(ws, 0, 0, 12);
    columnWidth(ws, 1, 1, 16);
    columnWidth(ws, 2, 14, 16);
    worksheet_freeze_panes(ws, static_cast<lxw_row_t>(kFirst), 2);
}

} // namespace ctwin::app::xlsx
