#pragma once
#include "input_resolver.h"
#include "scenarios.h"

#include <QString>
#include <string>
#include <vector>

namespace ctwin::views {

/// One input's share of the gap between a figure at base (every input at its base value) and the centre
/// of its uncertainty distribution.
struct SkewDriver {
    std::string path; ///< override path of the input ("assumptions.utilization")
    QString label;    ///< "Utilization", "Electricity price of site-wi"
    double shift = 0; ///< expected change of the figure this input alone brings (figure's unit)
};

/// Which assumption ranges pull the uncertainty of a figure away from its base value.
///
/// cost::uncertainty draws each input from a triangular distribution (low a, mode = base c, high b). One
/// input alone moves the figure, in expectation, by
///     E[f(x)] - f(c) = [(c - a)(f(a) - f(c)) + (b - c)(f(b) - f(c))] / (3 (b - a))
/// when f is linear on each side of c (the tornado's two ends: outputAtLow = f(a), outputAtHigh = f(b)).
/// This follows from P(x < c) = (c - a)/(b - a) and E[x - c | x < c] = (a - c)/3 for the triangular law
/// (and the mirror image above c). It is 0 for a symmetric range with a linear response, and grows with
/// both the lopsidedness of the range around base and the input's tornado swing; a symmetric range on a
/// curved response (cost per GPU-hour goes as 1 / utilization) also shifts it. The sum over inputs is the
/// first-order shift of the mean from the base figure.
///
/// Returns every input with a range (`tornado.bars` matched to `inputs` by path for the base value c),
/// largest |shift| first. An end where the figure is undefined counts as no change.
std::vector<SkewDriver> skewDrivers(const cost::Tornado& tornado,
                                    const std::vector<cost::ResolvedInput>& inputs);

/// The drivers that push the same way as `direction` (P50 - base), largest first, each at least
/// `minShare` of the same-sign total, at most `limit`.
std::vector<SkewDriver> mainSkewDrivers(const std::vector<SkewDriver>& all, double direction,
                                        double minShare = 0.1, std::size_t limit = 3);

/// A readable name for an input path: "assumptions.utilization" -> "Utilization";
/// "sites.site-wi.electricity_usd_per_kwh" -> "Electricity price (site-wi)".
QString inputDisplayName(const std::string& path);

} // namespace ctwin::views
